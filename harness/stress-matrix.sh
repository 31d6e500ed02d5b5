#!/bin/bash
# Reliability matrix: every scenario of tests/guest/stress-scenario.sh in
# both placement paths, on the kernel in KERNEL (the debug kernel: `make stress`), each in
# its own boot under trace-cmd; then `noautonuma` and the one-node topology.
# A run passes when the guest's scenario passes, the console has no kernel
# error report (boot.sh), no event was lost, and the knuma_migrated ledger
# balances: entries queued (the hinting faults' actions) = isolated +
# dropped (by reason, the batches' counts) + still queued, with none still
# queued (AutoNUMA is enabled and disabled inside the trace, so queues
# start and end empty), and the pages the batches isolated are migrated +
# failed.  Prints the
# matrix with durations; fails if a run did.
#
# usage: stress-matrix.sh OUTDIR [SCENARIO...]   (default: all)
#        KMEMLEAK="SCENARIO..." the scenarios scanned by kmemleak (default all)
#        STRESS_PATHS=both (default) | alternate: each scenario in one path,
#        lb and schedule in turn, half the time (CI)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
shift
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(churn mm mmbase policy hotplug pressure knobs switch oom exec fragment memoffline)
report=${REPORT:-$top/build/analysis/autonuma-report}
w=${WORKLOADS:-$top/build/workloads}
profile=$top/tracepoints/profiles/default.profile
# KMEMLEAK: the scenarios booted with kmemleak on and scanned at their end
# ("all", the default, or names).  kmemleak makes every slab allocation
# slow enough under TCG that ACPI's PCI interrupt routing (_PRT) runs into
# AML's 30 s loop timeout and the virtio devices get no interrupt: those
# boots route them by the PIRQ table instead.
kmemleak_for=" ${KMEMLEAK-all} "
case ${STRESS_PATHS:-both} in
both | alternate) ;;
*) echo "stress-matrix: STRESS_PATHS=$STRESS_PATHS: both or alternate" >&2; exit 2 ;;
esac
mkdir -p "$out"
failed=0
matrix=$out/matrix.md
printf '| scenario | path | seconds | result | knuma_migrated ledger |\n|---|---|---|---|---|\n' >"$matrix"

# ledger JSON: "ok: ..." or "BROKEN: ..."
ledger() {
	python3 - "$1" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["cost"]
q, by = c["ledger"]["queued"], c["ledger"]["dequeued"]
d = sum(by.values())
biso, mig, fail = c["ledger"]["isolated"], c["autonuma_migrated"], c["autonuma_migrate_failed"]
dropped = {k: v for k, v in by.items() if k != "isolated" and v}
text = "%d queued = %d isolated + %d dropped (%s) + %d still queued; %d pages isolated = %d migrated + %d failed" % (
    q, by["isolated"], sum(dropped.values()), " ".join("%s %d" % kv for kv in dropped.items()) or "none",
    q - d, biso, mig, fail)
# migrate_on_fault: pages isolated by faults = migrated + failed by them, but
# for the faults still migrating when the trace stopped (64 pages each)
f = c["fault_migrate"]
flight = f["by_faults"] - f["isolated"]
text += "; faults: %d pages isolated = %d migrated + %d failed + %d in flight" % (
    f["by_faults"], f["migrated"], f["failed"], flight)
bad = (r["invalid_reason"] or "").startswith("bad input")
ok = (q == d and biso == mig + fail and f["isolated"] == f["migrated"] + f["failed"]
      and 0 <= flight <= 64 * max(r["cpus"], 1) and r["lost_events"] == 0 and not bad)
print(("ok: " if ok else "BROKEN: ") + text + ("" if r["lost_events"] == 0 else ", %d events lost" % r["lost_events"])
      + (", " + r["invalid_reason"] if bad else ""))
EOF
}

row() {
	echo "| $1 | $2 | $3 | $4 | $5 |" >>"$matrix"
	echo "stress: $1 ($2): $4 in $3 s; $5"
}

