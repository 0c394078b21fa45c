#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The kyua report a check-freebsd-vm guest printed on its serial console,
# between rc.local's markers, then a table of each test program's
# cases, ending with one line: N passed, N failed
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
# Each test program's count, from the report's one line a case
# ("prog:case  ->  passed  [0.1s]"), up to kyua's summary.
echo
awk '/^===> Summary/ { exit }
    $2 == "->" {
	prog = substr($1, 1, index($1, ":") - 1)
	status = $3
	sub(":$", "", status)
	if (!(prog in seen)) { seen[prog] = 1; order[++n] = prog }
	count[prog, status]++
    }
    END {
	printf("%-40s %7s %7s %7s\n", "test program", "passed", "failed",
	    "skipped")
	for (i = 1; i <= n; i++) {
		p = order[i]
		printf("%-40s %7d %7d %7d\n", p, count[p, "passed"],
		    count[p, "failed"] + count[p, "broken"],
		    count[p, "skipped"] + count[p, "expected_failure"])
	}
    }' "$out"
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
