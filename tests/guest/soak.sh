#!/bin/bash
# Guest side of `make soak`: SECONDS of workloads starting and ending (stream
# processes, numa02-style threaded streams, on base pages and THPs) while
# AutoNUMA is toggled, its placement path flipped and its knobs changed.
# Then, with AutoNUMA disabled and idle: nothing isolated, AutoNUMA's slab
# objects back to their idle level (as many as before per task and per mm,
# counted exactly: boot with slub_debug=U,sched_autonuma,mm_autonuma,
# task_struct,mm_struct; /proc/slabinfo's active objects are not exact), its counters
# consistent with vmstat's, and every workload's data check passed.
# Writes soak.log in the run directory.
#
# usage: soak.sh SECONDS WORKLOADS-DIR
#   SOAK_SEED: the random seed (the same choices; their timing still varies)
set -euo pipefail
secs=$1 w=$2
A=/sys/kernel/mm/autonuma
THP=/sys/kernel/mm/transparent_hugepage/enabled
log=soak.log
: >"$log"
say() { echo "soak: $*" | tee -a "$log"; }
fail() { say "FAILED: $*"; exit 1; }

[ -w $A/enabled ] || fail "this kernel has no AutoNUMA"
caches="sched_autonuma mm_autonuma task_struct mm_struct"
for c in $caches; do
	[ -r /sys/kernel/debug/slab/$c/alloc_traces ] ||
		fail "no allocation traces of slab cache $c: boot with slub_debug=U,${caches// /,}"
done
seed=${SOAK_SEED:-$(date +%s)}
RANDOM=$seed
say "seed $seed (SOAK_SEED), $secs s"

vm() { sed -n "s/^$1 //p" /proc/vmstat; }
# AutoNUMA's objects beyond one per task and one per mm, into $extra.
# No process may start or end meanwhile (it makes and frees the very
# objects counted; an mm's statistics are freed an RCU grace period after
# it): builtins only, and settled once three reads a second apart agree.
mkfifo /dev/shm/soak-tick
exec {tick}<>/dev/shm/soak-tick
rm /dev/shm/soak-tick
nap() { read -r -t "$1" -u "$tick" _ || true; }	# sleep(1) without a fork
live() {	# live objects of slab cache $1 (the sum over its allocation sites), into $n
	local count rest
	n=0
	while read -r count rest; do
		if [[ $count =~ ^[0-9]+$ ]]; then n=$((n + count)); fi
	done </sys/kernel/debug/slab/$1/alloc_traces
}
counts() {
	live sched_autonuma; local s=$n; live task_struct; s=$((s - n))
	live mm_autonuma; local m=$n; live mm_struct
	now="$s $((m - n))"
}
settle() {
	local i same=0 prev=
	nap 2
	for ((i = 0; i < 30; i++)); do
		counts
		if [ "$now" = "$prev" ]; then same=$((same + 1)); else same=0; fi
		[ $same -lt 2 ] || { extra=$now; return; }
		prev=$now
		nap 1
	done
	fail "AutoNUMA's slab counts did not settle (last: $now)"
}

# the knobs' values now, restored at the end
knobs=(knuma_scand/scan_sleep_millisecs knuma_scand/scan_sleep_pass_millisecs
	knuma_scand/scan_sleep_pass_min_millisecs knuma_scand/pages_to_scan knuma_scand/pmd knuma_scand/working_set
	knuma_migrated/migrate_sleep_millisecs knuma_migrated/pages_to_migrate
	knuma_migrated/defer knuma_migrated/migrate_on_fault knuma_migrated/follow_moved_thread
	scheduler/clone_reset scheduler/fork_reset
	scheduler/load_balance_strict scheduler/balance_mode)
