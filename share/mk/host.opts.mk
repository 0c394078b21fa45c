# SPDX-License-Identifier: BSD-2-Clause
#
# host.opts.mk: the one place that knows which system the tree is built
# for.  Read by sys.mk, before any Makefile of the tree.
#
# A leaf Makefile names its host files through the variables set here,
# never through the system's name:
#
#	SRCS+=	lock_${LOCK_HOST}.c
#	.if ${MK_TAC} != "no"
#	LINKS=	${BINDIR}/tail ${BINDIR}/tac
#	.endif
#
# Each *_HOST variable is the suffix of the file of its kind; each MK_*
# knob, yes or no, says whether the system has that interface.  Where a
# system has nothing of a kind, the fallback serves: *_portable.c.
#
#	LOCK_HOST	bin/cat/lock_*.c: cat -l's lock
#	ATTR_HOST	bin/cp/attr_*.c: cp -p's flags, ACLs, attributes (bsd:
#			FreeBSD's ACL, extattr and chflags calls; netbsd:
#			those, as NetBSD has them)
#	BENEATH_HOST	bin/cp/beneath_*.c: opening below a directory (linux:
#			openat2; freebsd: O_RESOLVE_BENEATH; portable: a walk)
#	PROBE_HOST	lib/libbufsz/probe_*.c: physical memory
#	SANDBOX_HOST	lib/libbufsz/sandbox_*.c: confining to the operands
#	KPATH_HOST	lib/libbufsz/kpath_*.c: the kernel's copy paths
#	FOLLOW_HOST	usr.bin/tail/follow_*.c: how tail -f waits
#	YES_HOST	usr.bin/yes/yes_*.c: lending pages to a pipe, Capsicum
#	SIZEKEPT_HOST	lib/libbufsz/sizekept_*.c: file systems whose size is the end
#	MK_CAPSICUM	usr.bin/tail: capability mode and Casper's fileargs
#	MK_TAC		usr.bin/tail: installed as tac too
#	MK_EXPAND_NUMBER usr.bin/tail: expand_number(3) in libutil (else
#			usr.bin/tail/expand_number.c)
#	MK_ASK_TTY	bin/cp: -i asks only when stdin is a terminal
#	MK_BENEATH_WALK	bin/cp: beneath_portable.c's walk is built, alone
#			or behind the kernel's call (tests/beneath_test)
#	MK_CP_THREADS	bin/cp: the files of a tree copied by several
#			threads (pool.c), where that was measured to pay
#	MK_CGROUP	lib/libbufsz/tests/cgroup_test
#	MK_LIBDL	tests/faultinj: dlsym(3) in libdl
#	MK_FUSE		lib/libbufsz/tests/lyingfs: a FUSE file system (libfuse3)
#	MK_LINUX_TESTS	the test programs of what Linux alone has (Landlock,
#			/proc and /sys, cgroups, F_SETPIPE_SZ, bind mounts,
#			the engine's Linux paths, GNU's stat): *_linux_test,
#			beside each suite's own
#
# The values
# for FreeBSD are what make freebsd-import writes into the Makefiles it
# takes into a FreeBSD tree (tools/freebsd-import), which then name
# FreeBSD's files only: HOST_VARS lists what it resolves.
#
# CASPER is no host knob but FreeBSD's build option, left in the
# Makefiles for FreeBSD's make to read (MK_CASPER=no, RESCUE): yes by
# default on FreeBSD, and always no elsewhere, which has no libcasper.
#
# OPSYS is the system built for, as uname -s names it; OPSYS=NetBSD on
# the command line builds NetBSD's files (make check-bsd does).

OPSYS?=		${.MAKE.OS}

HOST_VARS=	LOCK_HOST ATTR_HOST BENEATH_HOST PROBE_HOST SANDBOX_HOST \
		KPATH_HOST FOLLOW_HOST YES_HOST \
		SIZEKEPT_HOST \
		MK_CAPSICUM MK_TAC MK_EXPAND_NUMBER MK_ASK_TTY MK_BENEATH_WALK \
		MK_CP_THREADS MK_CGROUP MK_LIBDL MK_FUSE MK_LINUX_TESTS

.if ${OPSYS} == "Linux"
LOCK_HOST=		ofd
ATTR_HOST=		linux
BENEATH_HOST=		linux
PROBE_HOST=		linux
SANDBOX_HOST=		linux
KPATH_HOST=		linux
FOLLOW_HOST=		linux
YES_HOST=		linux
SIZEKEPT_HOST=		linux
MK_CAPSICUM=		no
MK_TAC=			yes
MK_EXPAND_NUMBER=	no
MK_ASK_TTY=		no
MK_BENEATH_WALK=	yes
MK_CP_THREADS=		yes
MK_CGROUP=		yes
MK_LIBDL=		yes
MK_FUSE=		yes
MK_LINUX_TESTS=		yes
.elif ${OPSYS} == "FreeBSD"
LOCK_HOST=		flock
ATTR_HOST=		bsd
BENEATH_HOST=		freebsd
PROBE_HOST=		bsd
SANDBOX_HOST=		portable
KPATH_HOST=		freebsd
FOLLOW_HOST=		kqueue
YES_HOST=		freebsd
SIZEKEPT_HOST=		freebsd
MK_CAPSICUM=		yes
MK_TAC=			no
MK_EXPAND_NUMBER=	yes
MK_ASK_TTY=		no
MK_BENEATH_WALK=	no
MK_CP_THREADS=		no
MK_CGROUP=		no
MK_LIBDL=		no
MK_FUSE=		no
MK_LINUX_TESTS=		no
HOST_YES_OPTIONS=	CASPER
.else
LOCK_HOST=		flock
ATTR_HOST=		bsd
BENEATH_HOST=		portable
PROBE_HOST=		portable
SANDBOX_HOST=		portable
KPATH_HOST=		portable
.if ${OPSYS} == "NetBSD"
ATTR_HOST=		netbsd
PROBE_HOST=		bsd
FOLLOW_HOST=		kqueue
MK_TAC=			yes
MK_ASK_TTY=		yes
.else
FOLLOW_HOST=		portable
MK_TAC=			no
MK_ASK_TTY=		no
.endif
YES_HOST=		portable
SIZEKEPT_HOST=		portable
MK_CAPSICUM=		no
MK_EXPAND_NUMBER=	no
MK_BENEATH_WALK=	yes
MK_CP_THREADS=		no
MK_CGROUP=		no
MK_LIBDL=		no
MK_FUSE=		no
MK_LINUX_TESTS=		no
.endif
.if ${OPSYS} != "FreeBSD"
MK_CASPER:=		no
.endif

# FreeBSD's <sys/cdefs.h> names a function that never returns __dead2;
# elsewhere the tree gives the name the same meaning.
.if ${OPSYS} != "FreeBSD"
CPPFLAGS+=	'-D__dead2=__attribute__((__noreturn__))'
.endif

.if ${OPSYS} == "Linux"
# Linux declares splice, copy_file_range and friends only under this; and
# 32-bit glibc needs the second for files over 2 GiB (the BSDs and musl
# always have a 64-bit off_t).
CPPFLAGS+=	-D_GNU_SOURCE -D_FILE_OFFSET_BITS=64
.endif
