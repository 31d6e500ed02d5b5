# Capture profile for `trace-cmd record` in the guest (guest/trace-workload.sh).
# One event per line: SYSTEM or SYSTEM:EVENT.  A leading "?" marks an event the
# kernel may lack (it is skipped with a note); any other missing event fails the
# run.  "buffer_kb N" sets trace-cmd's per-CPU buffer (-b).
buffer_kb 16384
# The AutoNUMA trace system (tracepoints/README.md has the reference).
autonuma
# Upstream NUMA balancing, for the comparison runs.
sched:sched_move_numa
sched:sched_swap_numa
sched:sched_stick_numa
# Every move of the workload's threads, for analysis/ (any variant).
sched:sched_migrate_task
migrate:mm_migrate_pages
