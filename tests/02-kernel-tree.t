#!/bin/bash
# Unit tests of harness/kernel-tree.sh on a toy "kernel" tarball: the series is
# applied in order, a changed patch is noticed and the tree rebuilt from
# pristine, and a patch that does not apply exactly fails.
. "$(dirname "$0")/lib.sh"
plan 9
d=$(scratch)
trap 'rm -rf "$d"' EXIT
export LINUX_TARBALL=$d/toy.tar.xz
mkdir -p "$d/toy/linux-toy" "$d/patches"
printf 'line1\nline2\nline3\n' > "$d/toy/linux-toy/file.c"
tar -C "$d/toy" -cJf "$LINUX_TARBALL" linux-toy

# mkpatch NAME SUBJECT FROM TO: a git-format patch changing file.c line FROM to TO.
mkpatch() {
	cat > "$d/patches/$1" <<-P
	From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
	From: Test <test@example.org>
	Subject: [PATCH] $2

	Signed-off-by: Test <test@example.org>
	---
	diff --git a/file.c b/file.c
	--- a/file.c
	+++ b/file.c
	@@ -1,3 +1,3 @@
	-$3
	+$4
	 line2
	 line3
	P
}
tree() { "$H/kernel-tree.sh" "$d/src" "$d/series" "$d/patches" >"$d/out" 2>&1; }
# tree_says: tree, its output on standard output too (for fails_with)
tree_says() { local rc=0; tree || rc=$?; cat "$d/out"; return $rc; }

: > "$d/series"
check "an empty series gives the pristine tree" tree
check "... whose file is untouched" grep -qx line1 "$d/src/file.c"
mkpatch one.patch "one" line1 ONE
printf '# a comment\none.patch\n' > "$d/series"
check "a one-patch series applies" tree
check "... and changes the tree" grep -qx ONE "$d/src/file.c"
tree
check_fails "an unchanged series does not re-apply" grep -q "re-applying" "$d/out"
mkpatch one.patch "one" line1 UNO
tree
check "an edited patch is re-applied from pristine" grep -qx UNO "$d/src/file.c"
check "... and only once (no leftover of the old version)" test "$(grep -c 'ONE' "$d/src/file.c")" = 0
mkpatch two.patch "two" line1 DOS
printf 'one.patch\ntwo.patch\n' > "$d/series"
check "a patch that does not apply exactly fails" fails_with "patch 2 \\(two.patch\\) does not apply" tree_says
echo missing.patch > "$d/series"
check "a series naming a missing patch fails" fails_with "series names missing.patch but .* does not exist" tree_says
exit $((FAILS > 0))
