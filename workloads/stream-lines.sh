# The one reader of stream's output lines in shell (sourced by tests/lib.sh
# and the guest halves of tests; analysis/ reads the done lines from the
# trace).  An interval line and a done line (workloads/stream.c):
#   stream: t=1.0 proc=0 pid=123 mbs=812 nodes=100.0,0.0 local=50.0 cpus=0,2
#   stream: done proc=0 pid=123 iters=57 check=ok nodes=0.4,99.6 local=99.6
#
# stream_done LOG KEY [PID]: KEY's value on each done line of LOG (of the
# process PID only, if given), one per line.  KEY nodes: the per-node
# shares in percent, comma-separated.  stream_interval LOG KEY [PID]: the
# same on each interval line.
stream_key() {
	awk -v kind="$1" -v key="$3" -v pid="${4:-}" '$1 == "stream:" &&
	    (kind == "done" ? $2 == "done" : $2 ~ /^t=/) {
		v = ""; p = ""
		for (i = 3; i <= NF; i++) {
			n = index($i, "=")
			if (substr($i, 1, n - 1) == key) v = substr($i, n + 1)
			if (substr($i, 1, n - 1) == "pid") p = substr($i, n + 1)
		}
		if (v != "" && (pid == "" || p == pid)) print v
	}' "$2"
}
stream_done() { stream_key done "$@"; }
stream_interval() { stream_key interval "$@"; }
# node_share NODE: NODE's share in each nodes= list on standard input.
node_share() { cut -d, -f$(($1 + 1)); }
