#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-freebsd-mk: do the tree's Makefiles drop into FreeBSD's
# /usr/src unchanged?  A scratch FreeBSD-shaped tree gets FreeBSD's own
# share/mk (FREEBSD_SRC, by default ../shared/freebsd-src beside the
# tree), patched with share/mk/freebsd-libnames.patch, and the tree's
# lib/libbufsz, every program under bin and usr.bin, and tests/common
# (the helper the test scripts source) as make freebsd-import puts them
# there (import.sh -l), with the Makefile.inc above them.
# FreeBSD's make runs there as on FreeBSD, through Debian's bmake and
# clang cross-compiling (cc.sh, install.sh: stand-ins for the link and
# for FreeBSD's install): obj, all, and install -DNO_ROOT with a METALOG,
# then the same without tests (-DWITHOUT_TESTS).  The METALOGs must list
# each program in /bin or /usr/bin and its page, in the runtime package;
# each program's tests under /usr/tests, in the tests package, as their
# Kyuafiles name them; nothing of the internal library; and no tests at
# all without them.
#
# Ends with "check-freebsd-mk: N passed, N failed" (assertions); skips,
# with a message and status 0, where FreeBSD's share/mk or the FreeBSD
# sysroot (BSD_SYSROOTS, by default ../shared/sysroots) is not there.
#
# usage: check.sh srctop workdir

set -u
srctop=$(cd "$1" && pwd) || exit 1
work=$2
here=$srctop/tools/check-freebsd-mk
fbsrc=${FREEBSD_SRC:-$srctop/../shared/freebsd-src}
sysroot=${BSD_SYSROOTS:-$srctop/../shared/sysroots}/freebsd14
. "$here/harness.sh"

if [ ! -f "$fbsrc/share/mk/bsd.prog.mk" ]; then
	echo "check-freebsd-mk: skipped: no FreeBSD share/mk in $fbsrc" \
	    "(set FREEBSD_SRC)"
	exit 0
fi
if [ ! -f "$sysroot/usr/include/stdio.h" ]; then
	echo "check-freebsd-mk: skipped: no FreeBSD sysroot in $sysroot" \
	    "(set BSD_SYSROOTS)"
	exit 0
fi
for t in bmake clang ld.lld llvm-ar llvm-objcopy llvm-nm llvm-strip \
    patch mtree gzip; do
	command -v $t >/dev/null 2>&1 || {
		echo "check-freebsd-mk: $t is missing (Debian: bmake clang" \
		    "lld llvm patch mtree-netbsd)" >&2
		exit 1
	}
done
[ -f /usr/include/atf-c.h ] || {
	echo "check-freebsd-mk: atf-c.h is missing (Debian: libatf-dev)" >&2
	exit 1
}
fbsrc=$(cd "$fbsrc" && pwd)
sysroot=$(cd "$sysroot" && pwd)

rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
src=$work/src
fbtree=$src
log=$work/make.log

# The scratch tree: FreeBSD's share/mk and what its sys.mk reads of the
# rest (newvers.sh, param.h), then the tree's components.
mkdir -p "$src/sys/conf" "$src/sys/sys" "$work/atf" || exit 1
cp -R "$fbsrc/share" "$src/" &&
cp "$fbsrc/sys/conf/newvers.sh" "$src/sys/conf/" &&
cp "$fbsrc/sys/sys/param.h" "$src/sys/sys/" &&
cp -R /usr/include/atf-c.h /usr/include/atf-c "$work/atf/" || exit 1
(cd "$src" && patch -s -p1) < "$srctop/share/mk/freebsd-libnames.patch" ||
    { echo "check-freebsd-mk: the libnames patch does not apply" >&2; exit 1; }

progs=
for d in "$srctop"/bin/* "$srctop"/usr.bin/*; do
	[ -f "$d/Makefile" ] && [ "${d##*/}" != tests ] || continue
	progs="$progs ${d#"$srctop"/}"
done
comps="lib/libbufsz $progs"
testcomps=
[ -f "$srctop/tests/common/Makefile" ] && testcomps=tests/common
# The components as make freebsd-import puts them into a FreeBSD tree:
# Makefiles resolved for FreeBSD, FreeBSD's host files only.
sh "$srctop/tools/freebsd-import/import.sh" -l "$srctop" "$src" >>"$log" 2>&1 ||
    { echo "check-freebsd-mk: import.sh -l failed (see $log)" >&2; exit 1; }
