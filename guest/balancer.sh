#!/bin/bash
# Turn on one NUMA balancer in the guest, then run the command.
#
# usage: balancer.sh none|autonuma|autonuma+debug|numa_balancing COMMAND...
#   none            neither (the kernel boots with numa_balancing=disable
#                   and AutoNUMA disabled)
#   autonuma        echo 1 > /sys/kernel/mm/autonuma/enabled
#   autonuma+debug  the same, with AutoNUMA's debug messages (each task move)
#   numa_balancing  sysctl kernel.numa_balancing=1 (upstream)
set -euo pipefail
mode=$1
shift
case $mode in
none) ;;
autonuma | autonuma+debug)
	[ -w /sys/kernel/mm/autonuma/enabled ] ||
		{ echo "balancer: this kernel has no AutoNUMA (noautonuma or one node?)" >&2; exit 1; }
	[ "$mode" = autonuma ] || echo 1 > /sys/kernel/mm/autonuma/debug
	echo 1 > /sys/kernel/mm/autonuma/enabled ;;
numa_balancing) echo 1 > /proc/sys/kernel/numa_balancing ;;
*) echo "balancer: unknown balancer '$mode' (none, autonuma, numa_balancing)" >&2; exit 1 ;;
esac
echo "balancer: $mode"
exec "$@"
