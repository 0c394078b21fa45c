#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-musl: build the world with musl-gcc and -Werror, and run the
# test suites against the programs it built.
#
# musl-gcc hides /usr/include, where the kernel's uapi headers the tree
# uses (linux/fs.h, linux/landlock.h, ...) live; a musl system has them
# from its own package (Alpine's linux-headers).  Here a directory of
# links to them stands in for that package.
#
# atf-c cannot be built for musl here, so the test programs are the
# host's (glibc) build: the glibc world installed in glibcroot is copied
# to a root of its own, and the musl-built cat, cp, tail and yes are
# installed over it, with musl builds of what the suites preload into
# them (the fault injector, the safety checker's descriptor check) and of
# tests/common's errmsg and charmap, which ask musl for its words, and of
# portable_cat.  The test programs that link libbufsz themselves
# (the policy and engine tests) thus test it under glibc only.
#
# Ends with the line "N passed, N failed, N skipped" of tests/kyua-run.sh.
# Without musl-gcc or the kernel headers, says so, skips, and reports no
# case at all.
#
# usage: check-musl.sh srctop workdir glibcroot

set -u
srctop=$(cd "$1" && pwd) || exit 1
work=$2
glibcroot=$3

skip()
{
	echo "check-musl: skipped: $*"
	echo "0 passed, 0 failed, 0 skipped"
	exit 0
}

command -v musl-gcc >/dev/null 2>&1 ||
    skip "no musl-gcc (Debian's musl-tools)"
arch=$(gcc -print-multiarch 2>/dev/null)
asm=/usr/include/$arch/asm
[ -d "$asm" ] || asm=/usr/include/asm
for d in /usr/include/linux /usr/include/asm-generic "$asm"; do
	[ -d "$d" ] || skip "no kernel headers in $d (linux-libc-dev)"
done
[ -d "$glibcroot/usr/tests" ] ||
    { echo "check-musl: no test tree in $glibcroot" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work/include" || exit 1
work=$(cd "$work" && pwd)
ln -s /usr/include/linux /usr/include/asm-generic "$work/include/" &&
    ln -s "$asm" "$work/include/asm" || exit 1

# Nothing of the make that started this one (its OBJTOP, DESTDIR or
# command-line variables) may reach the musl build.
bmk()
{
	env -u MAKEFLAGS -u MAKELEVEL -u OBJTOP -u DESTDIR \
	    MAKESYSPATH="$srctop/share/mk" bmake -m "$srctop/share/mk" \
	    CC="musl-gcc -isystem $work/include" SANITIZE=0 \
	    OBJTOP="$work/obj" DESTDIR="$work/root" "$@"
}

# The world without its tests, then the test directories that build no
# atf-c program: what they preload into the programs or run for them
# must be musl's too; and of lib/libbufsz/tests, portable_cat, the engine
# the fault suites run beside cat.
build_musl()
{
	cd "$srctop" &&
	    bmk -f Makefile -j2 WITHOUT_TESTS=yes buildworld &&
	    bmk -f Makefile WITHOUT_TESTS=yes installworld || return 1
	for d in tests/common tests/faultinj tests/safety; do
		(cd "$srctop/$d" && bmk all install) || return 1
	done
	(cd "$srctop/lib/libbufsz/tests" && bmk portable_cat) &&
	    cp "$work/obj/lib/libbufsz/tests/portable_cat" \
	    "$work/root/usr/tests/lib/libbufsz/portable_cat"
}

echo "check-musl: building with musl-gcc into $work/root"
cp -Rp "$glibcroot" "$work/root" || exit 1
if ! (build_musl) >"$work/build.log" 2>&1; then
	cat "$work/build.log"
	echo "check-musl: the musl build failed" >&2
	exit 1
fi
for p in bin/cat bin/cp usr/bin/tail usr/bin/yes usr/tests/common/errmsg \
    usr/tests/common/charmap usr/tests/safety/safety \
    usr/tests/lib/libbufsz/portable_cat; do
	grep -q 'ld-musl' "$work/root/$p" || {
		echo "check-musl: $p is not linked with musl" >&2
		exit 1
	}
done

# The suites preload the injector into the tools they run (glibc's) as
# well as into the programs (musl's): each loader finds its own build,
# glibc's through its $LIB token, musl's in a directory of that name
# (tests/common/portable.subr, _faultinj_lib).
fi=$work/root/usr/tests/lib/libbufsz/faults
mkdir -p "$fi/\$LIB" "$fi/lib/$arch" &&
    cp "$fi/libfaultinj.so" "$fi/\$LIB/" &&
    cp "$glibcroot/usr/tests/lib/libbufsz/faults/libfaultinj.so" \
    "$fi/lib/$arch/" &&
    [ -z "$(LD_PRELOAD="$fi/\$LIB/libfaultinj.so" /bin/true 2>&1)" ] || {
	echo "check-musl: glibc's loader does not find its injector in" \
	    "$fi/lib/$arch" >&2
	exit 1
}

sh "$srctop/tests/kyua-run.sh" "$work/root" "$work/kyua"
