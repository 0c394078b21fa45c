#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# What Casper costs a run, measured in the check-freebsd-vm guest after
# its suites: the guest prints it between markers and vm.sh keeps it as
# logs/confine-cost.txt.
#
# A program confined with Casper's system.fileargs starts the service
# only when it has operands to open (fileargs_init() with none starts
# nothing), so one binary measures the cost on its own: "prog f" pays
# for the service, "prog < f" does not, and both are confined.  /rescue's
# crunched copy, built without Casper, is the unconfined reference.
#
# Two figures for each program (tail always; cat where it is built with
# Casper):
#   - milliseconds a run, over RUNS runs with a one-byte file, by
#     /usr/bin/time over the whole loop;
#   - the system calls the program itself makes for each further small
#     file, from ktrace(1) of one run over 1 and one over FILES files
#     (the service's own calls happen in its process, not counted).
#
# usage: confine-cost.sh [runs [files]]

set -u
RUNS=${1:-1000}
FILES=${2:-1000}
dir=$(mktemp -d /tmp/confine-cost.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
printf 'x' > one
i=0
while [ $i -lt "$FILES" ]; do
	printf 'x' > "f$i"
	i=$((i + 1))
done

# ms_per_run input command...: the command, run RUNS times with input
# as its standard input, in ms a run; "failed" if any run failed, so
# that a broken program never shows a time.
ms_per_run()
{
	in=$1
	shift
	if /usr/bin/time -p -o time.out sh -c '
		n=$1; in=$2; shift 2
		i=0
		while [ $i -lt "$n" ]; do
			"$@" < "$in" > /dev/null || exit 1
			i=$((i + 1))
		done' sh "$RUNS" "$in" "$@"; then
		awk -v n="$RUNS" \
		    '$1 == "real" { printf("%.3f\n", $2 * 1000 / n) }' time.out
	else
		echo failed
	fi
}

# calls: the system calls the traced process made (CALL records).
calls()
{
	rm -f ktr
	ktrace -t c -f ktr "$@" > /dev/null || return 1
	kdump -f ktr | awk '$3 == "CALL" { n++ } END { print n + 0 }'
}

# calls_per_file: each further file's calls, between 1 and FILES files.
calls_per_file()
{
	one=$(calls "$@" f0) || return 1
	i=0
	list=
	while [ $i -lt "$FILES" ]; do
		list="$list f$i"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	all=$(calls "$@" $list) || return 1
	echo "$one $all" | awk -v n="$FILES" \
	    '{ printf("%.2f\n", ($2 - $1) / (n - 1)) }'
}

# confined: whether the program enters capability mode with an operand.
confined()
{
	rm -f ktr
	ktrace -t c -f ktr "$@" one > /dev/null 2>&1
	kdump -f ktr | grep -q 'CALL  cap_enter'
}

row()
{
	name=$1
	shift
	printf '%-24s %10s %10s %14s\n' "$name" \
	    "$(ms_per_run /dev/null "$@" one)" "$(ms_per_run one "$@")" \
	    "$(calls_per_file "$@" || echo failed)"
}

echo "confine-cost: $RUNS runs of a one-byte file; system calls a file" \
    "over $FILES one-byte files"
printf '%-24s %10s %10s %14s\n' "program" "ms, file" "ms, stdin" \
    "calls a file"
for p in "/bin/cat" "/usr/bin/tail -c 1"; do
	set -- $p
	if confined "$@"; then
		row "$* (Casper)" "$@"
	else
		row "$* (unconfined)" "$@"
	fi
	r=/rescue/${1##*/}
	shift
	row "$r${*:+ $*} (unconfined)" "$r" "$@"
done
