#!/bin/bash
# analysis/autonuma-report on real traces (tests/05 has the unit tests):
# damaged copies (truncated, overwritten: a message and a non-zero exit,
# never a crash or a hang), the fuzz targets, and a cross-check on a run:
# 2node, stream's memory first touched on node 0, its threads then on
# node 1, AutoNUMA with 500 ms scan passes, recorded by guest/trace-workload.sh.  The final share of pages on node 1 the analysis
# reports must match what move_pages(2) saw in the guest within 2 points.
. "$(dirname "$0")/lib.sh"
A=$TOP/build/analysis
R=$A/autonuma-report
runs=$TOP/results/tests/analysis
r=$runs/cross
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$runs"

check "2node: stream under trace-workload (AutoNUMA, 500 ms passes)" eval 'TIMEOUT=400 guest 2node "$r" \
	"$TOP/guest/balancer.sh" autonuma /sys/kernel/mm/autonuma/knuma_scand/scan_sleep_pass_millisecs=500 \
	"$TOP/guest/trace-workload.sh" "$TOP/tracepoints/profiles/default.profile" \
	"$TOP/build/workloads/stream" -p 1 -t 2 -s 96 -d 20 -b 0 -r 1 -M'
"$R" -f json -p "$r/plot" "$r/trace.dat" >"$r/report.json" 2>"$r/report.err"
check "the report of the real run is valid (exit 0)" test $? = 0
"$R" "$r/trace.dat" >"$r/report.txt" 2>&1
diag <"$r/report.txt"
check "it names the variant autonuma-lb" grep -q '"variant": "autonuma-lb"' "$r/report.json"
check "the process converged (a time, not never)" \
	grep -Eq '^ *[0-9]+ stream .* [0-9.]+ s$' "$r/report.txt"
check "the plot was drawn" test -s "$r/plot/locality.svg"

