# The default profile and the per-page autonuma_detail events: the
# batches' knuma_migrated ledger checked against the pages' (tests/70).
include default.profile
autonuma_detail
