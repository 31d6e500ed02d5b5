#!/bin/bash
# Unit tests of harness/check-console.sh: kernel error reports fail a run.
. "$(dirname "$0")/lib.sh"
d=$(scratch)
trap 'rm -rf "$d"' EXIT
clean='[    0.000000] Linux version 6.1.192-autonuma
[    0.120000] smpboot: Allowing 4 CPUs, 0 hotplug CPUs
[    1.500000] Run /init as init process'
reports=(
	'[    2.1] BUG: kernel NULL pointer dereference, address: 0000000000000008'
	'[    2.1] WARNING: CPU: 1 PID: 42 at mm/autonuma.c:100 knuma_scand+0x1/0x2'
	'[    2.1] Oops: 0000 [#1] PREEMPT SMP'
	'[    2.1] Call Trace:'
	'[    2.1] WARNING: possible circular locking dependency detected'
	'[    2.1] BUG: KASAN: use-after-free in autonuma_migrate+0x10/0x20'
	'[    2.1] Kernel panic - not syncing: Fatal exception'
	'[    2.1] watchdog: BUG: soft lockup - CPU#0 stuck for 22s!'
	'[    2.1] INFO: task knuma_migrated0:35 blocked for more than 120 seconds.'
	'[    2.1] rcu: INFO: rcu_sched self-detected stall on CPU'
	'[    2.1] turning off the locking correctness validator.'
)
oom='[    3.0] stream invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0
[    3.0] CPU: 1 PID: 99 Comm: stream Not tainted 6.1.192-autonuma
[    3.0] Call Trace:
[    3.0]  <TASK>
[    3.0]  dump_stack_lvl+0x44/0x5c
[    3.0] oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0-1,oom_memcg=/oom
[    3.0] Memory cgroup out of memory: Killed process 99 (stream) total-vm:270000kB'
plan $((${#reports[@]} + 6))
echo "$clean" > "$d/log"
check "a clean boot log passes" "$H/check-console.sh" "$d/log"
for r in "${reports[@]}"; do
	printf '%s\n%s\n' "$clean" "$r" > "$d/log"
	check_fails "fails on: ${r#*] }" "$H/check-console.sh" "$d/log"
done 2>/dev/null
printf '%s\nWARNING: a userspace tool said this\n' "$clean" > "$d/log"
check "the job's own output (no kernel timestamp) is not a kernel report" "$H/check-console.sh" "$d/log"
check_fails "a missing log fails" "$H/check-console.sh" "$d/nonexistent" 2>/dev/null
printf '%s\n%s\n' "$clean" "$oom" > "$d/log"
check_fails "an OOM kill's call trace fails a run" "$H/check-console.sh" "$d/log" 2>/dev/null
check "... unless CONSOLE_ALLOW_OOM=1" env CONSOLE_ALLOW_OOM=1 "$H/check-console.sh" "$d/log"
printf '%s\n%s\n%s\n' "$clean" "$oom" "${reports[0]}" > "$d/log"
check_fails "... which leaves out the OOM report only" env CONSOLE_ALLOW_OOM=1 "$H/check-console.sh" "$d/log" 2>/dev/null
exit $((FAILS > 0))
