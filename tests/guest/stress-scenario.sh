#!/bin/bash
# Guest side of harness/stress-matrix.sh: one reliability scenario, bounded in time,
# with AutoNUMA enabled here (inside the trace, so the knuma_migrated ledger
# starts empty) and disabled at the end (its queues are flushed, so the
# ledger ends empty).  Fails if a workload's data check fails, a
# scenario's own check does, or (STRESS_KMEMLEAK=1) a kmemleak scan at the
# end finds an unreferenced object that AutoNUMA allocated.  Writes stress.log in the
# run directory.
#
# usage: stress-scenario.sh SCENARIO PATH WORKLOADS-DIR
#   PATH: lb or schedule (AutoNUMA's placement path)
#   churn     fork/exec/exit storm while knuma_scand scans without sleeps
#             and stream's pages sit in the migration queues
#   mm        mm-stress: munmap, mremap, MADV_DONTNEED, THP split and
#             collapse on memory being queued and migrated
#   mmbase    mm-stress in base pages (THP off): the same on pages that
#             their hinting faults isolate and migrate (migrate_on_fault)
#   policy    stream under mbind(2) beside an unbound stream: the bound
#             one's pages stay, the unbound one's move
#   hotplug   node 1's CPUs offlined and onlined while stream balances
#   pressure  node 1 filled to near its watermarks by a bound hog, then
#             stream's threads run there: migration backs off, no OOM kill
#   knobs     random valid and invalid sysfs writes, the path switched,
#             under load: errors change nothing; no file takes a write
#             from a user other than root, every file reads
#   oom       stream OOM-killed by its memory cgroup's limit while its
#             pages are queued and migrated: queues drained (the ledger),
#             nothing left isolated
#   switch    upstream NUMA balancing enabled while AutoNUMA runs (refused)
#             and the reverse, under load
#   exec      exec storm: processes with hinting-fault statistics exec
#             themselves again and again while the placement runs on
#             every CPU (stream on both nodes)
#   fragment  node 1 fragmented by a bound hog (free memory, no free 2 MiB
#             block), a THP-backed stream's threads there: its THPs cannot
#             move and are accounted, nr_isolated_anon never exceeds one
#             batch (256 pages + a THP), no OOM kill
#   memoffline (topology 2node-hotmem, its DIMM onlined movable) node 1's
#             memory blocks offlined and onlined again while stream's
#             pages are queued for and migrated into node 1: entries for
#             offlined frames dropped and counted, knuma_migrated1 keeps
#             migrating afterwards
set -euo pipefail
scenario=$1 path=$2 w=$3
A=/sys/kernel/mm/autonuma
log=stress.log
: >"$log"
say() { echo "stress: $*" | tee -a "$log"; }
# On failure, what a reader of the log needs to tell a slow run from a
# broken one: migration counters and each node's free memory.
diagnose() {
	grep -E '^(numa_hint_faults|pgmigrate_(success|fail)|thp_migration_(success|fail|split)|thp_fault_(alloc|fallback)) ' \
		/proc/vmstat | tr '\n' ' ' | sed 's/^/stress: vmstat: /' >>"$log"
	echo >>"$log"
	for n in /sys/devices/system/node/node[0-9]*; do
		echo "stress: ${n##*/}: $(sed -n 's/.*MemFree: *//p' "$n/meminfo") free" >>"$log"
	done
}
fail() { say "FAILED: $*"; diagnose; exit 1; }

[ -w $A/enabled ] || fail "this kernel has no AutoNUMA"
echo "$path" > $A/scheduler/balance_mode
# Fast scanning: stress the paths, not the clock.
echo 200 > $A/knuma_scand/scan_sleep_pass_millisecs
echo 10 > $A/knuma_scand/scan_sleep_millisecs
echo 1 > $A/enabled

stream() { "$w/stream" "$@" >>"$log" 2>&1; }
. "$(dirname "$0")/../../workloads/stream-lines.sh"
# share PID N: that stream's share of pages on node N at the end
share() { stream_done "$log" nodes "$1" | node_share "$2"; }

case $scenario in
churn)
	echo 0 > $A/knuma_scand/scan_sleep_millisecs
	echo 0 > $A/knuma_scand/scan_sleep_pass_millisecs
	stream -p 1 -t 2 -s 64 -d 20 -b 0 -r 1 &
	s=$!
	n=0
	while kill -0 $s 2>/dev/null; do
		for _ in 1 2 3 4 5 6 7 8; do (/bin/true; sh -c 'exit 0') & done
		wait -n 2>/dev/null || true
		n=$((n + 8))
		[ $((n % 40)) != 0 ] || { echo 0 > $A/enabled; echo 1 > $A/enabled; }
	done
	wait $s || fail "stream's check"
	say "$n processes forked, exec'd and exited; AutoNUMA toggled $((n / 40)) times" ;;
