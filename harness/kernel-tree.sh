#!/bin/bash
# Produce the patched kernel tree: extract Debian's linux-source-6.1 once into a
# scratch git repository (tag "pristine"), then apply series/series with git am.
# The applied state is keyed by a hash of the series file and every patch it
# names; any change resets the tree to "pristine" and re-applies everything, so
# a stale tree is never built.  git am refuses patches that do not apply exactly.
#
# usage: kernel-tree.sh SRCDIR SERIESFILE PATCHDIR
set -euo pipefail

src=$1 series=$2 patchdir=$3
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}

die() { echo "kernel-tree: $*" >&2; exit 1; }


series_stamp() {
	{
		cat "$series"
		"$(dirname "$0")/series-list.sh" "$series" | while read -r p; do
			[ -f "$patchdir/$p" ] || die "series names $p but $patchdir/$p does not exist"
			cat "$patchdir/$p"
		done
	} | sha256sum | cut -d' ' -f1
}

git_tree() { git -C "$src" -c user.name=autonuma-build -c user.email=build@localhost "$@"; }

extract_pristine() {
	[ -f "$tarball" ] || die "$tarball missing: install linux-source-6.1 (make deps)"
	local tmp="$src.tmp"
	rm -rf "$tmp" && mkdir -p "$tmp"
	echo "kernel-tree: extracting $tarball"
	tar -xf "$tarball" -C "$tmp" --strip-components=1
	git -C "$tmp" init -q
	git -C "$tmp" config core.autocrlf false
	git -C "$tmp" config gc.auto 0
	git -C "$tmp" add -A -f
	git -C "$tmp" -c user.name=autonuma-build -c user.email=build@localhost \
		commit -q -m "pristine $(basename "$tarball")"
	git -C "$tmp" tag pristine
	mv "$tmp" "$src"
}

stamp=$(series_stamp)
[ -d "$src/.git" ] || extract_pristine
if [ "$(cat "$src/.git/series-stamp" 2>/dev/null)" = "$stamp" ]; then
	exit 0
fi

echo "kernel-tree: series changed, re-applying from pristine"
git_tree am --abort >/dev/null 2>&1 || true
git_tree checkout -q -f -B patched pristine
git_tree clean -q -fdx
n=0
for p in $("$(dirname "$0")/series-list.sh" "$series"); do
	n=$((n + 1))
	git_tree am -q --keep-cr "$(realpath "$patchdir/$p")" ||
		{ git_tree am --abort || true; die "patch $n ($p) does not apply"; }
done
echo "$stamp" > "$src/.git/series-stamp"
echo "kernel-tree: $n patch(es) applied"
