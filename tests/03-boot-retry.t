#!/bin/bash
# harness/boot.sh with a stand-in for QEMU on PATH: QEMU crashing before the
# guest started its job is retried once; a crash during the job, or a
# second crash, fails the run.
. "$(dirname "$0")/lib.sh"
plan 7
d=$(scratch)
trap 'rm -rf "$d"' EXIT
mkdir -p "$d/bin"
: >"$d/bzImage"
: >"$d/initrd"
# The stand-in: boot N (counted in $d/boots) writes a console line, then
# per MODE crashes (SIGSEGV) or finishes the job with status 0.
cat >"$d/bin/qemu-system-x86_64" <<'QEMU'
#!/bin/bash
for a; do
	case $a in
	file:*) con=${a#file:} ;;
	local,path=*,mount_tag=results,*) r=${a#local,path=}; r=${r%%,mount_tag=*} ;;
	esac
done
n=$(($(cat "$BOOTS" 2>/dev/null || echo 0) + 1))
echo $n >"$BOOTS"
echo "stand-in boot $n" >"$con"
case $MODE in
crash-first) [ $n = 1 ] && kill -SEGV $$ ;;
crash-always) kill -SEGV $$ ;;
crash-in-job) echo started >"$r/job.log"; kill -SEGV $$ ;;
esac
echo 0 >"$r/exit-status"
QEMU
chmod +x "$d/bin/qemu-system-x86_64"
boot() { rm -f "$d/boots"; MODE=$1 BOOTS=$d/boots PATH=$d/bin:$PATH KERNEL=$d/bzImage \
	INITRD=$d/initrd TIMEOUT=30 "$H/boot.sh" 1node "$d/run" true; }

check "a crash before the job: booted once more, the run passes" eval 'boot crash-first >"$d/out" 2>&1'
check "... said so, and kept the crashed boot's console" eval \
	'grep -q "qemu crashed (status 139) before the job started; booting once more" "$d/out" &&
	 test "$(cat "$d/boots")" = 2 && grep -q "boot 1" "$d/run/console.qemu-crash.log"'
check "a crash during the job fails the run" fails_with "qemu exited with status 139" boot crash-in-job
check "... without booting again" test "$(cat "$d/boots")" = 1
check "a second crash fails the run" fails_with "qemu exited with status 139" boot crash-always
check "... after two boots" test "$(cat "$d/boots")" = 2
check "no crash: one boot" eval 'boot none >/dev/null 2>&1 && test "$(cat "$d/boots")" = 1'
