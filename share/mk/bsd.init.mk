# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.init.mk: read before anything a Makefile builds.

.if !defined(_BSD_INIT_MK)
_BSD_INIT_MK=	yes
.if ${.CURDIR:tA} != ${SRCTOP}
.-include "${.CURDIR}/../Makefile.inc"
.endif
.include <bsd.own.mk>
.MAIN:		all

# Sources are found beside the Makefile; what a directory builds (its
# CLEANFILES, set later by the other mk files) goes on clean.
.PATH:		${.CURDIR}
clean: .PHONY _localclean
_localclean: .PHONY
	rm -f ${CLEANFILES}
.endif
