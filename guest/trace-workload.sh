#!/bin/bash
# Run a command in the guest under `trace-cmd record`, with the events of a
# capture profile (tracepoints/profiles/), and under numa-sample, which
# records where the command's memory and threads are (for analysis/).
# Writes to the current directory (the run directory shared with the host):
# trace.dat, vmstat.before, vmstat.after, workload.log (the command's output,
# also on stdout).  Fails if the command fails.
#
# usage: trace-workload.sh PROFILE COMMAND...
# BALANCE_VARIANT (set by balancer.sh) names the run's variant in the trace.
set -euo pipefail
export TMPDIR=${TMPDIR:-/run/tmp}
profile=$1
shift
sampler=${NUMA_SAMPLE:-$(dirname "$0")/../build/workloads/numa-sample}
[ -x "$sampler" ] || { echo "trace-workload: $sampler missing: make workloads" >&2; exit 1; }

# read_profile FILE: its events into events[]; "include NAME" reads the
# profile NAME (beside FILE) there.
read_profile() {
	local word arg optional
	while read -r word arg; do
		case $word in
		'' | '#'*) continue ;;
		buffer_kb) buffer_kb=$arg; continue ;;
		include) read_profile "$(dirname "$1")/$arg"; continue ;;
		esac
		optional=0
		[ "${word#\?}" = "$word" ] || { optional=1; word=${word#\?}; }
		if [ -e "/sys/kernel/tracing/events/${word/://}" ]; then
			events+=(-e "$word")
		elif [ $optional = 1 ]; then
			echo "trace-workload: this kernel has no $word events; not recorded"
		else
			echo "trace-workload: this kernel has no $word events" >&2
			exit 1
		fi
	done < "$1"
}
events=() buffer_kb=4096
read_profile "$profile"
[ ${#events[@]} -gt 0 ] || { echo "trace-workload: no events to record" >&2; exit 1; }

# Record into guest memory: trace-cmd splices, which 9p does not support.
# The global trace clock: numa-sample writes a sample's lines from whichever
# CPU it runs on, and the analysis needs them in the order written.
# trace-cmd does not pass on the command's exit status: keep it in a file.
# vmstat is read while tracing, so the trace covers what the counters count.
rm -f "$TMPDIR"/workload-status
trace-cmd record -q -C global -b "$buffer_kb" -o "$TMPDIR"/trace.dat "${events[@]}" -- \
	/bin/sh -c 'cp /proc/vmstat vmstat.before; "$@"; echo $? > "$TMPDIR"/workload-status
		cp /proc/vmstat vmstat.after' sh \
	"$sampler" -V "${BALANCE_VARIANT:-unknown}" "$@" 2>&1 | tee workload.log
cp "$TMPDIR"/trace.dat trace.dat
rc=$(cat "$TMPDIR"/workload-status 2>/dev/null || echo 127)
[ "$rc" = 0 ] || { echo "trace-workload: command failed (status $rc)" >&2; exit "$rc"; }
