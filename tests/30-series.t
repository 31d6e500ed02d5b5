#!/bin/bash
# The patch series as a series: every patch named by series/series exists, has
# the headers a kernel patch needs (From, Subject, a description, a
# Signed-off-by), and passes scripts/checkpatch.pl with no error; a warning is
# kept only if its type is justified in CHANGES.md.  (That the series applies
# exactly is checked by `make kernel`, which `make check` runs first.)
. "$(dirname "$0")/lib.sh"
checkpatch=$TOP/build/linux/scripts/checkpatch.pl
mapfile -t patches < <("$H/series-list.sh" "$TOP/series/series")
if [ ${#patches[@]} = 0 ]; then
	echo "1..0 # SKIP the series is empty"
	exit 0
fi
plan $((${#patches[@]} * 3))
for p in "${patches[@]}"; do
	f=$TOP/patches/$p
	check "$p: From, Subject, description and Signed-off-by" awk '
		/^From: ./ { from = 1 } /^Subject: ./ { subj = 1 }
		/^Signed-off-by: ./ { sob = 1 } /^---$/ { exit }
		subj && !/^(Subject|From|Date):/ && NF { desc++ }
		END { exit !(from && subj && sob && desc > 1) }' "$f"
	out=$("$checkpatch" --no-tree --terse --show-types "$f" 2>&1)
	check "$p: checkpatch finds no error" eval '! grep -q ": ERROR:" <<<"$out"'
	unjustified=$(grep -o ': WARNING:[A-Z_]*:' <<<"$out" | cut -d: -f3 | sort -u |
		while read -r type; do grep -q "\`$type\`" "$TOP/CHANGES.md" || echo "$type"; done)
	check "$p: every checkpatch warning is justified in CHANGES.md${unjustified:+ (not: $unjustified)}" \
		test -z "$unjustified"
done
exit $((FAILS > 0))
