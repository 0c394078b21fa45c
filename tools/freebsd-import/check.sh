#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-freebsd-import: make freebsd-import into a small extract of
# a FreeBSD tree (the files it edits and the directories it replaces),
# and check what it left there and the patch it wrote.
#
# The extract is taken from FREEBSD_SRC (by default ../shared/freebsd-src
# beside the tree).  FreeBSD's share/mk must be there.  Every other file
# the import edits is taken from there too when present (a whole FreeBSD
# tree: FREEBSD_SRC=/path/to/src); where it is not (../shared holds
# share/mk, sys and tools only), this script writes a stand-in of its
# own, a few lines shaped like FreeBSD's file where the import edits it,
# and says so: what is then checked is the import's logic, not its fit
# to FreeBSD's real file.  src.libnames.mk is always FreeBSD's own.
#
# Checked: hostmk.awk on a Makefile made for it; then, after the import,
# each edit is where it belongs; the imported Makefiles name no
# OPSYS and no host variable, and only FreeBSD's host files are there;
# FreeBSD's make reads every imported Makefile, and, where the FreeBSD
# sysroot is there (BSD_SYSROOTS), builds and installs the components
# with -DNO_ROOT into a METALOG whose Kyuafiles name the FreeBSD suite;
# the patch applied to a fresh extract gives the same tree; a second
# import changes nothing.  Ends with "check-freebsd-import: N passed,
# N failed"; skips, with status 0, where FreeBSD's share/mk is not there.
#
# usage: check.sh srctop workdir

set -u
srctop=$(cd "$1" && pwd) || exit 1
work=$2
fbsrc=${FREEBSD_SRC:-$srctop/../shared/freebsd-src}
sysroot=${BSD_SYSROOTS:-$srctop/../shared/sysroots}/freebsd14
here=$srctop/tools/freebsd-import
. "$srctop/tools/check-freebsd-mk/harness.sh"

if [ ! -f "$fbsrc/share/mk/bsd.prog.mk" ]; then
	echo "check-freebsd-import: skipped: no FreeBSD share/mk in $fbsrc" \
	    "(set FREEBSD_SRC)"
	exit 0
fi
for t in bmake git patch mtree; do
	command -v $t >/dev/null 2>&1 || {
		echo "check-freebsd-import: $t is missing (Debian: bmake git" \
		    "patch mtree-netbsd)" >&2
		exit 1
	}
done
fbsrc=$(cd "$fbsrc" && pwd)
rm -rf "$work" && mkdir -p "$work" || exit 1
work=$(cd "$work" && pwd)
log=$work/check.log
ext=$work/extract
fbtree=$ext

check()
{
	what=$1
	shift
	if "$@" >>"$log" 2>&1; then ok "$what"; else notok "$what"; fi
}

# --- the extract ---------------------------------------------------------

# FreeBSD's file when FREEBSD_SRC has it, else the stand-in on stdin.
standins=
put()
{
	mkdir -p "$ext/$(dirname "$1")" || exit 1
	if [ -e "$fbsrc/$1" ]; then
		cp -R "$fbsrc/$1" "$ext/$1"
		cat >/dev/null
	else
		standins="$standins $1"
		cat > "$ext/$1"
	fi
}

mkdir -p "$ext/share" "$ext/sys/conf" "$ext/sys/sys" || exit 1
cp -R "$fbsrc/share/mk" "$ext/share/" &&
cp "$fbsrc/sys/conf/newvers.sh" "$ext/sys/conf/" &&
cp "$fbsrc/sys/sys/param.h" "$ext/sys/sys/" || exit 1

put lib/Makefile <<'EOF'
# A stand-in: the main list of libraries, sorted, after the bootstrap ones.
.include <src.opts.mk>

SUBDIR_BOOTSTRAP= \
	csu \
	.WAIT \
	libc

SUBDIR=	${SUBDIR_BOOTSTRAP} \
	.WAIT \
	libsqlite3 \
	libarchive \
	libbsm \
	libbz2 \
	libcam \
	libutil

