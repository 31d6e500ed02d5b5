#!/bin/bash
# Turn on one NUMA balancer in the guest, set knobs, then run the command.
#
# usage: balancer.sh VARIANT [/PATH=VALUE]... COMMAND...
# VARIANT, also exported as BALANCE_VARIANT (analysis/ groups runs by it):
#   none               neither (the kernel boots with numa_balancing=disable
#                      and AutoNUMA disabled)
#   autonuma           AutoNUMA, with the placement path the kernel booted
#                      with (BALANCE_VARIANT says which: autonuma-lb or
#                      autonuma-schedule)
#   autonuma-lb        AutoNUMA, placement from the periodic load balancer
#   autonuma-schedule  AutoNUMA, placement from schedule() (alpha10's)
#   upstream           upstream NUMA balancing (kernel.numa_balancing=1)
# An AutoNUMA variant with "+debug" (autonuma+debug) also logs each task
# move.  "@LABEL" after a variant (autonuma-lb@matched) appends to its name
# in BALANCE_VARIANT: a variant run with other knobs.  /PATH=VALUE writes VALUE to a sysfs, procfs or debugfs file first
# (a knob of an experiment); a failed write fails the run.
set -euo pipefail
A=/sys/kernel/mm/autonuma
variant=${1%%@*} label=
[[ $1 != *@* ]] || label=@${1#*@}
shift

while [ $# -gt 0 ] && [[ $1 == /*=* ]]; do
	path=${1%%=*} value=${1#*=}
	if [[ $path == /sys/kernel/debug/* ]] && ! mountpoint -q /sys/kernel/debug; then
		mount -t debugfs none /sys/kernel/debug
	fi
	echo "$value" > "$path" || { echo "balancer: cannot write $value to $path" >&2; exit 1; }
	shift
done

autonuma() {
	[ -w $A/enabled ] ||
		{ echo "balancer: this kernel has no AutoNUMA (noautonuma or one node?)" >&2; exit 1; }
	[ -z "$1" ] || echo "$1" > $A/scheduler/balance_mode
	[ "$2" != +debug ] || echo 1 > $A/debug
	echo 1 > $A/enabled
	BALANCE_VARIANT=autonuma-$(cat $A/scheduler/balance_mode)
}

case $variant in
none) BALANCE_VARIANT=none ;;
autonuma | autonuma+debug) autonuma "" "${variant#autonuma}" ;;
autonuma-lb | autonuma-lb+debug) autonuma lb "${variant#autonuma-lb}" ;;
autonuma-schedule | autonuma-schedule+debug) autonuma schedule "${variant#autonuma-schedule}" ;;
upstream)
	echo 1 > /proc/sys/kernel/numa_balancing
	BALANCE_VARIANT=upstream ;;
*)
	echo "balancer: unknown variant '$variant' (none, autonuma, autonuma-lb," \
		"autonuma-schedule, upstream)" >&2
	exit 1 ;;
esac
BALANCE_VARIANT=$BALANCE_VARIANT$label
echo "balancer: $variant ($BALANCE_VARIANT)"
export BALANCE_VARIANT
exec "$@"
