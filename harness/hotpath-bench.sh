#!/bin/bash
# What AutoNUMA's placement costs the scheduler's hot paths: boot once, run
# guest/hotpath-rounds.sh (perf bench sched pipe and messaging with AutoNUMA off,
# placement from the load balancer, placement from schedule(), interleaved
# over ROUNDS rounds), and write OUTDIR/report.md: per benchmark and mode
# the median, min and max, and the median over rounds of each round's ratio
# to off (a paired comparison: the rounds share the host's drift), with a
# 95% bootstrap interval of that median: TCG's timing noise is large, and
# the interval says what a run of ROUNDS rounds can resolve.
#
# usage: hotpath-bench.sh OUTDIR
# Environment: TOPO (default 2node), ROUNDS (default 10), PIPE_LOOPS
# (default 10000), MSG_LOOPS (default 50); KERNEL, INITRD, TIMEOUT (boot.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
die() { echo "hotpath: $*" >&2; exit 1; }
rounds=${ROUNDS:-10} pipe_loops=${PIPE_LOOPS:-10000} msg_loops=${MSG_LOOPS:-50}
for v in "$rounds" "$pipe_loops" "$msg_loops"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "ROUNDS, PIPE_LOOPS, MSG_LOOPS: positive numbers ($v)"
done
mkdir -p "$out"
run=$out/guest
TIMEOUT=${TIMEOUT:-$((300 + rounds * 120))} "$top/harness/boot.sh" "${TOPO:-2node}" "$run" \
	"$top/guest/hotpath-rounds.sh" "$rounds" "$pipe_loops" "$msg_loops" >"$run.log" 2>&1 ||
	die "the guest run failed: $(tail -n 3 "$run.log")"

python3 - "$run/job.log" "$rounds" >"$out/report.md" <<'EOF'
import random, re, statistics, sys

log, rounds = sys.argv[1], int(sys.argv[2])
runs = {}  # (bench, mode) -> {round: value}
for line in open(log):
    m = re.match(r'hotpath: round=(\d+) mode=(\w+) bench=(\w+) value=([0-9.]+)$', line.strip())
    if m:
        runs.setdefault((m[3], m[2]), {})[int(m[1])] = float(m[4])
units = {'pipe': 'usecs/op', 'messaging': 's'}
random.seed(1)  # the same log gives the same interval


def interval(ratios):
    """95% bootstrap interval of the median of ratios."""
    medians = sorted(statistics.median(random.choices(ratios, k=len(ratios)))
                     for _ in range(2000))
    return f'{medians[50]:.3f}-{medians[1949]:.3f}'


print('| benchmark | mode | rounds | median | min | max | ratio to off '
      '(median of per-round ratios) | 95% interval | rounds slower than off |')
print('|---|---|---|---|---|---|---|---|---|')
for bench in ('pipe', 'messaging'):
    off = runs.get((bench, 'off'), {})
    for mode in ('off', 'lb', 'schedule'):
        r = runs.get((bench, mode), {})
        if len(r) != rounds or len(off) != rounds:
            sys.exit(f'hotpath: {bench} {mode}: {len(r)} of {rounds} rounds in {log}')
        v = list(r.values())
        ratios = [r[k] / off[k] for k in r]
        slower = sum(x > 1 for x in ratios)
        paired = mode != 'off'
        print(f'| {bench} ({units[bench]}) | {mode} | {len(v)} | {statistics.median(v):.3f} '
              f'| {min(v):.3f} | {max(v):.3f} | {statistics.median(ratios):.3f} '
              f'| {interval(ratios) if paired else "-"} | {slower if paired else "-"} |')
EOF
cat "$out/report.md"
