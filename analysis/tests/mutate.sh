#!/bin/bash
# Mutation check of the model's unit tests: build model-test against each
# mutant of model.c (tests/mutations.txt) and require it to fail.  Prints
# one line per mutant; exits 1 if a mutant survives or does not apply.
# usage: tests/mutate.sh OUTDIR   (from analysis/)
set -uo pipefail
cd "$(dirname "$0")/.."
out=$1
mkdir -p "$out"
rc=0 n=0 killed=0
while IFS= read -r expr; do
	case $expr in '' | '#'*) continue ;; esac
	n=$((n + 1))
	sed "$expr" model.c >"$out/mutant.c"
	if [ "$(diff model.c "$out/mutant.c" | grep -c '^<')" != 1 ]; then
		echo "mutant $n does not change exactly one line: $expr"
		rc=1
		continue
	fi
	cp model.h "$out/"
	if ! gcc -O0 -w -I"$out" -I. -Itests -o "$out/mutant-test" tests/model-test.c tests/synth.c \
		"$out/mutant.c" -lm 2>"$out/build.err"; then
		echo "mutant $n does not build: $expr"
		rc=1
	elif timeout 60 "$out/mutant-test" >/dev/null 2>&1; then
		echo "mutant $n SURVIVED: $expr"
		rc=1
	else
		killed=$((killed + 1))
	fi
done <tests/mutations.txt
echo "mutants: $killed of $n killed"
exit $rc
