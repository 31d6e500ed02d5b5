#!/bin/bash
# Print how many events a trace.dat lost: the sum over CPUs of the ring buffer
# overruns, commit overruns and dropped events that trace-cmd saved with it.
# usage: trace-lost.sh TRACE.DAT
set -euo pipefail
stat=$(trace-cmd report --stat "$1" 2>/dev/null) ||
	{ echo "trace-lost: trace-cmd cannot read $1" >&2; exit 1; }
awk -F': *' '/^(overrun|commit overrun|dropped events):/ { n += $2; seen = 1 }
	END { if (!seen) { print "trace-lost: no buffer statistics" > "/dev/stderr"; exit 1 }; print n + 0 }' <<<"$stat"
