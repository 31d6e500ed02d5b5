#!/bin/bash
# AutoNUMA's switches in a booted kernel: the KUnit suite passes at boot, the
# sysfs tree has alpha10's files and defaults, bad writes are rejected and
# change nothing, AutoNUMA and NUMA balancing exclude each other, and
# AutoNUMA stands down on one node and with noautonuma.
. "$(dirname "$0")/lib.sh"
runs=$TOP/results/tests/autonuma
mkdir -p "$runs"

r=$runs/2node
TIMEOUT=300 guest 2node "$r" "$TOP/tests/guest/autonuma-sysfs.sh present"
status=$?
# Re-number the guest's checks into this file's TAP stream.
while read -r verdict rest; do
	case "$verdict $rest" in
	"ok - "*) ok "2node: ${rest#- }" ;;
	"not ok - "*) not_ok "2node: ${rest#ok - }" ;;
	esac
done < <(cat "$r/sysfs.tap" 2>/dev/null)
check "2node: the guest checks ran to the end" test "$status" = 0 -a "$T" -gt 50
# Every file of the tree is in the series' ABI document, and nothing else is.
abi=$(sed -n 's|^What:[[:space:]]*/sys/kernel/mm/autonuma/\(..*\)$|\1|p' \
	"$TOP/build/linux/Documentation/ABI/testing/sysfs-kernel-mm-autonuma" 2>/dev/null | sort)
undocumented=$(comm -23 "$r/sysfs-files.txt" <(echo "$abi") | tr '\n' ' ')
stale=$(comm -13 "$r/sysfs-files.txt" <(echo "$abi") | tr '\n' ' ')
check "2node: the ABI document has every sysfs file ($(wc -l <"$r/sysfs-files.txt") files${undocumented:+; missing: $undocumented}${stale:+; not in the tree: $stale})" \
	test -s "$r/sysfs-files.txt" -a -z "$undocumented$stale"
check "KUnit: the autonuma suite passed at boot" eval 'tr -d "\r" <"$r/console.log" | grep -E "^\[[ 0-9.]+\] ok [0-9]+ autonuma$" >/dev/null' 
check "KUnit: the autonuma_sched suite passed at boot" eval 'tr -d "\r" <"$r/console.log" | grep -E "^\[[ 0-9.]+\] ok [0-9]+ autonuma_sched$" >/dev/null'
check_fails "KUnit: no autonuma case failed" grep -Eq "not ok [0-9]+ autonuma" "$r/console.log"

r=$runs/1node
check "1node: boots" eval 'TIMEOUT=120 guest 1node "$r" "$TOP/tests/guest/autonuma-sysfs.sh absent"'
check "1node: no sysfs tree" grep -q "^ok - no /sys" "$r/sysfs.tap"
check "1node: no knuma_* thread" grep -q "^ok - no knuma_" "$r/sysfs.tap"
check "1node: AutoNUMA says it stands down" grep -q "autonuma: single NUMA node, standing down" "$r/console.log"

r=$runs/noautonuma
check "noautonuma: boots" eval 'APPEND=noautonuma TIMEOUT=120 guest 2node "$r" "$TOP/tests/guest/autonuma-sysfs.sh absent"'
check "noautonuma: no sysfs tree" grep -q "^ok - no /sys" "$r/sysfs.tap"
check "noautonuma: no knuma_* thread" grep -q "^ok - no knuma_" "$r/sysfs.tap"
check "noautonuma: the boot parameter is reported" grep -q "autonuma: disabled by the noautonuma boot parameter" "$r/console.log"
echo "1..$T"
exit $((FAILS > 0))