.include <bsd.subdir.mk>
EOF
put lib/Makefile.inc <<'EOF'
SHLIB_MAJOR?=	5
EOF
put bin/Makefile.inc <<'EOF'
BINDIR?=	/bin
EOF
put usr.bin/Makefile.inc <<'EOF'
BINDIR?=	/usr/bin
EOF
put etc/mtree/BSD.tests.dist <<'EOF'
# A stand-in: the test hierarchy, a few of its directories.
/set type=dir uname=root gname=wheel mode=0755 tags=package=tests
.
    bin
        cat
        ..
        cp
        ..
    ..
    etc
    ..
    lib
        libarchive
        ..
        libc
            gen
            ..
        ..
    ..
    usr.bin
        tail
        ..
        yes
        ..
    ..
..
EOF
put rescue/rescue/Makefile <<'EOF'
# A stand-in: the programs of /bin crunched, and the libraries they need.
CRUNCH_SRCDIRS+= bin
CRUNCH_PROGS_bin= cat cp ls
CRUNCH_LIBS+= -lutil -lxo

CRUNCH_SRCDIRS+= usr.bin
CRUNCH_PROGS_usr.bin= head tail
EOF
put Makefile.inc1 <<'EOF'
# A stand-in: the bootstrap cat and the native-xtools list.
.if ${BOOTSTRAPPING} < 1000027
_cat=		bin/cat
.else
_bootstrap_tools_links+=cat
.endif

NXBDIRS+= \
    bin/cat \
    bin/cp \
    bin/ls
EOF
put tests/Makefile <<'EOF'
# A stand-in: the top of the test tree.
.include <src.opts.mk>

PACKAGE= tests
TESTSDIR= ${TESTSBASE}
KYUAFILE= yes

SUBDIR+= etc
SUBDIR+= sys

.include <bsd.test.mk>
EOF
put ObsoleteFiles.inc <<'EOF'
# A stand-in: old files, the newest first, each group under its date.

# 20250101: a stand-in entry
OLD_FILES+=usr/share/doc/standin
EOF
put bin/cat/Makefile <<'EOF'
.include <src.opts.mk>

PACKAGE=runtime
PROG=	cat

.include <bsd.prog.mk>
EOF
put bin/cat/tests/Makefile <<'EOF'
PACKAGE=	tests

NETBSD_ATF_TESTS_SH=	cat_test

${PACKAGE}FILES+=	d_align.in
${PACKAGE}FILES+=	d_align.out

.include <netbsd-tests.test.mk>

.include <bsd.test.mk>
EOF
# NetBSD's cat tests, with every data file FreeBSD installs of them.
if [ -d "$fbsrc/contrib/netbsd-tests/bin/cat" ]; then
	mkdir -p "$ext/contrib/netbsd-tests/bin" &&
	cp -R "$fbsrc/contrib/netbsd-tests/bin/cat" \
	    "$ext/contrib/netbsd-tests/bin/" || exit 1
fi
put contrib/netbsd-tests/bin/cat/t_cat.sh <<'EOF'
# A stand-in for NetBSD's cat tests.
atf_test_case standin
standin_body()
{
	atf_check -o file:"$(atf_get_srcdir)/d_align.out" \
	    cat "$(atf_get_srcdir)/d_align.in"
}
atf_init_test_cases()
{
	atf_add_test_case standin
}
EOF
put contrib/netbsd-tests/bin/cat/d_align.in <<'EOF'
a
EOF
put contrib/netbsd-tests/bin/cat/d_align.out <<'EOF'
a
EOF
put bin/cp/Makefile <<'EOF'
.include <src.opts.mk>

PACKAGE=runtime
PROG=	cp
SRCS=	cp.c utils.c

.include <bsd.prog.mk>
EOF
put usr.bin/tail/Makefile <<'EOF'
.include <src.opts.mk>

PROG=	tail
LIBADD=	util

