#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-freebsd-vm FREEBSD_SRC=DIR: the tree imported into a
# FreeBSD 15.1 source tree, cross-built by FreeBSD's own
# tools/build/make.py, installed -DNO_ROOT into a METALOG, made into a
# bootable UFS disk by the makefs and mkimg that build bootstraps, booted
# in qemu, where rc.local runs kyua on the tree's suites and FreeBSD's own
# cp and tail suites; the report comes back on the serial console.
#
# Everything built lives in a cache outside the tree, one directory for
# each FreeBSD commit and src.conf:
#
#	$FBCACHE/<commit>-<src.conf>/src	FreeBSD, hard-linked to FREEBSD_SRC,
#					with the tree imported
#	.../obj				MAKEOBJDIRPREFIX
#	.../stamps			the stages done
#	.../logs			each stage's log, times.txt
#
# A first run builds the world and the kernel; later runs import again,
# rebuild only the imported directories and /rescue in the built world's
# environment, and make the image again.  docs/freebsd/VM.md has the
# stages and their times.
#
# After the report, the guest measures the imported cat, cp, tail and
# yes beside FreeBSD 15.1's own, built from FREEBSD_SRC as it is
# (bench.sh); vm.sh keeps that as logs/bench.md.
#
# usage: vm.sh [-b] [-t tests] [-s stage] srctop freebsd-src
#	-b: the guest runs the bench, and no suite unless -t names some
#	-t tests: the guest runs only these tests (kyua's filters, as
#	    "bin/cat/cat_test:socket usr.bin/tail"), and no bench unless -b
#	-s import|world|kernel|image: stop after that stage

set -u
# What the tree's own make exports (its DESTDIR, OBJTOP, share/mk) is
# not for FreeBSD's build, nor for bmake's bootstrap, which installs
# into $DESTDIR.
unset DESTDIR OBJTOP MAKESYSPATH MAKEFLAGS MAKELEVEL MFLAGS MAKEOBJDIR
here=$(cd "$(dirname "$0")" && pwd) || exit 1
stop=
GUEST_TESTS=
bflag=
tflag=
usage="usage: vm.sh [-b] [-t tests] [-s stage] srctop freebsd-src"
while getopts bs:t: opt; do
	case $opt in
	b)	bflag=1 ;;
	s)	stop=$OPTARG ;;
	t)	tflag=1
		GUEST_TESTS=$OPTARG ;;
	*)	echo "$usage" >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || {
	echo "$usage" >&2
	exit 2
}
# What the guest runs: the suites (all, or those -t names) unless -b
# alone is given; the bench unless -t alone is.
GUEST_SUITES=YES
GUEST_BENCH=YES
[ -n "$bflag" ] && [ -z "$tflag" ] && GUEST_SUITES=NO
[ -n "$tflag" ] && [ -z "$bflag" ] && GUEST_BENCH=NO
export GUEST_SUITES GUEST_BENCH GUEST_TESTS
srctop=$(cd "$1" && pwd) || exit 1
# The commit imported, read now: the tree may move on while the guest runs.
tree=$(git -C "$srctop" rev-parse HEAD 2>/dev/null) ||
    tree="not a git checkout"
[ -z "$(git -C "$srctop" status --porcelain -uno 2>/dev/null)" ] ||
    tree="$tree, with uncommitted changes"
fbsrc=$(cd "$2" && pwd) || exit 1

: "${FBCACHE:=/work/fbcache}"
# The commit FREEBSD_SRC was extracted from, for the cache's name: an
# extract has no .git to ask.
: "${FREEBSD_COMMIT:=307fbceb2139b0e003b09384769da73b332d13c5}"
: "${LLVM_BINDIR:=/usr/lib/llvm-19/bin}"
: "${JOBS:=2}"
# SQLite's amalgamation, which the public FreeBSD repository lacks and
# kyua needs: the npm package better-sqlite3 12.4.1 carries 3.50.4, the
# version of FreeBSD 15.1's contrib/sqlite3/sqlite3.h.
: "${SQLITE_C:=}"
# The Unicode names for a stand-in map.UTF-8 (Debian's unicode-data).
: "${UNICODEDATA:=/usr/share/unicode/UnicodeData.txt}"
: "${QEMU_MEM:=2048}"
: "${QEMU_TIMEOUT:=7200}"