mm)
	"$w/mm-stress" -s 64 -t 2 -d 20 -b 0 -r 1 | tee -a "$log" || fail "mm-stress's check" ;;
mmbase)
	thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)
	echo never > /sys/kernel/mm/transparent_hugepage/enabled
	"$w/mm-stress" -s 64 -t 2 -d 20 -b 0 -r 1 | tee -a "$log" || fail "mm-stress's check"
	echo "$thp" > /sys/kernel/mm/transparent_hugepage/enabled
	grep -q '^numa_pages_migrated [1-9]' /proc/vmstat || fail "no page migrated"
	say "pages migrated (by knuma_migrated and the hinting faults): $(cat $A/knuma_migrated/pages_migrated)" ;;
policy)
	stream -p 1 -t 1 -s 64 -d 20 -b 0 -r 1 -m mbind &
	b=$!
	stream -p 1 -t 1 -s 64 -d 20 -b 0 -r 1 &
	u=$!
	wait $b || fail "the bound stream's check"
	wait $u || fail "the unbound stream's check"
	# the two "done" lines, in either order: the bound one's pages must
	# stay on node 0, the unbound one's must follow its threads
	read -r p1 p2 <<<"$(stream_done "$log" pid | tr '\n' ' ')"
	on1_a=$(share "$p1" 1) on1_b=$(share "$p2" 1)
	say "pages on node 1 at the end: $on1_a% and $on1_b% (one stream is mbind()ed to node 0)"
	read -r lo hi <<<"$(printf '%s\n%s\n' "$on1_a" "$on1_b" | sort -g | tr '\n' ' ')"
	awk -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(lo != "" && lo <= 5 && hi >= 50) }' ||
		fail "on node 1: bound stream ${lo:-?}% (max 5), unbound ${hi:-?}% (min 50)" ;;
hotplug)
	stream -p 2 -t 1 -s 64 -d 20 -b 0 &
	s=$!
	cpus=$(tr ',' ' ' < /sys/devices/system/node/node1/cpulist | sed 's/\([0-9]*\)-\([0-9]*\)/$(seq \1 \2)/g')
	cpus=$(eval echo "$cpus")
	n=0
	while kill -0 $s 2>/dev/null; do
		for c in $cpus; do echo 0 > /sys/devices/system/cpu/cpu$c/online; done
		sleep 0.5
		for c in $cpus; do echo 1 > /sys/devices/system/cpu/cpu$c/online; done
		sleep 0.5
		n=$((n + 1))
	done
	wait $s || fail "stream's check"
	say "node 1's CPUs ($cpus) offlined and onlined $n times"
	# knuma_migrated1 lost its node's CPUs at each offline: it must be
	# bound to them again, not left on the fallback (every CPU)
	want=$(cat /sys/devices/system/node/node1/cpulist)
	got=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$(pgrep -x knuma_migrated1)/status")
	say "knuma_migrated1 runs on CPUs $got (node 1: $want)"
	[ "$got" = "$want" ] || fail "knuma_migrated1 is not bound to node 1's CPUs again" ;;
pressure)
	free_kb=$(sed -n 's/.*MemFree: *\([0-9]*\) kB/\1/p' /sys/devices/system/node/node1/meminfo)
	hog=$((free_kb / 1024 - 96))
	[ "$hog" -gt 64 ] || fail "node 1 has only $((free_kb / 1024)) MiB free"
	"$w/stream" -p 1 -t 1 -s "$hog" -d 30 -b 1 -r 1 -m mbind >>"$log" 2>&1 &
	h=$!
	node1_free() { sed -n 's/.*MemFree: *\([0-9]*\) kB/\1/p' /sys/devices/system/node/node1/meminfo; }
	# until the hog has touched all its memory (its timed run started):
	# a bound task still allocating on a node that migration fills down
	# to its high watermark is OOM-killed (so it would be by upstream
	# NUMA balancing, whose watermark check AutoNUMA shares)
	for _ in $(seq 240); do
		! grep -q '^stream: t=' "$log" || break
		sleep 0.5
	done
	say "node 1: $(node1_free) kB free after a $hog MiB hog"
	[ "$(node1_free)" -le $((200 * 1024)) ] || fail "the hog did not fill node 1 in 2 minutes"
	stream -p 1 -t 2 -s 128 -d 15 -b 0 -r 1 || fail "stream's check"
	say "stream's pages on node 1 at the end: $(stream_done "$log" nodes | node_share 1 | tail -1)%"
	wait $h || fail "the hog's check"
	! dmesg | grep -E 'invoked oom-killer|Out of memory|Killed process' >/dev/null ||
		fail "the OOM killer ran"
	say "no OOM kill; pgmigrate_fail $(sed -n 's/^pgmigrate_fail //p' /proc/vmstat)" ;;