for c in $comps $testcomps; do
	[ -d "$src/$c" ] || { echo "check-freebsd-mk: $c was not imported" >&2
	    exit 1; }
	[ -f "$srctop/${c%/*}/Makefile.inc" ] &&
	    cp "$srctop/${c%/*}/Makefile.inc" "$src/${c%/*}/"
done
# The top of the scratch tree: the library first, as in FreeBSD's own;
# tests/ only with MK_TESTS, as FreeBSD's Makefile.inc1 has it.
{
	echo ".include <src.opts.mk>"
	echo "SUBDIR= lib/libbufsz .WAIT${comps#lib/libbufsz}"
	echo "SUBDIR.\${MK_TESTS}+= $testcomps"
	echo ".include <bsd.subdir.mk>"
} > "$src/Makefile"

# FreeBSD's make at the top of the scratch tree, into the log.
topmake()
{
	(cd "$src" && fbmake "$@") >>"$log" 2>&1
}

# An install into a fresh root made by the tree's own etc/mtree, as
# installworld makes it, and logged to its own METALOG.
install_into()
{
	root=$1
	shift
	fresh_root "$root" "$srctop/etc/mtree/BSD.tests.dist" &&
	(cd "$src" && fbinstall "$root" "$@") >>"$log" 2>&1
}

step()
{
	what=$1
	shift
	if "$@"; then
		ok "$what"
	else
		notok "$what (its complaints, from $log:)"
		grep -v 'cc\.sh ' "$log" |
		    grep -E 'error|warning:|Stop|\*\*\*|make(\[[0-9]*\])?: ' | head -n 20 |
		    sed 's/^/	/'
	fi
}

step "FreeBSD make obj" topmake obj
step "FreeBSD make all" topmake all
step "FreeBSD make install -DNO_ROOT" install_into "$work/root"
step "FreeBSD make install -DNO_ROOT -DWITHOUT_TESTS" \
    install_into "$work/root-notests" -DWITHOUT_TESTS

meta=$work/root.METALOG
for p in $progs; do
	case $p in
	bin/*)		bindir=/bin ;;
	usr.bin/*)	bindir=/usr/bin ;;
	esac
	name=${p##*/}
	for f in $bindir/$name /usr/share/man/man1/$name.1.gz; do
		if listed "$meta" "$f" runtime; then
			ok "$f, package runtime"
		else
			notok "$f, package runtime, is not in the METALOG"
		fi
	done
done

# Each directory of tests: its Kyuafile and every program it names.
for t in $comps; do
	[ -f "$srctop/$t/tests/Makefile" ] || continue
	dir=/usr/tests/$t
	kf=$work/root$dir/Kyuafile
	if ! listed "$meta" "$dir/Kyuafile" tests || [ ! -f "$kf" ]; then
		notok "$dir/Kyuafile, package tests, is not in the METALOG"
		continue
	fi
	names=$(sed -n 's/^[a-z_]*test_program{name="\([^"]*\)".*/\1/p' \
	    "$kf")
	if [ -z "$names" ]; then
		notok "$dir/Kyuafile names no test program"
	fi
	if grep -q '^test_suite("FreeBSD")$' "$kf"; then
		ok "$dir/Kyuafile names the FreeBSD suite"
	else
		notok "$dir/Kyuafile does not name the FreeBSD suite"
	fi
	for n in $names; do
		if listed "$meta" "$dir/$n" tests; then
			ok "$dir/$n, package tests"
		else
			notok "$dir/$n, package tests, is not in the METALOG"
		fi
	done
done

if [ -n "$testcomps" ]; then
	if listed "$meta" /usr/tests/common/portable.subr tests; then
		ok "/usr/tests/common/portable.subr, package tests"
	else
		notok "/usr/tests/common/portable.subr, package tests, is not" \
		    "in the METALOG"
	fi
fi

if grep -Eq '^\./usr/(lib/libbufsz|include/)' "$meta"; then
	notok "the internal library installs something:"
	grep -E '^\./usr/(lib/libbufsz|include/)' "$meta" | sed 's/^/	/'
else
	ok "nothing of libbufsz in /usr/lib or /usr/include"
fi

meta=$work/root-notests.METALOG
if grep -q '^\./usr/tests/' "$meta"; then
	notok "WITHOUT_TESTS still installs tests"
elif ! listed "$meta" /bin/cat runtime; then
	notok "WITHOUT_TESTS installs no /bin/cat"
else
	ok "WITHOUT_TESTS: the programs, and no tests"
fi

summary check-freebsd-mk
