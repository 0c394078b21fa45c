#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# Run every installed test suite with kyua against the programs installed
# under a staging root, show what failed, and end with the line
# "N passed, N failed, N skipped".  Skipped cases are not passed ones.
#
# usage: kyua-run.sh destdir workdir

set -u
destdir=$1
work=$2

mkdir -p "$work" || exit 1
results=$work/results.db
rm -f "$results"

# A sanitizer build must not report libatf-c's own leaks, nor print the
# suppressions it used to stderr, where kyua would count it against a case.
LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS

# The test programs run under the system's POSIX sh, as FreeBSD's atf-sh
# does, rather than a larger shell that atf-sh may default to: the cases
# fork thousands of times, and a small shell forks faster.
ATF_SHELL=${ATF_SHELL:-/bin/sh}
export ATF_SHELL

# As many cases at a time as there are processors (KYUA_JOBS=N to
# choose): each case has a work directory of its own, and none asserts
# a time.
jobs=${KYUA_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}

# As root, cases that need an unprivileged user run as nobody.
set --
if [ "$(id -u)" = 0 ]; then
	set -- -v unprivileged_user=nobody
fi

(cd "$destdir/usr/tests" && kyua --logfile="$work/kyua.log" \
    -v parallelism="$jobs" \
    -v test_suites.base.rootdir="$destdir" "$@" test \
    --results-file="$results" -k "$destdir/usr/tests/Kyuafile")
status=$?

kyua --logfile="$work/kyua.log" report --results-file="$results" \
    --verbose --results-filter=broken,failed | awk '
	# Each failure in full, without the execution context before them.
	/^===> / { show = ($0 != "===> Execution context") }
	show'

kyua --logfile="$work/kyua.log" report --results-file="$results" \
    --results-filter=passed,xfail,skipped,failed,broken | awk '
	/ ->  passed/ || / ->  expected_failure/ { passed++ }
	/ ->  skipped/ { skipped++ }
	/ ->  failed/ || / ->  broken/ { failed++ }
	END {
		printf "%d passed, %d failed, %d skipped\n", passed, failed,
		    skipped
		# A run that passed nothing tested nothing.
		exit (passed + failed == 0)
	}' || status=1
exit $status
