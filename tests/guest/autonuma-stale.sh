#!/bin/bash
# Guest side of tests/60's stale-node check, placement from the load
# balancer.  A one-thread stream (memory on node 0) runs until AutoNUMA
# has chosen its node; then it is stopped and continued by a kill(1) on a
# CPU of each node in turn: a wakeup from the other node than the task's
# is refused for wake-affine (an autonuma_cfs wake_affine event, prefer=0)
# while the choice is fresh (continued once stopped), and not once the load
# balancer has not renewed it for a while (stopped 3 s: the task did not
# run, so it was not evaluated).  Prints the refusals of each phase:
#   autonuma-stale: fresh=N stale=N
# usage: autonuma-stale.sh WORKLOADS-DIR
set -euo pipefail
A=/sys/kernel/mm/autonuma T=/sys/kernel/tracing
w=$1
echo lb > $A/scheduler/balance_mode
echo 200 > $A/knuma_scand/scan_sleep_pass_millisecs
echo 1 > $A/enabled
"$w/stream" -p 1 -t 1 -s 64 -d 40 -b 0 >/dev/null &
sleep 10
# stream forks its processes: the one that runs is the child
s=$(pgrep -P $! | head -1)
[ -n "$s" ] || { echo "autonuma-stale: no stream process" >&2; exit 1; }
first_cpu() { cut -d, -f1 /sys/devices/system/node/node$1/cpulist | cut -d- -f1; }

# stop_cont PID PAUSE: stop PID, wait until each of its threads is stopped
# and PAUSE s more, continue it; bash builtins only (no exec while
# stopped: under TCG one takes a good part of a second).
stop_cont() {
	local t k v
	exec 9<> <(:)	# read -t on it: a sleep that yields the CPU
	kill -STOP "$1"
	for t in /proc/"$1"/task/*; do
		while :; do
			while read -r k v; do [ "$k" != State: ] || break; done <"$t/status"
			[[ $v != T* ]] || break
			read -r -t 0.01 -u 9 || true
		done
	done
	[ "$2" = 0 ] || read -r -t "$2" -u 9 || true
	# the events of CONT's wakeups only: STOP wakes sleeping threads too
	echo 1 > /sys/kernel/tracing/events/autonuma/autonuma_cfs/enable
	kill -CONT "$1"
}
export -f stop_cont

# wake PAUSE: stop the stream for PAUSE s and continue it from node 0's
# first CPU, then from node 1's; print the wake-affine refusals of its
# threads
wake() {
	echo > $T/trace
	for n in 0 1; do
		taskset -c "$(first_cpu $n)" bash -c 'stop_cont "$@"' sh $s "$1"
		sleep 0.05
		echo 0 > $T/events/autonuma/autonuma_cfs/enable
	done
	tids=$(ls /proc/$s/task | tr '\n' '|')
	grep -E "autonuma_cfs: pid=(${tids%|}) .*site=wake_affine prefer=0" $T/trace |
		sed 's/^/autonuma-stale: pause '"$1"': /' >&2 || true
	grep -cE "autonuma_cfs: pid=(${tids%|}) .*site=wake_affine prefer=0" $T/trace || true
}
echo "autonuma-stale: stream $s, threads $(ls /proc/$s/task | tr '\n' ' ')" >&2
# the control: a fresh node refuses; up to 3 tries (the task must have
# been evaluated just before it was stopped)
for _ in 1 2 3; do
	fresh=$(wake 0)
	[ "$fresh" = 0 ] || break
	sleep 1
done
stale=$(wake 3)
kill $s || true
echo "autonuma-stale: fresh=$fresh stale=$stale"
