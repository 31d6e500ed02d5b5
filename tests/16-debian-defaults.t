#!/bin/bash
# Debian's NUMA defaults (NUMA_BALANCING_DEFAULT_ENABLED=y) with AutoNUMA
# enabled at boot (AUTONUMA_DEFAULT_ENABLED=y): only one balancer may run,
# AutoNUMA's default wins over NUMA balancing's, and the command line wins
# over both (make check builds build/obj-debian, CONFIG=debian).
. "$(dirname "$0")/lib.sh"
runs=$TOP/results/tests/debian
mkdir -p "$runs"
export KERNEL=$TOP/build/obj-debian/arch/x86/boot/bzImage
check "the kernel with Debian's NUMA defaults was built (make CONFIG=debian kernel)" test -f "$KERNEL"
grep -q "^CONFIG_NUMA_BALANCING_DEFAULT_ENABLED=y" "$TOP/build/obj-debian/.config" &&
	grep -q "^CONFIG_AUTONUMA_DEFAULT_ENABLED=y" "$TOP/build/obj-debian/.config"
check "... with NUMA_BALANCING_DEFAULT_ENABLED=y and AUTONUMA_DEFAULT_ENABLED=y" test $? = 0

# boot NAME CMDLINE: the balancers the kernel started with ("autonuma=X
# numa_balancing=Y"), booted with CMDLINE and no numa_balancing= of the harness.
boot() {
	NUMA_BALANCING_ARG= APPEND=$2 TIMEOUT=120 guest 2node "$runs/$1" \
		"$TOP/tests/guest/balancers-at-boot.sh" &&
		sed -n 's/^balancers: //p' "$runs/$1/job.log"
}
got=$(boot defaults "")
check "no parameter: AutoNUMA runs, NUMA balancing does not ($got)" \
	test "$got" = "autonuma=1 numa_balancing=0"
got=$(boot nb-enable "numa_balancing=enable")
check "numa_balancing=enable: NUMA balancing runs, AutoNUMA does not ($got)" \
	test "$got" = "autonuma=0 numa_balancing=1"
check "... and the console says why AutoNUMA is off" \
	grep -q "autonuma: NUMA balancing is enabled (numa_balancing=), starting with AutoNUMA disabled" \
	"$runs/nb-enable/console.log"
got=$(boot noautonuma "noautonuma")
check "noautonuma: NUMA balancing's own default applies ($got)" \
	test "$got" = "autonuma=absent numa_balancing=1"
got=$(boot nb-disable "numa_balancing=disable")
check "numa_balancing=disable: AutoNUMA still runs ($got)" \
	test "$got" = "autonuma=1 numa_balancing=0"
echo "1..$T"
exit $((FAILS > 0))
