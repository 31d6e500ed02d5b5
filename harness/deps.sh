#!/bin/bash
# Install every Debian package the project uses, if any is missing.
# Idempotent and non-interactive; needs root only when something is missing.
set -euo pipefail
packages=(
	# kernel source and build
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	cpio xz-utils kmod ccache rsync git
	# guest: QEMU, the initramfs, and the host tools run inside the guest
	qemu-system-x86 busybox-static trace-cmd linux-perf numactl
	# analysis and tests
	libtracecmd-dev libtraceevent-dev libtracefs-dev pkg-config gnuplot-nox perl file
	python3
	# fuzzing the analysis (libFuzzer, ASan)
	clang
)
missing=()
for p in "${packages[@]}"; do
	[[ $p == \#* ]] && continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
echo "deps: installing ${missing[*]}"
[ "$(id -u)" = 0 ] || { echo "deps: run as root to install: ${missing[*]}" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q "${missing[@]}"
