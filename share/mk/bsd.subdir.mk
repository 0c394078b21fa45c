# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.subdir.mk: run a target in each SUBDIR, in order.
#
# A .WAIT in SUBDIR keeps what follows it from starting before what
# precedes it has finished, so that -j never links against a library that
# is still being built.  A Makefile that also builds something itself
# names it in _LOCAL_<target>; its subdirectories follow it, and what
# must come after them all is named in _POST_<target>.

.include <bsd.init.mk>

SUBDIR_TARGETS+=	all install clean

.if !defined(_BSD_SUBDIR_MK)
_BSD_SUBDIR_MK=	yes

_RELDIR:=	${.CURDIR:tA:S,^${SRCTOP},,:S,^/,,}
.if !empty(_RELDIR)
_DIRPREFIX=	${_RELDIR}/
.endif

.for _t in ${SUBDIR_TARGETS}
_SUBDIR_${_t}=
.for _d in ${SUBDIR}
.if ${_d} == ".WAIT"
_SUBDIR_${_t}+=	.WAIT
.else
_SUBDIR_${_t}+=	_subdir_${_t}_${_d:S,/,_,g}
_subdir_${_t}_${_d:S,/,_,g}: .PHONY .MAKE
	@echo "===> ${_DIRPREFIX}${_d} (${_t})"
	@cd ${.CURDIR}/${_d} && ${MAKE} ${_t}
.endif
.endfor
subdir-${_t}: .PHONY ${_SUBDIR_${_t}}
${_t}: .PHONY ${_LOCAL_${_t}} .WAIT subdir-${_t} .WAIT ${_POST_${_t}}
.endfor

.endif # !_BSD_SUBDIR_MK
