#!/bin/bash
# Print the patch names of a series file, one per line, in order: comments
# ("#" to the end of the line) and blank lines are skipped.
# usage: series-list.sh SERIESFILE
set -euo pipefail
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$1" | awk '{print $1}'
