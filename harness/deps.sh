#!/bin/bash
# Install every Debian package the project uses, if any is missing.
# Idempotent and non-interactive; needs root only when something is missing.
# Without recommended packages (on a minimal Debian 12, 2026-12-05: 149
# packages, 174 MB to download, against 282 packages, 290 MB with them).
set -euo pipefail
packages=(
	# kernel source and build
	linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
	cpio xz-utils kmod ccache rsync git
	# guest: QEMU, the initramfs, and the host tools run inside the guest
	qemu-system-x86 busybox-static trace-cmd linux-perf numactl
	# analysis and tests
	libtracecmd-dev libtraceevent-dev libtracefs-dev pkg-config gnuplot-nox perl file
	libxml2-utils strace
	python3
	# fuzzing the analysis (libFuzzer, ASan: clang only recommends their runtime)
	clang libclang-rt-14-dev
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
apt-get install -y -q --no-install-recommends "${missing[@]}"
