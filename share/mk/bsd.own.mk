# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.own.mk: where things are installed, and as whom.

.if !defined(_BSD_OWN_MK)
_BSD_OWN_MK=	yes

# Installs go to a staging root unless told otherwise; the top-level
# Makefile picks obj/root for a build that has not named one.
DESTDIR?=

BINDIR?=	/usr/bin
LIBDIR?=	/usr/lib
INCLUDEDIR?=	/usr/include
MANDIR?=	/usr/share/man/man
TESTSBASE?=	/usr/tests

BINMODE?=	555
NONBINMODE?=	444
DIRMODE?=	755
BINOWN?=	root
.if ${.MAKE.OS} == "Linux"
BINGRP?=	root
.else
BINGRP?=	wheel
.endif

# Only root may give files away; anyone else installs as themselves.
_UID!=		id -u
.if ${_UID} == "0"
INSTALL_OWN=	-o ${BINOWN} -g ${BINGRP}
.else
INSTALL_OWN=
.endif
INSTALL_PROG=	${INSTALL} -c ${INSTALL_OWN} -m ${BINMODE}
INSTALL_DATA=	${INSTALL} -c ${INSTALL_OWN} -m ${NONBINMODE}

# atf-sh is in /usr/libexec on the BSDs and in /usr/bin on Debian.
.if exists(/usr/libexec/atf-sh)
ATF_SH?=	/usr/libexec/atf-sh
.else
ATF_SH?=	/usr/bin/atf-sh
.endif

# The tree's own libraries, by name: LIBADD= bufsz.
.for _l in ${LIBADD}
CPPFLAGS+=	-I${SRCTOP}/lib/lib${_l}
DPADD+=		${OBJTOP}/lib/lib${_l}/lib${_l}.a
LDADD+=		${OBJTOP}/lib/lib${_l}/lib${_l}.a
DPSRCS+=	${SRCTOP}/lib/lib${_l}/${_l}.h
.endfor

.endif # !_BSD_OWN_MK