knobs)
	stream -p 2 -t 1 -s 64 -d 20 -b 0 &
	s=$!
	knobs=($A/debug $A/knuma_scand/scan_sleep_millisecs $A/knuma_scand/scan_sleep_pass_millisecs
		$A/knuma_scand/scan_sleep_pass_min_millisecs $A/knuma_scand/pages_to_scan $A/knuma_scand/pmd $A/knuma_scand/working_set
		$A/knuma_migrated/migrate_sleep_millisecs $A/knuma_migrated/pages_to_migrate
		$A/knuma_migrated/defer $A/knuma_migrated/migrate_on_fault $A/knuma_migrated/follow_moved_thread
		$A/scheduler/clone_reset $A/scheduler/fork_reset
		$A/scheduler/load_balance_strict $A/scheduler/smt
		$A/scheduler/balance_mode)
	values=(0 1 2 10 100 1000 -1 4294967296 99999999999999999999 abc '' ' 5' 0x10 lb schedule bogus)
	n=0 refused=0
	while kill -0 $s 2>/dev/null && [ $n -lt 600 ]; do
		k=${knobs[RANDOM % ${#knobs[@]}]} v=${values[RANDOM % ${#values[@]}]}
		read -r before <"$k"	# builtins only: forks are slow here
		if echo "$v" 2>/dev/null > "$k"; then
			read -r after <"$k"
			# a write that succeeded must read back as written
			[ "$after" = "$v" ] || [ "$after" = "${v# }" ] ||
				fail "$k: wrote '$v', reads '$after'"
		else
			refused=$((refused + 1))
			read -r after <"$k"
			[ "$after" = "$before" ] || fail "$k: refused '$v' but changed"
		fi
		n=$((n + 1))
	done
	# back to sane values, the stream still running
	echo 0 > $A/debug; echo 10 > $A/knuma_scand/scan_sleep_millisecs
	echo 200 > $A/knuma_scand/scan_sleep_pass_millisecs; echo 32768 > $A/knuma_scand/pages_to_scan
	echo 1 > $A/knuma_scand/pmd; echo 0 > $A/knuma_migrated/defer
	echo 1 > $A/knuma_migrated/migrate_on_fault; echo 1 > $A/knuma_migrated/follow_moved_thread
	echo 100 > $A/knuma_migrated/migrate_sleep_millisecs
	wait $s || fail "stream's check"
	say "$n random writes, $refused refused with the value unchanged"
	# unprivileged: every file reads, no write is taken (EACCES), the
	# value stays (AutoNUMA stopped, so that its counters do too)
	echo 0 > $A/enabled
	sleep 1
	files=0
	for f in $(find $A -type f); do
		read -r before <"$f"
		setpriv --reuid=65534 --regid=65534 --clear-groups cat "$f" >/dev/null ||
			fail "$f: nobody cannot read it"
		err=$(setpriv --reuid=65534 --regid=65534 --clear-groups \
			sh -c 'echo 1 > "$1"' sh "$f" 2>&1) && fail "$f: nobody wrote to it"
		[[ $err == *"Permission denied"* ]] || fail "$f: nobody's write failed with '$err', not EACCES"
		read -r after <"$f"
		[ "$after" = "$before" ] || fail "$f: changed by nobody's refused write"
		files=$((files + 1))
	done
	echo 1 > $A/enabled
	say "$files files: read by nobody, every write by nobody refused (EACCES), unchanged" ;;
oom)
	cg=/sys/fs/cgroup
	mountpoint -q $cg || mount -t cgroup2 none $cg
	echo +memory > $cg/cgroup.subtree_control
	mkdir -p $cg/oom
	migrated() { cat $A/knuma_migrated/pages_migrated; }
	m0=$(migrated)
	sh -c 'echo $$ > /sys/fs/cgroup/oom/cgroup.procs; exec "$@"' sh \
		"$w/stream" -p 1 -t 2 -s 128 -d 60 -b 0 -r 1 >>"$log" 2>&1 &
	s=$!
	# until AutoNUMA migrates its pages, then a limit far below its use
	for _ in $(seq 240); do
		[ "$(migrated)" -lt $((m0 + 2048)) ] || break
		sleep 0.25
	done
	m1=$(migrated)
	[ "$m1" -ge $((m0 + 2048)) ] || fail "stream's pages did not start to move in 60 s"
	echo $((16 << 20)) > $cg/oom/memory.max
	rc=0
	wait $s || rc=$?
	[ $rc = 137 ] || fail "stream was not OOM-killed (status $rc)"
	grep -q '^oom_kill [1-9]' $cg/oom/memory.events || fail "the cgroup counts no OOM kill"
	rmdir $cg/oom
	say "stream OOM-killed (status $rc) $((m1 - m0)) pages into its migration, $(( $(migrated) - m0 )) at the end" ;;
switch)
	stream -p 2 -t 1 -s 64 -d 20 -b 0 &
	s=$!
	n=0
	while kill -0 $s 2>/dev/null; do
		! echo 1 2>/dev/null > /proc/sys/kernel/numa_balancing ||
			fail "NUMA balancing enabled while AutoNUMA runs"
		echo 0 > $A/enabled
		echo 1 > /proc/sys/kernel/numa_balancing
		! echo 1 2>/dev/null > $A/enabled || fail "AutoNUMA enabled while NUMA balancing runs"
		sleep 0.3
		echo 0 > /proc/sys/kernel/numa_balancing
		echo 1 > $A/enabled
		sleep 0.3
		n=$((n + 1))
	done
	wait $s || fail "stream's check"
	say "$n switches between AutoNUMA and NUMA balancing, each refused while the other ran" ;;
exec)
	# exec_mmap()'s mmput(old_mm) can free the old mm_autonuma while a
	# placement on another CPU reads it through the exec'ing task's
	# sched_autonuma (issue 15 item 3): the images must have statistics
	# for the placement to read, so they live long enough for hinting
	# faults with scans that do not sleep, and stream's threads keep the
	# placement busy on both nodes.  Preemption as built (voluntary): a
	# debug kernel with PREEMPT_DYNAMIC (CI simulation of 2026-12-06) hung
	# in 3 of about 30 boots in the early RCU-tasks self tests, and switching
	# it to full at run time (debugfs sched/preempt) under TCG trapped on
	# a stale int3 of the patched cond_resched() call in knuma_scand.
	echo 0 > $A/knuma_scand/scan_sleep_millisecs
	echo 0 > $A/knuma_scand/scan_sleep_pass_millisecs
	stream -p 2 -t 1 -s 64 -d 25 -b 0 &
	s=$!
	"$w/exec-storm" -p 4 -t 2 -s 8 -l 100 -d 20 >>"$log" 2>&1 || fail "exec-storm's check"
	wait $s || fail "stream's check"
	# the chains' done lines: execs, images with hinting faults, images
	# the placement had given a node
	read -r execs faulted placed < <(awk '$1 == "exec-storm:" && $2 == "done" {
		for (i = 3; i <= NF; i++) { split($i, kv, "="); n[kv[1]] += kv[2] }
	} END { print n["execs"] + 0, n["faulted"] + 0, n["placed"] + 0 }' "$log")
	say "$execs execs; $faulted images took hinting faults, $placed had a node from the placement"
	# about 100 on the base kernel; the KASAN kernel is slower: a storm,
	# not a rate
	[ "$execs" -ge 20 ] || fail "at least 20 execs in 20 s, saw $execs"
	# else the placement had nothing to read in the window
	[ "$faulted" -ge $((execs / 4)) ] ||
		fail "at least a quarter of the images ($((execs / 4))) with hinting faults, saw $faulted"
	[ "$placed" -gt 0 ] || fail "the placement evaluated some images (a node in /proc), saw none" ;;
