# bsd.init.mk: read before anything a Makefile builds.

.if !defined(_BSD_INIT_MK)
_BSD_INIT_MK=	yes
.if ${.CURDIR:tA} != ${SRCTOP}
.-include "${.CURDIR}/../Makefile.inc"
.endif
.include <bsd.own.mk>
.MAIN:		all
.endif
