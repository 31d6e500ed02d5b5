#!/bin/bash
# Tests of harness/kernel-config.sh on the real tree (build/linux, made by
# `make kernel`): a symbol Kconfig drops fails the config, a symbol no Kconfig
# defines yet (a later patch's) is only noted, and the shipped fragments pass.
. "$(dirname "$0")/lib.sh"
src=$TOP/build/linux
d=$(scratch)
trap 'rm -rf "$d"' EXIT
conf() { "$H/kernel-config.sh" "$src" "$d/obj" "$@" >"$d/out" 2>&1; }

printf 'CONFIG_9P_FS=y\n' > "$d/no-net.config"
check_fails "9P_FS without NET (unmet dependency) fails" conf "$d/no-net.config"
check "... naming the dropped symbol" grep -q "CONFIG_9P_FS: wanted y" "$d/out"
printf 'CONFIG_AUTONUMA_NOT_YET_IN_TREE=y\n' > "$d/later.config"
check "a symbol no Kconfig defines is only noted" conf "$d/later.config"
check "base + debug fragments are honoured" \
	conf "$TOP/qemu-configs/kernel/base.config" "$TOP/qemu-configs/kernel/debug.config"
check "base + noautonuma fragments are honoured" \
	conf "$TOP/qemu-configs/kernel/base.config" "$TOP/qemu-configs/kernel/noautonuma.config"
check "base + scale fragments are honoured (NR_CPUS=64)" \
	eval 'conf "$TOP/qemu-configs/kernel/base.config" "$TOP/qemu-configs/kernel/scale.config" &&
	      grep -qx CONFIG_NR_CPUS=64 "$d/obj/.config"'
plan "$T"
exit $((FAILS > 0))
