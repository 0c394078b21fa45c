# SPDX-License-Identifier: BSD-2-Clause
#
# src.libnames.mk: libraries by name, for LIBADD, as in FreeBSD's file of
# the same name.
#
# LIBADD= bufsz links the tree's ${LIBBUFSZ} and makes the program depend
# on it.  An internal library (INTERNALLIB, never installed) is a static
# archive in its object directory; its header is found by the -I the
# program's Makefile adds.  FreeBSD's src.libnames.mk needs the same
# three lines for each: share/mk/freebsd-libnames.patch.  Any other name
# is the system's library: LIBADD= m links -lm (atf_c: -latf-c).

.if !defined(_SRC_LIBNAMES_MK)
_SRC_LIBNAMES_MK=	yes

_INTERNALLIBS=	bufsz

LIBBUFSZDIR=	${OBJTOP}/lib/libbufsz
LIBBUFSZ?=	${LIBBUFSZDIR}/libbufsz.a

LDADD_atf_c?=	-latf-c

.for _l in ${LIBADD}
.if !empty(_INTERNALLIBS:M${_l})
DPADD+=		${LIB${_l:tu}}
LDADD+=		${LIB${_l:tu}}
# Made in its own directory, earlier in the build: a make -n that has
# not made it goes on without it.
${LIB${_l:tu}}: .OPTIONAL
.else
LDADD+=		${LDADD_${_l}:U-l${_l}}
.endif
.endfor

.endif # !_SRC_LIBNAMES_MK
