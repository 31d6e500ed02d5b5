#!/bin/bash
# A plain `trace-cmd record -e autonuma` of a command, as a user would make
# it (README: "Read a trace yourself"): no numa-sample, no profile.  The
# trace is left in the current directory as trace.dat.
#
# usage: plain-record.sh COMMAND...
set -euo pipefail
trace-cmd record -q -b 16384 -e autonuma -o /run/plain.dat "$@"
cp /run/plain.dat trace.dat
