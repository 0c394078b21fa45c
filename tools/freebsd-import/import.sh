#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make freebsd-import FREEBSD_SRC=DIR [PATCH=file]: put the tree's
# lib/libbufsz, bin/cat, bin/cp, usr.bin/tail, usr.bin/yes, tests/common
# and the fault injector with its suites (tests/faultinj, tests/faults)
# into a FreeBSD source tree in place of FreeBSD's, with the
# edits of FreeBSD's own files that an importer would make by hand
# (docs/freebsd/IMPORT.md says which and why).  With -p, the same change
# is also written as one patch against the tree as it was.
#
# The imported Makefiles are the tree's, resolved for FreeBSD by
# hostmk.awk with the values share/mk/host.opts.mk gives FreeBSD; only
# the C files FreeBSD compiles go in.  With -l, only that is done (the
# components, no edit of FreeBSD's files, no convention taken from
# FreeBSD's old Makefiles): make check-freebsd-mk builds what -l gives.
#
# Each edit of a FreeBSD file is made only where the file is there and
# only once: a second run changes nothing.  Ends with one line for each
# edit, "import: FILE: what", or "skipped: why".
#
# usage: import.sh [-l] [-p patch] srctop freebsd-src

set -u
here=$(cd "$(dirname "$0")" && pwd) || exit 1
leaves_only=
patch=
while getopts lp: opt; do
	case $opt in
	l)	leaves_only=1 ;;
	p)	patch=$OPTARG ;;
	*)	echo "usage: import.sh [-l] [-p patch] srctop freebsd-src" >&2
		exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || {
	echo "usage: import.sh [-l] [-p patch] srctop freebsd-src" >&2
	exit 2
}
srctop=$(cd "$1" && pwd) || exit 1
fb=$2
if [ ! -f "$fb/share/mk/bsd.prog.mk" ]; then
	echo "import: $fb: not a FreeBSD source tree (no share/mk/bsd.prog.mk)" >&2
	exit 1
fi
fb=$(cd "$fb" && pwd)
case $patch in
''|/*)	;;
*)	patch=$(pwd)/$patch ;;
esac

COMPONENTS="lib/libbufsz bin/cat bin/cp usr.bin/tail usr.bin/yes tests/common
    tests/faultinj tests/faults"
# FreeBSD's files this script may edit, for the patch.
EDITED="share/mk/src.libnames.mk lib/Makefile etc/mtree/BSD.tests.dist
    rescue/rescue/Makefile Makefile.inc1 tests/Makefile ObsoleteFiles.inc"

work=$(mktemp -d "${TMPDIR:-/tmp}/freebsd-import.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# The tree's make, with its own share/mk, for the values it gives FreeBSD.
ourmake()
{
	env -u MAKEFLAGS -u MAKELEVEL MAKESYSPATH="$srctop/share/mk" \
	    bmake -m "$srctop/share/mk" OPSYS=FreeBSD OBJTOP="$work/obj" \
	    SANITIZE=0 "$@"
}
hostvars=$(cd / && ourmake -f /dev/null -V '${HOST_VARS:@v@$v=${$v}@}') ||
    exit 1

# A file's new text goes in as a new file: the tree may share its
# files with another by hard links (cp -al).
replace()
{
	cp "$1" "$2.new" && mv "$2.new" "$2"
}

said()
{
	echo "import: $*"
}

# A variable's words in a Makefile as written (continuation lines
# joined), for the old FreeBSD Makefiles, which no make here can read.
mkvar()
{
	[ -f "$1" ] || return 0
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$1" |
	    sed -n "s/^$2[+?]*=[[:space:]]*//p" | tr '\n' ' '
}

# What the patch compares with: FreeBSD's files as they were.
snapshot()
{
	dest=$1
	mkdir -p "$dest" || exit 1
	for p in $COMPONENTS $EDITED; do
		[ -e "$fb/$p" ] || continue
		mkdir -p "$dest/$(dirname "$p")" &&
		    cp -R "$fb/$p" "$dest/$p" || exit 1
	done
}
if [ -n "$patch" ]; then
	snapshot "$work/a"
fi

# The component's files, from git when the tree is a checkout (nothing
# built or left over goes in), else as they are.
component_files()
{
	if git -C "$srctop" rev-parse --is-inside-work-tree >/dev/null 2>&1
	then
		git -C "$srctop" ls-files -- "$1"
	else
		(cd "$srctop" && find "$1" -type f)
	fi
}

