# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.files.mk: files installed as they are, in groups, as in FreeBSD's.
#
# FILESGROUPS names the groups (default FILES).  For a group G, ${G}
# lists its files, found beside the Makefile (or on .PATH) or made by
# the build; they go to ${G}DIR (default BINDIR), or ${G}DIR_<file> for
# one of them, named ${G}NAME_<file> (default: their own name), with
# mode ${G}MODE (default NONBINMODE).  bsd.test.mk adds
# the group ${PACKAGE}FILES (testsFILES), installed into TESTSDIR.

.include <bsd.init.mk>

.if !defined(_BSD_FILES_MK)
_BSD_FILES_MK=	yes

FILESGROUPS?=	FILES

.for _g in ${FILESGROUPS:O:u}
.if !empty(${_g})
${_g}DIR?=	${BINDIR}
${_g}MODE?=	${NONBINMODE}
_LOCAL_all+=	${${_g}}
.for _f in ${${_g}}
_LOCAL_install+=	_filesinstall.${_g}.${_f:T}
_filesinstall.${_g}.${_f:T}: .PHONY ${_f}
	${INSTALL} -c ${INSTALL_OWN} -m ${${_g}MODE} ${.ALLSRC} \
	    ${DESTDIR}${${_g}DIR_${_f:T}:U${${_g}DIR}}/${${_g}NAME_${_f:T}:U${_f:T}}
.endfor
.endif
.endfor

.endif # !_BSD_FILES_MK
