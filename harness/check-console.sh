#!/bin/bash
# Fail (exit 1) if a guest console log holds a kernel error report: BUG, WARNING,
# Oops, a call trace, lockdep, KASAN/UBSAN/KFENCE, a panic, a soft/hard lockup,
# an RCU stall or a hung task.  Prints each offending line with its line number.
# CONSOLE_ALLOW_OOM=1 (a run that OOM-kills on purpose): the OOM killer's own
# reports, from "invoked oom-killer" to its "Killed process" line (at most
# 400 lines), are left out; everything else is checked.
# usage: check-console.sh CONSOLE_LOG
set -uo pipefail
log=$1
[ -f "$log" ] || { echo "check-console: no console log $log" >&2; exit 1; }
patterns=(
	'BUG:' 'WARNING:' 'Oops' 'Call Trace' 'Kernel panic' 'kernel BUG at'
	'general protection fault' 'possible circular locking dependency'
	'possible recursive locking' 'inconsistent lock state'
	'turning off the locking correctness validator'
	'suspicious RCU usage' 'KASAN:' 'UBSAN:' 'KFENCE:' 'soft lockup'
	'hard LOCKUP' 'rcu_sched self-detected stall' 'rcu: INFO:'
	'blocked for more than' 'list_add corruption' 'list_del corruption'
)
args=()
for p in "${patterns[@]}"; do args+=(-e "$p"); done
# Only kernel lines (PRINTK_TIME stamps them): the job's own output shares the
# console and may say "WARNING:" without anything being wrong in the kernel.
kernel_lines() {
	grep -n -E '^\[ *[0-9]+\.[0-9]+\] ' "$log" |
		if [ "${CONSOLE_ALLOW_OOM:-0}" = 1 ]; then
			awk '/ invoked oom-killer: / { oom = 400 } oom { oom--; if (/ Killed process /) oom = 0; next } 1'
		else
			cat
		fi
}
if hits=$(kernel_lines | grep -F "${args[@]}"); then
	echo "check-console: kernel error report in $log:" >&2
	head -20 <<<"$hits" >&2
	exit 1
fi
exit 0
