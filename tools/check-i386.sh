#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-i386: build the world, its tests included, with gcc -m32 and
# -Werror, and run the test suites on it with the host's kyua and atf-sh.
#
# The atf-c test programs link the i386 libatf-c, which Debian does not
# let stand beside the amd64 one (neither package is Multi-Arch: same):
# its packages (tools/packages.debian, group i386-deb) are downloaded and
# unpacked into the work directory, and the programs find the library
# there by their run path.  Downloading them needs i386 among dpkg's
# architectures (dpkg --add-architecture i386; apt-get update).  The
# lyingfs FUSE file system is left out: there is no i386 libfuse3 here.
#
# The kernel must run i386 programs, natively or through a binfmt_misc
# entry for qemu-i386; the suites run under nice, as the machine may be
# shared.  Ends with the line "N passed, N failed, N skipped" of
# tests/kyua-run.sh.  Without the compiler, the packages or a kernel
# that runs the programs, says so, skips, and reports no case at all.
#
# usage: check-i386.sh srctop workdir

set -u
srctop=$(cd "$1" && pwd) || exit 1
work=$2

skip()
{
	echo "check-i386: skipped: $*"
	echo "0 passed, 0 failed, 0 skipped"
	exit 0
}

printf 'int main(void) { return 0; }\n' > /tmp/check-i386.$$.c
gcc -m32 -o /tmp/check-i386.$$ /tmp/check-i386.$$.c >/dev/null 2>&1
built=$?
runs=1
[ $built -eq 0 ] && { /tmp/check-i386.$$ 2>/dev/null || runs=0; }
rm -f /tmp/check-i386.$$ /tmp/check-i386.$$.c
[ $built -eq 0 ] || skip "gcc -m32 cannot link (Debian's gcc-multilib)"
[ $runs -eq 1 ] || skip "this kernel runs no i386 program: IA-32" \
    "emulation is off and no binfmt_misc entry names qemu-i386"
dpkg --print-foreign-architectures 2>/dev/null | grep -qx i386 ||
    skip "i386 is not among dpkg's architectures, whose libatf-c is" \
    "needed (dpkg --add-architecture i386; apt-get update)"

rm -rf "$work" && mkdir -p "$work/deb" || exit 1
work=$(cd "$work" && pwd)
(cd "$work/deb" &&
    apt-get download $(sh "$srctop/tools/packages.sh" i386-deb)) \
    >"$work/deb.log" 2>&1 || {
	cat "$work/deb.log"
	echo "check-i386: apt-get download failed" >&2
	exit 1
}
for d in "$work"/deb/*.deb; do
	dpkg-deb -x "$d" "$work/atf" || exit 1
done
atflib=$work/atf/usr/lib/i386-linux-gnu
[ -f "$atflib/libatf-c.so" ] || {
	echo "check-i386: no libatf-c.so in the i386 packages" >&2
	exit 1
}

# Nothing of the make that started this one (its OBJTOP, DESTDIR or
# command-line variables) may reach the i386 build.
bmk()
{
	env -u MAKEFLAGS -u MAKELEVEL -u OBJTOP -u DESTDIR \
	    MAKESYSPATH="$srctop/share/mk" nice -n 10 bmake \
	    -m "$srctop/share/mk" -f Makefile CC="gcc -m32" SANITIZE=0 \
	    MK_FUSE=no LDADD_atf_c="-L$atflib -Wl,-rpath,$atflib -latf-c" \
	    OBJTOP="$work/obj" DESTDIR="$work/root" "$@"
}

echo "check-i386: building with gcc -m32 into $work/root"
if ! (cd "$srctop" && bmk -j2 buildworld && bmk installworld) \
    >"$work/build.log" 2>&1; then
	cat "$work/build.log"
	echo "check-i386: the i386 build failed" >&2
	exit 1
fi
for p in bin/cat bin/cp usr/bin/tail usr/bin/yes \
    usr/tests/lib/libbufsz/engine_test; do
	[ "$(od -An -tx1 -j4 -N1 "$work/root/$p" | tr -d ' ')" = 01 ] || {
		echo "check-i386: $p is not an i386 program" >&2
		exit 1
	}
done

nice -n 10 sh "$srctop/tests/kyua-run.sh" "$work/root" "$work/kyua"
