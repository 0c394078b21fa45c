#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The kyua report a check-freebsd-vm guest printed on its serial console,
# between rc.local's markers, ending with one line: N passed, N failed
# (broken cases count as failed; skipped and expected failures as
# neither, and kyua's summary above says how many).
#
# usage: report.sh serial.log

set -u
log=$1
out=$(mktemp "${TMPDIR:-/tmp}/report.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
tr -d '\r' < "$log" | awk '
    /^==== check-freebsd-vm: report ends ====/ { inside = 0 }
    inside { print }
    /^==== check-freebsd-vm: report begins ====/ { inside = 1; found = 1 }
    END { exit !found }' > "$out" || {
	echo "report.sh: no report in $log" >&2
	exit 1
}
cat "$out"
# kyua's summary: "Test cases: T total, S skipped, X expected failures,
# B broken, F failed".
awk '/^Test cases: / {
	gsub(",", "")
	total = $3; skipped = $5; xfail = $7; broken = $10; failed = $12
	found = 1
    }
    END {
	if (!found)
		exit 1
	passed = total - skipped - xfail - broken - failed
	printf("%d passed, %d failed\n", passed, broken + failed)
    }' "$out"
