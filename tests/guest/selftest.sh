#!/bin/bash
# Guest side of the harness boot test (tests/10-boot.t), run in the current
# (results) directory:
#   nodes.txt  "nodeN CPULIST MEMTOTAL_KB" per online node
#   smt.txt    the SMT siblings of CPU 0
#   trace.dat  trace-cmd record of sched_process_exec around /bin/true, with a
#              trace_marker line "selftest-marker"
#   perf.log   a short `perf bench numa mem` run
set -euo pipefail
export TMPDIR=${TMPDIR:-/run/tmp}
for n in /sys/devices/system/node/node[0-9]*; do
	echo "$(basename "$n") $(cat "$n/cpulist") $(awk '/MemTotal/ {print $4}' "$n/meminfo")"
done > nodes.txt
cat nodes.txt
cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list > smt.txt

trace-cmd record -q -e sched:sched_process_exec -o "$TMPDIR"/trace.dat -- \
	sh -c 'echo selftest-marker > /sys/kernel/tracing/trace_marker; exec /bin/true'
cp "$TMPDIR"/trace.dat trace.dat

nodes=$(wc -l < nodes.txt)
perf bench numa mem -p "$nodes" -t 1 -P 16 -s 3 -m 2>&1 | tee perf.log
