#!/bin/bash
# Guest side of harness/hotpath-bench.sh: what AutoNUMA costs the scheduler's hot
# paths.  In one boot, ROUNDS rounds; each runs `perf bench sched pipe`
# (both tasks on CPU 0: a context switch per message, each one a pass of
# the schedule() placement) and `perf bench sched messaging` (40 tasks on
# all CPUs) once per mode: off (AutoNUMA disabled), lb and schedule
# (AutoNUMA enabled, placement from that path), the modes in a different
# order each round so that drift spreads over all of them.  knuma_scand
# passes every 0.5 s, so that the benchmarks' tasks have NUMA statistics
# within a second and the placement does its whole work, not its early exit.
# One line per measurement on stdout:
#   hotpath: round=R mode=MODE bench=pipe|messaging value=V
# V: usecs/op for pipe, seconds for messaging; lower is better.
#
# usage: hotpath-rounds.sh ROUNDS PIPE_LOOPS MESSAGING_LOOPS
set -euo pipefail
A=/sys/kernel/mm/autonuma
rounds=$1 pipe_loops=$2 msg_loops=$3
[ -w $A/enabled ] || { echo "hotpath: this kernel has no AutoNUMA" >&2; exit 1; }
echo 500 > $A/knuma_scand/scan_sleep_pass_millisecs

set_mode() {
	case $1 in
	off) echo 0 > $A/enabled ;;
	lb | schedule) echo "$1" > $A/scheduler/balance_mode; echo 1 > $A/enabled ;;
	esac
	sleep 1
}

# bench MODE ROUND: one run of each benchmark.
bench() {
	local v
	v=$(taskset -c 0 perf bench sched pipe -l "$pipe_loops" | awk '$2 == "usecs/op" { print $1 }')
	[ -n "$v" ] || { echo "hotpath: perf bench sched pipe printed no usecs/op" >&2; exit 1; }
	echo "hotpath: round=$2 mode=$1 bench=pipe value=$v"
	v=$(perf bench sched messaging -g 2 -l "$msg_loops" | awk '/Total time:/ { print $3 }')
	[ -n "$v" ] || { echo "hotpath: perf bench sched messaging printed no time" >&2; exit 1; }
	echo "hotpath: round=$2 mode=$1 bench=messaging value=$v"
}

modes=(off lb schedule)
for r in $(seq "$rounds"); do
	for i in 0 1 2; do
		m=${modes[(i + r) % 3]}
		set_mode "$m"
		bench "$m" "$r"
	done
done
set_mode off
