#!/bin/bash
# Memory follows CPU on 2node: stream first-touches 96 MiB on node 0, then
# runs on node 1's CPUs.  With AutoNUMA enabled >= 90% of its pages end on
# node 1 (move_pages(2), not AutoNUMA's counters) and the data check passes;
# disabled, with noautonuma, or under an mbind/set_mempolicy policy nothing
# moves.  vmstat proves that knuma_scand really marks pages.
. "$(dirname "$0")/lib.sh"
runs=$TOP/results/tests/migrate
mkdir -p "$runs"
stream=$TOP/build/workloads/stream

# boot NAME MODE [APPEND]
boot() { APPEND=${3:-} TIMEOUT=300 guest 2node "$runs/$1" \
	"$TOP/tests/guest/autonuma-migrate.sh" "$2" "$stream"; }
# node_pct RUN NODE: the final share of the pages on NODE, in percent.
node_pct() { stream_done "$runs/$1/stream.log" nodes | node_share "$2"; }
# delta RUN FILE KEY: after - before of a "key value" counter.
delta() { echo $(($(awk -v k="$3" '$1 == k { print $2 }' "$runs/$1/$2.after") - \
	$(awk -v k="$3" '$1 == k { print $2 }' "$runs/$1/$2.before"))); }

check "enabled: boots and runs stream" boot enabled enabled
check "enabled: the data check passes" grep -q "check=ok" "$runs/enabled/stream.log"
check "enabled: >= 90% of the pages end on node 1" ge "$(node_pct enabled 1)" 90
check "enabled: knuma_scand finished passes" ge "$(delta enabled autonuma full_scans)" 1
check "enabled: knuma_scand marked pages (numa_pte_updates)" ge "$(delta enabled vmstat numa_pte_updates)" 1
check "enabled: hinting faults reached AutoNUMA (numa_hint_faults)" ge "$(delta enabled vmstat numa_hint_faults)" 1
# 96 MiB is 24576 pages; 80% of them at least moved.
check "enabled: pages_migrated counts the move" ge "$(delta enabled autonuma pages_migrated)" 19660
# Read one after the other while the guest's other processes may still move
# a page or two: equal within 1%.
within1pct() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d * 100 <= a) }'; }
check "enabled: vmstat agrees (numa_pages_migrated)" \
	within1pct "$(delta enabled vmstat numa_pages_migrated)" "$(delta enabled autonuma pages_migrated)"
check "enabled: knuma_migrated0 is bound to node 0's CPUs" grep -qx "knuma_migrated0 0-1" "$runs/enabled/threads"
check "enabled: knuma_migrated1 is bound to node 1's CPUs" grep -qx "knuma_migrated1 2-3" "$runs/enabled/threads"
check "enabled: the queues' memory per page is reported" \
	grep -Eq "autonuma: migration queues: [0-9]+ KiB for [0-9]+ pages \([0-9.]+ bytes per page\)" "$runs/enabled/console.log"
check "enabled: one knuma_scand" test "$(grep -c "^knuma_scand " "$runs/enabled/threads")" = 1

check "pte: boots and runs stream (knuma_scand/pmd=0)" boot pte pte
check "pte: the data check passes" grep -q "check=ok" "$runs/pte/stream.log"
check "pte: >= 90% of the pages end on node 1" ge "$(node_pct pte 1)" 90

for mode in disabled mbind task; do
	check "$mode: boots and runs stream" boot $mode $mode
	check "$mode: the data check passes" grep -q "check=ok" "$runs/$mode/stream.log"
	# First touch leaves up to ~1% on node 1 without any balancer (THP
	# collapse); a migration would leave >= 90% there.
	check "$mode: the pages stay on node 0" ge "$(node_pct $mode 0)" 95
	# Other processes (the guest's shell) may move a few pages; stream's
	# 24576 would be far more than a tenth of them.
	check "$mode: pages_migrated stays far below the workload's pages" \
		test "$(delta $mode autonuma pages_migrated)" -lt 2458
done
check "disabled: pages_migrated stays 0" test "$(delta disabled autonuma pages_migrated)" = 0
check "disabled: knuma_scand did not scan" test "$(delta disabled autonuma pages_scanned)" = 0

# Lifecycle under load: fork/exec/exit by the hundred while knuma_scand scans
# without sleeping and AutoNUMA is switched off and on (the console check
# fails the boot on any kernel error report).
check "churn: boots, forks, execs, toggles, runs stream" boot churn churn
check "churn: both stream processes pass the data check" \
	test "$(stream_done "$runs/churn/stream.log" check | grep -c "^ok$")" = 2
check "churn: knuma_scand kept scanning" ge "$(delta churn autonuma full_scans)" 10

check "noautonuma: boots and runs stream" boot noautonuma absent noautonuma
check "noautonuma: the data check passes" grep -q "check=ok" "$runs/noautonuma/stream.log"
check "noautonuma: the pages stay on node 0" ge "$(node_pct noautonuma 0)" 95
check "noautonuma: no knuma_* thread" test ! -s "$runs/noautonuma/threads"
check_fails "noautonuma: no migration queues allocated" grep -q "autonuma: migration queues" "$runs/noautonuma/console.log"
echo "1..$T"
exit $((FAILS > 0))
