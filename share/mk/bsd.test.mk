# SPDX-License-Identifier: BSD-2-Clause
#
# bsd.test.mk: ATF test programs and the Kyuafile that lists them.
#
# ATF_TESTS_C=	foo_test	builds foo_test.c against atf-c
# ATF_TESTS_SH=	bar_test	turns bar_test.sh into an atf-sh program
# TEST_METADATA.bar_test+=	timeout="60" required_user="root"
# FILES=	fixtures installed beside the programs
# Everything installs into ${DESTDIR}${TESTSDIR}, mirroring the tree.

.include <bsd.init.mk>

.if !defined(TESTSDIR)
.error TESTSDIR must be set in ${.CURDIR}/Makefile
.endif
BINDIR=		${TESTSDIR}
TEST_SUITE?=	base

.for _t in ${ATF_TESTS_C}
${_t}.o: ${DPSRCS}
${_t}: ${_t}.o ${DPADD}
	${CC} ${CFLAGS} ${LDFLAGS} -o ${.TARGET} ${_t}.o ${LDADD} -latf-c
CLEANFILES+=	${_t} ${_t}.o
.endfor

# atf-sh lives in different places on different hosts: the shebang is
# written here rather than in the source.
.for _t in ${ATF_TESTS_SH}
${_t}: ${_t}.sh
	{ echo '#! ${ATF_SH}'; cat ${.ALLSRC}; } > ${.TARGET}.tmp
	chmod 555 ${.TARGET}.tmp
	mv -f ${.TARGET}.tmp ${.TARGET}
CLEANFILES+=	${_t}
.endfor

_TESTS=		${ATF_TESTS_C} ${ATF_TESTS_SH}
_TESTSUBDIRS=	${SUBDIR:N.WAIT}

Kyuafile: ${.CURDIR}/Makefile
	@echo 'syntax(2)' > ${.TARGET}.tmp
	@echo 'test_suite("${TEST_SUITE}")' >> ${.TARGET}.tmp
.for _t in ${_TESTS}
	@echo 'atf_test_program{name="${_t}"${TEST_METADATA:@_m@, ${_m}@}${TEST_METADATA.${_t}:@_m@, ${_m}@}}' >> ${.TARGET}.tmp
.endfor
.for _d in ${_TESTSUBDIRS}
	@echo 'include("${_d}/Kyuafile")' >> ${.TARGET}.tmp
.endfor
	@mv -f ${.TARGET}.tmp ${.TARGET}
CLEANFILES+=	Kyuafile

_LOCAL_all+=	${_TESTS} Kyuafile ${FILES}
_LOCAL_install+=	testsinstall
testsinstall: .PHONY ${_TESTS} Kyuafile
.for _t in ${_TESTS}
	${INSTALL_PROG} ${_t} ${DESTDIR}${TESTSDIR}/${_t}
.endfor
	${INSTALL_DATA} Kyuafile ${DESTDIR}${TESTSDIR}/Kyuafile
.for _f in ${FILES}
	${INSTALL_DATA} ${.CURDIR}/${_f} ${DESTDIR}${TESTSDIR}/${_f:T}
.endfor

.include <bsd.subdir.mk>
