#!/bin/bash
# Print the QEMU machine arguments (one per line) for a topology file in
# qemu-configs/topology/: -smp, -m, one memory backend and -numa node per node
# (none for a node with memory 0: it has CPUs only), -numa dist for every
# listed node pair, and a pc-dimm per DIMMS entry ("node:size": memory the
# guest's ACPI memory hotplug adds to that node after boot).  The file is validated first: CPU
# lists must cover 0..cpus-1 exactly once, node ids must be 0..N-1 in order,
# distances must name existing nodes, cover every pair and be 11..254.
#
# usage: qemu-args.sh TOPOFILE
set -euo pipefail

die() { echo "qemu-args: $topo: $*" >&2; exit 1; }

topo=$1
[ -f "$topo" ] || { echo "qemu-args: no such topology file: $topo" >&2; exit 1; }
SMP="" NODES="" DISTANCES="" DIMMS=""
# shellcheck disable=SC1090
. "$topo"
[ -n "$SMP" ] || die "SMP is not set"
[ -n "$NODES" ] || die "NODES is not set"

ncpus=$(sed -n 's/.*cpus=\([0-9]*\).*/\1/p' <<<"$SMP")
[ -n "$ncpus" ] || die "SMP has no cpus="

# Expand "0-1,4" to "0 1 4".
expand_cpus() {
	local part lo hi
	for part in ${1//,/ }; do
		[[ $part =~ ^([0-9]+)(-([0-9]+))?$ ]] || die "bad CPU list '$1'"
		lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[3]:-${BASH_REMATCH[1]}}
		[ "$lo" -le "$hi" ] || die "bad CPU range '$part'"
		seq "$lo" "$hi"
	done
}

# megabytes WHAT SIZE: SIZE (NNM, NNG or 0) in MiB
megabytes() {
	[ "$2" = 0 ] && { echo 0; return; }
	[[ $2 =~ ^([0-9]+)([MG])$ ]] || die "$1: memory '$2' is not NNM, NNG or 0"
	local mb=${BASH_REMATCH[1]}
	[ "${BASH_REMATCH[2]}" = G ] && mb=$((mb * 1024))
	[ "$mb" -gt 0 ] || die "$1: memory must be positive"
	echo "$mb"
}

declare -A seen=() pairs=()
args=() total_mb=0 n=0
for entry in $NODES; do
	IFS=: read -r id cpus mem <<<"$entry"
	[ "$id" = "$n" ] || die "node ids must be 0..N-1 in order (got $id, expected $n)"
	mb=$(megabytes "node $id" "$mem")
	for c in $(expand_cpus "$cpus"); do
		[ "$c" -lt "$ncpus" ] || die "CPU $c out of range (cpus=$ncpus)"
		[ -z "${seen[$c]:-}" ] || die "CPU $c is in two nodes"
		seen[$c]=$id
	done
	total_mb=$((total_mb + mb))
	if [ "$mb" = 0 ]; then
		args+=(-numa "node,nodeid=$id,cpus=${cpus//,/,cpus=}")
	else
		args+=(-object "memory-backend-ram,id=mem$id,size=${mb}M")
		args+=(-numa "node,nodeid=$id,cpus=${cpus//,/,cpus=},memdev=mem$id")
	fi
	n=$((n + 1))
done
[ "${#seen[@]}" = "$ncpus" ] || die "nodes cover ${#seen[@]} of $ncpus CPUs"
[ "$total_mb" -gt 0 ] || die "no node has memory at boot"

dimm_mb=0 d=0
for entry in $DIMMS; do
	IFS=: read -r node size <<<"$entry"
	[[ $node =~ ^[0-9]+$ ]] && [ "$node" -lt "$n" ] || die "DIMM '$entry' names no node"
	mb=$(megabytes "DIMM $entry" "$size")
	[ "$mb" -gt 0 ] || die "DIMM '$entry': memory must be positive"
	args+=(-object "memory-backend-ram,id=dimm$d,size=${mb}M")
	args+=(-device "pc-dimm,id=dimm$d,memdev=dimm$d,node=$node")
	dimm_mb=$((dimm_mb + mb)) d=$((d + 1))
done
mem="${total_mb}M"
[ "$d" = 0 ] || mem="${total_mb}M,slots=$d,maxmem=$((total_mb + dimm_mb))M"

for entry in $DISTANCES; do
	[[ $entry =~ ^([0-9]+)-([0-9]+):([0-9]+)$ ]] || die "bad distance '$entry' (want src-dst:val)"
	s=${BASH_REMATCH[1]} d=${BASH_REMATCH[2]} v=${BASH_REMATCH[3]}
	[ "$s" -lt "$n" ] && [ "$d" -lt "$n" ] && [ "$s" != "$d" ] || die "distance '$entry' names a bad node pair"
	[ "$v" -gt 10 ] && [ "$v" -lt 255 ] || die "distance '$entry' must be 11..254"
	args+=(-numa "dist,src=$s,dst=$d,val=$v")
	pairs[$((s < d ? s : d))-$((s < d ? d : s))]=1
done
# QEMU wants all pairs once any distance is given.
want_pairs=0
[ -z "$DISTANCES" ] || want_pairs=$((n * (n - 1) / 2))
[ "${#pairs[@]}" = "$want_pairs" ] || die "DISTANCES lists ${#pairs[@]} node pairs, need all $want_pairs"

printf '%s\n' -smp "$SMP" -m "$mem" "${args[@]}"
