# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.subdir.mk: run a target in each SUBDIR, in order.
#
# SUBDIR.yes joins SUBDIR, as in FreeBSD's: SUBDIR.${MK_TESTS}+= tests
# builds tests/ unless WITHOUT_TESTS is set.  A .WAIT in SUBDIR keeps
# what follows it from starting before what precedes it has finished, so
# that -j never links against a library that is still being built.
#
# A Makefile that also builds something itself names it in
# _LOCAL_<target>: it is made before the subdirectories; what must come
# after them is named in _POST_<target>.

.include <bsd.init.mk>

SUBDIR_TARGETS?=	all install clean cleandir obj depend

.if !defined(_BSD_SUBDIR_MK)
_BSD_SUBDIR_MK=	yes

# A Makefile that names SUBDIR.${MK_TESTS} before it has read
# <src.opts.mk> would quietly build no tests here, and stop under
# FreeBSD's share/mk: stop here too.
.if defined(SUBDIR.)
.error ${.CURDIR}: SUBDIR.$${MK_...} comes before MK_... is known: .include <src.opts.mk> at the top of the Makefile
.endif
SUBDIR:=	${SUBDIR} ${SUBDIR.yes}

.if ${RELDIR} != "."
_DIRPREFIX=	${RELDIR}/
.endif

.for _t in ${SUBDIR_TARGETS:O:u}
_SUBDIR_${_t}=
.for _d in ${SUBDIR}
.if ${_d} == ".WAIT"
_SUBDIR_${_t}+=	.WAIT
.else
_SUBDIR_${_t}+=	_subdir.${_t}.${_d:S,/,_,g}
_subdir.${_t}.${_d:S,/,_,g}: .PHONY .MAKE
	@${ECHODIR} "===> ${_DIRPREFIX}${_d} (${_t})"
	@cd ${.CURDIR}/${_d} && ${MAKE} ${_t}
.endif
.endfor
subdir-${_t}: .PHONY ${_SUBDIR_${_t}}
${_t}: .PHONY ${_LOCAL_${_t}} .WAIT subdir-${_t} .WAIT ${_POST_${_t}}
.endfor

.endif # !_BSD_SUBDIR_MK
