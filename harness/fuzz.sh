#!/bin/bash
# Fuzz autonuma-report's input paths with libFuzzer (ASan, UBSan):
# fuzz-trace (any bytes as a trace.dat: must end in a report or a clean
# error), fuzz-records (any bytes as records of the first seed's event
# formats, fed to the event handlers in-process) and fuzz-markers (the run
# model's marker parser and events).
# Prints each target's executions and corpus size; fails on any finding
# (the crashing input is left in OUTDIR), and on any sanitizer report in
# the log even if the fuzzer lived.  autonuma-report first reads a trace
# with libtracecmd alone in a child (libtracecmd crashes on some damaged
# files): the child's deaths are expected and not findings; the event
# handlers run in the fuzzer's own process, which must live.
#
# usage: fuzz.sh OUTDIR SECONDS SEED_TRACE...
#   SECONDS per target; seeds: real trace.dat files (make run leaves one
#   in results/run-stream-2node/trace.dat).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { echo "usage: fuzz.sh OUTDIR SECONDS SEED_TRACE..." >&2; exit 1; }
out=$(mkdir -p "$1" && cd "$1" && pwd)
secs=$2
shift 2
make -s -C "$top/analysis" OUT="$out" fuzz
for target in trace records markers; do mkdir -p "$out/seed-$target" "$out/corpus-$target"; done
for f in "$@"; do
	[ -f "$f" ] || { echo "fuzz: $f: no such trace" >&2; exit 1; }
	cp "$f" "$out/seed-trace/$(basename "$(dirname "$f")")-$(basename "$f")"
	# the markers numa-sample wrote, as text seeds for the model
	trace-cmd report "$f" 2>/dev/null | sed -n 's/.*print: *[0-9a-fx]*: //p' \
		>"$out/seed-markers/$(basename "$(dirname "$f")").txt"
done
# records: every event (the first byte picks one, modulo their number)
# once with no data at all, so that any field read without a bounds check
# faults on the first execution
for i in $(seq 0 255); do printf "\\x$(printf %02x "$i")\\x00"; done >"$out/seed-records/empty-records"
export LSAN_OPTIONS=suppressions=$top/analysis/fuzz/lsan.supp
export ASAN_OPTIONS=allocator_may_return_null=1
AN_FUZZ_FORMATS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
export AN_FUZZ_FORMATS
rc=0
for target in trace records markers; do
	log=$out/fuzz-$target.log
	(cd "$out" && ./fuzz-$target -max_total_time="$secs" -max_len=1048576 -timeout=60 \
		-rss_limit_mb=4096 -malloc_limit_mb=100000 -print_final_stats=1 "corpus-$target" "seed-$target") >"$log" 2>&1 ||
		{ rc=1; echo "fuzz-$target: FOUND a failure, see $log:"; grep -m3 -E 'ERROR|SUMMARY' "$log"; }
	if grep -q -E 'ERROR: (Address|Leak|Undefined)Sanitizer|runtime error:' "$log"; then
		rc=1
		echo "fuzz-$target: a sanitizer report in $log:"
		grep -m3 -E 'ERROR|runtime error' "$log"
	fi
	echo "fuzz-$target: $(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1) executions" \
		"in ${secs} s, corpus $(ls "$out/corpus-$target" | wc -l) inputs" \
		"($(du -sh "$out/corpus-$target" | cut -f1))"
done
exit $rc