fragment)
	# knuma_migrated into a node with free memory but no free 2 MiB block
	# (issue 15 item 5): stream's base pages can move, its THPs cannot
	# (the allocation fails, the THP is not split for a NUMA move) and
	# must come back and be accounted (the ledger).  A batch isolates at
	# most 256 base pages and a THP ends it: a node never has more than
	# 768 isolated at once (on two nodes one knuma_migrated takes from it).
	vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
	blocks() {	# node 1's free blocks of order >= 9, in 2 MiB blocks
		awk '$1 == "Node" && $2 == "1," { for (i = 14; i <= NF; i++) n += $i * 2 ^ (i - 14) }
			END { print n + 0 }' /proc/buddyinfo
	}
	grep -q '\[always\]' /sys/kernel/mm/transparent_hugepage/enabled ||
		fail "THP enabled 'always' (a THP-backed stream), saw '$(cat /sys/kernel/mm/transparent_hugepage/enabled)'"
	# the hog's pages are mlock()ed: compaction must not move them and
	# rebuild free 2 MiB blocks behind the test's back; it keeps node 1
	# so until stopped
	echo 0 > /proc/sys/vm/compact_unevictable_allowed
	"$w/frag-hog" -n 1 >>"$log" 2>&1 &
	h=$!
	for _ in $(seq 240); do
		! grep -q '^frag-hog: node=' "$log" || break
		kill -0 $h 2>/dev/null || fail "frag-hog exited before it fragmented node 1"
		sleep 0.5
	done
	grep -q '^frag-hog: node=' "$log" || fail "frag-hog did not fragment node 1 in 2 minutes"
	# pages freed elsewhere on node 1 can merge into a free 2 MiB block:
	# the hog takes it within 100 ms
	for _ in $(seq 10); do
		b0=$(blocks)
		[ "$b0" != 0 ] || break
		sleep 0.2
	done
	say "node 1 before stream: $b0 free blocks of order >= 9, $(sed -n 's/.*MemFree: *//p' /sys/devices/system/node/node1/meminfo) free"
	[ "$b0" = 0 ] || fail "no free 2 MiB block on node 1 after the hog, saw $b0"
	keys="pgmigrate_success pgmigrate_fail thp_migration_success thp_migration_fail thp_migration_split thp_fault_alloc allocstall_movable allocstall_normal allocstall_dma32"
	declare -A before
	for k in $keys; do before[$k]=$(vm $k); done
	stream -p 1 -t 2 -s 128 -d 20 -b 0 -r 1 &
	s=$!
	# every ~100 ms, builtins only (read -t on a pipe that never speaks
	# is the sleep): the most pages either node had isolated at once
	exec {nap}<> <(:)
	max=0 samples=0
	while kill -0 $s 2>/dev/null; do
		for n in 0 1; do
			while read -r k v; do
				[ "$k" != nr_isolated_anon ] || [ "$v" -le $max ] || max=$v
			done < /sys/devices/system/node/node$n/vmstat
		done
		samples=$((samples + 1))
		read -rt 0.1 -u $nap || true
	done
	wait $s || fail "stream's check"
	declare -A delta
	d=""
	for k in $keys; do
		delta[$k]=$(($(vm $k) - ${before[$k]}))
		d="$d $k +${delta[$k]}"
	done
	# a node's counter leaves out what each CPU has not folded into it
	# yet, up to its stats threshold either way (a batch of 255 pages and
	# a THP has read 767 here)
	slack=$(($(grep -c '^processor' /proc/cpuinfo) *
		$(awk '/vm stats threshold:/ && $4 > m { m = $4 } END { print m + 0 }' /proc/zoneinfo)))
	say "max nr_isolated_anon $max pages (bound 768 + $slack of drift) over $samples samples of nodes 0 and 1;$d"
	# stream's pages from its last interval: at its done line the threads
	# are stopped and knuma_scand has marked most pages PROT_NONE, which
	# move_pages(2) does not report on this 6.1 (gup_can_follow_protnone)
	last=$(stream_interval "$log" nodes | tail -n 1 | node_share 1)
	say "node 1 at the end: $(blocks) free blocks of order >= 9; stream's pages there: $last%"
	kill -TERM $h
	wait $h || fail "frag-hog's check of its held pages"
	[ "$max" -le $((768 + slack)) ] ||
		fail "at most 768 pages isolated on a node (256 + a THP; + $slack of counter drift), saw $max"
	# else the THPs never tried to move into the fragmented node
	[ "${delta[thp_migration_fail]}" -gt 0 ] || fail "THP migrations to node 1 failing, saw none fail"
	stalls=$((delta[allocstall_movable] + delta[allocstall_normal] + delta[allocstall_dma32]))
	[ "$stalls" = 0 ] || fail "no direct reclaim while stream ran, saw $stalls allocstalls"
	! dmesg | grep -E 'invoked oom-killer|Out of memory|Killed process' >/dev/null ||
		fail "the OOM killer ran" ;;
