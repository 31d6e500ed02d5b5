#!/bin/bash
# Guest side of tests/55-autonuma-correctness.t: one scenario per bug a
# review of the series found, each leaving in the run directory what the
# host checks.
#
# usage: autonuma-correctness.sh SCENARIO STREAM-BINARY
#   rt-lb, rt-schedule  a SCHED_FIFO stream whose memory is on node 0 runs on
#            node 1's CPUs, a fair stream whose memory is on node 1 on node
#            0's: AutoNUMA (placement path lb or schedule) may move the fair
#            threads, never the FIFO ones.  Writes fifo.tids, fifo.cpus.before
#            and fifo.cpus.after ("TID CPU" of the two busy FIFO threads) and
#            migrate.trace (the autonuma_task_migrate events).
#   cpuset   stream first-touches node 0 and runs on node 1, once in a cgroup
#            v2 cpuset with cpus 0-3 and mems 0 (cpuset.log), once outside it
#            (outside.log)
#   tgid     after short-lived exec'd processes, forked subshells (fork without
#            exec) live through a few knuma_scand passes: children (their pids)
#            and mm_stats.trace (the autonuma_mm_stats events)
#   reset    a stream thread placed by AutoNUMA is stopped, AutoNUMA disabled
#            and enabled again: node.before and node.after (autonuma_node of
#            /proc/TID/sched)
#   batch    a THP-backed stream migrates from node 0 to node 1 while the
#            pages isolated on node 0 are sampled: isolated.max (the largest
#            nr_isolated_anon + nr_isolated_file seen) and stream.log
#   ptemap   stream -E (its THPs mapped by PTEs) first touched on node 0,
#            then on node 1's CPUs: stream.log, vmstat.before/after
#   dedup    stream first-touches node 0 and runs on node 1 (base pages,
#            migrate_on_fault off: every misplaced page is queued) while
#            knuma_migrated takes one page and then sleeps an hour, so the
#            queued pages fault again every scan pass: queue.trace (the
#            autonuma_page_queue and autonuma_page_dequeue events),
#            faults.trace (the hinting faults' actions), overrun (events
#            the trace buffers lost)
#   enter    processes forked and exec'd while AutoNUMA is disabled, while
#            it is toggled, then it is enabled: children (the pids of the
#            forked ones), stream.log (one exec'd, first-touching node 0
#            and running on node 1), mm_stats.trace (autonuma_mm_stats
#            from the last enable on)
#   hotmem   (topology 2node-hotmem) node 1's memory came online after boot:
#            hotmem.dmesg (AutoNUMA's messages about it), node1.memtotal,
#            stream.log (first-touching node 0, running on node 1)
#   idle     SCHED softirqs per CPU over 10 idle seconds with AutoNUMA off
#            (softirq.off) and on with the load balancer's placement
#            (softirq.on); boot with nohz=off so every CPU keeps its tick
set -euo pipefail
scenario=$1 stream=$2
A=/sys/kernel/mm/autonuma
E=/sys/kernel/tracing/events/autonuma

# Short passes so that a few fit in the run; alpha10's other defaults.
echo 500 > $A/knuma_scand/scan_sleep_pass_millisecs

