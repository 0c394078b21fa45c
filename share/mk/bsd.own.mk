# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.own.mk: where things are installed, and as whom.

.if !defined(_BSD_OWN_MK)
_BSD_OWN_MK=	yes

# Installs go to a staging root, obj/root (obj/root-clang, ...: one for
# each build of sys.mk's), unless told otherwise: DESTDIR=/ installs into
# the running system.
DESTDIR?=	${OBJROOT}root${BUILDNAME}

BINDIR?=	/usr/bin
LIBDIR?=	/usr/lib
SHLIBDIR?=	${LIBDIR}
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

# atf-sh is /usr/libexec/atf-sh on FreeBSD, /usr/bin/atf-sh on NetBSD and
# Debian.
.if exists(/usr/libexec/atf-sh)
ATF_SH?=	/usr/libexec/atf-sh
.else
ATF_SH?=	/usr/bin/atf-sh
.endif

.endif # !_BSD_OWN_MK
