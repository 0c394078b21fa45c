# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.prog.mk: one program, PROG, from SRCS (default ${PROG}.c), linked
# with LIBADD's libraries (src.libnames.mk), installed into BINDIR with
# its manual page MAN (default ${PROG}.1), unless INTERNALPROG is set: a
# program the build runs but never installs.  LINKS, pairs of paths under
# DESTDIR, gives it more names: hard links from the first to the second.
#
# HAS_TESTS says that the directory has a tests/ below it (named by
# SUBDIR.${MK_TESTS}+= tests), as FreeBSD's Makefiles do.

.include <bsd.init.mk>

.if defined(PROG)
SRCS?=		${PROG}.c
.if ${MK_MAN} != "no" && !defined(MAN) && !defined(INTERNALPROG)
MAN=		${PROG}.1
.endif
.include <src.libnames.mk>

OBJS+=		${SRCS:M*.c:R:S/$/.o/}
_DEPSRCS+=	${SRCS:M*.c}
CLEANFILES+=	${PROG} ${OBJS}

${OBJS}: ${SRCS:M*.h}

${PROG}: ${OBJS} ${DPADD}
	${CC} ${CFLAGS} ${LDFLAGS} -o ${.TARGET} ${OBJS} ${LDADD}

_LOCAL_all+=	${PROG}
.if !defined(INTERNALPROG)
_LOCAL_install+=	_proginstall
_proginstall: .PHONY ${PROG}
	${INSTALL_PROG} ${PROG} ${DESTDIR}${BINDIR}/${PROG}
.if !empty(LINKS)
.for _from _to in ${LINKS}
	ln -f ${DESTDIR}${_from} ${DESTDIR}${_to}
.endfor
.endif
.endif
.endif

.include <bsd.man.mk>
.include <bsd.files.mk>
.include <bsd.dep.mk>
.include <bsd.subdir.mk>
