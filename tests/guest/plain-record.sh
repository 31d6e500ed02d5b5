#!/bin/bash
# A plain `trace-cmd record -e autonuma` of a command, as a user would make
# it (README: "Read a trace yourself"): no numa-sample, no profile, the
# default buffer size (it must lose no event).  The trace is left in the
# current directory as trace.dat.
#
# usage: plain-record.sh COMMAND...
set -euo pipefail
trace-cmd record -q -e autonuma -o /run/plain.dat "$@"
cp /run/plain.dat trace.dat
