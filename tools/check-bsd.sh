#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-bsd: compile every C file of the tree for FreeBSD 14 and
# NetBSD 10, as their builds would: clang for that target against the
# header sysroot of that system (BSD_SYSROOTS, by default ../shared/sysroots
# beside the tree), through the tree's own Makefiles made with
# OPSYS=FreeBSD or NetBSD, so that each directory compiles the very files
# it picks for that system, with the tree's flags and -Werror.  Every
# object a Makefile knows how to make is compiled, the ATF test programs
# too (against a copy of the host's atf-c.h: the same ATF the BSDs ship).
# Nothing is linked: the sysroots hold headers only.
#
# One line a file and system, the compiler's complaints under a failure,
# and at the end "N passed, N failed" (files compiled for a system).
# Where a sysroot is missing, says so and skips that system.
#
# usage: check-bsd.sh srctop workdir

set -u
srctop=$(cd "$1" && pwd) || exit 1
work=$2
sysroots=${BSD_SYSROOTS:-$srctop/../shared/sysroots}

rm -rf "$work" && mkdir -p "$work/atf" || exit 1
work=$(cd "$work" && pwd)
if [ -f /usr/include/atf-c.h ]; then
	cp -R /usr/include/atf-c.h /usr/include/atf-c "$work/atf/" || exit 1
fi

# The directories that compile something: every Makefile's but the top's.
dirs=$(cd "$srctop" && find . -path ./obj -prune -o -name Makefile -print |
    sed -n 's,^\./\(.*\)/Makefile$,\1,p' | sort)

passed=0
failed=0
checked=
for sys in freebsd14:FreeBSD netbsd10:NetBSD; do
	root=$sysroots/${sys%%:*}
	opsys=${sys#*:}
	target=x86_64-unknown-${sys%%:*}
	if [ ! -f "$root/usr/include/stdio.h" ]; then
		echo "check-bsd: ${sys%%:*}: skipped: no sysroot in $root" \
		    "(set BSD_SYSROOTS)"
		continue
	fi
	root=$(cd "$root" && pwd)
	checked="$checked ${sys%%:*}"
	bmk()
	{
		MAKESYSPATH=$srctop/share/mk bmake -m "$srctop/share/mk" \
		    OPSYS=$opsys OBJTOP="$work/${sys%%:*}" SANITIZE=0 \
		    CC="clang -target $target --sysroot=$root -idirafter $work/atf" \
		    "$@"
	}
	for d in $dirs; do
		objs=$(cd "$srctop/$d" && bmk -V '${.ALLTARGETS:M*.o}') ||
		    { failed=$((failed + 1)); echo "FAIL ${sys%%:*} $d/Makefile"; continue; }
		[ -n "$objs" ] || continue
		path=$(cd "$srctop/$d" && bmk -V '${.PATH:N.}')
		log=$work/${sys%%:*}.$(echo "$d" | tr / _).log
		(cd "$srctop/$d" && bmk -k $objs) >"$log" 2>&1
		for o in $objs; do
			src=${o%.o}.c
			for p in $path; do
				if [ -f "$p/$src" ]; then
					src=${p#"$srctop"/}/$src
					break
				fi
			done
			if [ -f "$work/${sys%%:*}/$d/$o" ]; then
				echo "ok   ${sys%%:*} $src"
				passed=$((passed + 1))
			else
				echo "FAIL ${sys%%:*} $src"
				grep -F "${src##*/}:" "$log" | grep -v '^cc\|^clang' |
				    sed 's/^/	/'
				failed=$((failed + 1))
			fi
		done
	done
done

if [ -z "$checked" ]; then
	echo "check-bsd: skipped: no BSD sysroot"
	exit 0
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
