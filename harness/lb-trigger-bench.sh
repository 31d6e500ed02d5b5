#!/bin/bash
# Does the load balancer's placement run at the NUMA domain's own balance,
# with no softirq of its own?  Boot once, run guest/lb-trigger-rounds.sh
# (AutoNUMA off, lb and schedule, busy and idle phases, interleaved over
# ROUNDS rounds), and write OUTDIR/report.md: per mode and phase, the median
# (min-max) per second of placement passes, of the NUMA domain's
# load_balance() runs on busy CPUs and of SCHED softirqs; then the two
# ratios the design promises: lb's passes to the NUMA domain's busy runs
# (1.0: one pass per due balance; passes count evaluated tasks, so a
# phase's first second, before stream's threads have statistics, is
# missing), and lb's SCHED softirqs to off's and to schedule's (1.0: no
# raise of its own; schedule has the same scanning, whose kthreads' wakeups
# are AutoNUMA's and not the trigger's).
#
# usage: lb-trigger-bench.sh OUTDIR
# Environment: TOPO (default 2node), ROUNDS (default 5), SECONDS_PER_PHASE
# (default 20); KERNEL, INITRD, TIMEOUT (boot.sh).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$1
die() { echo "lb-trigger: $*" >&2; exit 1; }
rounds=${ROUNDS:-5} secs=${SECONDS_PER_PHASE:-20}
for v in "$rounds" "$secs"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || die "ROUNDS, SECONDS_PER_PHASE: positive numbers ($v)"
done
mkdir -p "$out"
run=$out/guest
TIMEOUT=${TIMEOUT:-$((300 + rounds * secs * 8))} "$top/harness/boot.sh" "${TOPO:-2node}" "$run" \
	"$top/guest/lb-trigger-rounds.sh" "$rounds" "$secs" "${WORKLOADS:-$top/build/workloads}" \
	>"$run.log" 2>&1 || die "the guest run failed: $(tail -n 3 "$run.log")"

python3 - "$run/job.log" "$rounds" >"$out/report.md" <<'PY'
import re, statistics, sys

log, rounds = sys.argv[1], int(sys.argv[2])
rows = {}  # (mode, phase) -> {round: {counter: per second}}
for line in open(log):
    m = re.match(r'trigger: round=(\d+) mode=(\w+) phase=(\w+) seconds=(\d+) (.*)$', line.strip())
    if m:
        c = {k: int(v) / int(m[4]) for k, v in (kv.split('=') for kv in m[5].split())}
        rows.setdefault((m[2], m[3]), {})[int(m[1])] = c


def cell(v, f='.1f'):
    return f'{statistics.median(v):{f}} ({min(v):{f}}-{max(v):{f}})'


names = ('passes', 'numa_lb_busy', 'sched_softirq')
print('| mode | phase | rounds | placement passes/s | NUMA domain busy balances/s | SCHED softirqs/s |')
print('|---|---|---|---|---|---|')
for mode in ('off', 'lb', 'schedule'):
    for phase in ('busy', 'idle'):
        r = rows.get((mode, phase), {})
        if len(r) != rounds:
            sys.exit(f'lb-trigger: {mode} {phase}: {len(r)} of {rounds} rounds in {log}')
        print(f'| {mode} | {phase} | {rounds} | ' +
              ' | '.join(cell([x[n] for x in r.values()]) for n in names) + ' |')
print()
lb = rows[('lb', 'busy')]
print('lb, busy: passes / NUMA domain busy balances, median of rounds: ' +
      cell([x['passes'] / max(x['numa_lb_busy'], 1e-9) for x in lb.values()], '.3f'))
for phase in ('busy', 'idle'):
    on = rows[('lb', phase)]
    for base in ('off', 'schedule'):
        b = rows[(base, phase)]
        print(f'{phase}: SCHED softirqs lb / {base}, median of per-round ratios: ' +
              cell([on[k]['sched_softirq'] / max(b[k]['sched_softirq'], 1e-9) for k in on], '.3f'))
PY
cat "$out/report.md"