# Final share of pages on node 1: the analysis vs move_pages in the guest.
ours=$(python3 -c 'import json, sys
p = [p for p in json.load(open(sys.argv[1]))["processes"] if p["comm"] == "stream"][0]
print("%.1f" % (100.0 * p["pages"][1] / sum(p["pages"])))' "$r/report.json" 2>/dev/null)
theirs=$(stream_done "$r/workload.log" nodes | node_share 1)
check "final locality on node 1: analysis ${ours:-?}% vs move_pages ${theirs:-?}%, within 2 points" \
	awk -v a="${ours:--100}" -v b="${theirs:-100}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 2 && b > 50) }'

# The kernel-event measure (-K) against numa-sample's on the same run, on 2
# and 4 nodes: when each first saw the process converged (its working
# threads on one node, >= 90% of its pages there).  The kernel samples a
# process once per knuma_scand pass (P apart), counting pages over the pass
# that ends there, so it may see it up to 2P late; and the two sample on
# different grids: |kernel - numa-sample| <= 2P + 1 s.  Whether it then
# held to the end is not compared: the two count different threads as
# working (numa-sample by CPU time, so stream's sampling main thread, which
# is not bound, is one; the kernel by hinting faults), so one brief trip of
# that thread to another node moves numa-sample's held convergence alone.
# cross_check NAME TRACE: "ns k P measure held": the first convergence by
# numa-sample and by the kernel, P, -K's measure, its held convergence.
cross_check() {
	"$R" -f json "$2" >"$runs/$1.ns.json" 2>/dev/null
	"$R" -K -f json "$2" >"$runs/$1.k.json" 2>/dev/null
	python3 - "$runs/$1.ns.json" "$runs/$1.k.json" <<'PY'
import json, statistics, sys
ns, k = (json.load(open(f)) for f in sys.argv[1:3])
pns, pk = ([p for p in run["processes"] if p["mib"] > 50][0] for run in (ns, k))
gaps = [b[0] - a[0] for a, b in zip(pk["samples"], pk["samples"][1:])]
print(pns["first_converged_s"], pk["first_converged_s"],
      round(statistics.median(gaps), 2) if gaps else None, k["measure"], k["convergence_s"])
PY
}
# agree NS K P: both converged, within 2P + 1 s.
agree() { awk -v ns="$1" -v k="$2" -v p="$3" 'BEGIN { d = k - ns; if (d < 0) d = -d
	exit !(ns != "None" && k != "None" && p != "None" && d <= 2 * p + 1) }'; }
check "4node: stream's memory on node 0, its threads on node 2 (AutoNUMA, 500 ms passes)" \
	eval 'TIMEOUT=400 guest 4node "$runs/cross4" \
	"$TOP/guest/balancer.sh" autonuma /sys/kernel/mm/autonuma/knuma_scand/scan_sleep_pass_millisecs=500 \
	"$TOP/guest/trace-workload.sh" "$TOP/tracepoints/profiles/default.profile" \
	"$TOP/build/workloads/stream" -p 1 -t 2 -s 96 -d 20 -b 0 -r 2 -M'
for run in cross cross4; do
	read -r ns k p measure held <<<"$(cross_check "$run" "$runs/$run/trace.dat")"
	check "$run: first converged by the kernel measure ${k:-?} s against numa-sample ${ns:-?} s, pass ${p:-?} s: within 2P + 1 s" \
		agree "$ns" "$k" "$p"
	check "$run: ... and held to the end by the kernel measure (${held:-?} s)" \
		eval 'test -n "$held" && test "$held" != None'
	# if not, what each measure saw: the last samples (s, locality %, threads home %)
	agree "$ns" "$k" "$p" || python3 - "$runs/$run.ns.json" "$runs/$run.k.json" <<'PY' | diag
import json, sys
for f in sys.argv[1:3]:
    for p in json.load(open(f))["processes"]:
        print(f.rsplit(".", 2)[-2], p["tgid"], p["convergence_s"],
              [[round(x, 2) for x in s[:3] if x is not None] for s in p["samples"][-6:]])
PY
done
check "... and -K says it measured by the kernel's events" test "$measure" = kernel

# A plain `trace-cmd record -e autonuma` of a workload the harness did not
# launch (no numa-sample): measured by the kernel's events, it converges.
check "2node: a plain trace-cmd record -e autonuma of stream" eval 'TIMEOUT=400 guest 2node "$runs/plain" \
	"$TOP/guest/balancer.sh" autonuma /sys/kernel/mm/autonuma/knuma_scand/scan_sleep_pass_millisecs=500 \
	"$TOP/tests/guest/plain-record.sh" "$TOP/build/workloads/stream" -p 1 -t 2 -s 96 -d 20 -b 0 -r 1'
"$R" "$runs/plain/trace.dat" >"$runs/plain/report.txt" 2>&1
rc=$?
diag <"$runs/plain/report.txt"
check "its report is valid (exit $rc), by the kernel's events" eval \
	'test $rc = 0 && grep -q "^measure: kernel events" "$runs/plain/report.txt"'
check "the process converged, its accesses local at the end" \
	grep -Eq '^ *[0-9]+ - .* (9[0-9]|100)\.[0-9]% +[0-9.]+ s$' "$runs/plain/report.txt"

# Damaged copies of the real trace: cut short, or bytes overwritten.
size=$(stat -c %s "$r/trace.dat")
for cut in 64 4096 $((size / 2)); do
	head -c "$cut" "$r/trace.dat" >"$tmp/cut.dat"
	check "truncated to $cut of $size bytes: a clear error" \
		rejected "not a trace-cmd data file\|damaged\|cannot read" "$R" "$tmp/cut.dat"
done
# The end of the file is the last CPU's last page, padded: cutting into the
# padding loses nothing, so the report is the same or the file is refused.
head -c $((size - 100)) "$r/trace.dat" >"$tmp/cut.dat"
check "100 bytes cut off the end: the same report, or a clear error" eval \
	'rejected "damaged\|cannot read" "$R" "$tmp/cut.dat" ||
	 cmp -s <("$R" "$tmp/cut.dat" | tail -n +2) <(tail -n +2 "$r/report.txt")'
damaged=0 crashed=0
for off in 0 8 16 100 1000 5000 20000 $((size / 3)) $((size / 2)) $((size - 4096)); do
	cp "$r/trace.dat" "$tmp/bad.dat"
	printf '\377\377\377\377\377\377\377\377' | dd of="$tmp/bad.dat" bs=1 seek="$off" conv=notrunc 2>/dev/null
	timeout 120 "$R" "$tmp/bad.dat" >/dev/null 2>"$tmp/err"
	rc=$?
	case $rc in
	0 | 3) ;;
	1) damaged=$((damaged + 1)) ;;
	*) crashed=$((crashed + 1)); echo "offset $off:" | diag; head -3 "$tmp/err" | diag ;;
	esac
done
check "10 damaged copies: no crash, no hang ($damaged rejected)" test "$crashed" = 0

# The fuzz targets build and find nothing in a few seconds each, seeded
# with the real run's trace (harness/fuzz.sh; longer runs: see README).
"$H/fuzz.sh" "$tmp/fuzz" 5 "$r/trace.dat" >"$tmp/fuzz.log" 2>&1
fuzz_rc=$?
diag <"$tmp/fuzz.log"
check "fuzz-trace, fuzz-records, fuzz-markers: 5 s each, no finding" \
	eval 'test $fuzz_rc = 0 && test "$(grep -c "^fuzz-.*: [1-9][0-9]* executions" "$tmp/fuzz.log")" = 3'

plan "$T"
exit $((FAILS > 0))
