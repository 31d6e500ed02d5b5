#!/bin/bash
# Write the commits pristine..HEAD of the scratch tree back to patches/, one
# file per commit named after its subject (no number, so inserting a patch
# renames nothing), and append to the series file every patch it does not
# name yet.  Comments and order of the series file are kept; a patch that a
# commit no longer produces is reported, not deleted.
#
# usage: export-series.sh SRCDIR SERIESFILE PATCHDIR
set -euo pipefail
src=$1 series=$2 patchdir=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git -C "$src" format-patch -q --no-numbered --zero-commit --no-signature --filename-max-length=100 \
	-o "$tmp" pristine..HEAD
listed=$("$(dirname "$0")/series-list.sh" "$series")
produced=()
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || break
	name=$(basename "$f" | sed 's/^[0-9]*-//')
	produced+=("$name")
	cp "$f" "$patchdir/$name"
	grep -qxF "$name" <<<"$listed" || { echo "$name" >> "$series"; echo "export-series: added $name"; }
done
for name in $listed; do
	printf '%s\n' "${produced[@]}" | grep -qxF "$name" ||
		echo "export-series: $name is in the series but no commit produces it" >&2
done
echo "export-series: ${#produced[@]} patch(es) written to $patchdir"
