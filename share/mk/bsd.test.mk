# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.test.mk: ATF test programs and the Kyuafile that lists them, as in
# FreeBSD's.
#
# PACKAGE= tests
# ATF_TESTS_C=	foo_test	builds foo_test.c against atf-c
# ATF_TESTS_SH=	bar_test	turns bar_test.sh into an atf-sh program
# TEST_METADATA.bar_test+=	timeout="60" required_user="root"
# ${PACKAGE}FILES+=	fixtures installed beside the programs
# TESTS_SUBDIRS+=	sub	a subdirectory with tests of its own
# KYUAFILE=	auto (default: written from the above), yes (the
#		directory's own Kyuafile, found on .PATH) or no
#
# Everything installs into TESTSDIR, by default the directory of what is
# tested: bin/cat/tests installs into ${TESTSBASE}/bin/cat.  Every
# directory under TESTSBASE is in etc/mtree/BSD.tests.dist.

.include <bsd.init.mk>

TESTSDIR?=	${TESTSBASE}/${RELDIR:H}
PACKAGE?=	tests
TESTSUITE?=	base
KYUAFILE?=	auto
TESTS_SUBDIRS?=

FILESGROUPS+=	${PACKAGE}FILES
${PACKAGE}FILESDIR=	${TESTSDIR}

_TESTS=		${ATF_TESTS_C} ${ATF_TESTS_SH}

.for _t in ${ATF_TESTS_C}
PROGS+=		${_t}
BINDIR.${_t}=	${TESTSDIR}
LDADD.${_t}+=	${LDADD_atf_c:U-latf-c}
.endfor

# atf-sh lives in different places on different hosts: the shebang is
# written here rather than in the source.
.for _t in ${ATF_TESTS_SH}
${_t}: ${_t}.sh
	{ echo '#! ${ATF_SH}'; cat ${.ALLSRC}; } > ${.TARGET}.tmp
	chmod 555 ${.TARGET}.tmp
	mv -f ${.TARGET}.tmp ${.TARGET}
CLEANFILES+=	${_t} ${_t}.tmp
_LOCAL_all+=	${_t}
_LOCAL_install+=	_testinstall.${_t}
_testinstall.${_t}: .PHONY ${_t}
	${INSTALL_PROG} ${_t} ${DESTDIR}${TESTSDIR}/${_t}
.endfor

.for _d in ${TESTS_SUBDIRS:N.WAIT}
.if empty(SUBDIR:M${_d})
SUBDIR+=	${_d}
.endif
.endfor

.if ${KYUAFILE:tl} != "no"
${PACKAGE}FILES+=	Kyuafile
.endif

# The Kyuafile lists this directory's programs and TESTS_SUBDIRS, and
# takes in any other directory below it that holds a Kyuafile: suites
# that another part of the tree installs there (tests/faults under
# lib/libbufsz, tests/fuzz under bin/cat).
.if ${KYUAFILE:tl} == "auto"
Kyuafile: ${.CURDIR}/Makefile
	@{ echo 'syntax(2)'; \
	    echo 'test_suite("${TESTSUITE}")'; } > ${.TARGET}.tmp
.for _t in ${_TESTS}
	@echo 'atf_test_program{name="${_t}"${TEST_METADATA:@_m@, ${_m}@}${TEST_METADATA.${_t}:@_m@, ${_m}@}}' >> ${.TARGET}.tmp
.endfor
.for _d in ${TESTS_SUBDIRS:N.WAIT}
	@echo 'include("${_d}/Kyuafile")' >> ${.TARGET}.tmp
.endfor
	@{ echo 'for dir in fs.files(".") do'; \
	    echo '	if dir ~= "." and dir ~= ".."${TESTS_SUBDIRS:N.WAIT:@_d@ and dir ~= "${_d}"@} and'; \
	    echo '	    fs.exists(fs.join(dir, "Kyuafile")) then'; \
	    echo '		include(fs.join(dir, "Kyuafile"))'; \
	    echo '	end'; \
	    echo 'end'; } >> ${.TARGET}.tmp
	@mv -f ${.TARGET}.tmp ${.TARGET}
CLEANFILES+=	Kyuafile Kyuafile.tmp
.endif

.include <bsd.progs.mk>
