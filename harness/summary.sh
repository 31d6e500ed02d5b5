#!/bin/bash
# Print the summary of a trace-workload run directory: per-process bandwidth
# and page placement (measured in the guest with move_pages(2)), the NUMA
# counters of /proc/vmstat over the run, and the recorded trace events.
# Fails if the trace is unreadable or lost events.
# usage: summary.sh RUNDIR
set -euo pipefail
run=$1
die() { echo "summary: $*" >&2; exit 1; }
for f in workload.log vmstat.before vmstat.after trace.dat; do
	[ -f "$run/$f" ] || die "$run/$f missing: did the run finish?"
done

echo "== $run"
grep -m1 -o 'Linux version [^ ]*' "$run/console.log" || true
grep -o 'Command line: .*' "$run/console.log" | head -1 || true

echo
echo "-- workload (stream: bandwidth and share of pages per node)"
awk '
/^stream: t=/ {
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	p = f["proc"]
	if (!(p in first)) { first[p] = f["mbs"]; start[p] = f["nodes"] }
	last[p] = f["mbs"]; procs[p] = 1
}
/^stream: done/ {
	for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	end[f["proc"]] = f["nodes"]; check[f["proc"]] = f["check"]
}
END {
	printf "%-5s %12s %12s  %-18s %-18s %s\n", "proc", "MB/s first", "MB/s last", "nodes % start", "nodes % end", "check"
	for (p in procs)
		printf "%-5s %12s %12s  %-18s %-18s %s\n", p, first[p], last[p], start[p], end[p], check[p]
}' "$run/workload.log"

echo
echo "-- /proc/vmstat over the run"
awk 'NR == FNR { before[$1] = $2; next }
	$1 ~ /^(numa_|pgmigrate_|thp_migration)/ { printf "%-26s %12d\n", $1, $2 - before[$1] }' \
	"$run/vmstat.before" "$run/vmstat.after"

echo
echo "-- trace events ($run/trace.dat)"
report=$(trace-cmd report "$run/trace.dat" 2>"$run/report.err") ||
	{ cat "$run/report.err" >&2; die "trace-cmd cannot read $run/trace.dat"; }
awk '{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { n[$(i + 1)]++; break } }
	END { for (e in n) printf "%-26s %12d\n", e, n[e] }' <<<"$report" | sort
lost=$("$(dirname "$0")/trace-lost.sh" "$run/trace.dat") ||
	die "$run/trace.dat has no buffer statistics: truncated, or not written by trace-cmd record"
echo "lost events: $lost"
[ "$lost" = 0 ] || die "events were lost: the run is not trustworthy"
