#!/bin/bash
# The series with AutoNUMA off: with CONFIG_NUMA=n its hooks' objects
# compile; with CONFIG_AUTONUMA=n (make check builds build/obj-noautonuma)
# it boots clean, has no AutoNUMA, and upstream NUMA balancing still moves a
# process's memory to the node it runs on.
. "$(dirname "$0")/lib.sh"

# CONFIG_NUMA=n (so no AutoNUMA either): the objects of the series' hooks
# that such a kernel builds compile (tinyconfig + SMP, build/obj-nonuma).
nonuma() {
	local obj=$TOP/build/obj-nonuma src=$TOP/build/linux
	mkdir -p "$obj"
	make -s -C "$src" O="$obj" ARCH=x86_64 tinyconfig >/dev/null &&
	printf 'CONFIG_64BIT=y\nCONFIG_SMP=y\n# CONFIG_NUMA is not set\n' > "$obj/nonuma.config" &&
	KCONFIG_CONFIG=$obj/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "$obj/nonuma.config" >/dev/null &&
	make -s -C "$src" O="$obj" ARCH=x86_64 olddefconfig >/dev/null &&
	! grep -q "^CONFIG_NUMA=y" "$obj/.config" &&
	make -s -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" -j"$(nproc)" \
		kernel/sched/core.o kernel/sched/fair.o kernel/sched/build_utility.o \
		kernel/fork.o kernel/exit.o fs/exec.o mm/memory.o mm/mprotect.o 2>&1 | diag
}
check "CONFIG_NUMA=n: the scheduler, fork, exec and fault objects compile" nonuma

runs=$TOP/results/tests/noautonuma
mkdir -p "$runs"
r=$runs/upstream
export KERNEL=$TOP/build/obj-noautonuma/arch/x86/boot/bzImage
check "CONFIG_AUTONUMA=n: the kernel was built (make CONFIG=noautonuma kernel)" test -f "$KERNEL"
check "CONFIG_AUTONUMA=n: boots and runs stream under upstream NUMA balancing" \
	eval 'TIMEOUT=300 guest 2node "$r" "$TOP/guest/balancer.sh" upstream \
		"$TOP/build/workloads/stream" -p 1 -t 2 -s 96 -d 15 -b 0 -r 1'
check "CONFIG_AUTONUMA=n: the data check passes" grep -q "check=ok" "$r/job.log"
share=$(stream_done "$r/job.log" nodes | node_share 1)
check "CONFIG_AUTONUMA=n: >= 90% of the pages end on node 1 (upstream moved them)" \
	awk -v s="$share" 'BEGIN { exit !(s + 0 >= 90) }'
check "CONFIG_AUTONUMA=n: no /sys/kernel/mm/autonuma, no knuma_* thread" \
	eval 'TIMEOUT=120 guest 2node "$runs/absent" "$TOP/tests/guest/autonuma-sysfs.sh absent" &&
		! grep -q "^not ok" "$runs/absent/sysfs.tap"'
echo "1..$T"
exit $((FAILS > 0))
