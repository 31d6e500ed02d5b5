#!/bin/bash
# Guest side of harness/lb-trigger-bench.sh: does the load balancer's
# placement run at the NUMA domain's own balance, and raise no softirq of
# its own?  In one boot, ROUNDS rounds; each measures SECONDS of a busy
# phase (stream, 2 x 2 threads: every CPU busy) and of an idle one (sleep),
# with AutoNUMA off, with the placement from the load balancer and from
# schedule() (the control: the same scanning, alpha10's trigger), the
# modes in a different order each round.  Counts per phase: placement
# passes (autonuma_balance_cost events), the NUMA domain's load_balance()
# runs on busy CPUs (/proc/schedstat's lb_count[CPU_NOT_IDLE] at the NUMA
# level, every CPU) and SCHED softirqs (/proc/softirqs, every CPU).
# One line per phase on stdout:
#   trigger: round=R mode=off|lb|schedule phase=busy|idle seconds=S passes=N numa_lb_busy=N sched_softirq=N
#
# usage: lb-trigger-rounds.sh ROUNDS SECONDS WORKLOADS-DIR
set -euo pipefail
A=/sys/kernel/mm/autonuma T=/sys/kernel/tracing D=/sys/kernel/debug
rounds=$1 secs=$2 w=$3
die() { echo "trigger: $*" >&2; exit 1; }
[ -w $A/enabled ] || die "this kernel has no AutoNUMA"
mountpoint -q $D || mount -t debugfs none $D
echo 1 > /proc/sys/kernel/sched_schedstats
echo 500 > $A/knuma_scand/scan_sleep_pass_millisecs
echo 1 > $T/events/autonuma/autonuma_balance_cost/enable
level=
for d in $D/sched/domains/cpu0/domain*; do
	[ "$(cat "$d/name")" != NUMA ] || { level=${d##*/}; break; }
done
[ -n "$level" ] || die "no NUMA sched domain on cpu0"

softirqs() { awk '$1 == "SCHED:" { for (i = 2; i <= NF; i++) s += $i } END { print s + 0 }' /proc/softirqs; }
# /proc/schedstat domain line: name, span, then 8 counters per idle type
# (CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE), lb_count first.
numa_lb_busy() { awk -v d="$level" '$1 == d { s += $11 } END { print s + 0 }' /proc/schedstat; }

set_mode() {
	case $1 in
	off) echo 0 > $A/enabled ;;
	lb | schedule) echo "$1" > $A/scheduler/balance_mode; echo 1 > $A/enabled ;;
	esac
}

phase() {
	local s0 l0
	echo > $T/trace
	s0=$(softirqs) l0=$(numa_lb_busy)
	case $3 in
	busy) "$w/stream" -p 2 -t 2 -s 32 -d "$secs" -b 0 >/dev/null || die "stream failed" ;;
	idle) sleep "$secs" ;;
	esac
	echo "trigger: round=$1 mode=$2 phase=$3 seconds=$secs" \
		"passes=$(grep -c 'autonuma_balance_cost:' $T/trace || true)" \
		"numa_lb_busy=$(($(numa_lb_busy) - l0)) sched_softirq=$(($(softirqs) - s0))"
}

for r in $(seq "$rounds"); do
	case $((r % 3)) in
	1) modes="off lb schedule" ;;
	2) modes="lb schedule off" ;;
	0) modes="schedule off lb" ;;
	esac
	for m in $modes; do
		set_mode "$m"
		phase "$r" "$m" busy
		phase "$r" "$m" idle
	done
done
