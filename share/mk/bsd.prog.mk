# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.prog.mk: one program, PROG, from SRCS.

.include <bsd.init.mk>

.if defined(PROG)
SRCS?=		${PROG}.c
OBJS+=		${SRCS:M*.c:R:S/$/.o/}
CLEANFILES+=	${PROG} ${OBJS}

${OBJS}: ${SRCS:M*.h} ${DPSRCS}

${PROG}: ${OBJS} ${DPADD}
	${CC} ${CFLAGS} ${LDFLAGS} -o ${.TARGET} ${OBJS} ${LDADD}

_LOCAL_all+=	${PROG}
_LOCAL_install+=	proginstall
proginstall: .PHONY ${PROG}
	${INSTALL_PROG} ${PROG} ${DESTDIR}${BINDIR}/${PROG}
.endif

.include <bsd.man.mk>
.include <bsd.subdir.mk>
