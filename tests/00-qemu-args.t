#!/bin/bash
# Unit tests of harness/qemu-args.sh: topology files to QEMU arguments.
. "$(dirname "$0")/lib.sh"
plan 15
d=$(scratch)
trap 'rm -rf "$d"' EXIT

args() { "$H/qemu-args.sh" "$@" 2>"$d/err" | tr '\n' ' '; }
# accepts FILE: qemu-args succeeds on FILE (its message kept in $d/err).
accepts() { "$H/qemu-args.sh" "$1" >/dev/null 2>"$d/err"; local rc=$?; cat "$d/err"; return $rc; }
topo() { printf '%s\n' "$@" > "$d/t.topo"; echo "$d/t.topo"; }

out=$(args "$TOP/qemu-configs/topology/2node.topo")
check "2node: two 2 GiB nodes, CPUs 0-1 and 2-3" \
	grep -q -- "-m 4096M .*nodeid=0,cpus=0-1,memdev=mem0 .*size=2048M .*nodeid=1,cpus=2-3,memdev=mem1 -numa dist,src=0,dst=1,val=20" <<<"$out"
out=$(args "$TOP/qemu-configs/topology/4node.topo")
check "4node: 8 CPUs, four nodes, all six distances" \
	test "$(grep -o -- '-numa node' <<<"$out" | wc -l)/$(grep -o -- '-numa dist' <<<"$out" | wc -l)" = 4/6
out=$(args "$TOP/qemu-configs/topology/2node-smt.topo")
check "2node-smt: threads=2 reaches -smp" grep -q -- "-smp cpus=8,sockets=2,cores=2,threads=2" <<<"$out"
out=$(args "$TOP/qemu-configs/topology/1node.topo")
check "1node: one node, no distances" test "$(grep -c -- 'dist' <<<"$out")" = 0
check "every shipped topology is valid" \
	bash -c 'for t in "$0"/qemu-configs/topology/*.topo; do "$1"/qemu-args.sh "$t" >/dev/null || exit 1; done' "$TOP" "$H"

f=$(topo 'SMP="cpus=4"' 'NODES="0:0-1:1G 1:2:1G"')
check "a CPU in no node is rejected" fails_with "nodes cover 3 of 4 CPUs" accepts "$f"
check "... with a message naming the gap" grep -q "cover 3 of 4 CPUs" "$d/err"
f=$(topo 'SMP="cpus=4"' 'NODES="0:0-2:1G 1:2-3:1G"')
check "a CPU in two nodes is rejected" fails_with "CPU 2 is in two nodes" accepts "$f"
f=$(topo 'SMP="cpus=2"' 'NODES="0:0:1G 2:1:1G"')
check "node ids out of order are rejected" fails_with "node ids must be 0..N-1" accepts "$f"
f=$(topo 'SMP="cpus=6"' 'NODES="0:0-1:1G 1:2-3:1G 2:4-5:1G"' 'DISTANCES="0-1:20"')
check "a missing node-pair distance is rejected" fails_with "lists 1 node pairs, need all 3" accepts "$f"
f=$(topo 'SMP="cpus=2"' 'NODES="0:0:1G 1:1:1G"' 'DISTANCES="0-1:10"')
check "a remote distance of 10 is rejected" fails_with "must be 11..254" accepts "$f"
f=$(topo 'SMP="cpus=2"' 'NODES="0:0:1T 1:1:1G"')
check "a bad memory size is rejected" fails_with "memory .1T. is not NNM, NNG or 0" accepts "$f"
out=$(args "$TOP/qemu-configs/topology/2node-hotmem.topo")
check "2node-hotmem: node 1 has CPUs only, its memory a DIMM, room for it in maxmem" \
	grep -q -- "-m 2048M,slots=1,maxmem=3072M .*nodeid=1,cpus=2-3 .*size=1024M -device pc-dimm,id=dimm0,memdev=dimm0,node=1" <<<"$out"
f=$(topo 'SMP="cpus=2"' 'NODES="0:0:1G 1:1:0"' 'DIMMS="2:1G"')
check "a DIMM on no node is rejected" fails_with "DIMM '2:1G' names no node" accepts "$f"
f=$(topo 'SMP="cpus=2"' 'NODES="0:0:0 1:1:0"')
check "no memory at boot is rejected" fails_with "no node has memory at boot" accepts "$f"
exit $((FAILS > 0))
