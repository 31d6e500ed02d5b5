#!/bin/bash
# Boot the test kernel in QEMU on a topology and run one command in the guest.
#
# usage: boot.sh TOPOLOGY RUNDIR [COMMAND...]
#   TOPOLOGY  a name from qemu-configs/topology/ (2node, 4node, ...) or a file
#   RUNDIR    created; shared read-write with the guest as /run/results; gets
#             console.log, exit-status and whatever the command writes there
#   COMMAND   shell command run in the guest as root, in a chroot of the host's
#             root, cwd /run/results; without one, an interactive shell
# environment:
#   KERNEL, INITRD   images (default: the Makefile's build outputs)
#   APPEND           extra kernel command line (e.g. "autonuma_balance=schedule")
#   NUMA_BALANCING_ARG  NUMA balancing's switch on the command line (default
#                    numa_balancing=disable, so that runs start with neither
#                    balancer; empty: the kernel's own defaults)
#   TIMEOUT          seconds before the guest is killed (default 600)
#   ACCEL            tcg (default) or kvm; kvm is probed first and falls back
#                    to tcg, since KVM hangs on the project's build machines
#   VERBOSE=1        copy the console to stdout while it runs
# Exit status: the command's, or 1 if the guest crashed, timed out, or its
# console holds a kernel error report (harness/check-console.sh).  QEMU
# crashing before the job started is retried once.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
die() { echo "boot: $*" >&2; exit 1; }

[ $# -ge 2 ] || die "usage: boot.sh TOPOLOGY RUNDIR [COMMAND...]"
topo=$1 run=$2
shift 2
[ -f "$topo" ] || topo=$top/qemu-configs/topology/$topo.topo
[ -f "$topo" ] || die "unknown topology '$1' (see qemu-configs/topology/)"
KERNEL=${KERNEL:-$top/build/obj-base/arch/x86/boot/bzImage}
INITRD=${INITRD:-$top/build/initramfs.cpio.gz}
TIMEOUT=${TIMEOUT:-600}
[ -f "$KERNEL" ] || die "no kernel image $KERNEL (make kernel)"
[ -f "$INITRD" ] || die "no initramfs $INITRD (make initramfs)"
mapfile -t machine < <("$here/qemu-args.sh" "$topo") || exit 1
[ "${#machine[@]}" -gt 0 ] || exit 1

case ${ACCEL:-tcg} in
tcg) accel=tcg,thread=multi ;;
kvm) if "$here/kvm-probe.sh"; then accel=kvm; else
	echo "boot: KVM probe failed, using TCG" >&2; accel=tcg,thread=multi; fi ;;
kvm-unprobed) accel=kvm ;; # only for kvm-probe.sh
*) die "ACCEL must be tcg or kvm" ;;
esac

rm -rf "$run"
mkdir -p "$run"
run=$(realpath "$run")
interactive=0
if [ $# -gt 0 ]; then
	printf '%s\n' "$*" > "$run/job"
else
	interactive=1
fi

# An Intel vendor: TCG's max CPU reports SMT siblings to Linux only through
# Intel's topology leaves (the AMD path needs topoext, which TCG lacks).
qemu=(qemu-system-x86_64 -nodefaults -no-reboot -accel "$accel" -cpu max,vendor=GenuineIntel
	"${machine[@]}"
	-kernel "$KERNEL" -initrd "$INITRD"
	-append "console=ttyS0 panic=-1 rdinit=/init ${NUMA_BALANCING_ARG-numa_balancing=disable} ${APPEND:-}"
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap"
	-virtfs "local,path=$run,mount_tag=results,security_model=none,multidevs=remap"
	-display none -vga none -net none)

if [ $interactive = 1 ]; then
	"${qemu[@]}" -chardev "stdio,id=con,mux=on,signal=off,logfile=$run/console.log" \
		-serial chardev:con -mon chardev=con || true
else
	qemu+=(-serial "file:$run/console.log" -monitor none)
	tail_pid=
	if [ "${VERBOSE:-0}" = 1 ]; then
		touch "$run/console.log"
		tail -n +1 -f "$run/console.log" & tail_pid=$!
	fi
	# QEMU itself crashing (SIGSEGV, SIGABRT) before the guest started its
	# job is the emulator's fault, not the kernel's (seen once: TCG died
	# in PCI probing at 0.8 s): boot once more.  A crash during the job
	# fails the run.
	for attempt in 1 2; do
		rc=0
		timeout -k 10 "$TIMEOUT" "${qemu[@]}" </dev/null || rc=$?
		[ $attempt = 1 ] && { [ $rc = 139 ] || [ $rc = 134 ]; } &&
			[ ! -e "$run/job.log" ] || break
		echo "boot: qemu crashed (status $rc) before the job started; booting once more" >&2
		mv "$run/console.log" "$run/console.qemu-crash.log"
	done
	[ -z "$tail_pid" ] || kill "$tail_pid" 2>/dev/null || true
	[ $rc != 124 ] && [ $rc != 137 ] || die "guest timed out after ${TIMEOUT}s (console: $run/console.log)"
	[ $rc = 0 ] || die "qemu exited with status $rc (console: $run/console.log)"
fi

[ "${VERBOSE:-0}" = 1 ] || [ ! -f "$run/job.log" ] || cat "$run/job.log"
"$here/check-console.sh" "$run/console.log" || exit 1
[ $interactive = 1 ] && exit 0
[ -f "$run/exit-status" ] || die "guest did not finish its job (crash or panic?): see $run/console.log"
exit "$(cat "$run/exit-status")"
