#!/bin/bash
# Run one experiment (experiments/NAME.conf): boot the same kernel once per
# variant and repetition, the workload under trace-cmd record and
# numa-sample, then compare the variants with analysis/autonuma-report and
# write OUTDIR/report.md (tables, a figure of the runs converged over time
# per variant, then one plot per run).
#
# usage: compare.sh EXPERIMENT.conf OUTDIR
# Environment: REPS overrides the experiment's repetitions; KERNEL, INITRD
# (boot.sh); REPORT (autonuma-report), WORKLOADS (build/workloads);
# REPORT_ONLY=1 boots nothing: the reports are made again from the traces
# already in OUTDIR (after a change to the analysis); TABLES=matched runs
# only that table (default "defaults matched").
# Exits non-zero when a boot failed, a trace could not be read or a run is
# not valid: the report lists each under its table, with the reason.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
conf=$1 out=$2
die() { echo "compare: $*" >&2; exit 1; }
[ -f "$conf" ] || die "no such experiment: $conf"
report=${REPORT:-$top/build/analysis/autonuma-report}
workloads=${WORKLOADS:-$top/build/workloads}

DESCRIPTION="" TOPO="" WORKLOAD="" BASELINE="" REPS_CONF=1 PROFILE=default
VARIANTS=() MATCHED=()
# shellcheck disable=SC1090
. "$conf"
reps=${REPS:-$REPS_CONF}
[ -n "$TOPO" ] && [ -n "$WORKLOAD" ] && [ ${#VARIANTS[@]} -gt 0 ] ||
	die "$conf: TOPO, WORKLOAD and VARIANTS must be set"
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "REPS=$reps: a positive number"
profile=$top/tracepoints/profiles/$PROFILE.profile
[ -f "$profile" ] || die "$conf: no profile $profile"
read -r prog args <<<"$WORKLOAD"
[ -x "$workloads/$prog" ] && prog=$workloads/$prog
mkdir -p "$out"

# run TABLE SPEC REP: one boot; SPEC is "variant[@label] [/knob=value]...".
run() {
	local table=$1 spec=$2 rep=$3 variant dir
	read -r variant _ <<<"$spec"
	dir=$out/$table/${variant}-$rep
	mkdir -p "$out/$table"
	if [ -z "${REPORT_ONLY:-}" ]; then
		echo "compare: $table $variant run $rep/$reps"
		rm -f "$dir.failed"
		# shellcheck disable=SC2086
		if ! TIMEOUT=${TIMEOUT:-900} "$top/harness/boot.sh" "$TOPO" "$dir" \
			"$top/guest/balancer.sh" $spec "$top/guest/trace-workload.sh" "$profile" \
			"$prog" $args >"$dir.log" 2>&1; then
			tail -n 1 "$dir.log" >"$dir.failed"
			echo "compare: $table $variant run $rep failed (see $dir.log); left out"
		fi
	fi
	# a failed boot may still have left a trace: the report says what it holds
	[ -f "$dir/trace.dat" ] || return 0
	"$report" -p "$dir/plot" "$dir/trace.dat" >"$dir/report.txt" 2>&1 || true
}

# table NAME TITLE SPEC...: the runs (variants interleaved, so slow drift of
# the host spreads over all of them), then the comparison.
table() {
	local name=$1 title=$2 rep spec v base=
	shift 2
	for spec in "$@"; do
		read -r v _ <<<"$spec"
		[ -n "$base" ] || [ "${v%@*}" != "$BASELINE" ] || base=$v
	done
	for rep in $(seq "$reps"); do
		for spec in "$@"; do
			run "$name" "$spec" "$rep"
		done
	done
	{
		echo "### $title"
		echo
		echo '```'
		for spec in "$@"; do echo "${spec}"; done
		echo '```'
		echo
		shopt -s nullglob
		local traces=("$out/$name"/*/trace.dat) f
		if [ ${#traces[@]} = 0 ]; then
			echo "No run left a trace."
			failed=1
		else
			"$report" -c -p "$out/$name-plot" ${base:+-b "$base"} "${traces[@]}" || failed=1
			[ ! -f "$out/$name-plot/convergence.svg" ] ||
				printf '\n![runs converged over time, per variant](%s)\n' "$name-plot/convergence.svg"
		fi
		for f in "$out/$name"/*.failed; do
			echo "failed boot left out: ${f%.failed}: $(cat "$f")"
			failed=1
		done
		echo
	} >"$out/$name.md"
}
failed=0

tables=" ${TABLES:-defaults matched} "
[[ $tables != *" defaults "* ]] || table defaults "Shipped defaults" "${VARIANTS[@]}"
[[ $tables != *" matched "* ]] || [ ${#MATCHED[@]} = 0 ] ||
	table matched "Matched scan rate (compare the ptes scanned per second)" "${MATCHED[@]}"

kernel=$(grep -m1 -o 'Linux version [^ ]*' "$(ls -d "$out"/defaults/*/ | head -1)console.log" 2>/dev/null || true)
{
	echo "## $(basename "$conf" .conf): $DESCRIPTION"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), project commit $(git -C "$top" rev-parse --short HEAD)" \
		"$(git -C "$top" diff --quiet HEAD 2>/dev/null || echo '(with local changes)'), ${kernel:-kernel ?}," \
		"topology $TOPO, QEMU ${ACCEL:-tcg} on $(nproc) host CPUs ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1))."
	echo "Workload: \`$WORKLOAD\`, $reps run(s) per variant. Convergence: the slowest process has" \
		"its working threads on one node and >= 90% of its pages there, from then to its end."
	echo
	[ ! -f "$out/defaults.md" ] || cat "$out/defaults.md"
	[ ! -f "$out/matched.md" ] || cat "$out/matched.md"
	echo "Plots (locality per process over time, convergence marked): " \
		"$(cd "$out" && ls -d ./*/*/plot/locality.svg 2>/dev/null | tr '\n' ' ')"
} >"$out/report.md"
cat "$out/report.md"
[ "$failed" = 0 ] || { echo "compare: runs failed, could not be read or are not valid (above)" >&2; exit 1; }
