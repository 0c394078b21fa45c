#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make lint: every manual page through mandoc's linter, every shell test
# through sh -n.  Exits non-zero on the first complaint of any kind.
#
# usage: lint.sh srctop

set -u
cd "$1" || exit 1
status=0

for page in $(find bin usr.bin lib -name '*.[1-9]' | sort); do
	if ! mandoc -Tlint -Wwarning "$page"; then
		status=1
	fi
done

for script in $(find . -path ./obj -prune -o -name '*.sh' -print | sort); do
	if ! sh -n "$script"; then
		echo "lint: $script: sh -n failed" >&2
		status=1
	fi
done

[ $status -eq 0 ] && echo "lint: clean"
exit $status
