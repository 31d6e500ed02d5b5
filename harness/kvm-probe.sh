#!/bin/bash
# Exit 0 if a guest boots and runs a job under KVM here.  On the project's
# build machines nested KVM hangs after "Booting from ROM", so this boots the
# real test kernel with a 60 s limit before anything is trusted to KVM.
# The verdict is cached in build/kvm-probe (delete it to probe again).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=$(dirname "$here")/build/kvm-probe
[ -f "$cache" ] && exit "$(cat "$cache")"
rc=1
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	dir=$(mktemp -d)
	ACCEL=kvm-unprobed TIMEOUT=60 "$here/boot.sh" 1node "$dir/run" true >/dev/null 2>&1 && rc=0
	rm -rf "$dir"
fi
echo $rc > "$cache"
exit $rc
