# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.man.mk: manual pages, MAN, installed as their mdoc source (man(1)
# and mandoc format them when read), each in the section its suffix
# names.  Nothing with MK_MAN=no (WITHOUT_MAN).

.include <bsd.init.mk>

.if !defined(_BSD_MAN_MK)
_BSD_MAN_MK=	yes

.if ${MK_MAN} != "no" && !empty(MAN)
_LOCAL_install+=	_maninstall
_maninstall: .PHONY
.for _p in ${MAN}
	${INSTALL_DATA} ${.CURDIR}/${_p} \
	    ${DESTDIR}${MANDIR}${_p:E}/${_p:T}
.endfor
.endif

.endif # !_BSD_MAN_MK
