#!/bin/bash
# Keep the series bisectable: for each prefix 1..N of series/series, apply it
# to a tree of its own (build/bisect/linux), configure, and compile the object
# of every .c file the last patch of the prefix touches (if kbuild builds it
# as an object), plus init/main.o
# (which includes sched.h, mm.h and friends, so header-only steps are compiled
# too).  Stops at the first prefix that does not build.
#
# usage: bisect-check.sh SERIES PATCHDIR FRAGMENT...
#   FROM=K checks the prefixes K..N only (the earlier ones unchanged).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
series=$1 patchdir=$2
shift 2
work=$(dirname "$here")/build/bisect
src=$work/linux obj=$work/obj
mkdir -p "$work"

mapfile -t patches < <("$here/series-list.sh" "$series")
[ ${#patches[@]} -gt 0 ] || { echo "bisect-check: the series is empty"; exit 0; }
for k in $(seq "${FROM:-1}" ${#patches[@]}); do
	p=${patches[$((k - 1))]}
	printf '%s\n' "${patches[@]:0:$k}" > "$work/series"
	"$here/kernel-tree.sh" "$src" "$work/series" "$patchdir" >/dev/null
	"$here/kernel-config.sh" "$src" "$obj" "$@"
	objs=(init/main.o)
	for f in $(sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$patchdir/$p"); do
		# Only kbuild objects: a .c file #included by another (a KUnit
		# suite, say) is compiled through its includer.
		o=$(basename "${f%.c}.o")
		grep -qw "$o" "$src/$(dirname "$f")/Makefile" && objs+=("${f%.c}.o")
	done
	echo "bisect-check: [$k/${#patches[@]}] $p: ${objs[*]}"
	make -s -C "$src" O="$obj" ARCH=x86_64 CC="ccache gcc" LOCALVERSION= \
		-j"$(nproc)" "${objs[@]}" ||
		{ echo "bisect-check: prefix $k ($p) does not build" >&2; exit 1; }
done
echo "bisect-check: all ${#patches[@]} prefixes build"
