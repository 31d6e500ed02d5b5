#!/bin/bash
# analysis/autonuma-report without a kernel: the model's and the report's
# unit tests (synthetic runs; the plots' SVG must be well-formed XML), a
# mutation check of the model's tests (analysis/tests/mutate.sh), and
# bad input (usage, foreign, empty, random files: a message and exit 1,
# never a crash or a hang).  tests/80 reads real traces.
. "$(dirname "$0")/lib.sh"
A=$TOP/build/analysis
R=$A/autonuma-report
tmp=$(scratch)
trap 'rm -rf "$tmp"' EXIT

check "autonuma-report and the unit tests build" \
	make -s -C "$TOP/analysis" OUT="$A" all "$A/model-test" "$A/report-test"
"$A/model-test" >"$tmp/unit.tap" 2>&1
unit_rc=$?
grep '^not ok' "$tmp/unit.tap" | diag
check "model unit tests: $(grep -c '^ok' "$tmp/unit.tap") passed, $(grep -c '^not ok' "$tmp/unit.tap") failed" \
	test "$unit_rc" = 0 -a "$(grep -c '^ok' "$tmp/unit.tap")" -gt 30

mkdir "$tmp/plot"
"$A/report-test" "$tmp/plot" >"$tmp/report.tap" 2>&1
report_rc=$?
grep '^not ok' "$tmp/report.tap" | diag
check "report unit tests: $(grep -c '^ok' "$tmp/report.tap") passed, $(grep -c '^not ok' "$tmp/report.tap") failed" \
	test "$report_rc" = 0 -a "$(grep -c '^ok' "$tmp/report.tap")" -ge 3
check "the plots are well-formed SVG" eval 'xmllint --noout "$tmp/plot/locality.svg" "$tmp/plot/convergence.svg" &&
	grep -q "<svg" "$tmp/plot/locality.svg"'

"$TOP/analysis/tests/mutate.sh" "$tmp/mutants" >"$tmp/mutate.log" 2>&1
mutate_rc=$?
grep -v '^mutants:' "$tmp/mutate.log" | diag
check "the model's unit tests kill every mutant of analysis/tests/mutations.txt ($(tail -1 "$tmp/mutate.log"))" \
	test "$mutate_rc" = 0

check "usage error: no trace" rejected "usage:" "$R"
check "usage error: threshold out of range" rejected "expected a number" "$R" -t 150 x.dat
check "usage error: unknown format" rejected "table, csv or json" "$R" -f xml x.dat
check "usage error: hold out of range" rejected "expected a number" "$R" -H -1 x.dat
check "missing file" rejected "No such file" "$R" "$tmp/none.dat"
check "a directory" rejected "not a regular file" "$R" "$tmp"
: >"$tmp/empty.dat"
check "an empty file" rejected "not a trace-cmd data file" "$R" "$tmp/empty.dat"
head -c 100000 /dev/urandom >"$tmp/random.dat"
check "random bytes" rejected "not a trace-cmd data file" "$R" "$tmp/random.dat"
check "a text file" rejected "not a trace-cmd data file" "$R" "$TOP/README.md"
# A real trace, 8 bytes of a compressed chunk overwritten (tests/80's
# fuzzing found it): libtracecmd 3.1 returns one record forever from it.
check "a damaged trace libtracecmd reads in a loop" \
	rejected "damaged" "$R" "$TOP/analysis/tests/record-loop.dat"
# A real trace with a damaged header on which libtracecmd 3.1 mallocs 3 GB
# and fails (fuzz-trace found it: the reading with the handlers took the
# 3 GB again, and leaked them): refused, and opened by the child alone.
check "a damaged header: refused, opened by the reading child alone" eval \
	'rejected "not a trace-cmd data file" strace -f -qq -e trace=openat -o "$tmp/strace" \
		"$R" "$TOP/analysis/tests/header-3gb.dat" &&
	 test "$(grep -c header-3gb.dat "$tmp/strace")" = 1'

plan "$T"
exit $((FAILS > 0))
