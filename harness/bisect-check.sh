#!/bin/bash
# Keep the series bisectable: apply its patches one by one to a tree of its
# own (build/bisect/linux) and build each prefix 1..N:
#   BISECT=link     (default) configure and link a whole bzImage, so that a
#                   prefix calling what a later patch defines fails here
#   BISECT=objects  compile only the objects of the .c files the last patch
#                   touches (if kbuild builds them as objects), plus
#                   init/main.o, which includes sched.h, mm.h and friends so
#                   header-only steps are compiled too: make check's subset
# Each prefix is the previous one plus one patch (git am), so make rebuilds
# only what that patch touched.  Stops at the first prefix that fails.
#
# usage: bisect-check.sh SERIES PATCHDIR FRAGMENT...
#   FROM=K checks the prefixes K..N only (the earlier ones unchanged).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
series=$1 patchdir=$2
shift 2
mode=${BISECT:-link}
case $mode in link | objects) ;; *) echo "bisect-check: BISECT is link or objects" >&2; exit 1 ;; esac
work=$(dirname "$here")/build/bisect
src=$work/linux obj=$work/obj-$mode
mkdir -p "$work"

mapfile -t patches < <("$here/series-list.sh" "$series")
[ ${#patches[@]} -gt 0 ] || { echo "bisect-check: the series is empty"; exit 0; }
from=${FROM:-1}
kmake() { make -s -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" LOCALVERSION= -j"$(nproc)" "$@"; }
start=$SECONDS
for k in $(seq "$from" ${#patches[@]}); do
	p=${patches[$((k - 1))]}
	if [ "$k" = "$from" ]; then
		printf '%s\n' "${patches[@]:0:$k}" > "$work/series"
		"$here/kernel-tree.sh" "$src" "$work/series" "$patchdir" >/dev/null
	else
		git -C "$src" -c user.name=autonuma-build -c user.email=build@localhost \
			am -q --keep-cr "$(realpath "$patchdir/$p")" ||
			{ git -C "$src" am --abort || true; echo "bisect-check: patch $k ($p) does not apply" >&2; exit 1; }
		# the tree is no longer the one kernel-tree.sh's stamp names
		rm -f "$src/.git/series-stamp"
	fi
	# (its stdout names the symbols later patches add)
	"$here/kernel-config.sh" "$src" "$obj" "$@" >/dev/null
	if [ "$mode" = link ]; then
		targets=(bzImage)
	else
		targets=(init/main.o)
		for f in $(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$patchdir/$p"); do
			# Only kbuild objects: a .c file #included by another (a KUnit
			# suite, say) is compiled through its includer.
			o=$(basename "${f%.c}.o")
			grep -qw "$o" "$src/$(dirname "$f")/Makefile" && targets+=("${f%.c}.o")
		done
	fi
	t=$SECONDS
	kmake "${targets[@]}" ||
		{ echo "bisect-check: prefix $k ($p) does not build ($mode)" >&2; exit 1; }
	echo "bisect-check: [$k/${#patches[@]}] $p: ${targets[*]} ($((SECONDS - t)) s)"
done
echo "bisect-check: prefixes $from-${#patches[@]} build ($mode, $((SECONDS - start)) s)"
