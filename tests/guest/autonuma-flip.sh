#!/bin/bash
# Guest side of tests/60's path switch: switch AutoNUMA's placement between
# the load balancer and schedule() every 0.2 s while COMMAND runs, then
# leave it on the load balancer.  Exit status: COMMAND's.
# usage: autonuma-flip.sh COMMAND...
set -uo pipefail
mode=/sys/kernel/mm/autonuma/scheduler/balance_mode
"$@" &
pid=$!
n=0
while kill -0 $pid 2>/dev/null; do
	if [ $((n % 2)) = 0 ]; then echo schedule > $mode; else echo lb > $mode; fi
	n=$((n + 1))
	sleep 0.2
done
echo lb > $mode
echo "autonuma-flip: $n switches"
wait $pid
