#!/bin/bash
# The hot-path benchmark (harness/hotpath-bench.sh, `make hotpath`), in two short
# rounds: every benchmark gives a number in every mode (AutoNUMA off, lb,
# schedule), the modes alternate within a round, and the report pairs each
# mode with off.  Bad input is refused.  (The numbers themselves are
# measured by `make hotpath`, not judged here.)
. "$(dirname "$0")/lib.sh"
out=$TOP/results/tests/hotpath
rm -rf "$out"

check "hotpath-bench.sh runs 2 short rounds" eval 'ROUNDS=2 PIPE_LOOPS=2000 MSG_LOOPS=5 \
	"$H/hotpath-bench.sh" "$out" >"$out.out" 2>&1'
diag <"$out.out"
for bench in pipe messaging; do
	for mode in off lb schedule; do
		check "$bench, $mode: 2 rounds with a median and a ratio to off" \
			grep -Eq "^\| $bench \([a-z/]+\) \| $mode \| 2 \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|" \
			"$out/report.md"
	done
done
check "off's own ratio is 1" grep -Eq "^\| pipe \([a-z/]+\) \| off \| 2 \| .* \| 1\.000 \| - \| - \|$" "$out/report.md"
check "lb's ratio has a 95% interval" \
	grep -Eq "^\| pipe \([a-z/]+\) \| lb \| 2 \| .* \| [0-9.]+ \| [0-9.]+-[0-9.]+ \| [0-2] \|$" "$out/report.md"
check "the guest alternated the modes (round 2 starts with schedule)" eval \
	'grep -m 1 "^hotpath: round=2 " "$out/guest/job.log" | grep "mode=schedule" >/dev/null'
check "ROUNDS=0 is refused" fails_with "ROUNDS, PIPE_LOOPS, MSG_LOOPS: positive numbers" \
	env ROUNDS=0 "$H/hotpath-bench.sh" "$out-bad"
echo "1..$T"
exit $((FAILS > 0))
