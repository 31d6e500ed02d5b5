#!/bin/bash
# Guest side of tests/50-autonuma-migrate.t: run the stream workload with its
# memory first touched on node 0 and its threads then bound to node 1, with
# AutoNUMA in the given state, and leave what the host checks in the run
# directory: stream.log (pages per node by move_pages(2), data check),
# vmstat.before/after, autonuma.before/after (AutoNUMA's sysfs counters) and
# threads (knuma_* kernel threads with their allowed CPUs).
#
# usage: autonuma-migrate.sh enabled|disabled|mbind|task|absent STREAM-BINARY
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
case $mode in mbind | task) policy=(-m "$mode") ;; esac

for comm in /proc/[0-9]*/comm; do
	read -r name < "$comm" || continue
	case $name in knuma_*)
		echo "$name $(sed -n 's/^Cpus_allowed_list:\s*//p' "${comm%comm}status")" ;;
	esac
done > threads
cat /proc/vmstat > vmstat.before
counters > autonuma.before
"$stream" -p 1 -t 2 -s 96 -d 15 -b 0 -r 1 "${policy[@]}" | tee stream.log
cat /proc/vmstat > vmstat.after
counters > autonuma.after
