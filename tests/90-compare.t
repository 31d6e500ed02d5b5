#!/bin/bash
# The comparison harness (harness/compare.sh, `make compare`): the smoke
# experiment (stream's memory on node 0, its threads bound to node 1;
# AutoNUMA vs none, one short run each) gives a report with a row per
# variant, medians, ratios against the baseline and cost columns that tell
# the variants apart; bad experiment input is refused.
. "$(dirname "$0")/lib.sh"
out=$TOP/results/tests/compare
rm -rf "$out"
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT

check "compare.sh runs the smoke experiment" \
	eval '"$H/compare.sh" "$TOP/experiments/smoke-2node.conf" "$out" >"$tmp/out" 2>&1'
tail -12 "$tmp/out" | diag
md=$out/report.md
row() { grep -m1 "^| $1 |" "$md"; }	# the convergence table's row
check "report.md names the date, the commit and the kernel" \
	grep -Eq '^20[0-9-]+ .*project commit [0-9a-f]+.*Linux version' "$md"
check "one valid run of autonuma-lb" eval 'row autonuma-lb | grep -q "| 1 (1) |"'
check "one valid run of none, the baseline" eval 'row none | grep -q "| 1 (1) |" && grep -q "ratio to none" "$md"'
check "none never converges (the memory stays on node 0)" eval 'row none | grep -q "| never |"'
check "autonuma-lb converges (its memory follows)" eval 'row autonuma-lb | grep -Eq "^\| autonuma-lb \| 1 \(1\) \| [0-9.]+ \|"'
# columns: ... | ptes scanned | ptes/s | ...; autonuma-lb scans, none does not
scanned() { row "$1" | awk -F'|' '{ print $8 + 0 }'; }
check "ptes scanned: autonuma-lb $(scanned autonuma-lb) > 0, none $(scanned none)" \
	eval '[ "$(scanned autonuma-lb)" -gt 0 ] && [ "$(scanned none)" = 0 ]'
# stream's local= table, after the convergence table: "| variant | median % | runs |"
local_pct() { grep "^| $1 |" "$md" | sed -n 2p | awk -F'|' '{ print $3 + 0 }'; }
check "per-thread locality: autonuma-lb $(local_pct autonuma-lb)% >= 90, none $(local_pct none)% <= 10" \
	awk -v a="$(local_pct autonuma-lb)" -v n="$(local_pct none)" 'BEGIN { exit !(a >= 90 && n <= 10) }'
check "a plot per run" eval '[ "$(ls "$out"/defaults/*/plot/locality.svg | wc -l)" = 2 ]'

check_fails "a missing experiment is refused" "$H/compare.sh" "$tmp/none.conf" "$tmp/o"
printf 'TOPO=2node\nVARIANTS=(none)\n' >"$tmp/bad.conf"
check_fails "an experiment without a workload is refused" "$H/compare.sh" "$tmp/bad.conf" "$tmp/o"
check_fails "REPS=0 is refused" env REPS=0 "$H/compare.sh" "$TOP/experiments/smoke-2node.conf" "$tmp/o"
check "the report refuses a baseline that is not among the runs" eval \
	'! "$TOP/build/analysis/autonuma-report" -c -b upstream "$out"/defaults/*/trace.dat 2>"$tmp/err" >/dev/null &&
	 grep -q "baseline variant .upstream. is not among the runs" "$tmp/err"'
plan "$T"
exit $((FAILS > 0))
