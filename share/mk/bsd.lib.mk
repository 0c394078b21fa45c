# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.lib.mk: a library from SRCS, as in FreeBSD's.
#
# LIB=	bufsz		the static archive libbufsz.a, installed into LIBDIR
#			with its headers INCS, unless INTERNALLIB is set: a
#			library linked into the tree's programs (LIBADD=
#			bufsz) and never installed.
# SHLIB_NAME= libx.so	a shared object, position independent, installed
#			into SHLIBDIR (a preloaded test helper).

.include <bsd.init.mk>

.if defined(LIB) || defined(SHLIB_NAME)
.include <src.libnames.mk>

OBJS+=		${SRCS:M*.c:R:S/$/.o/}
_DEPSRCS+=	${SRCS:M*.c}
CLEANFILES+=	${OBJS}

${OBJS}: ${SRCS:M*.h}

.if defined(SHLIB_NAME)
CFLAGS+=	-fPIC
${SHLIB_NAME}: ${OBJS} ${DPADD}
	${CC} ${CFLAGS} ${LDFLAGS} -shared -o ${.TARGET} ${OBJS} ${LDADD}
CLEANFILES+=	${SHLIB_NAME}
_LOCAL_all+=	${SHLIB_NAME}
_LOCAL_install+=	_shlibinstall
_shlibinstall: .PHONY ${SHLIB_NAME}
	${INSTALL_PROG} ${SHLIB_NAME} ${DESTDIR}${SHLIBDIR}/${SHLIB_NAME}
.endif

.if defined(LIB)
lib${LIB}.a: ${OBJS}
	rm -f ${.TARGET}
	${AR} cr ${.TARGET} ${OBJS}
	${RANLIB} ${.TARGET}
CLEANFILES+=	lib${LIB}.a
_LOCAL_all+=	lib${LIB}.a
.if !defined(INTERNALLIB)
_LOCAL_install+=	_libinstall
_libinstall: .PHONY lib${LIB}.a
	${INSTALL_DATA} lib${LIB}.a ${DESTDIR}${LIBDIR}/lib${LIB}.a
.for _h in ${INCS}
	${INSTALL_DATA} ${.CURDIR}/${_h} ${DESTDIR}${INCLUDEDIR}/${_h:T}
.endfor
.endif
.endif
.endif

.include <bsd.man.mk>
.include <bsd.files.mk>
.include <bsd.dep.mk>
.include <bsd.subdir.mk>