declare -A saved
for k in "${knobs[@]}" enabled; do read -r saved[$k] <$A/$k; done
read -r thp_saved <$THP
thp_saved=${thp_saved#*[} thp_saved=${thp_saved%%]*}
# valid values for each knob (sleeps kept short: the soak should work)
declare -A values=(
	[knuma_scand/scan_sleep_millisecs]="0 10 50"
	[knuma_scand/scan_sleep_pass_millisecs]="0 100 500 2000"
	[knuma_scand/scan_sleep_pass_min_millisecs]="0 200 500 5000"
	[knuma_scand/pages_to_scan]="1024 8192 32768 131072"
	[knuma_scand/pmd]="0 1" [knuma_scand/working_set]="0 1"
	[knuma_migrated/migrate_sleep_millisecs]="1 20 100"
	[knuma_migrated/pages_to_migrate]="64 4096 32768"
	[knuma_migrated/defer]="0 1" [knuma_migrated/migrate_on_fault]="0 1"
	[knuma_migrated/follow_moved_thread]="0 1"
	[scheduler/clone_reset]="0 1"
	[scheduler/fork_reset]="0 1" [scheduler/load_balance_strict]="0 1"
	[scheduler/balance_mode]="lb schedule")
# one of the words of $1 into $picked (no subshell: it would reseed RANDOM)
pick() { local a=($1); picked=${a[RANDOM % ${#a[@]}]}; }

echo 0 >$A/enabled
settle
idle_extra=$extra
declare -A before
for c in pages_migrated pages_scanned full_scans; do
	before[$c]=$(cat $A/*/$c)
done
mig0=$(vm pgmigrate_success)
echo 1 >$A/enabled

# workloads: at most three at a time, each checks its data at its end
pids=() started=0 passed=0
reap() {
	local p live=()
	for p in "${pids[@]}"; do
		if kill -0 "$p" 2>/dev/null; then
			live+=("$p")
		else
			wait "$p" || fail "a workload's check (pid $p, see soak.log)"
			passed=$((passed + 1))
		fi
	done
	pids=("${live[@]}")
}
start_one() {
	local d=$((5 + RANDOM % 20)) b=$((RANDOM % 2))
	case $((RANDOM % 3)) in
	0) "$w/stream" -p 2 -t 1 -s $((16 + RANDOM % 64)) -d $d -b $b >>"$log" 2>&1 & ;;
	1) "$w/stream" -p 1 -t 4 -s $((32 + RANDOM % 96)) -d $d -b $b >>"$log" 2>&1 & ;;	# numa02
	2) "$w/stream" -p 2 -t 2 -s 64 -d $d -b $b -r $((1 - b)) >>"$log" 2>&1 & ;;
	esac
	pids+=($!)
	started=$((started + 1))
}

toggles=0 flips=0 writes=0 thp_flips=0
declare -A path_secs=([lb]=0 [schedule]=0)
end=$((SECONDS + secs))
while [ $SECONDS -lt $end ]; do
	reap
	[ ${#pids[@]} -ge 3 ] || start_one
	case $((RANDOM % 10)) in
	0) read -r e <$A/enabled; echo $((1 - e)) >$A/enabled; toggles=$((toggles + 1)) ;;
	1 | 2) read -r m <$A/scheduler/balance_mode
	   [ "$m" = lb ] && m=schedule || m=lb
	   echo $m >$A/scheduler/balance_mode; flips=$((flips + 1)) ;;
	3) pick "always madvise never"; echo "$picked" >$THP; thp_flips=$((thp_flips + 1)) ;;
	*) k=${knobs[RANDOM % (${#knobs[@]} - 1)]}	# balance_mode: above
	   pick "${values[$k]}"; echo "$picked" >$A/$k; writes=$((writes + 1)) ;;
	esac
	# the second half makes sure both paths ran enabled
	if [ $((end - SECONDS)) -lt $((secs / 2)) ]; then
		for m in lb schedule; do
			[ "${path_secs[$m]}" = 0 ] || continue
			echo $m >$A/scheduler/balance_mode
			echo 1 >$A/enabled
			break
		done
	fi
	sleep 2
	read -r e <$A/enabled
	read -r m <$A/scheduler/balance_mode
	[ "$e" = 0 ] || path_secs[$m]=$((path_secs[$m] + 2))
done
while [ ${#pids[@]} -gt 0 ]; do reap; sleep 1; done
say "$started workloads started, $passed passed their check; AutoNUMA toggled $toggles times," \
	"path flipped $flips times (enabled: ${path_secs[lb]} s lb, ${path_secs[schedule]} s schedule)," \
	"$writes knob writes, THP mode changed $thp_flips times"
[ "$passed" = "$started" ] || fail "$passed of $started workloads passed"
if [ "$secs" -ge 60 ]; then
	[ "${path_secs[lb]}" -gt 0 ] && [ "${path_secs[schedule]}" -gt 0 ] ||
		fail "both placement paths ran"
fi

# idle again: defaults back, AutoNUMA disabled (its queues flushed)
for k in "${knobs[@]}"; do echo "${saved[$k]}" >$A/$k; done
echo "$thp_saved" >$THP
echo 0 >$A/enabled
sleep 2
for t in anon file; do
	n=$(vm nr_isolated_$t)
	[ "$n" = 0 ] || fail "$n $t pages still isolated"
done
read -r m1 <$A/knuma_migrated/pages_migrated
sleep 2
read -r m2 <$A/knuma_migrated/pages_migrated
[ "$m1" = "$m2" ] || fail "knuma_migrated still migrates while disabled ($m1 -> $m2)"
declare -A delta
for c in pages_migrated pages_scanned full_scans; do
	delta[$c]=$(($(cat $A/*/$c) - before[$c]))
done
mig=$(($(vm pgmigrate_success) - mig0))
say "counters: ${delta[full_scans]} full scans, ${delta[pages_scanned]} pages scanned," \
	"${delta[pages_migrated]} pages migrated by knuma_migrated of $mig migrated (vmstat pgmigrate_success)"
if [ "$secs" -ge 60 ]; then
	[ "${delta[full_scans]}" -gt 0 ] && [ "${delta[pages_scanned]}" -gt 0 ] ||
		fail "knuma_scand scanned nothing"
	[ "${delta[pages_migrated]}" -gt 0 ] || fail "knuma_migrated migrated nothing"
fi
[ "${delta[pages_migrated]}" -le "$mig" ] ||
	fail "knuma_migrated counts more migrated pages than vmstat"
settle
after_extra=$extra
live sched_autonuma; s=$n; live mm_autonuma
say "slab: AutoNUMA's objects beyond one per task and per mm: idle '$idle_extra', after '$after_extra'" \
	"($s sched_autonuma, $n mm_autonuma live)"
[ "$after_extra" = "$idle_extra" ] || fail "AutoNUMA's slab objects did not come back to their idle level"
echo "${saved[enabled]}" >$A/enabled
say "ok"
