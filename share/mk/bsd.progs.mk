# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.progs.mk: several programs in one directory, as in FreeBSD's.
#
# PROGS=	sweep limits	each from SRCS.NAME (default NAME.c) and the
#				sources common to them all, SRCS, compiled
#				once; linked with LDADD.NAME and LIBADD's
#				libraries; installed into BINDIR.NAME (default
#				BINDIR), unless INTERNALPROG is set.
#
# bsd.test.mk builds ATF_TESTS_C through this file.

.include <bsd.init.mk>

.if !defined(_BSD_PROGS_MK)
_BSD_PROGS_MK=	yes

.if !empty(PROGS)
.include <src.libnames.mk>

_PROGS_COMMON_OBJS=	${SRCS:M*.c:R:S/$/.o/}
_DEPSRCS+=	${SRCS:M*.c}
CLEANFILES+=	${_PROGS_COMMON_OBJS}

.for _p in ${PROGS}
SRCS.${_p}?=	${_p}.c
_OBJS.${_p}=	${SRCS.${_p}:M*.c:R:S/$/.o/} ${_PROGS_COMMON_OBJS}
_DEPSRCS+=	${SRCS.${_p}:M*.c}
CLEANFILES+=	${_p} ${_OBJS.${_p}}

${_OBJS.${_p}}: ${SRCS.${_p}:M*.h} ${SRCS:M*.h}

${_p}: ${_OBJS.${_p}} ${DPADD} ${DPADD.${_p}}
	${CC} ${CFLAGS} ${LDFLAGS} -o ${.TARGET} ${_OBJS.${_p}} \
	    ${LDADD.${_p}} ${LDADD}

_LOCAL_all+=	${_p}
.if !defined(INTERNALPROG) && !defined(INTERNALPROG.${_p})
_LOCAL_install+=	_proginstall.${_p}
_proginstall.${_p}: .PHONY ${_p}
	${INSTALL_PROG} ${_p} ${DESTDIR}${BINDIR.${_p}:U${BINDIR}}/${_p}
.endif
.endfor
.endif

.endif # !_BSD_PROGS_MK

.include <bsd.man.mk>
.include <bsd.files.mk>
.include <bsd.dep.mk>
.include <bsd.subdir.mk>
