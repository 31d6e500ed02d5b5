#!/bin/bash
# Guest side of tests/50-autonuma-migrate.t: run the stream workload with its
# memory first touched on node 0 and its threads then bound to node 1, with
# AutoNUMA in the given state, and leave what the host checks in the run
# directory: stream.log (pages per node by move_pages(2), data check),
# vmstat.before/after, autonuma.before/after (AutoNUMA's sysfs counters) and
# threads (knuma_* kernel threads with their allowed CPUs).
#
# usage: autonuma-migrate.sh MODE STREAM-BINARY, MODE one of
#   enabled   AutoNUMA on (alpha10's knobs, 500 ms scan passes)
#   pte       the same with knuma_scand/pmd=0 (one fault per page)
#   disabled  AutoNUMA built in but off
#   mbind     on, stream's arrays mbind(2)ed to node 0
#   task      on, stream under set_mempolicy(2) to node 0
#   absent    no AutoNUMA (noautonuma, or one node)
#   churn     on, scanning without sleeps, while processes fork, exec and
#             exit by the hundred and AutoNUMA is switched off and on
set -euo pipefail
mode=$1 stream=$2
A=/sys/kernel/mm/autonuma

counters() {
	[ -d $A ] || return 0
	for f in knuma_scand/full_scans knuma_scand/pages_scanned knuma_migrated/pages_migrated; do
		echo "${f#*/} $(cat $A/$f)"
	done
}

if [ "$mode" != absent ]; then
	# Short passes so a few of them fit in the run; alpha10's other defaults.
	echo 500 > $A/knuma_scand/scan_sleep_pass_millisecs
	[ "$mode" = disabled ] || echo 1 > $A/enabled
fi
policy=()
case $mode in
mbind | task) policy=(-m "$mode") ;;
pte) echo 0 > $A/knuma_scand/pmd ;;
churn)
	echo 0 > $A/knuma_scand/scan_sleep_millisecs
	echo 0 > $A/knuma_scand/scan_sleep_pass_millisecs
	echo 1 > $A/knuma_migrated/migrate_sleep_millisecs ;;
esac

for comm in /proc/[0-9]*/comm; do
	read -r name < "$comm" || continue
	case $name in knuma_*)
		echo "$name $(sed -n 's/^Cpus_allowed_list:\s*//p' "${comm%comm}status")" ;;
	esac
done > threads
cat /proc/vmstat > vmstat.before
counters > autonuma.before
if [ "$mode" = churn ]; then
	"$stream" -p 2 -t 2 -s 32 -d 15 -b 0 -r 1 > stream.log &
	sleep 1
	stream_pid=$!
	for round in $(seq 10); do
		pids=()
		for i in $(seq 30); do
			/bin/true & pids+=($!)
			sh -c 'exec /bin/true' & pids+=($!)
		done
		wait "${pids[@]}"
		echo $((round % 2)) > $A/enabled
		sleep 0.5
	done
	echo 1 > $A/enabled
	wait $stream_pid
	cat stream.log
else
	"$stream" -p 1 -t 2 -s 96 -d 15 -b 0 -r 1 "${policy[@]}" | tee stream.log
fi
cat /proc/vmstat > vmstat.after
counters > autonuma.after
