# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.lib.mk: a library, LIB, from SRCS.
#
# A static archive, installed with its INCS unless INTERNALLIB is set;
# SHLIB=yes builds a shared object instead (libLIB.so, position
# independent), for preloaded test helpers.

.include <bsd.init.mk>

.if defined(LIB)
OBJS+=		${SRCS:M*.c:R:S/$/.o/}
.if defined(SHLIB)
_LIBFILE=	lib${LIB}.so
CFLAGS+=	-fPIC
${_LIBFILE}: ${OBJS} ${DPADD}
	${CC} ${CFLAGS} ${LDFLAGS} -shared -o ${.TARGET} ${OBJS} ${LDADD}
.else
_LIBFILE=	lib${LIB}.a
${_LIBFILE}: ${OBJS}
	rm -f ${.TARGET}
	${AR} cr ${.TARGET} ${OBJS}
	${RANLIB} ${.TARGET}
.endif
CLEANFILES+=	${_LIBFILE} ${OBJS}

${OBJS}: ${SRCS:M*.h} ${INCS} ${DPSRCS}

_LOCAL_all+=	${_LIBFILE}
.if !defined(INTERNALLIB)
_LOCAL_install+=	libinstall
libinstall: .PHONY ${_LIBFILE}
.if defined(SHLIB)
	${INSTALL_PROG} ${_LIBFILE} ${DESTDIR}${LIBDIR}/${_LIBFILE}
.else
	${INSTALL_DATA} ${_LIBFILE} ${DESTDIR}${LIBDIR}/${_LIBFILE}
.endif
.for _h in ${INCS}
	${INSTALL_DATA} ${.CURDIR}/${_h} ${DESTDIR}${INCLUDEDIR}/${_h:T}
.endfor
.endif
.endif

.include <bsd.man.mk>
.include <bsd.subdir.mk>
