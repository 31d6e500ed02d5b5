#!/bin/bash
# Build the guest initramfs: Debian's static busybox as every tool, and
# guest/init as /init.  usage: mkinitramfs.sh INIT OUTPUT
set -euo pipefail
init=$1 out=$2
busybox=/bin/busybox
file -L "$busybox" | grep -q 'statically linked' ||
	{ echo "mkinitramfs: $busybox is not static: install busybox-static" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/{bin,dev,proc,sys,tmp,host}
cp "$busybox" "$tmp/bin/busybox"
ln -s busybox "$tmp/bin/sh"
install -m 0755 "$init" "$tmp/init"
(cd "$tmp" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) | gzip -9 > "$out.tmp"
mv "$out.tmp" "$out"
