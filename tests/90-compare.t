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
# col NAME VARIANT: VARIANT's cell under the column NAME of that table.
col() {
	awk -F' *[|] *' -v name="$1" -v v="$2" '
		/^[|] variant [|]/ && !c { for (i = 2; i < NF; i++) if ($i == name) c = i }
		c && $2 == v { print $c + 0; exit }' "$md"
}
check "report.md names the date, the commit and the kernel" \
	grep -Eq '^20[0-9-]+ .*project commit [0-9a-f]+.*Linux version' "$md"
check "one valid run of autonuma-lb" eval 'row autonuma-lb | grep -q "| 1 (1) |"'
check "one valid run of none, the baseline" eval 'row none | grep -q "| 1 (1) |" && grep -q "ratio to none" "$md"'
check "none never converges (the memory stays on node 0)" eval 'row none | grep -q "| never |"'
check "autonuma-lb converges (its memory follows)" eval 'row autonuma-lb | grep -Eq "^\| autonuma-lb \| 1 \(1\) \| [0-9.]+ \|"'
# autonuma-lb scans, none does not
check "ptes scanned: autonuma-lb $(col "ptes scanned" autonuma-lb) > 0, none $(col "ptes scanned" none)" \
	eval '[ "$(col "ptes scanned" autonuma-lb)" -gt 0 ] && [ "$(col "ptes scanned" none)" = 0 ]'
# stream's per-thread locality, from its last interval line before the stop
check "per-thread locality: autonuma-lb $(col "stream local %" autonuma-lb)% >= 90, none $(col "stream local %" none)% <= 10" \
	awk -v a="$(col "stream local %" autonuma-lb)" -v n="$(col "stream local %" none)" \
	'BEGIN { exit !(a >= 90 && n <= 10) }'
check "a plot per run, and the runs converged over time in one figure" eval \
	'[ "$(ls "$out"/defaults/*/plot/locality.svg | wc -l)" = 2 ] &&
	 xmllint --noout "$out/defaults-plot/convergence.svg" &&
	 grep -q "(defaults-plot/convergence.svg)" "$md"'

check "a missing experiment is refused" fails_with "no such experiment" "$H/compare.sh" "$tmp/none.conf" "$tmp/o"
printf 'TOPO=2node\nVARIANTS=(none)\n' >"$tmp/bad.conf"
check "an experiment without a workload is refused" fails_with "TOPO, WORKLOAD and VARIANTS must be set" \
	"$H/compare.sh" "$tmp/bad.conf" "$tmp/o"
check "REPS=0 is refused" fails_with "REPS=0: a positive number" \
	env REPS=0 "$H/compare.sh" "$TOP/experiments/smoke-2node.conf" "$tmp/o"
check "the report refuses a baseline that is not among the runs" eval \
	'! "$TOP/build/analysis/autonuma-report" -c -b upstream "$out"/defaults/*/trace.dat 2>"$tmp/err" >/dev/null &&
	 grep -q "baseline variant .upstream. is not among the runs" "$tmp/err"'

# What cannot be measured is reported and fails the comparison.
cat >"$tmp/fail.conf" <<'EOF2'
TOPO=2node
WORKLOAD="stream -p 1 -t 2 -s 16 -d 2 -b 0 -M"
VARIANTS=("none@bad /sys/kernel/mm/autonuma/no_such_knob=1" none)
BASELINE=none
EOF2
"$H/compare.sh" "$tmp/fail.conf" "$tmp/failed" >"$tmp/out" 2>&1
rc=$?
check "a failed boot: compare.sh exits non-zero ($rc)" test "$rc" != 0
check "... and report.md lists it with the guest's last words" \
	grep -q "failed boot left out: .*/none@bad-1: .*cannot write 1 to /sys/kernel/mm/autonuma/no_such_knob" \
	"$tmp/failed/report.md"
cp -r "$out" "$tmp/damaged"
head -c 4096 "$out/defaults/none-1/trace.dat" >"$tmp/damaged/defaults/none-1/trace.dat"
REPORT_ONLY=1 "$H/compare.sh" "$TOP/experiments/smoke-2node.conf" "$tmp/damaged" >"$tmp/out" 2>&1
rc=$?
check "an unreadable trace: compare.sh exits non-zero ($rc)" test "$rc" != 0
check "... report.md lists it, and still tables the readable run" eval \
	'grep -Eq "unreadable trace left out: .*none-1/trace.dat: .*(not a trace-cmd data file|damaged|cannot read)" "$tmp/damaged/report.md" &&
	 grep -q "^| autonuma-lb | 1 (1) |" "$tmp/damaged/report.md"'
REPORT_ONLY=1 "$H/compare.sh" "$TOP/experiments/smoke-2node.conf" "$out" >"$tmp/out" 2>&1
check "the same runs undamaged: compare.sh exits 0" test $? = 0
plan "$T"
exit $((FAILS > 0))