# The world's cache is keyed by src.conf; the kernel's stamp, within it,
# by its configuration, so that a kernel option rebuilds the kernel only.
knobs=$(sha256sum < "$here/src.conf" | cut -c1-8)
kconf=$(sha256sum < "$here/CHECKVM" | cut -c1-8)
K=$FBCACHE/$(echo "$FREEBSD_COMMIT" | cut -c1-8)-$knobs
mkdir -p "$K/obj" "$K/stamps" "$K/logs" "$K/conf" || exit 1
# bmake names object directories by the physical path of the source
# (it ignores $PWD when MAKEOBJDIRPREFIX is set), and so must vm.sh.
K=$(cd "$K" && pwd -P) || exit 1
# One run at a time in a cache: a second would rebuild bmake and the
# objects under the first.
mkdir "$K/lock" 2>/dev/null || {
	echo "check-freebsd-vm: $K is in use by another run" \
	    "(rmdir $K/lock if none is)" >&2
	exit 1
}
trap 'rmdir "$K/lock"' EXIT
cp "$here/src.conf" "$here/CHECKVM" "$K/conf/" || exit 1
src=$K/src
export MAKEOBJDIRPREFIX=$K/obj

say()
{
	echo "check-freebsd-vm: $*"
}

fail()
{
	echo "check-freebsd-vm: $*" >&2
	exit 1
}

# Runs a stage, its output to its log, and writes its wall time.
timed()
{
	name=$1
	shift
	say "$name: started $(date -u +%H:%M:%S), log $K/logs/$name.log"
	t0=$(date +%s)
	"$@" > "$K/logs/$name.log" 2>&1
	rc=$?
	t1=$(date +%s)
	echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $name rc=$rc $((t1 - t0))s" \
	    >> "$K/logs/times.txt"
	[ $rc -eq 0 ] ||
	    fail "$name failed (rc $rc) after $((t1 - t0))s: tail $K/logs/$name.log"
	say "$name: $((t1 - t0))s"
}

makepy()
{
	(cd "$src" && python3 tools/build/make.py \
	    --cross-bindir="$LLVM_BINDIR" TARGET=amd64 TARGET_ARCH=amd64 \
	    SRCCONF="$K/conf/src.conf" "$@")
}