# The objects FreeBSD's build of a component makes, in any of its
# directories: a test program may compile a file of the directory above
# (.PATH), as lib/libbufsz/tests does.  The bootstrap pass's objects
# count too: it builds cat and libbufsz for the build host.
component_objs()
{
	component_files "$1" | sed -n 's,/Makefile$,,p' | while read -r d; do
		(cd "$srctop/$d" && ourmake -V '${.ALLTARGETS:M*.o:T}' &&
		    ourmake BOOTSTRAPPING=0 -V '${.ALLTARGETS:M*.o:T}')
	done | tr '\n' ' '
}

# The test scripts FreeBSD's build of a component installs, in any of
# its directories: the suites of Linux's own interfaces (MK_LINUX_TESTS)
# are not among them.
component_scripts()
{
	component_files "$1" | sed -n 's,/Makefile$,,p' | while read -r d; do
		(cd "$srctop/$d" && ourmake \
		    -V '${ATF_TESTS_SH:S/$/.sh/} ${PLAIN_TESTS_SH:S/$/.sh/}')
	done | tr '\n' ' '
}

# Copies one component, its Makefiles resolved for FreeBSD, its C files
# only where FreeBSD compiles them, in any component (tail compiles
# cat's confine_casper.c, which cat does not), and its test scripts only
# where FreeBSD installs them.
put_component()
{
	c=$1
	rm -rf "${fb:?}/$c"
	component_files "$c" | while read -r f; do
		d=${f%/*}
		case $f in
		*.c)
			o=${f##*/}
			case $objs in
			*" ${o%.c}.o "*)	;;
			*)	continue ;;
			esac
			;;
		*_test.sh)
			case $scripts in
			*" ${f##*/} "*)	;;
			*)	continue ;;
			esac
			;;
		esac
		mkdir -p "$fb/$d" || exit 1
		case ${f##*/} in
		Makefile)
			awk -v vars="$hostvars" -f "$here/hostmk.awk" \
			    "$srctop/$f" > "$fb/$f" || exit 1 ;;
		*)	cp -p "$srctop/$f" "$fb/$f" || exit 1 ;;
		esac
	done
}

# FreeBSD's old Makefiles, read before the components replace them.
mkdir -p "$work/old"
for c in $COMPONENTS; do
	[ -d "$fb/$c" ] || continue
	(cd "$fb" && find "$c" -name 'Makefile*' -type f) |
	while read -r f; do
		mkdir -p "$work/old/${f%/*}" && cp "$fb/$f" "$work/old/$f"
	done
done

objs=" $(for c in $COMPONENTS; do component_objs "$c"; done) "
scripts=" $(for c in $COMPONENTS; do component_scripts "$c"; done) "
for c in $COMPONENTS; do
	put_component "$c" || exit 1
done
said "components: $COMPONENTS (only FreeBSD's host files)"
if [ -n "$leaves_only" ]; then
	exit 0
fi

# --- FreeBSD's conventions in the imported Makefiles -------------------

# No PACKAGE= where FreeBSD's own Makefile sets none (tail and yes go to
# FreeBSD's default package, utilities).
for c in $COMPONENTS; do
	old=$work/old/$c/Makefile
	[ -f "$old" ] || continue
	if [ -z "$(mkvar "$old" PACKAGE)" ] &&
	    grep -q '^PACKAGE=' "$fb/$c/Makefile"; then
		sed '/^PACKAGE=/d' "$fb/$c/Makefile" > "$work/pkg.mk" &&
		    replace "$work/pkg.mk" "$fb/$c/Makefile"
		said "$c/Makefile: no PACKAGE=, as FreeBSD's had none"
	fi
done

# The NetBSD tests FreeBSD runs for a program, kept with their data
# files; under another name where one of ours has theirs.
for c in $COMPONENTS; do
	old=$work/old/$c/tests/Makefile
	new=$fb/$c/tests/Makefile
	[ -f "$old" ] && [ -f "$new" ] || continue
	nb=$(mkvar "$old" NETBSD_ATF_TESTS_SH)
	[ -n "$nb" ] || continue
	grep -q 'netbsd-tests.test.mk' "$new" && continue
	ours=" $(mkvar "$new" ATF_TESTS_SH) "
	mark="# NetBSD's tests of the same program, as FreeBSD runs them."
	if grep -qF "$mark" "$old"; then
		# Imported before: the same lines again.
		sed -n "/^$mark\$/,/^\.include <netbsd-tests\.test\.mk>/p" \
		    "$old" > "$work/netbsd.mk"
		echo >> "$work/netbsd.mk"
	else {
		echo "# NetBSD's tests of the same program, as FreeBSD runs them."
		for t in $nb; do
			case $ours in
			*" $t "*)
				echo "NETBSD_ATF_TESTS_SH+=	netbsd_$t"
				echo "ATF_TESTS_SH_SRC_netbsd_$t=	t_${t%_test}.sh"
				;;
			*)	echo "NETBSD_ATF_TESTS_SH+=	$t" ;;
			esac
		done
		for f in $(mkvar "$old" '\${PACKAGE}FILES'); do
			echo "\${PACKAGE}FILES+=	$f"
		done
		echo
		echo ".include <netbsd-tests.test.mk>"
		echo
	} > "$work/netbsd.mk"
	fi
	awk -v add="$work/netbsd.mk" '
	    /^\.include <bsd\.test\.mk>/ && !done {
		while ((getline l < add) > 0)
			print l
		done = 1
	    }
	    { print }' "$new" > "$work/new.mk" && replace "$work/new.mk" "$new"
	said "$c/tests/Makefile: NetBSD's tests and data files kept ($nb)"
