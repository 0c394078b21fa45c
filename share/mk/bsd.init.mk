# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.init.mk: read before anything a Makefile builds: the options
# (bsd.opts.mk), the Makefile.inc of the directory above, if any
# (bin/Makefile.inc sets BINDIR for /bin), and bsd.own.mk.  Also the targets every directory has, whatever it builds:
#
#	obj		make the object directory (made anyway when needed)
#	clean		remove what was built (CLEANFILES)
#	cleandir	clean, and remove the object directory itself
#
# Each runs in the SUBDIRs too (bsd.subdir.mk).

.if !defined(_BSD_INIT_MK)
_BSD_INIT_MK=	yes
.include <bsd.opts.mk>
.if ${RELDIR} != "."
.-include "${.CURDIR}/../Makefile.inc"
.endif
.include <bsd.own.mk>
.MAIN:		all

# Sources are found beside the Makefile.
.PATH:		${.CURDIR}

_LOCAL_obj+=	_localobj
_LOCAL_clean+=	_localclean
_POST_cleandir+=	_localcleandir

_localobj: .PHONY
	@if ! [ -d ${_OBJDIR} ]; then \
		mkdir -p ${_OBJDIR} && \
		echo "${_OBJDIR} created for ${.CURDIR}"; \
	fi

# Nothing is removed where the object directory is the source directory.
_localclean: .PHONY
.if ${.OBJDIR} != ${.CURDIR}
	${CLEANFILES:Drm -f ${CLEANFILES}}
.endif

_localcleandir: .PHONY _localclean
.if ${.OBJDIR} != ${.CURDIR}
	rm -rf ${.OBJDIR}
.endif
.endif # !_BSD_INIT_MK
