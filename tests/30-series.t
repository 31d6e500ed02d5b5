#!/bin/bash
# The patch series as a series: every patch named by series/series exists, has
# the headers a kernel patch needs (From, Subject, a description, a
# Signed-off-by) and its provenance (alpha10's author, date and sign-off
# before the port's note and sign-off), and passes scripts/checkpatch.pl
# --strict with no error; a warning or check is kept only if its type is
# justified in CHANGES.md.  (That the series applies
# exactly is checked by `make kernel`, which `make check` runs first.)
. "$(dirname "$0")/lib.sh"
checkpatch=$TOP/build/linux/scripts/checkpatch.pl
mapfile -t patches < <("$H/series-list.sh" "$TOP/series/series")
# the justified types: CHANGES.md's list, not any mention of a type
kept=$(sed -n '/^checkpatch --strict warnings and checks kept/,/^## /p' "$TOP/CHANGES.md")
if [ ${#patches[@]} = 0 ]; then
	echo "1..0 # SKIP the series is empty"
	exit 0
fi
plan $((${#patches[@]} * 5))
for p in "${patches[@]}"; do
	f=$TOP/patches/$p
	check "$p: From, Subject, description and Signed-off-by" awk '
		/^From: ./ { from = 1 } /^Subject: ./ { subj = 1 }
		/^Signed-off-by: ./ { sob = 1 } /^---$/ { exit }
		subj && !/^(Subject|From|Date):/ && NF { desc++ }
		END { exit !(from && subj && sob && desc > 1) }' "$f"
	# Ported from alpha10 (From: its author), as backports are: alpha10's
	# date (git send-email's, 26 Mar 2012) and sign-off, then the port's
	# "[6.1 port: ...]" note and sign-off.  New patches: the port's alone.
	check "$p: provenance (author, date, sign-offs around the port's note)" awk '
		/^From: / { andrea = /Andrea Arcangeli/ } /^Date: / { date = $0 }
		/^---$/ { exit }
		/^Signed-off-by: Andrea Arcangeli/ { a = NR }
		/^\[6\.1 port/ && !note { note = NR }
		/^Signed-off-by: AutoNUMA 6\.1 port/ { port = NR }
		END { if (andrea) exit !(date ~ /26 Mar 2012/ && a && a < note && note < port)
		      exit !(port && !a) }' "$f"
	out=$("$checkpatch" --no-tree --strict --terse --show-types "$f" 2>&1)
	check "$p: checkpatch --strict finds no error" eval '! grep -q ": ERROR:" <<<"$out"'
	types=$(grep -Eo ': (WARNING|CHECK):[A-Z_]*:' <<<"$out" | cut -d: -f3 | sort -u)
	unjustified=$(for type in $types; do grep -q "^- \`$type\`\|and \`$type\`" <<<"$kept" || echo "$type"; done)
	check "$p: every checkpatch --strict warning and check is justified in CHANGES.md${unjustified:+ (not: $unjustified)}" \
		test -z "$unjustified"
	# Typed but undocumented is not enough for these: always fixed.
	check "$p: no undocumented __setup, no extern prototype in a header" \
		eval '! grep -Eq "UNDOCUMENTED_SETUP|AVOID_EXTERNS" <<<"$out"'
done
exit $((FAILS > 0))
