# SPDX-License-Identifier: BSD-2-Clause
#
# sys.mk: the tree's defaults, read first by every make in the tree.
#
# Every make below the top must use this directory, never the host's mk
# files; exporting MAKESYSPATH carries it into sub-makes, where a -m given
# on the command line or in MAKEFLAGS would be lost.

_BASE_MK=	yes

SRCTOP:=	${.PARSEDIR:H:H:tA}
MAKESYSPATH:=	${SRCTOP}/share/mk
.export MAKESYSPATH

.SUFFIXES:
.SUFFIXES: .o .c .sh

CC?=		cc
AR?=		ar
RANLIB?=	ranlib
INSTALL?=	install
MTREE?=		mtree
MANDOC?=	mandoc

CSTD?=		-std=c11
CFLAGS?=	-O2 -g -pipe
CWARNFLAGS?=	-Wall -Wextra -Werror -Wstrict-prototypes \
		-Wmissing-prototypes -Wmissing-declarations -Wshadow \
		-Wpointer-arith -Wcast-qual -Wwrite-strings -Wformat=2 \
		-Wundef -Wvla -Wold-style-definition
# The system the tree is built for, as uname -s names it.  A leaf
# Makefile picks its host-specific sources with ${OPSYS:UFreeBSD}, so
# that under FreeBSD's own share/mk, which does not set it, it builds
# FreeBSD's.
OPSYS?=		${.MAKE.OS}

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

# SANITIZE=1: AddressSanitizer and UndefinedBehaviorSanitizer, trapping
# on the first report so that a test sees a failure, not a warning.
.if ${SANITIZE:U0} != "0"
SANFLAGS=	-fsanitize=address,undefined -fno-sanitize-recover=all \
		-fno-omit-frame-pointer
CFLAGS+=	${SANFLAGS}
LDFLAGS+=	${SANFLAGS}
.endif

# Each compiler and sanitizer build has its own objects, so that one
# build never links another's.
_CCNAME=	${CC:[1]:T}
.if ${_CCNAME} == "cc"
BUILDNAME?=	${SANITIZE:U0:N0:D-san}
.else
BUILDNAME?=	-${_CCNAME}${SANITIZE:U0:N0:D-san}
.endif
OBJTOP?=	${SRCTOP}/obj/build${BUILDNAME}
.export OBJTOP

.if ${.CURDIR:tA:M${SRCTOP}*} != ""
_OBJDIR:=	${OBJTOP}${.CURDIR:tA:S,^${SRCTOP},,}
_mkobj!=	mkdir -p ${_OBJDIR}; echo
.OBJDIR:	${_OBJDIR}
.endif

.c.o:
	${CC} ${CSTD} ${CFLAGS} ${CWARNFLAGS} ${CPPFLAGS} -c ${.IMPSRC} \
	    -o ${.TARGET}