.include <bsd.prog.mk>
EOF
put usr.bin/tail/Makefile.depend.options <<'EOF'
DIRDEPS_OPTIONS= CASPER
DIRDEPS.CASPER.yes= lib/libcasper/services/cap_fileargs
.include <dirdeps-options.mk>
EOF
put usr.bin/yes/Makefile <<'EOF'
.include <src.opts.mk>

PROG=	yes

.include <bsd.prog.mk>
EOF
if [ -n "$standins" ]; then
	echo "check-freebsd-import: not in $fbsrc, so stand-ins written" \
	    "here:$standins"
fi
cp -R "$ext" "$work/fresh" || exit 1

# --- hostmk.awk on its own ------------------------------------------------

# Knobs resolved either way, .else taken, a variable written in, and a
# conditional on anything else kept as it is, even inside a resolved one.
cat > "$work/in.mk" <<'EOF'
SRCS=	a_${A_HOST}.c
.if ${MK_ON} != "no"
SRCS+=	on.c
.if defined(RESCUE)
CFLAGS+=	-DRESCUE_ON
.else
CFLAGS+=	-DNOT_RESCUE
.endif
.else
SRCS+=	not_on.c
.endif
.if ${MK_OFF} != "no"
SRCS+=	off.c
.elif ${MK_TESTS} != "no"
.endif
.if ${MK_OFF} == "no"
SRCS+=	b_${B_HOST}.c
.endif
.if ${MK_TESTS} != "no"
SUBDIR+=	tests
.endif
EOF
cat > "$work/want.mk" <<'EOF'
SRCS=	a_x.c
SRCS+=	on.c
.if defined(RESCUE)
CFLAGS+=	-DRESCUE_ON
.else
CFLAGS+=	-DNOT_RESCUE
.endif
SRCS+=	b_y.c
.if ${MK_TESTS} != "no"
SUBDIR+=	tests
.endif
EOF
hostmk()
{
	vars="A_HOST=x B_HOST=y MK_ON=yes MK_OFF=no"
	# An .elif after a resolved knob is refused, not guessed at.
	! awk -v vars="$vars" -f "$here/hostmk.awk" "$work/in.mk" \
	    > "$work/out.mk" &&
	sed '/^\.elif/d' "$work/in.mk" > "$work/in2.mk" &&
	awk -v vars="$vars" -f "$here/hostmk.awk" "$work/in2.mk" \
	    > "$work/out.mk" &&
	diff "$work/want.mk" "$work/out.mk"
}
check "hostmk.awk resolves the host knobs and keeps every other .if" hostmk

# --- the import ----------------------------------------------------------

check "make freebsd-import into the extract, with PATCH" \
    sh "$here/import.sh" -p "$work/import.patch" "$srctop" "$ext"
cp -R "$ext" "$work/imported" || exit 1

comps="lib/libbufsz bin/cat bin/cp usr.bin/tail usr.bin/yes tests/common
    tests/faultinj tests/faults"
hostvars=$(cd / && env -u MAKEFLAGS -u MAKELEVEL \
    MAKESYSPATH="$srctop/share/mk" bmake -m "$srctop/share/mk" \
    -f /dev/null OPSYS=FreeBSD -V '${HOST_VARS}')
names=$(echo OPSYS $hostvars | sed 's/ /|/g')
makefiles=$(cd "$ext" && find $comps -name Makefile)

check "lib/Makefile builds libbufsz" \
    grep -q '^[[:space:]]libbufsz \\$' "$ext/lib/Makefile"
check "share/mk/src.libnames.mk names bufsz and its archive" \
    grep -q '^LIBBUFSZ?=' "$ext/share/mk/src.libnames.mk"
# FreeBSD's hierarchies name the group wheel, which Linux has not: the
# owners are given by number to the mtree here.
sed -e 's/ uname=[^ ]*/ uid=0/' -e 's/ gname=[^ ]*/ gid=0/' \
    "$ext/etc/mtree/BSD.tests.dist" > "$work/BSD.tests.dist"
