#!/bin/bash
# Guest side of tests/40-autonuma-sysfs.t: checks of /sys/kernel/mm/autonuma,
# one TAP-like line each ("ok - ..." / "not ok - ..."), written to stdout and
# to sysfs.tap in the run directory.
#
# usage: autonuma-sysfs.sh present|absent
set -uo pipefail
A=/sys/kernel/mm/autonuma
exec > >(tee sysfs.tap)

t() { local desc=$1; shift; if "$@"; then echo "ok - $desc"; else echo "not ok - $desc"; fi; }
# write FILE VALUE: the write's own status (bash reports the write error).
write() { echo "$2" 2>/dev/null > "$1"; }
# write_err FILE VALUE: the errno text of a failing write, "" if it succeeded.
write_err() { (echo "$2" > "$1") 2>&1 | sed -n 's/.*write error: //p'; }

if [ "$1" = absent ]; then
	t "no $A" test ! -e "$A"
	t "no knuma_* kernel thread" eval '! grep -qs "^knuma_" /proc/[0-9]*/comm'
	exit 0
fi

files="enabled debug knuma_scand/scan_sleep_millisecs knuma_scand/scan_sleep_pass_millisecs
knuma_scand/scan_sleep_pass_min_millisecs knuma_scand/pages_to_scan knuma_scand/pages_scanned knuma_scand/full_scans knuma_scand/pmd
knuma_scand/working_set knuma_migrated/migrate_sleep_millisecs knuma_migrated/pages_to_migrate
knuma_migrated/pages_migrated knuma_migrated/defer knuma_migrated/migrate_on_fault knuma_migrated/follow_moved_thread
scheduler/clone_reset scheduler/fork_reset
scheduler/load_balance_strict scheduler/balance_mode scheduler/smt"
for f in $files; do t "$f exists and reads" test -n "$(cat "$A/$f" 2>/dev/null)"; done
# every file of the tree, for the host's check against the ABI document
(cd $A && find . -type f | sed 's|^\./||' | sort) > sysfs-files.txt

# Defaults (alpha10's, and the port's: the adaptive pass sleep's shortest,
# migrate_on_fault, follow_moved_thread; enabled is off without AUTONUMA_DEFAULT_ENABLED).
for kv in enabled=0 knuma_scand/scan_sleep_millisecs=100 knuma_scand/scan_sleep_pass_millisecs=5000 \
	knuma_scand/scan_sleep_pass_min_millisecs=500 \
	knuma_scand/pages_to_scan=32768 knuma_scand/pmd=1 knuma_scand/working_set=0 \
	knuma_migrated/migrate_sleep_millisecs=100 knuma_migrated/pages_to_migrate=32768 \
	knuma_migrated/migrate_on_fault=1 knuma_migrated/follow_moved_thread=1 \
	scheduler/clone_reset=1 scheduler/fork_reset=1 scheduler/load_balance_strict=1 \
	scheduler/balance_mode=lb scheduler/smt=1; do
	t "default ${kv/=/ is }" test "$(cat "$A/${kv%=*}")" = "${kv#*=}"
done

# Bad writes: -EINVAL and the value unchanged.  Good writes: read back.
check_knob() {
	local f=$1 good=$2
	shift 2
	local before bad
	before=$(cat "$A/$f")
	for bad in "$@"; do
		t "$f: '$bad' is rejected with EINVAL" test "$(write_err "$A/$f" "$bad")" = "Invalid argument"
		t "$f: ... and the value is unchanged" test "$(cat "$A/$f")" = "$before"
	done
	t "$f: $good is accepted and reads back" eval 'write "$A/$f" "$good" && test "$(cat "$A/$f")" = "$good"'
	write "$A/$f" "$before"
}
check_knob debug 1 2 -1 abc "" 0x1 "1 1"
check_knob scheduler/fork_reset 0 2 yes
check_knob knuma_migrated/migrate_on_fault 0 2 -1 on
check_knob knuma_migrated/follow_moved_thread 0 2 -1 yes
check_knob knuma_scand/scan_sleep_millisecs 3600000 3600001 -5 1.5 99999999999999999999
check_knob knuma_scand/scan_sleep_pass_min_millisecs 5000 3600001 -1 abc
check_knob knuma_scand/pages_to_scan 1 0 4294967296 " "
# 0 would make knuma_migrated spin while its node is below the watermark
check_knob knuma_migrated/migrate_sleep_millisecs 1 0 3600001 x
check_knob knuma_migrated/pages_to_migrate 4294967295 0 -1
check_knob scheduler/balance_mode schedule lbx "" 1 "lb schedule"
check_knob scheduler/smt 0 2
for ro in knuma_scand/pages_scanned knuma_scand/full_scans knuma_migrated/pages_migrated; do
	t "$ro is read-only" eval '! write "$A/$ro" 1'
done

# One of AutoNUMA and NUMA balancing at a time.
nb=/proc/sys/kernel/numa_balancing
t "enable AutoNUMA" write "$A/enabled" 1
t "NUMA balancing cannot be enabled while AutoNUMA is (EBUSY)" \
	test "$(write_err $nb 1)" = "Device or resource busy"
t "... and stays off" test "$(cat $nb)" = 0
t "NUMA balancing can still be written 0" write $nb 0
t "disable AutoNUMA" write "$A/enabled" 0
t "enable NUMA balancing" write $nb 1
t "AutoNUMA cannot be enabled while NUMA balancing is (EBUSY)" \
	test "$(write_err "$A/enabled" 1)" = "Device or resource busy"
t "... and stays off" test "$(cat "$A/enabled")" = 0
t "... with a message saying why" eval 'dmesg | grep "autonuma: cannot enable while NUMA balancing is active" >/dev/null'
write $nb 0
t "after NUMA balancing is off AutoNUMA enables" write "$A/enabled" 1
write "$A/enabled" 0
