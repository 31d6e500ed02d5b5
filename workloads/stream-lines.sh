# The one reader of stream's "done" lines in shell (sourced by tests/lib.sh
# and the guest halves of tests; analysis/ reads the same lines from the
# trace).  A done line (workloads/stream.c):
#   stream: done proc=0 pid=123 iters=57 check=ok nodes=0.4,99.6 local=99.6
#
# stream_done LOG KEY [PID]: KEY's value on each done line of LOG (of the
# process PID only, if given), one per line.  KEY nodes: the per-node
# shares in percent, comma-separated.
stream_done() {
	awk -v key="$2" -v pid="${3:-}" '$1 == "stream:" && $2 == "done" {
		v = ""; p = ""
		for (i = 3; i <= NF; i++) {
			n = index($i, "=")
			if (substr($i, 1, n - 1) == key) v = substr($i, n + 1)
			if (substr($i, 1, n - 1) == "pid") p = substr($i, n + 1)
		}
		if (v != "" && (pid == "" || p == pid)) print v
	}' "$1"
}
# node_share NODE: NODE's share in each nodes= list on standard input.
node_share() { cut -d, -f$(($1 + 1)); }
