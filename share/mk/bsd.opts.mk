# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.opts.mk: the build options, as FreeBSD's share/mk names them.
#
# Each option FOO is MK_FOO=yes or no: on by default, off with
# WITHOUT_FOO (-DWITHOUT_FOO, or in the environment); MK_FOO=no on the
# command line says the same.
#
#	TESTS	the tests/ directories: their programs, Kyuafiles and
#		fixtures under /usr/tests (SUBDIR.${MK_TESTS}+= tests)
#	MAN	the manual pages
#	CASPER	Casper's services (libcasper), on FreeBSD only
#		(host.opts.mk's HOST_YES_OPTIONS)

.if !defined(_BSD_OPTS_MK)
_BSD_OPTS_MK=	yes

__DEFAULT_YES_OPTIONS=	MAN TESTS ${HOST_YES_OPTIONS}

.for _o in ${__DEFAULT_YES_OPTIONS}
.if !defined(MK_${_o})
.if defined(WITHOUT_${_o})
MK_${_o}:=	no
.else
MK_${_o}:=	yes
.endif
.elif ${MK_${_o}} != "yes" && ${MK_${_o}} != "no"
.error MK_${_o} must be yes or no, not "${MK_${_o}}"
.endif
.endfor

.endif # !_BSD_OPTS_MK