# failed runs' directories, for the details printed after the matrix
failed_dirs=()
declare -A seen
n=0
for s in "${scenarios[@]}"; do
	# a scenario named twice runs twice, into its own directories
	seen[$s]=$((${seen[$s]:-0} + 1))
	paths=(lb schedule)
	[ "${STRESS_PATHS:-both}" = both ] || paths=("${paths[n % 2]}")
	n=$((n + 1))
	for path in "${paths[@]}"; do
		dir=$out/$s-$path
		[ "${seen[$s]}" = 1 ] || dir=$dir-${seen[$s]}
		start=$(date +%s)
		result=ok led=-
		topo=2node
		# a small node fills (pressure) and fragments (fragment) fast
		[ "$s" != pressure ] && [ "$s" != fragment ] || topo=2node-512m
		append=
		[ "$s" != memoffline ] || { topo=2node-hotmem append=memhp_default_state=online_movable; }
		leakcheck=0
		if [ "$kmemleak_for" = " all " ] || [[ $kmemleak_for == *" $s "* ]]; then
			leakcheck=1 append="$append kmemleak=on pci=noacpi"
		fi
		allow_oom=0
		[ "$s" != oom ] || allow_oom=1	# its OOM report's call trace is expected
		if ! APPEND="${APPEND:-} $append" CONSOLE_ALLOW_OOM=$allow_oom TIMEOUT=${TIMEOUT:-600} \
			"$top/harness/boot.sh" "$topo" "$dir" \
			env BALANCE_VARIANT="autonuma-$path" STRESS_KMEMLEAK=$leakcheck "$top/guest/trace-workload.sh" "$profile" \
			"$top/tests/guest/stress-scenario.sh" "$s" "$path" "$w" >"$dir.log" 2>&1; then
			result="FAILED ($(grep -h -m1 -E 'FAILED|BUG|WARNING|lockdep|KASAN|timeout|failed' \
				"$dir.log" "$dir/stress.log" 2>/dev/null | head -1 | cut -c1-100 || true))"
		fi
		# the ledger, of a failed run too when it left a trace (its
		# report then says "invalid": the workload failed)
		if [ "$result" = ok ] || [ -s "$dir/trace.dat" ]; then
			rrc=0
			"$report" -f json "$dir/trace.dat" >"$dir/report.json" 2>"$dir/report.err" || rrc=$?
			[ "$rrc" = 0 ] || [ "$result" != ok ] ||
				result="FAILED (report: $(head -c 80 "$dir/report.err"))"
			if [ -s "$dir/report.json" ] && led=$(ledger "$dir/report.json" 2>/dev/null); then
				[[ $led == ok:* ]] || [ "$result" != ok ] || result=FAILED
			else
				led=-
			fi
		fi
		[ "$result" = ok ] || { failed=$((failed + 1)); failed_dirs+=("$dir"); }
		row "$s" "$path" $(($(date +%s) - start)) "$result" "$led"
	done
done

# AutoNUMA absent: its sysfs tree, threads and queues must not exist, and
# stream must run as without it.
for case in noautonuma:2node 1node:1node; do
	name=${case%%:*} topo=${case#*:}
	dir=$out/$name
	start=$(date +%s)
	result=ok
	APPEND="${APPEND:-} $([ "$name" = noautonuma ] && echo noautonuma)" \
		TIMEOUT=${TIMEOUT:-600} "$top/harness/boot.sh" "$topo" "$dir" \
		"$top/tests/guest/autonuma-sysfs.sh" absent >"$dir.log" 2>&1 &&
		TIMEOUT=${TIMEOUT:-600} "$top/harness/boot.sh" "$topo" "$dir-stream" \
		"$w/stream" -p 2 -t 1 -s 64 -d 10 >"$dir-stream.log" 2>&1 ||
		{ result=FAILED; failed=$((failed + 1)); }
	row "$name" - $(($(date +%s) - start)) "$result" "-"
done

echo
cat "$matrix"
# The matrix' cells are short: the end of each failed run's own log.
for dir in "${failed_dirs[@]}"; do
	echo
	echo "== ${dir#"$out"/}: the end of stress.log and the console's errors"
	tail -n 12 "$dir/stress.log" 2>/dev/null || true
	grep -h -m5 -E 'BUG|WARNING|lockdep|KASAN|Oops|timeout' "$dir.log" "$dir/console.log" 2>/dev/null || true
done >&2
[ "$failed" = 0 ] || { echo "stress: $failed run(s) failed" >&2; exit 1; }
