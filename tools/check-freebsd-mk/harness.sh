# SPDX-License-Identifier: BSD-2-Clause
#
# What make check-freebsd-mk and make check-freebsd-import share, sourced
# by both check.sh: counting what passed and failed, and running FreeBSD's
# make on Linux as ../shared/freebsd-src/PROVENANCE.md found it works.
# The caller sets srctop (this tree), work (its scratch directory) and
# sysroot (the FreeBSD sysroot); fbtree is the FreeBSD-shaped tree whose
# share/mk FreeBSD's make reads.
#
# ok WHAT, notok WHAT
#	Says "ok - WHAT" or "FAIL - WHAT" and counts it.
# summary NAME [NOTE]
#	Says "NAME: N passed, N failed [NOTE]"; true when nothing failed.
# fbmake ARGS...
#	FreeBSD's make, in the current directory, cross-compiling for
#	FreeBSD (cc.sh), its objects under $work/obj.
# fresh_root ROOT TESTSDIST
#	An empty root as installworld makes it, from the tree's
#	etc/mtree and TESTSDIST for /usr/tests, and an empty ROOT.METALOG.
# fbinstall ROOT ARGS...
#	fbmake ARGS... install into ROOT, -DNO_ROOT style: each file
#	logged to ROOT.METALOG (install.sh stands in for FreeBSD's).
# listed METALOG FILE PACKAGE
#	Whether METALOG lists FILE, a file, in PACKAGE.

passed=0
failed=0

ok()
{
	echo "ok - $*"
	passed=$((passed + 1))
}

notok()
{
	echo "FAIL - $*"
	failed=$((failed + 1))
}

summary()
{
	echo "$1: $passed passed, $failed failed${2:+ $2}"
	[ $failed -eq 0 ]
}

fbmake()
{
	env -u MAKEFLAGS -u MAKELEVEL -u MAKESYSPATH -u MAKEOBJDIRPREFIX \
	    -u DESTDIR -u OBJTOP -u CFLAGS -u CC \
	    FREEBSD_SYSROOT="$sysroot" ATF_INCLUDE="$work/atf" \
	    MAKEOBJDIRPREFIX="$work/obj" MAKESYSPATH="$fbtree/share/mk" \
	    bmake -m "$fbtree/share/mk" \
	    MACHINE=amd64 MACHINE_ARCH=amd64 TARGET=amd64 TARGET_ARCH=amd64 \
	    SRC_ENV_CONF=/dev/null SRCCONF=/dev/null __MAKE_CONF=/dev/null \
	    -DNO_ROOT -DWITH_AUTO_OBJ LD=/usr/bin/ld.lld \
	    OBJCOPY=llvm-objcopy AR=llvm-ar RANLIB=llvm-ranlib NM=llvm-nm \
	    STRIPBIN=llvm-strip \
	    CC="$srctop/tools/check-freebsd-mk/cc.sh" "$@"
}

fresh_root()
{
	mkdir -p "$1" &&
	mtree -deU -f "$srctop/etc/mtree/BSD.root.dist" -p "$1" \
	    >/dev/null &&
	mtree -deU -f "$2" -p "$1/usr/tests" >/dev/null &&
	: > "$1.METALOG"
}

fbinstall()
{
	_fi_root=$1
	shift
	fbmake "$@" DESTDIR="$_fi_root" \
	    INSTALL="sh $srctop/tools/check-freebsd-mk/install.sh -U -M $_fi_root.METALOG -D $_fi_root" \
	    install
}

listed()
{
	grep -q "^\.$2 type=file .*tags=package=$3\$" "$1"
}