memoffline)
	# node 1's memory is the DIMM's blocks, onlined movable at boot
	# (memhp_default_state=online_movable), so they can go offline
	blocks=$(for m in /sys/devices/system/node/node1/memory[0-9]*; do
		[ -e "$m" ] && echo "${m##*/memory}"; done)
	[ -n "$blocks" ] || fail "node 1 has no memory blocks (topology 2node-hotmem?)"
	state() { cat "/sys/devices/system/memory/memory$1/state"; }
	# set BLOCK STATE: at most 20 s (an offline that keeps finding busy
	# pages is interrupted: it fails and the block stays online)
	set_state() { timeout 20 sh -c "echo $2 > /sys/devices/system/memory/memory$1/state" 2>/dev/null; }
	# pages queued into node 1 and out of it while its memory goes away
	stream -p 1 -t 2 -s 48 -d 40 -b 0 -r 1 &
	s1=$!
	stream -p 1 -t 1 -s 32 -d 40 -b 1 -r 0 &
	s2=$!
	sleep 3
	n=0 refused=0
	while kill -0 $s1 2>/dev/null; do
		for b in $blocks; do set_state "$b" offline || refused=$((refused + 1)); done
		sleep 1
		for b in $blocks; do [ "$(state "$b")" = online ] || set_state "$b" online_movable ||
			fail "memory block $b does not come back online"; done
		sleep 1
		n=$((n + 1))
	done
	wait $s1 || fail "the stream moving into node 1: its check"
	wait $s2 || fail "the stream moving out of node 1: its check"
	say "node 1's $(echo $blocks | wc -w) memory blocks offlined and onlined $n times ($refused offlines refused or interrupted)"
	# each cycle migrates node 1's pages away: 10-20 s under TCG (2-3
	# cycles on the base kernel, fewer with KASAN)
	[ "$n" -ge 1 ] || fail "at least 1 offline/online cycle, saw $n"
	# knuma_migrated1 still migrates into node 1
	"$w/stream" -p 1 -t 2 -s 64 -d 10 -b 0 -r 1 >stream2.log 2>&1 || { cat stream2.log >>"$log"; fail "the last stream's check"; }
	cat stream2.log >>"$log"
	last=$(stream_interval stream2.log nodes | tail -n 1 | node_share 1)
	say "after the cycles, a stream's pages on node 1 in its last second: $last%"
	awk -v v="$last" 'BEGIN { exit !(v != "" && v >= 80) }' ||
		fail "after the cycles, >= 80% of a new stream's pages move into node 1, saw ${last:-?}%" ;;
