#!/bin/bash
# Which NUMA balancer the kernel started with: one line for the host.
#   balancers: autonuma=1 numa_balancing=0   (autonuma=absent: no sysfs tree)
a=/sys/kernel/mm/autonuma/enabled
echo "balancers: autonuma=$(cat $a 2>/dev/null || echo absent) numa_balancing=$(cat /proc/sys/kernel/numa_balancing)"