# Few forks below: with every CPU busy, a fork takes seconds in TCG.
# pid LOG: the pid of the (one) process a stream log is about.
pid() { local l; while read -r l; do [[ $l =~ pid=([0-9]+) ]] && { echo "${BASH_REMATCH[1]}"; return; }; done < "$1"; }
# threads PID: the TIDs of process PID's threads but its main thread.
threads() { local t; for t in /proc/$1/task/[0-9]*; do [ "${t##*/}" = "$1" ] || echo "${t##*/}"; done; }
# cpus: "TID CPU" (field 39 of /proc/TID/stat) for each TID on standard input.
cpus() {
	local t s
	while read -r t; do
		read -r s < "/proc/$t/stat" || continue
		set -- ${s##*) }
		echo "$t ${37}"
	done
}
# started LOG...: wait until each stream has printed its first interval.
started() {
	local i log
	for i in $(seq 240); do
		sleep 0.5
		for log; do grep -q "t=" "$log" || continue 2; done
		return 0
	done
	return 1
}
# say MESSAGE: MESSAGE with the guest's time in seconds (a builtin).
say() { printf '%(%s)T %s\n' -1 "$*"; }
trace_on() { echo > /sys/kernel/tracing/trace; echo 1 > "$E/$1/enable"; }
trace_off() { echo 0 > "$E/$1/enable"; cat /sys/kernel/tracing/trace > "$2"; }
sched_softirqs() { awk '$1 == "SCHED:" { for (i = 2; i <= NF; i++) printf "%s ", $i; print "" }' /proc/softirqs; }

case $scenario in
rt-lb | rt-schedule)
	echo "${scenario#rt-}" > $A/scheduler/balance_mode
	echo 1 > $A/enabled
	# The placement is tested, not memory following: knuma_migrated takes
	# one base page per 100 ms, so each process's memory stays where it was.
	echo never > /sys/kernel/mm/transparent_hugepage/enabled
	echo 1 > $A/knuma_migrated/pages_to_migrate
	# Memory first touched on one node, threads bound to the other's CPUs;
	# the fair stream first, so that the FIFO one's 40 s are all ahead.
	"$stream" -p 1 -t 2 -s 128 -d 50 -b 1 -r 0 > fair.log &
	started fair.log || { echo "the fair stream did not start"; exit 1; }
	chrt -f 10 "$stream" -p 1 -t 2 -s 128 -d 40 -b 0 -r 1 > fifo.log &
	fifo_parent=$!
	started fifo.log || { echo "the FIFO stream did not start"; exit 1; }
	say "both streams run"
	fifo=$(pid fifo.log) fair=$(pid fair.log)
	{ echo "$fifo_parent"; echo "$fifo"; threads "$fifo"; } > fifo.tids
	trace_on autonuma_task_migrate
	# Then free to run anywhere: AutoNUMA decides.
	taskset -a -p -c 0-3 "$fifo" > /dev/null
	taskset -a -p -c 0-3 "$fair" > /dev/null
	# The busy FIFO threads: alone on their CPUs, nothing but AutoNUMA
	# could move them (the others sleep, and RT wakeups place them).
	threads "$fifo" | cpus > fifo.cpus.before
	say "released; FIFO threads on CPUs: $(echo $(cat fifo.cpus.before))"
	sleep 15
	kill -0 "$fifo" || { echo "the FIFO stream ended too early"; exit 1; }
	cut -d' ' -f1 fifo.cpus.before | cpus > fifo.cpus.after
	say "FIFO threads on CPUs: $(echo $(cat fifo.cpus.after))"
	trace_off autonuma_task_migrate migrate.trace
	wait
	cat fifo.log fair.log
	;;
cpuset)
	echo 1 > $A/enabled
	cg=/sys/fs/cgroup
	mountpoint -q $cg || mount -t cgroup2 none $cg
	echo +cpuset > $cg/cgroup.subtree_control
	mkdir -p $cg/mems0
	echo 0-3 > $cg/mems0/cpuset.cpus
	echo 0 > $cg/mems0/cpuset.mems
	sh -c 'echo $$ > /sys/fs/cgroup/mems0/cgroup.procs; exec "$@"' sh \
		"$stream" -p 1 -t 2 -s 96 -d 15 -b 0 -r 1 > cpuset.log
	"$stream" -p 1 -t 2 -s 96 -d 15 -b 0 -r 1 > outside.log
	cat cpuset.log outside.log
	;;
tgid)
	echo 1 > $A/enabled
	# exec'd processes leave freed mm_autonuma objects with their tgids
	for i in $(seq 100); do /bin/true; done
	mkfifo "$TMPDIR/never"
	trace_on autonuma_mm_stats
	: > children
	for i in $(seq 8); do
		(: < "$TMPDIR/never") &	# a forked bash, blocked in open()
		echo $! >> children
	done
	sleep 6
	trace_off autonuma_mm_stats mm_stats.trace
	kill $(cat children) 2>/dev/null || true
	;;
reset)
	echo 1 > $A/enabled
	"$stream" -p 1 -t 1 -s 64 -d 30 -b 0 -r 1 > stream.log &
	started stream.log || { echo "stream did not start"; exit 1; }
	tid=$(threads "$(pid stream.log)")
	taskset -p -c 0-3 "$tid" > /dev/null
	node() { sed -n 's/^autonuma_node *: *//p' "/proc/$tid/sched"; }
	# Until the placement has chosen a node for the thread (at most 20 s).
	for i in $(seq 40); do [ "$(node)" -ge 0 ] 2>/dev/null && break; sleep 0.5; done
	kill -STOP "$tid"
	node > node.before
	echo 0 > $A/enabled
	sleep 1
	echo 1 > $A/enabled
	sleep 1
	node > node.after
	kill -CONT "$tid"
	wait
	;;
