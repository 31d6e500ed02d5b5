# TAP helpers for the tests in this folder (sourced).  Each test file prints a
# plan, then one "ok"/"not ok" line per check; prove prints the summary.
# pipefail: a check on "A | grep -q" fails at random when grep exits before
# A has written everything (SIGPIPE); use "grep ... >/dev/null" there.
set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
H=$TOP/harness
T=0
FAILS=0

plan() { echo "1..$1"; }
ok() { T=$((T + 1)); echo "ok $T - $1"; }
not_ok() { T=$((T + 1)); FAILS=$((FAILS + 1)); echo "not ok $T - $1"; }
# check DESCRIPTION COMMAND...: ok if the command succeeds.
check() { local desc=$1; shift; if "$@"; then ok "$desc"; else not_ok "$desc"; fi; }
# check_fails DESCRIPTION COMMAND...: ok if the command fails.
check_fails() { local desc=$1; shift; if "$@"; then not_ok "$desc"; else ok "$desc"; fi; }
# fails_with EXPECTED COMMAND...: the command fails, and its output
# (standard output and error) has EXPECTED (grep -E): failing for another
# reason does not count.  The output goes to TAP diagnostics when not.
fails_with() {
	local want=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	[ $rc != 0 ] && grep -Eq -- "$want" <<<"$out" && return 0
	{ echo "exit $rc, wanted a failure saying: $want"; tail -n 5 <<<"$out"; } | diag
	return 1
}
diag() { sed 's/^/# /'; }
# guest TOPOLOGY RUNDIR COMMAND...: harness/boot.sh with its output in
# RUNDIR.out; when it fails, the output's last lines (the job's last words,
# boot.sh's reason, the console's error reports) become TAP diagnostics, so
# that a CI log says why.  Returns boot.sh's status.
guest() {
	local rc=0
	"$H/boot.sh" "$@" >"$2.out" 2>&1 || rc=$?
	[ $rc = 0 ] || tail -n 12 "$2.out" | diag
	return $rc
}
# stream_done LOG KEY [PID], node_share NODE: stream's done lines.
. "$TOP/workloads/stream-lines.sh"
# ge A B: A >= B, as numbers.
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
# rejected EXPECTED-MESSAGE COMMAND...: exit 1 with the message, no crash
# (its output in $tmp/out and $tmp/err: $tmp is the test's scratch folder).
rejected() {
	local want=$1; shift
	timeout 120 "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 1 ] && grep -q "$want" "$tmp/err" ||
		{ echo "exit $rc:"; head -3 "$tmp/err"; } | diag
	[ $rc = 1 ] && grep -q "$want" "$tmp/err"
}
scratch() { mktemp -d "${TMPDIR:-/tmp}/autonuma-test.XXXXXX"; }
