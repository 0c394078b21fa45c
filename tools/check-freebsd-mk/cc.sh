#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The compiler FreeBSD's share/mk is given by check.sh: clang, targeting
# FreeBSD against the header sysroot (FREEBSD_SYSROOT), which has no
# atf-c.h: ATF_INCLUDE is a copy of the host's (the same ATF, 0.21, as
# FreeBSD's contrib/atf).  There are no
# FreeBSD libraries here, so a link is a stand-in: the objects and the
# tree's own archives (named by path, or by -L and -l) are linked into
# one relocatable object with ld.lld -r, which checks that they are
# FreeBSD objects that go together; the system's libraries (-lc, -latf-c)
# are left out, and the result does not run.

set -u
: "${FREEBSD_SYSROOT:?}" "${ATF_INCLUDE:?}"
CLANG="clang -target x86_64-unknown-freebsd14 --sysroot=$FREEBSD_SYSROOT
    -idirafter $ATF_INCLUDE"

# Anything but a link goes to clang as it is: compiles, and the queries
# of FreeBSD's bsd.compiler.mk and bsd.linker.mk.
for a in "$@"; do
	case $a in
	-c|-E|-S|-M|-MM|-v|--version|-dumpversion|-print-*|-fsyntax-only| \
	-Wl,--version|-###)
		exec $CLANG "$@" ;;
	esac
done

out=a.out
inputs=
libdirs=
libs=
while [ $# -gt 0 ]; do
	case $1 in
	-o)	out=$2; shift ;;
	-o*)	out=${1#-o} ;;
	-L)	libdirs="$libdirs $2"; shift ;;
	-L*)	libdirs="$libdirs ${1#-L}" ;;
	-l*)	libs="$libs ${1#-l}" ;;
	-*)	;;
	*)	[ -f "$1" ] && inputs="$inputs $1" ;;
	esac
	shift
done
for l in $libs; do
	for d in $libdirs; do
		if [ -f "$d/lib$l.a" ]; then
			inputs="$inputs $d/lib$l.a"
			break
		fi
	done
done
[ -n "$inputs" ] || { echo "cc.sh: nothing to link into $out" >&2; exit 1; }
exec ld.lld -m elf_x86_64_fbsd -r -o "$out" $inputs
