#!/bin/bash
# Run one experiment (experiments/NAME.conf): boot the same kernel once per
# variant and repetition, the workload under trace-cmd record and
# numa-sample, then compare the variants with analysis/autonuma-report and
# write OUTDIR/report.md (tables, then one plot per run).
#
# usage: compare.sh EXPERIMENT.conf OUTDIR
# Environment: REPS overrides the experiment's repetitions; KERNEL, INITRD
# (boot.sh); REPORT (autonuma-report), WORKLOADS (build/workloads);
# REPORT_ONLY=1 boots nothing: the reports are made again from the traces
# already in OUTDIR (after a change to the analysis); TABLES=matched runs
# only that table (default "defaults matched").
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
	if [ -n "${REPORT_ONLY:-}" ]; then
		[ ! -f "$dir/trace.dat" ] ||
			"$report" -p "$dir/plot" "$dir/trace.dat" >"$dir/report.txt" 2>&1 || true
		return 0
	fi
	echo "compare: $table $variant run $rep/$reps"
	# shellcheck disable=SC2086
	if ! TIMEOUT=${TIMEOUT:-900} "$top/harness/boot.sh" "$TOPO" "$dir" \
		"$top/guest/balancer.sh" $spec "$top/guest/trace-workload.sh" "$profile" \
		"$prog" $args >"$dir.log" 2>&1; then
		echo "compare: $table $variant run $rep failed (see $dir.log); left out"
		return 0
	fi
	"$report" -p "$dir/plot" "$dir/trace.dat" >"$dir/report.txt" 2>&1 || true
}

# stream_local DIR: stream's own per-thread locality at the end (local= of
# its "done" lines, the lowest process of each run), median per variant:
# the measure for workloads whose threads may rightly split over nodes
# (numa02), which the process-level convergence above calls "never".
stream_local() {
	local f rows
	rows=$(for f in "$1"/*/workload.log; do
		sed -n 's/^stream: done .* local=\([0-9.]*\).*/\1/p' "$f" | sort -n | head -1 |
			sed "s|^|$(basename "$(dirname "$f")" | sed 's/-[0-9]*$//') |"
	done)
	[ -n "$rows" ] || return 0
	echo
	echo "stream's per-thread locality at the end (pages on the node where the thread owning them ran; per run, the lowest process):"
	echo
	echo "| variant | median % | runs |"
	echo "|---|---|---|"
	sort -k1,1 -k2,2n <<<"$rows" | awk '{ v[$1] = v[$1] " " $2; n[$1]++ }
		END { for (k in v) { split(substr(v[k], 2), a, " "); c = n[k]
			m = c % 2 ? a[(c + 1) / 2] : (a[c / 2] + a[c / 2 + 1]) / 2
			printf "| %s | %.1f | %s |\n", k, m, substr(v[k], 2) } }' | sort
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
		local traces=("$out/$name"/*/trace.dat)
		if [ ${#traces[@]} = 0 ]; then
			echo "No run finished."
		else
			"$report" -c ${base:+-b "$base"} "${traces[@]}" || true
			stream_local "$out/$name"
		fi
		echo
	} >"$out/$name.md"
}

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