batch)
	echo 1 > $A/enabled
	"$stream" -p 1 -t 2 -s 256 -d 20 -b 0 -r 1 > stream.log &
	s=$!
	max=0
	# builtins only: the sampler must not miss a batch
	while kill -0 $s 2>/dev/null; do
		n=0
		while read -r k v; do
			case $k in nr_isolated_anon | nr_isolated_file) n=$((n + v)) ;; esac
		done < /sys/devices/system/node/node0/vmstat
		[ $n -le $max ] || max=$n
	done
	echo $max > isolated.max
	wait $s
	cat stream.log isolated.max
	;;
ptemap)
	echo 1 > $A/enabled
	cp /proc/vmstat vmstat.before
	"$stream" -p 1 -t 2 -s 96 -d 20 -b 0 -r 1 -E > stream.log
	cp /proc/vmstat vmstat.after
	cat stream.log
	;;
dedup)
	echo never > /sys/kernel/mm/transparent_hugepage/enabled
	# the queue's dedup: every misplaced page goes to knuma_migrated
	echo 0 > $A/knuma_migrated/migrate_on_fault
	echo 1 > $A/knuma_migrated/pages_to_migrate
	echo 3600000 > $A/knuma_migrated/migrate_sleep_millisecs
	echo 8192 > /sys/kernel/tracing/buffer_size_kb
	echo 1 > /sys/kernel/tracing/events/autonuma_detail/autonuma_page_dequeue/enable
	echo 1 > $E/autonuma_hinting_fault/enable
	trace_on ../autonuma_detail/autonuma_page_queue
	echo 1 > $A/enabled
	"$stream" -p 1 -t 1 -s 16 -d 12 -b 0 -r 1 > stream.log
	echo 0 > /sys/kernel/tracing/events/autonuma_detail/autonuma_page_dequeue/enable
	echo 0 > $E/autonuma_hinting_fault/enable
	trace_off ../autonuma_detail/autonuma_page_queue all.trace
	grep -E 'autonuma_page_(queue|dequeue):' all.trace > queue.trace || true
	grep -E 'autonuma_hinting_fault:' all.trace > faults.trace || true
	rm all.trace
	cat /sys/kernel/tracing/per_cpu/cpu*/stats | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }' > overrun
	cat stream.log overrun
	;;
enter)
	# long-lived processes forked while AutoNUMA is disabled and while
	# it is toggled: knuma_scand's walk must find every one
	( for _ in $(seq 40); do echo 1 > $A/enabled; echo 0 > $A/enabled; done ) &
	toggler=$!
	: > children
	# four exec'd, four forked only (a subshell)
	for _ in $(seq 4); do
		sleep 60 &
		echo $! >> children
		( while :; do sleep 1; done ) &
		echo $! >> children
	done
	wait $toggler
	"$stream" -p 1 -t 1 -s 32 -d 15 -b 0 -r 1 > stream.log &
	s=$!
	started stream.log || { echo "stream did not start"; exit 1; }
	trace_on autonuma_mm_stats
	echo 1 > $A/enabled
	wait $s
	trace_off autonuma_mm_stats mm_stats.trace
	kill $(cat children)
	cat stream.log children
	;;
hotmem)
	dmesg | grep 'autonuma: node 1' > hotmem.dmesg || true
	sed -n 's/.*MemTotal: *\([0-9]*\) kB/\1/p' /sys/devices/system/node/node1/meminfo > node1.memtotal
	echo 1 > $A/enabled
	"$stream" -p 1 -t 2 -s 128 -d 20 -b 0 -r 1 > stream.log
	cat stream.log hotmem.dmesg node1.memtotal
	;;
idle)
	sleep 2
	a=$(sched_softirqs); sleep 10; b=$(sched_softirqs)
	paste <(tr ' ' '\n' <<<"$a") <(tr ' ' '\n' <<<"$b") | awk 'NF == 2 { print $2 - $1 }' > softirq.off
	echo lb > $A/scheduler/balance_mode
	echo 1 > $A/enabled
	sleep 2
	a=$(sched_softirqs); sleep 10; b=$(sched_softirqs)
	paste <(tr ' ' '\n' <<<"$a") <(tr ' ' '\n' <<<"$b") | awk 'NF == 2 { print $2 - $1 }' > softirq.on
	paste softirq.off softirq.on
	;;
*)
	echo "autonuma-correctness: unknown scenario $scenario" >&2
	exit 2
	;;
esac
