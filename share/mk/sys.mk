# SPDX-License-Identifier: BSD-2-Clause
#
# sys.mk: the tree's defaults, read first by every make in the tree.
#
# The leaf Makefiles are written in FreeBSD's form (PROG, SRCS, LIBADD,
# HAS_TESTS, SUBDIR.${MK_TESTS}, ATF_TESTS_SH, ...), and these mk files
# give those names FreeBSD's meanings, so that one set of Makefiles builds
# here and under FreeBSD's own share/mk.  share/mk/README says which names
# there are.
#
# Every make below the top must use this directory, never the host's mk
# files; exporting MAKESYSPATH carries it into sub-makes, where a -m given
# on the command line or in MAKEFLAGS would be lost.

_BASE_MK=	yes

SRCTOP:=	${.PARSEDIR:H:H:tA}
MAKESYSPATH:=	${SRCTOP}/share/mk
.export MAKESYSPATH

.SUFFIXES:
.SUFFIXES: .o .c

CC?=		cc
AR?=		ar
RANLIB?=	ranlib
INSTALL?=	install
MTREE?=		mtree
MANDOC?=	mandoc

# make -s is silent about the directories it enters, too, and under -j
# about the jobs it starts.
.if !empty(.MAKEFLAGS:M-s)
ECHODIR?=	true
.MAKE.JOB.PREFIX?=
.else
ECHODIR?=	echo
.endif

# The system built for, and the host files that follow from it.
.include <host.opts.mk>

CSTD?=		-std=c11
CFLAGS?=	-O2 -g -pipe
CWARNFLAGS?=	-Wall -Wextra -Werror -Wstrict-prototypes \
		-Wmissing-prototypes -Wmissing-declarations -Wshadow \
		-Wpointer-arith -Wcast-qual -Wwrite-strings -Wformat=2 \
		-Wundef -Wvla -Wold-style-definition

# COPTS: flags added to the compiler's, as FreeBSD's bsd.prog.mk still
# reads them (make MAKEOBJDIRPREFIX=/tmp/o COPTS=-DNDEBUG).
CFLAGS+=	${COPTS}

# SANITIZE=1: AddressSanitizer and UndefinedBehaviorSanitizer, trapping
# on the first report so that a test sees a failure, not a warning.
.if ${SANITIZE:U0} != "0"
SANFLAGS=	-fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer
CFLAGS+=	${SANFLAGS}
LDFLAGS+=	${SANFLAGS}
.endif

# Where objects go.  Each compiler and sanitizer build has its own, so
# that one build never links another's: obj/build, obj/build-clang,
# obj/build-san, ...  MAKEOBJDIRPREFIX, as on FreeBSD, moves them all out
# of the source tree, to ${MAKEOBJDIRPREFIX}${SRCTOP}/build...
_CCNAME=	${CC:[1]:T}
.if ${_CCNAME} == "cc"
BUILDNAME?=	${SANITIZE:U0:N0:D-san}
.else
BUILDNAME?=	-${_CCNAME}${SANITIZE:U0:N0:D-san}
.endif
.if !empty(MAKEOBJDIRPREFIX)
OBJROOT?=	${MAKEOBJDIRPREFIX}${SRCTOP}/
.else
OBJROOT?=	${SRCTOP}/obj/
.endif
OBJTOP?=	${OBJROOT}build${BUILDNAME}
.export OBJTOP

# RELDIR: this directory below the top of the tree (bin/cat, ...), as
# FreeBSD's share/mk names it.  Its objects go to ${OBJTOP}/${RELDIR},
# made when first needed (make obj makes it and says so).  Under -n, and
# for clean and cleandir, nothing is made, and make runs in the source
# directory if the object directory is not there.
.if ${.CURDIR:tA} == ${SRCTOP}
RELDIR=		.
.else
RELDIR:=	${.CURDIR:tA:S,^${SRCTOP}/,,}
.endif
.if ${.CURDIR:tA:M${SRCTOP}*} != ""
.if ${RELDIR} == "."
_OBJDIR:=	${OBJTOP}
.else
_OBJDIR:=	${OBJTOP}/${RELDIR}
.endif
.if !exists(${_OBJDIR}/) && empty(.MAKEFLAGS:M-n) && \
    !make(obj) && !make(clean) && !make(cleandir)
_mkobj!=	mkdir -p ${_OBJDIR}; echo
.endif
.if exists(${_OBJDIR}/)
.OBJDIR:	${_OBJDIR}
.endif
.endif

# Each object's header dependencies are recorded as it is compiled, in
# .depend.NAME.o beside it (bsd.dep.mk reads them back), so that a
# changed header rebuilds what includes it.
DEPEND_CFLAGS?=	-MD -MP -MF .depend.${.TARGET:T}

.c.o:
	${CC} ${CSTD} ${CFLAGS} ${CWARNFLAGS} ${CPPFLAGS} ${DEPEND_CFLAGS} \
	    -c ${.IMPSRC} -o ${.TARGET}