check "etc/mtree/BSD.tests.dist makes lib/libbufsz, its faults and common" \
    sh -c 'mkdir -p "$1/t" && mtree -deU -f "$1/BSD.tests.dist" -p "$1/t" \
	>/dev/null && [ -d "$1/t/lib/libbufsz/faults" ] &&
	[ -d "$1/t/common" ]' sh "$work"
check "rescue/rescue/Makefile links \${LIBBUFSZ}" \
    grep -q '^CRUNCH_LIBS+= \${LIBBUFSZ}$' "$ext/rescue/rescue/Makefile"
check "Makefile.inc1 builds libbufsz before the bootstrap cat" \
    grep -q '^_cat=.*lib/libbufsz bin/cat$' "$ext/Makefile.inc1"
check "Makefile.inc1 builds libbufsz first among native-xtools" \
    grep -q '^NXBDIRS+=.*lib/libbufsz \.WAIT$' "$ext/Makefile.inc1"
check "tests/Makefile builds common, faultinj and faults" \
    sh -c 'for d in common faultinj faults; do
	grep -q "^SUBDIR+= $d\$" "$1" || exit 1; done' sh "$ext/tests/Makefile"
check "no imported Makefile names OPSYS or a host variable" \
    sh -c '! (cd "$1" && grep -En "$2" $3)' sh "$ext" "$names" "$makefiles"
nopackage()
{
	! grep -q '^PACKAGE' "$ext/usr.bin/tail/Makefile" &&
	    ! grep -q '^PACKAGE' "$ext/usr.bin/yes/Makefile"
}
runtime()
{
	grep -q '^PACKAGE=[[:space:]]*runtime' "$ext/bin/cat/Makefile" &&
	    grep -q '^PACKAGE=[[:space:]]*runtime' "$ext/bin/cp/Makefile"
}
check "tail and yes set no PACKAGE, as FreeBSD's did not" nopackage
check "cat and cp stay in the runtime package" runtime
check "cat's NetBSD tests and their data files are kept" \
    sh -c 'grep -q "^NETBSD_ATF_TESTS_SH+=.*netbsd_cat_test" "$1" &&
	grep -q "^ATF_TESTS_SH_SRC_netbsd_cat_test=.*t_cat.sh" "$1" &&
	grep -q "FILES+=.*d_align.in" "$1"' sh "$ext/bin/cat/tests/Makefile"
check "a Makefile.depend beside every imported Makefile" \
    sh -c 'cd "$1" && for m in $2; do [ -f "${m%/Makefile}/Makefile.depend" ] ||
	exit 1; done' sh "$ext" "$makefiles"
check "tail's Makefile.depend.options names Casper's fileargs, as FreeBSD's" \
    sh -c 'grep -q "^DIRDEPS_OPTIONS= CASPER\$" "$1" &&
	grep -q "^DIRDEPS.CASPER.yes= lib/libcasper/services/cap_fileargs\$" "$1" &&
	grep -q "^\.include <dirdeps-options\.mk>\$" "$1"' sh \
    "$ext/usr.bin/tail/Makefile.depend.options"
check "tail links Casper as FreeBSD's did, not in /rescue" \
    sh -c 'grep -q "^\.if \${MK_CASPER} != \"no\" && !defined(RESCUE)\$" "$1" &&
	grep -q "^CFLAGS+=[[:space:]]*-DWITH_CASPER\$" "$1"' sh \
    "$ext/usr.bin/tail/Makefile"
check "tail and yes depend on lib/libcapsicum, cat and cp do not" \
    sh -c 'grep -q "lib/libcapsicum" "$1/usr.bin/tail/Makefile.depend" &&
	grep -q "lib/libcapsicum" "$1/usr.bin/yes/Makefile.depend" &&
	! grep -q "lib/libcapsicum" "$1/bin/cat/Makefile.depend" &&
	! grep -q "lib/libcapsicum" "$1/bin/cp/Makefile.depend" &&
	[ ! -e "$1/bin/cat/Makefile.depend.options" ]' sh "$ext"

