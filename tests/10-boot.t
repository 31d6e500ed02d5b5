#!/bin/bash
# Boot tests of the harness on every topology: the guest sees the nodes and
# CPU lists of the topology file, trace-cmd records in the guest and the host
# reads the trace, and perf bench numa mem runs.  Then the failure paths: a
# job's exit status reaches the host, and a guest crash or hang fails the run.
. "$(dirname "$0")/lib.sh"
topos=(2node 4node 2node-smt 1node)
plan $((${#topos[@]} * 6 + 4))
runs=$TOP/results/tests/boot
mkdir -p "$runs"

for t in "${topos[@]}"; do
	r=$runs/$t
	check "$t: boots and runs the self-test" \
		eval 'TIMEOUT=300 guest "$t" "$r" "$TOP/tests/guest/selftest.sh"'
	NODES=""
	. "$TOP/qemu-configs/topology/$t.topo"
	want=$(for e in $NODES; do IFS=: read -r id cpus mem <<<"$e"; echo "node$id $cpus"; done)
	got=$(cut -d' ' -f1,2 "$r/nodes.txt" 2>/dev/null)
	check "$t: the guest sees the topology's nodes and CPU lists" test "$want" = "$got"
	# Each node's MemTotal is within 15% of what the topology gives it.
	check "$t: each node has the topology's memory" awk -v nodes="$NODES" '
		BEGIN { n = split(nodes, e, " "); for (i = 1; i <= n; i++) { split(e[i], f, ":");
			m = f[3] + 0; want["node" f[1]] = (f[3] ~ /G$/ ? m * 1048576 : m * 1024) } }
		{ if (!($1 in want) || $3 < 0.85 * want[$1] || $3 > want[$1]) bad = 1; seen++ }
		END { exit bad || seen != n }' "$r/nodes.txt"
	# CPU 0 has threads=N siblings (0, or 0-1 with 2 threads per core).
	threads=$(sed -n 's/.*threads=\([0-9]*\).*/\1/p' <<<"$SMP")
	want=0; [ "$threads" = 1 ] || want=0-$((threads - 1))
	check "$t: the guest sees $threads thread(s) per core" test "$(cat "$r/smt.txt" 2>/dev/null)" = "$want"
	rep=$(trace-cmd report "$r/trace.dat" 2>/dev/null)
	check "$t: the host reads the guest's trace (exec event and marker)" \
		eval 'grep -q "sched_process_exec:.*filename=/bin/true" <<<"$rep" && grep -q selftest-marker <<<"$rep"'
	check "$t: perf bench numa mem ran" grep -q "GB/sec,.*total-speed" "$r/perf.log"
done

TIMEOUT=120 "$H/boot.sh" 1node "$runs/status" 'exit 7' >/dev/null 2>&1
check "the job's exit status reaches the host" test $? = 7
check "a guest kernel crash fails the run, as a kernel error report" fails_with \
	"check-console: kernel error report" env TIMEOUT=120 "$H/boot.sh" 1node "$runs/crash" \
	"echo c > /proc/sysrq-trigger; sleep 5"
check "... naming the report" grep -q "Kernel panic" "$runs/crash/console.log"
check "a hung guest is killed at the timeout" fails_with "guest timed out after 15s" \
	env TIMEOUT=15 "$H/boot.sh" 1node "$runs/hang" "sleep 600"
exit $((FAILS > 0))