done

# Makefile.depend, as FreeBSD keeps one in each directory: what a
# directory's programs link (LIBADD) and include, as FreeBSD's own
# say it: lib/libcapsicum for capsicum_helpers.h.  What a program links
# only with Casper (MK_CASPER) goes in a Makefile.depend.options beside
# it, its services under DIRDEPS.CASPER.yes, as FreeBSD's tail has.
dirdep_of()
{
	case $1 in
	bufsz)		echo lib/libbufsz ;;
	atf_c)		echo lib/atf/libatf-c ;;
	casper)		echo lib/libcasper/libcasper ;;
	cap_*)		echo lib/libcasper/services/$1 ;;
	*)		echo lib/lib$1 ;;
	esac
}
# Whether a C file directory d compiles, found along its .PATH, includes
# capsicum_helpers.h.
uses_capsicum()
{
	(cd "$srctop/$1" &&
	    for s in $(ourmake -V '${SRCS:M*.c}'); do
		for p in $(ourmake -V '${.PATH}'); do
			[ -f "$p/$s" ] && cat "$p/$s" && break
		done
	    done) | grep -q '<capsicum_helpers\.h>'
}
write_depend()
{
	d=$1
	libs=$(cd "$srctop/$d" &&
	    ourmake MK_CASPER=no -V '${LIBADD} ${ATF_TESTS_C:Datf_c}')
	casper=
	for l in $(cd "$srctop/$d" && ourmake -V '${LIBADD}'); do
		case " $libs " in
		*" $l "*)	;;
		*)	casper="$casper $l" ;;
		esac
	done
	capsicum=
	[ -n "$casper" ] || uses_capsicum "$d" && capsicum=lib/libcapsicum
	rm -f "$fb/$d/Makefile.depend.options"
	if [ -n "$casper" ]; then
		{
			echo "# This file is not autogenerated - take care!"
			echo
			echo "DIRDEPS_OPTIONS= CASPER"
			echo
			printf 'DIRDEPS.CASPER.yes='
			for l in $casper; do
				case $l in
				cap_*)	printf ' %s' "$(dirdep_of "$l")" ;;
				esac
			done
			echo
			echo
			echo ".include <dirdeps-options.mk>"
		} > "$fb/$d/Makefile.depend.options"
	fi
	{
		echo "# Autogenerated - do NOT edit!"
		echo
		echo "DIRDEPS = \\"
		if ls "$fb/$d"/*.c >/dev/null 2>&1; then
			for l in include include/xlocale 'lib/${CSU_DIR}' \
			    lib/libc lib/libcompiler_rt $capsicum \
			    $(for lb in $libs; do dirdep_of "$lb"; done); do
				echo "	$l \\"
			done | sort -u
		fi
		echo
		echo
		echo ".include <dirdeps.mk>"
		echo
		echo '.if ${DEP_RELDIR} == ${_DEP_RELDIR}'
		echo "# local dependencies - needed for -jN in clean tree"
		echo ".endif"
	} > "$fb/$d/Makefile.depend"
}
for c in $COMPONENTS; do
	(cd "$fb" && find "$c" -name Makefile -type f) | while read -r f; do
		write_depend "${f%/Makefile}"
	done
	said "$c: Makefile.depend in each directory"
done

# Test programs and files FreeBSD installed that the tree's do not.
obsolete=
for c in $COMPONENTS; do
	old=$work/old/$c/tests/Makefile
	[ -f "$old" ] || continue
	new=$fb/$c/tests/Makefile
	had=$(mkvar "$old" ATF_TESTS_SH; mkvar "$old" ATF_TESTS_C;
	    mkvar "$old" NETBSD_ATF_TESTS_SH; mkvar "$old" PLAIN_TESTS_SH;
	    mkvar "$old" PLAIN_TESTS_C; mkvar "$old" '\${PACKAGE}FILES')
	has=" $(mkvar "$new" ATF_TESTS_SH; mkvar "$new" ATF_TESTS_C;
	    mkvar "$new" NETBSD_ATF_TESTS_SH;
	    mkvar "$new" PLAIN_TESTS_SH; mkvar "$new" PLAIN_TESTS_C;
	    mkvar "$new" '\${PACKAGE}FILES') "
	for t in $had; do
		case $has in
		*" $t "*)	;;
		*)	obsolete="$obsolete usr/tests/$c/$t" ;;
		esac
	done
done

# --- FreeBSD's own files -----------------------------------------------

edit()
{
	f=$1
	shift
	if [ ! -f "$fb/$f" ]; then
		said "$f: skipped: not in this tree"
		return 0
	fi
	"$@"
}

libnames()
{
	f=$fb/share/mk/src.libnames.mk
	if grep -q '^LIBBUFSZDIR=' "$f"; then
		said "share/mk/src.libnames.mk: names bufsz already"
		return 0
	fi
	# patch(1) may write the file in place: a copy first keeps a tree
	# linked to another (cp -al) from changing both.
	replace "$f" "$f" || exit 1
	(cd "$fb" && patch -s -p1) < "$srctop/share/mk/freebsd-libnames.patch" ||
	    { echo "import: the libnames patch does not apply" >&2; exit 1; }
	rm -f "$f.orig"
	said "share/mk/src.libnames.mk: bufsz among the internal libraries"
}

# libbufsz in the main SUBDIR list, in its alphabetical place; it links
# no library of lib/ but libc, built before .WAIT, so it needs no
# SUBDIR_DEPEND, and its users (bin, usr.bin, rescue) come after lib/.
lib_makefile()
{
	f=$fb/lib/Makefile
	if grep -q '^[[:space:]]*libbufsz[[:space:]]*\\$' "$f"; then
		said "lib/Makefile: builds libbufsz already"
		return 0
	fi
	awk '
	    /^SUBDIR=[ \t]*\$\{SUBDIR_BOOTSTRAP\}/ { inlist = 1 }
	    inlist && !done && /^\tlib[a-z0-9_]* \\$/ {
		name = $1
		if (name != "libsqlite3" && name > "libbufsz") {
			print "\tlibbufsz \\"
			done = 1
		}
	    }
	    inlist && !/\\$/ { inlist = 0 }
	    { print }
	    END { exit !done }' "$f" > "$work/lib.mk" ||
	    { echo "import: lib/Makefile: no place for libbufsz" >&2; exit 1; }
	replace "$work/lib.mk" "$f"
	said "lib/Makefile: libbufsz in SUBDIR"
}

# A directory NAME under PARENT (a path of the hierarchy, "." for its
# top) in an mtree specification, in its alphabetical place.
mtree_add()
{
	f=$1 parent=$2 name=$3
	awk -v parent="$parent" -v name="$name" '
	    function path(	p, i) {
		p = "."
		for (i = 2; i <= depth; i++)
			p = p "/" stack[i]
		return (p)
	    }
	    function put() {
		printf("%s%s\n%s..\n", ind, name, ind)
		done = 1
	    }
	    /^[ \t]*(#|\/|$)/ { print; next }
	    {
		w = $1
		if (!done && path() == parent && (w == ".." || w > name)) {
			if (w == name)
				done = 1
			else
				put()
		}
		if (w == "..")
			depth--
		else {
			stack[++depth] = w
			if (path() == parent)
				ind = substr($0, 1, index($0, w) - 1) "    "
			if (path() == parent "/" name)
				done = 1
		}
		print
	    }
	    END { exit !done }' "$f" > "$work/mtree" &&
	replace "$work/mtree" "$f"
}
tests_dist()
{
	f=$fb/etc/mtree/BSD.tests.dist
	mtree_add "$f" ./lib libbufsz &&
	    mtree_add "$f" ./lib/libbufsz faults && mtree_add "$f" . common ||
	    { echo "import: BSD.tests.dist: no place for lib/libbufsz" >&2
	      exit 1; }
	said "etc/mtree/BSD.tests.dist: lib/libbufsz, lib/libbufsz/faults" \
	    "and common"
}

rescue()
{
	f=$fb/rescue/rescue/Makefile
	if grep -q 'LIBBUFSZ' "$f"; then
		said "rescue/rescue/Makefile: links libbufsz already"
		return 0
	fi
	awk '
	    { print }
	    /^CRUNCH_PROGS_bin[ \t]*=/ { inbin = 1 }
	    inbin && /^CRUNCH_LIBS\+=/ && !done {
		print "# cat, cp and tail copy through the internal libbufsz."
		print "CRUNCH_LIBS+= ${LIBBUFSZ}"
		done = 1
	    }
	    END { exit !done }' "$f" > "$work/rescue" ||
	    { echo "import: rescue/rescue/Makefile: no CRUNCH_LIBS after" \
	      "CRUNCH_PROGS_bin" >&2; exit 1; }
	replace "$work/rescue" "$f"
	said "rescue/rescue/Makefile: CRUNCH_LIBS+= \${LIBBUFSZ}"
}

# cat is a bootstrap tool where the build host is not FreeBSD (or is an
# old one), and cat and cp are native-xtools: each is built there with
# libbufsz built first, as makefs is with libnetbsd.
makefile_inc1()
{
	f=$fb/Makefile.inc1
	if grep -q 'lib/libbufsz' "$f"; then
		said "Makefile.inc1: builds libbufsz already"
		return 0
	fi
	awk '
	    /^_cat=[ \t]*bin\/cat$/ {
		print "_cat=\t\tlib/libbufsz bin/cat"
		print "${_bt}-bin/cat: ${_bt}-lib/libbufsz"
		bt = 1
		next
	    }
	    /^NXBDIRS\+=[ \t]*\\$/ && !nx {
		print "# cat and cp link the internal libbufsz."
		print "NXBDIRS+=\tlib/libbufsz .WAIT"
		nx = 1
	    }
	    { print }
	    END { exit !(bt && nx) }' "$f" > "$work/inc1" ||
	    { echo "import: Makefile.inc1: no _cat= bin/cat or NXBDIRS" >&2
	      exit 1; }
	replace "$work/inc1" "$f"
	said "Makefile.inc1: libbufsz before the bootstrap cat and in NXBDIRS"
}

# common, the shell functions the suites source; faultinj, the library
# the fault suites and some cases of the others preload; faults, those
# suites.  Each ahead of FreeBSD's own, in that order.
tests_makefile()
{
	f=$fb/tests/Makefile
	added=
	for d in faults faultinj common; do
		grep -q "^SUBDIR+=[[:space:]]*$d\$" "$f" && continue
		awk -v d="$d" '
		    /^SUBDIR\+=/ && !done { print "SUBDIR+= " d; done = 1 }
		    { print }
		    END { exit !done }' "$f" > "$work/tests.mk" ||
		    { echo "import: tests/Makefile: no SUBDIR+=" >&2; exit 1; }
		replace "$work/tests.mk" "$f"
		added="$d $added"
	done
	if [ -z "$added" ]; then
		said "tests/Makefile: builds common, faultinj and faults already"
	else
		said "tests/Makefile: ${added% }"
	fi
}

obsolete_files()
{
	f=$fb/ObsoleteFiles.inc
	if [ -z "$obsolete" ]; then
		said "ObsoleteFiles.inc: nothing FreeBSD installed is gone"
		return 0
	fi
	{
		echo "# $(date -u +%Y%m%d): tests replaced by those of the" \
		    "imported cat, cp, tail and yes"
		for o in $obsolete; do
			echo "OLD_FILES+=$o"
		done
		echo
	} > "$work/obs"
	awk -v add="$work/obs" '
	    /^# [0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]: / && !done {
		while ((getline l < add) > 0)
			print l
		done = 1
	    }
	    { print }' "$f" > "$work/obs.inc" && replace "$work/obs.inc" "$f"
	said "ObsoleteFiles.inc:$obsolete"
}

edit share/mk/src.libnames.mk libnames
edit lib/Makefile lib_makefile
edit etc/mtree/BSD.tests.dist tests_dist
edit rescue/rescue/Makefile rescue
edit Makefile.inc1 makefile_inc1
edit tests/Makefile tests_makefile
edit ObsoleteFiles.inc obsolete_files

# --- the patch ---------------------------------------------------------

if [ -n "$patch" ]; then
	snapshot "$work/b"
	g="git -C $work/g"
	mkdir -p "$work/g" && $g init -q || exit 1
	cp -R "$work/a/." "$work/g/" && $g add -A &&
	    old=$($g write-tree) || exit 1
	(cd "$work/g" && find . -mindepth 1 -maxdepth 1 ! -name .git \
	    -exec rm -rf {} +) && cp -R "$work/b/." "$work/g/" &&
	    $g add -A && $g diff --cached -M "$old" > "$patch" || exit 1
	said "the same change as one patch: $patch"
fi
