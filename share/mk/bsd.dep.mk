# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.dep.mk: header dependencies.
#
# Each object records the headers it includes as it is compiled
# (DEPEND_CFLAGS in sys.mk: .depend.NAME.o in the object directory), and
# every later make reads them back, so that touching a header rebuilds
# what includes it.  make depend writes them without compiling; the
# sources are _DEPSRCS, which bsd.prog.mk and the others fill.

.if !defined(_BSD_DEP_MK)
_BSD_DEP_MK=	yes

.if ${.OBJDIR} != ${.CURDIR}
.for _d in ${:!cd ${.OBJDIR} && echo .depend.*.o!:N.depend.\*.o}
.dinclude "${.OBJDIR}/${_d}"
.endfor
.endif

_LOCAL_depend+=	_localdepend
_localdepend: .PHONY ${_DEPSRCS}
.if !empty(_DEPSRCS)
	@for s in ${.ALLSRC}; do \
		o=$${s##*/}; o=$${o%.c}.o; \
		echo "${CC:[1]} -MM $$s > .depend.$$o"; \
		${CC} ${CSTD} ${CFLAGS} ${CWARNFLAGS} ${CPPFLAGS} -MM -MP \
		    -MT $$o -MF .depend.$$o $$s || exit 1; \
	done
.endif

.endif # !_BSD_DEP_MK