# make.py bootstraps bmake with boot-strap's default, which runs bmake's
# unit tests, and one of them (cmd-interrupt) fails on some Linux hosts.
# The same bmake, built and installed with the same arguments but not
# tested, is one make.py takes as its own.
bootstrap_bmake()
{
	o=$MAKEOBJDIRPREFIX
	args="--with-default-sys-path=.../share/mk:$o/bmake-install/share/mk"
	args="$args --with-machine=amd64 --without-filemon"
	args="$args --prefix=$o/bmake-install"
	[ "$(cat "$o/bmake-install/.make-py-config" 2>/dev/null)" = "$args" ] &&
	    return 0
	rm -rf "$o/bmake-build" "$o/bmake-install" &&
	    mkdir -p "$o/bmake-build" &&
	    (cd "$o/bmake-build" &&
	    sh "$src/contrib/bmake/boot-strap" op=configure $args &&
	    (cd ./*/ && sh ./make-bootstrap.sh && touch tested) &&
	    sh "$src/contrib/bmake/boot-strap" op=install $args) &&
	    printf '%s' "$args" > "$o/bmake-install/.make-py-config"
}

# --- 1. the FreeBSD tree, the tree imported -----------------------------

# The copy shares FreeBSD_SRC's files by hard links; import.sh writes
# every file it changes as a new file, so FREEBSD_SRC stays as it was.
if [ ! -f "$src/Makefile.inc1" ]; then
	say "copying $fbsrc to $src (hard links)"
	cp -al "$fbsrc" "$src.tmp" && mv "$src.tmp" "$src" ||
	    fail "cannot copy $fbsrc"
fi
if [ ! -f "$src/contrib/sqlite3/sqlite3.c" ]; then
	[ -n "$SQLITE_C" ] && [ -f "$SQLITE_C" ] ||
	    fail "$src/contrib/sqlite3/sqlite3.c missing: give SQLITE_C=path"
	cp "$SQLITE_C" "$src/contrib/sqlite3/sqlite3.c" || exit 1
fi
# share/ctypedef builds C.UTF-8 from map.UTF-8, which the public FreeBSD
# repository's copy lacks too; utf8map.py writes a stand-in, and a
# C.UTF-8.src without the names it cannot place (a new file, not one
# through FREEBSD_SRC's link).
maps=$src/tools/tools/locale/etc/final-maps
if [ ! -f "$maps/map.UTF-8" ]; then
	[ -f "$UNICODEDATA" ] || fail "$maps/map.UTF-8 missing, and" \
	    "$UNICODEDATA for a stand-in (apt-get install unicode-data)"
	ctype=$src/share/ctypedef/C.UTF-8.src
	python3 "$here/utf8map.py" "$UNICODEDATA" "$maps/map.ISO8859-1" \
	    "$ctype" "$maps/map.UTF-8.tmp" "$ctype.tmp" &&
	    mv "$ctype.tmp" "$ctype" && mv "$maps/map.UTF-8.tmp" "$maps/map.UTF-8" ||
	    fail "cannot write a stand-in $maps/map.UTF-8"
fi
sh "$srctop/tools/freebsd-import/import.sh" "$srctop" "$src" \
    > "$K/logs/import.log" 2>&1 || fail "import failed: $K/logs/import.log"
# FreeBSD's own cp and tail suites, as 15.1 ships them, under
# /usr/tests/freebsd (the import replaced them with the tree's); cat's
# own suite in FreeBSD is NetBSD's, which the import keeps.
for d in bin/cp usr.bin/tail; do
	rm -rf "$src/tests/freebsd/$d"
	mkdir -p "$src/tests/freebsd/$d" &&
	    cp -R "$fbsrc/$d/tests" "$src/tests/freebsd/$d/tests" || exit 1
done
# FreeBSD 15.1's own cat, cp, tail and yes, which the import replaced,
# built from FREEBSD_SRC as it is, for the bench to run beside the
# import's; and bufszinfo, which says what libbufsz's policy gives the
# guest.
for d in bin/cat bin/cp usr.bin/tail usr.bin/yes; do
	rm -rf "$src/tools/checkvm/$d"
	mkdir -p "$src/tools/checkvm/${d%/*}" &&
	    cp -R "$fbsrc/$d" "$src/tools/checkvm/$d" || exit 1
done
mkdir -p "$src/tools/checkvm/bufszinfo" &&
    cp -p "$srctop/tools/bufszinfo/bufszinfo.c" "$src/tools/checkvm/bufszinfo/" &&
    printf '%s\n' "PROG=	bufszinfo" "MAN=" "LIBADD=	bufsz" \
    'CFLAGS+=	-I${SRCTOP}/lib/libbufsz' ".include <bsd.prog.mk>" \
    > "$src/tools/checkvm/bufszinfo/Makefile" || exit 1

# skip_case FILE CASE REASON: the case of FreeBSD's suite that asserts
# what FreeBSD's program does where ours rightly differs skips, saying
# why, instead of failing.
skip_case()
{
	sed -i "/^$2_body()\$/{n;s/^{\$/{\n\tatf_skip \"$3\"/;}" "$1" &&
	    grep -q "atf_skip \"$3\"" "$1" || fail "cannot skip $1:$2"
}
# Its tail gives up after a short write, with "tail: stdout"; ours
# writes the rest, and so meets EPIPE and SIGPIPE as a pipeline should.
skip_case "$src/tests/freebsd/usr.bin/tail/tests/tail_test.sh" broken_pipe \
    "this tail retries a short write (FreeBSD 15.1's exits 1 at once)"

[ "$stop" = import ] && exit 0

# --- 2. world and kernel ------------------------------------------------

OURDIRS="lib/libbufsz bin/cat bin/cp usr.bin/tail usr.bin/yes"
TESTDIRS="lib/libbufsz/tests bin/cat/tests bin/cp/tests usr.bin/tail/tests"
# The fault suites install the directory the fault injector goes in.
TESTDIRS="$TESTDIRS usr.bin/yes/tests tests/common tests/faults tests/faultinj"

# Commands in the built world's environment (cross compiler, sysroot),
# from a script: buildenv hands BUILDENV_SHELL to make and a shell, and
# a script's text goes through neither.  The first argument is for
# make.py: with -DNO_ROOT and DESTDIR, buildenv's INSTALL writes the
# METALOG.
inworld()
{
	margs=$1
	shift
	printf '%s\n' "set -e" "$@" > "$K/conf/inworld.sh"
	makepy $margs buildenv BUILDENV_SHELL="/bin/sh $K/conf/inworld.sh"
}

timed bmake bootstrap_bmake
if [ ! -f "$K/stamps/world" ]; then
	timed buildworld makepy -j"$JOBS" buildworld
	touch "$K/stamps/world"
else
	# Only the imported directories change between runs, and /rescue,
	# which crunches their objects into its one binary.  They are
	# cleaned first: make relinks nothing when a program's object list
	# shrinks to objects older than the program.
	timed rebuild-ours inworld "" "for d in $OURDIRS; do" \
	    "make -C \$d MK_TESTS=no clean all; done" \
	    "make -C rescue/rescue all"
fi
[ "$stop" = world ] && exit 0

if [ ! -f "$K/stamps/kernel-$kconf" ]; then
	timed buildkernel makepy -j"$JOBS" buildkernel KERNCONF=CHECKVM \
	    KERNCONFDIR="$K/conf" NO_MODULES=yes
	touch "$K/stamps/kernel-$kconf"
fi
[ "$stop" = kernel ] && exit 0

# --- 3. install, image --------------------------------------------------

root=$K/root
rm -rf "$root"
mkdir -p "$root" || exit 1
# Users and groups by FreeBSD's own files (DB_FROM_SRC), not the build
# host's, which has none of auditdistd, ntpd, ...
NR="-DNO_ROOT -DDB_FROM_SRC DESTDIR=$root METALOG=$root/METALOG"
timed installworld makepy $NR installworld
timed distribution makepy $NR distribution
timed installkernel makepy $NR installkernel KERNCONF=CHECKVM \
    KERNCONFDIR="$K/conf" NO_MODULES=yes
# The test programs: the world was built WITHOUT_TESTS, so no directory
# of /usr/tests is there yet either.  (buildenv's PATH has sed but no
# tail.)
timed install-tests inworld "$NR" "for d in $TESTDIRS; do" \
    "mkdir -p $root\$(make -C \$d MK_TESTS=yes -V TESTSDIR | sed -n '\$p')" \
    "make -C \$d MK_TESTS=yes $NR all install; done" \
    "for d in bin/cp usr.bin/tail; do" \
    "mkdir -p $root/usr/tests/freebsd/\$d" \
    "make -C tests/freebsd/\$d/tests MK_TESTS=yes $NR \\" \
    "    TESTSDIR=/usr/tests/freebsd/\$d all install; done"
# FreeBSD's own programs beside the import's, and bufszinfo, for the
# bench.
ORIGBIN=/usr/local/fbsd-orig/bin
timed install-orig inworld "$NR" "mkdir -p $root$ORIGBIN $root/usr/local/bin" \
    "for d in bin/cat bin/cp usr.bin/tail usr.bin/yes; do" \
    "make -C tools/checkvm/\$d MK_TESTS=no MK_MAN=no BINDIR=$ORIGBIN \\" \
    "    $NR all install; done" \
    "make -C tools/checkvm/bufszinfo BINDIR=/usr/local/bin $NR all install"
# The ja_JP.eucJP character type that FreeBSD's base installs unless it
# is built WITHOUT_LOCALES (as the guest is, for want of one blob of
# share/colldef): share/ctypedef's rule for it alone, for cat's -v.
eucjp=$root/usr/share/locale/ja_JP.eucJP
maps=tools/tools/locale/etc/final-maps
timed locale-eucjp inworld "" "mkdir -p $eucjp" \
    "localedef -D -U -c -w $maps/widths.txt -f $maps/map.eucJP \\" \
    "    -i share/ctypedef/ja_JP.eucJP.src $K/conf/ja_JP.eucJP" \
    "install -m 444 $K/conf/ja_JP.eucJP.LC_CTYPE $eucjp/LC_CTYPE"
echo "./usr/share/locale/ja_JP.eucJP/LC_CTYPE type=file uname=root" \
    "gname=wheel mode=0444" >> "$root/METALOG"
sh "$here/guest.sh" "$root" || fail "cannot write the guest's files"
# Every directory a file is installed in, and each ahead of what it
# holds: makefs makes a directory it meets first in another entry's
# path with its defaults, not the mode its own entry gives later (the
# suites' unprivileged cases then could not execute their programs).
# The sort is by path only, and stable, so that of two entries for one
# name the first still wins.
awk '{ print $1 }' "$root/METALOG" | awk -F/ '
    { seen[$0] = 1; p = $1; for (i = 2; i < NF; i++) { p = p "/" $i; need[p] = 1 } }
    END { for (d in need) if (!(d in seen))
	print d " type=dir uname=root gname=wheel mode=0755" }' |
    cat "$root/METALOG" - | LC_ALL=C sort -s -k1,1 > "$root/METALOG.new" &&
    mv "$root/METALOG.new" "$root/METALOG" ||
    fail "cannot complete $root/METALOG"
legacy=$K/obj$src/amd64.amd64/tmp/legacy
makefs=$legacy/usr/sbin/makefs
mkimg=$legacy/usr/bin/mkimg
[ -x "$makefs" ] && [ -x "$mkimg" ] ||
    fail "no makefs or mkimg in $legacy (WITH_DISK_IMAGE_TOOLS_BOOTSTRAP)"
image()
{
	rm -f "$K/root.ufs" "$K/disk.img"
	# Names in the METALOG are the guest's (-N), and the suites need
	# room and inodes of their own (-s, -f).
	(cd "$root" && "$makefs" -t ffs -B little -D -N "$root/etc" \
	    -o label=rootfs,version=2,softupdates=1 -s 3g -f 200000 \
	    "$K/root.ufs" METALOG) &&
	"$mkimg" -s gpt -b "$root/boot/pmbr" \
	    -p freebsd-boot:="$root/boot/gptboot" \
	    -p freebsd-ufs:="$K/root.ufs" -o "$K/disk.img"
}
timed image image
[ "$stop" = image ] && exit 0

# --- 4. boot, test, report ----------------------------------------------

boot()
{
	timeout "$QEMU_TIMEOUT" qemu-system-x86_64 -accel tcg -m "$QEMU_MEM" \
	    -smp 2 -display none -monitor none -no-reboot \
	    -serial file:"$K/logs/serial.log" \
	    -drive file="$K/disk.img",format=raw,if=virtio
}
timed boot boot
# What the report and the bench ran with, ahead of them.
header()
{
	echo "FreeBSD commit: $FREEBSD_COMMIT"
	echo "knobs: tools/freebsd-vm/src.conf $knobs, CHECKVM $kconf" \
	    "(first 8 digits of their SHA-256)"
	echo "this tree: $tree"
	echo "guest: $(tr -d '\r' < "$K/logs/serial.log" |
	    sed -n 's/^check-freebsd-vm: \(FreeBSD .*\)/\1/p' | head -1)"
}
# between NAME: what the guest printed between the markers of NAME.
between()
{
	tr -d '\r' < "$K/logs/serial.log" | awk -v name="$1" '
	    $0 == "==== check-freebsd-vm: " name " ends ====" { inside = 0 }
	    inside { print }
	    $0 == "==== check-freebsd-vm: " name " begins ====" { inside = 1 }'
}
if [ "$GUEST_SUITES" = YES ]; then
	{
		header
		echo
		sh "$here/report.sh" "$K/logs/serial.log"
	} > "$K/logs/kyua-report.txt" ||
	    fail "no kyua report in $K/logs/serial.log"
	cat "$K/logs/kyua-report.txt"
fi
if [ "$GUEST_SUITES" = YES ] && [ "$GUEST_BENCH" = YES ]; then
	between "confinement cost" > "$K/logs/confine-cost.txt"
	cat "$K/logs/confine-cost.txt"
fi
[ "$GUEST_BENCH" = YES ] || exit 0
{
	echo "# The import's cat, cp, tail and yes beside FreeBSD 15.1's own"
	echo
	echo "Measured by tools/freebsd-vm/bench.sh in the guest that" \
	    "\`make check-freebsd-vm\` boots (docs/freebsd/VM.md), on" \
	    "$(date -u +%Y-%m-%d)."
	echo
	header | sed 's/^/- /'
	echo "- host CPU: $(sed -n 's/^model name[[:space:]]*: //p' \
	    /proc/cpuinfo 2>/dev/null | head -1), $(nproc 2>/dev/null) CPUs" \
	    "shared with other work; qemu $(qemu-system-x86_64 --version |
	    sed -n 's/^QEMU emulator version \([^ ]*\).*/\1/p') -accel tcg," \
	    "-smp 2, -m $QEMU_MEM"
	echo "- libbufsz's constants (lib/libbufsz/policy.c):" \
	    "$(sed -n 's/^#define[[:space:]]*\(BUFSZ_[A-Z_]*\)[[:space:]]*(\(.*\))$/\1 = \2/p' \
	    "$srctop/lib/libbufsz/policy.c" | sed 's/([a-z0-9_]*)//g' |
	    paste -sd ';' - | sed 's/;/; /g')"
	echo
	# Without the lines that show on the console how far it is.
	between bench | grep -v '^bench: '
} > "$K/logs/bench.md"
grep -q '^## The rows' "$K/logs/bench.md" ||
    fail "no bench in $K/logs/serial.log"
cat "$K/logs/bench.md"
