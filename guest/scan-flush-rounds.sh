#!/bin/bash
# Guest side of `make scan-flushes`: TLB shootdown IPIs per knuma_scand
# pass.  stream (2 processes x 2 threads, 128 MiB each) runs on node 0's
# CPUs with its memory there, so nothing migrates and the shootdowns are
# knuma_scand's own (a hinting fault restores a pte without a flush).  In
# one boot, ROUNDS rounds of SECONDS each, after 5 s for the first pass;
# one line per round:
#   scan-flushes: round=R passes=P shootdowns=S pte_updates=U per_pass=S/P
#
# usage: scan-flush-rounds.sh STREAM-BINARY ROUNDS SECONDS
set -euo pipefail
A=/sys/kernel/mm/autonuma
stream=$1 rounds=$2 secs=$3
[ -w $A/enabled ] || { echo "scan-flushes: this kernel has no AutoNUMA" >&2; exit 1; }
echo 500 > $A/knuma_scand/scan_sleep_pass_millisecs
echo 1 > $A/enabled

# TLB shootdowns received, all CPUs; full passes; PTEs made PROT_NONE.
shootdowns() { awk '$1 == "TLB:" { for (i = 2; $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }
passes() { cat $A/knuma_scand/full_scans; }
pte_updates() { awk '$1 == "numa_pte_updates" { print $2 }' /proc/vmstat; }

"$stream" -p 2 -t 2 -s 128 -d $((rounds * secs + 10)) -b 0 -r 0 > stream.log &
sleep 5
for r in $(seq "$rounds"); do
	s0=$(shootdowns) p0=$(passes) u0=$(pte_updates)
	sleep "$secs"
	s=$(($(shootdowns) - s0)) p=$(($(passes) - p0)) u=$(($(pte_updates) - u0))
	echo "scan-flushes: round=$r passes=$p shootdowns=$s pte_updates=$u" \
		"per_pass=$(awk -v s=$s -v p=$p 'BEGIN { printf "%.1f", p ? s / p : -1 }')"
done
wait
grep -q "check=ok" stream.log || { echo "scan-flushes: stream's data check failed" >&2; exit 1; }