*) fail "unknown scenario '$scenario'" ;;
esac

echo 0 > $A/enabled
sleep 2		# knuma_migrated flushes its queues
# nothing left isolated: every page knuma_migrated took went back or moved
for t in anon file; do
	n=$(sed -n "s/^nr_isolated_$t //p" /proc/vmstat)
	[ "$n" = 0 ] || fail "$n $t pages still isolated"
done
# kmemleak (the debug kernel): nothing AutoNUMA allocated is unreferenced.
# kmemleak reports an object older than 5 s that no scanned memory points
# to and whose contents did not change since the previous scan: two scans.
# Other suspects (the kernel's own, boot-time ones) are counted, not failed.
# STRESS_KMEMLEAK=1 (harness/stress-matrix.sh): booted with kmemleak=on.
kmemleak=/sys/kernel/debug/kmemleak
if [ "${STRESS_KMEMLEAK:-0}" = 1 ]; then
	[ -e $kmemleak ] || fail "kmemleak asked for, but this kernel has none"
	for i in 1 2; do
		echo scan 2>/dev/null >$kmemleak ||
			fail "kmemleak refuses to scan: it disabled itself (see the console)"
	done
	cat $kmemleak >kmemleak.txt
	read -r all ours < <(awk '
		function done() { if (obj) { all++; if (mine) ours++ } }
		/^unreferenced object/ { done(); obj = 1; mine = 0; bt = 0 }
		/^  backtrace:/ { bt = 1; next }
		bt && /autonuma|knuma_/ { mine = 1 }
		END { done(); print all + 0, ours + 0 }' kmemleak.txt)
	say "kmemleak: $all unreferenced objects, $ours allocated by AutoNUMA"
	[ "$ours" = 0 ] || { grep -B12 -A4 -E '^ +\[<.*(autonuma|knuma_)' kmemleak.txt >>"$log"; fail "kmemleak: $ours of AutoNUMA's objects leaked"; }
fi
say "$scenario ($path): ok"