# Only the C files FreeBSD compiles: those the tree's own make picks for
# FreeBSD in any imported directory (a test program may compile a file
# of the directory above), in the world or in the bootstrap pass, and
# no other.
onlyfreebsd()
{
	want=$(for m in $makefiles; do
		for b in "" BOOTSTRAPPING=0; do
			(cd "$srctop/${m%/Makefile}" &&
			    env -u MAKEFLAGS -u MAKELEVEL \
			    MAKESYSPATH="$srctop/share/mk" \
			    bmake -m "$srctop/share/mk" $b \
			    OPSYS=FreeBSD OBJTOP="$work/o" SANITIZE=0 \
			    -V '${.ALLTARGETS:M*.o:T:S/.o$/.c/}' | tr ' ' '\n')
		done
	done | sort -u)
	have=$(for m in $makefiles; do
		(cd "$ext/${m%/Makefile}" && ls ./*.c 2>/dev/null)
	done | sed 's,^\./,,' | sort -u)
	[ "$(echo $want)" = "$(echo $have)" ] ||
	    { echo "want: $want; have: $have"; return 1; }
}
check "only FreeBSD's C files, each one FreeBSD compiles" onlyfreebsd

# Only the test scripts FreeBSD installs: each named in its Makefile as
# resolved for FreeBSD; none of the suites of Linux's own interfaces.
onlyinstalled()
{
	for m in $makefiles; do
		d=$ext/${m%/Makefile}
		for t in "$d"/*_test.sh; do
			[ -f "$t" ] || continue
			t=${t##*/}
			sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$d/Makefile" |
			    grep -Eq "^(ATF|PLAIN)_TESTS_SH[+]?=.*[[:space:]]${t%.sh}([[:space:]]|\$)" ||
			    { echo "${m%/Makefile}/$t"; return 1; }
		done
	done
	! (cd "$ext" && find $comps -name '*linux_test*' -o \
	    -name 'lying_size_test.sh' | grep .)
}
check "only the test scripts FreeBSD installs, no Linux suite" onlyinstalled

# FreeBSD's make (fbmake, harness.sh) on what was imported.
mkdir -p "$work/atf"
[ -f /usr/include/atf-c.h ] &&
    cp -R /usr/include/atf-c.h /usr/include/atf-c "$work/atf/"
readable()
{
	for m in $makefiles; do
		(cd "$ext/${m%/Makefile}" && fbmake -V SRCS >/dev/null) ||
		    { echo "$m: FreeBSD's make cannot read it"; return 1; }
	done
}
check "FreeBSD's make reads every imported Makefile" readable

# On a build host that is not FreeBSD, FreeBSD's build makes cat (with
# libbufsz) as a bootstrap tool, BOOTSTRAPPING defined, and links it with
# libegacy, whose sysctlbyname knows kern.vm_guest only and ends the
# process on any other name; installworld then appends to its METALOG
# with cat -l.  The files the imported Makefiles choose for that pass
# must build here and never ask: a stand-in of that sysctlbyname (and of
# the <sys/sysctl.h> FreeBSD's cross-build gives Linux) shows it.
bootstrap_cat()
{
	b=$work/bootstrap
	rm -rf "$b" && mkdir -p "$b/include/sys" || return 1
	cat > "$b/include/sys/sysctl.h" <<-'EOF'
	#include <stddef.h>
	int	sysctlbyname(const char *, void *, size_t *, const void *,
		    size_t);
	EOF
	cat > "$b/egacy.c" <<-'EOF'
	#include <sys/sysctl.h>
	#include <err.h>
	#include <string.h>

	int
	sysctlbyname(const char *name, void *old, size_t *oldlen,
	    const void *new, size_t newlen)
	{

		(void)old; (void)oldlen; (void)new; (void)newlen;
		errx(64, "fatal: unknown sysctl %s", name);
	}
	EOF
	srcs=
	for d in lib/libbufsz bin/cat; do
		for f in $(cd "$ext/$d" &&
		    fbmake BOOTSTRAPPING=0 -V '${SRCS:M*.c}'); do
			srcs="$srcs $ext/$d/$f"
		done
	done
	echo "bootstrap cat from:$srcs"
	${HOSTCC:-cc} -D_GNU_SOURCE -DBOOTSTRAPPING \
	    '-D__dead2=__attribute__((__noreturn__))' \
	    '-D__unused=__attribute__((__unused__))' -I"$b/include" \
	    -I"$ext/lib/libbufsz" -o "$b/cat" $srcs "$b/egacy.c" || return 1
	printf 'one\n' > "$b/in"
	printf 'two\n' | "$b/cat" -l "$b/in" - >> "$b/METALOG" &&
	    [ "$(cat "$b/METALOG")" = "$(printf 'one\ntwo')" ]
}
check "the bootstrap cat builds on this host and never asks sysctl" \
    bootstrap_cat

# The build, where the FreeBSD sysroot is.
if [ ! -f "$sysroot/usr/include/stdio.h" ] || [ ! -f /usr/include/atf-c.h ]
then
	echo "check-freebsd-import: build skipped: no FreeBSD sysroot in" \
	    "$sysroot (set BSD_SYSROOTS) or no atf-c.h"
else
	builds()
	{
		for c in $comps; do
			(cd "$ext/$c" && fbmake obj && fbmake all) || return 1
		done
	}
	root=$work/root
	meta=$root.METALOG
	installs()
	{
		fresh_root "$root" "$work/BSD.tests.dist" || return 1
		for c in $comps; do
			(cd "$ext/$c" && fbinstall "$root") || return 1
		done
	}
	packages()
	{
		listed "$meta" /bin/cat runtime &&
		    listed "$meta" /bin/cp runtime &&
		    listed "$meta" /usr/bin/tail utilities &&
		    listed "$meta" /usr/bin/yes utilities
	}
	netbsd_tests()
	{
		listed "$meta" /usr/tests/bin/cat/netbsd_cat_test tests &&
		    listed "$meta" /usr/tests/bin/cat/d_align.in tests
	}
	check "FreeBSD's make builds the imported components" builds
	check "FreeBSD's make installs them -DNO_ROOT" installs
	check "cat and cp in runtime, tail and yes in utilities" packages
	check "NetBSD's cat test and its data files installed" netbsd_tests
	faultinj()
	{
		listed "$meta" /usr/tests/lib/libbufsz/faults/libfaultinj.so \
		    tests &&
		    listed "$meta" /usr/tests/lib/libbufsz/faults/cat_faults_test \
		    tests
	}
	check "the fault injector and its suites installed with the tests" \
	    faultinj
	kyuafiles()
	{
		for c in $comps; do
			case $c in
			tests/faultinj)	continue ;;
			tests/faults)	c=lib/libbufsz/faults ;;
			esac
			kf=$root/usr/tests/${c#tests/}/Kyuafile
			grep -q '^test_suite("FreeBSD")$' "$kf" ||
			    { echo "$kf: not the FreeBSD suite"; return 1; }
		done
	}
	check "every installed Kyuafile names the FreeBSD suite" kyuafiles
fi

# --- the patch, and a second run -----------------------------------------

samepatch()
{
	cp -R "$work/fresh" "$work/patched" &&
	git -C "$work/patched" init -q &&
	git -C "$work/patched" apply "$work/import.patch" &&
	diff -r -x .git "$work/imported" "$work/patched"
}
check "the patch on a fresh extract gives the same tree" samepatch
check "a second import changes nothing" \
    sh -c 'sh "$1/import.sh" -p "$2/again.patch" "$3" "$4" &&
	[ ! -s "$2/again.patch" ]' sh "$here" "$work" "$srctop" "$ext"

summary check-freebsd-import "(log: $log)"
