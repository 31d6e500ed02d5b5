#!/bin/bash
# Generate OBJDIR/.config: tinyconfig + the given fragments (merge_config.sh),
# then olddefconfig, then verify that every symbol the fragments ask for kept
# its value.  Kconfig silently drops a symbol whose dependencies are unmet;
# here that is an error naming the symbol, unless no Kconfig of the tree
# defines it (a symbol that a later patch of the series adds).
#
# usage: kernel-config.sh SRCDIR OBJDIR FRAGMENT...
set -euo pipefail

src=$1 obj=$2
shift 2
mkdir -p "$obj"
# Kconfig warns about every choice a fragment overrides: that is the point here.
kmake() {
	make -s -C "$src" O="$(realpath "$obj")" ARCH=x86_64 "$@" \
		2> >(grep -v 'changes choice state' >&2)
}

kmake tinyconfig >/dev/null
KCONFIG_CONFIG="$obj/.config" "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
	"$obj/.config" "$@" >/dev/null 2> >(grep -v 'changes choice state' >&2)
kmake olddefconfig >/dev/null

# A symbol the tree does not define at all is one a later patch of the series
# adds: a series prefix is built without it.
undefined() {
	! grep -rqsE --include='Kconfig*' "^(menu)?config ${1#CONFIG_}\$" "$src"
}

# Requested value of each symbol: the last fragment that sets it wins.
bad=0
while IFS='=' read -r sym want; do
	got=$(grep -E "^$sym=|^# $sym is not set" "$obj/.config" || true)
	if [ -z "$got" ] && undefined "$sym"; then
		echo "kernel-config: $sym is not defined in this tree (not yet in the series?)"
		continue
	fi
	case "$want" in
	n | "is not set") [ -z "$got" ] || [ "$got" = "# $sym is not set" ] || { echo "kernel-config: $sym: wanted n, got '$got'" >&2; bad=1; } ;;
	*) [ "$got" = "$sym=$want" ] || { echo "kernel-config: $sym: wanted $want, got '${got:-unset}'" >&2; bad=1; } ;;
	esac
done < <(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)/\1=\2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set/\1=n/p' "$@" |
	awk -F= '{v[$1]=substr($0, length($1) + 2)} END {for (s in v) print s "=" v[s]}')
[ "$bad" = 0 ] || { echo "kernel-config: fragments not honoured (see above)" >&2; exit 1; }
