# SPDX-License-Identifier: BSD-2-Clause
#
# The top of the tree.
#
#	make			build the world, install it under DESTDIR
#				(default obj/root), show what it holds
#	make test		the same, then run every test suite with kyua
#	make buildworld | installworld | lint | bench | fuzz | safety | clean
#
# Variables: DESTDIR, CC, SANITIZE=1 (ASan and UBSan), QUICK=1 (bench),
# FUZZTIME=seconds (fuzz), TIME=seconds or SEEDS="1 2 ..." (safety).

.if !defined(_BASE_MK)
# Started with the host's mk files: start again with the tree's own.
_TOP:=	${.PARSEDIR:tA}
.MAIN: all
all buildworld installworld install test lint bench fuzz safety clean showworld: .PHONY
	@cd ${_TOP} && MAKESYSPATH=${_TOP}/share/mk \
	    ${MAKE} -m ${_TOP}/share/mk -f ${_TOP}/Makefile ${.TARGET}
.else

SUBDIR=		lib .WAIT bin usr.bin .WAIT tests
DESTDIR?=	${SRCTOP}/obj/root${BUILDNAME}
.export DESTDIR

_LOCAL_install=	hierarchy
_POST_all=	_install_and_show

.include <bsd.subdir.mk>

buildworld: .PHONY subdir-all
installworld: .PHONY install

hierarchy: .PHONY
	@mkdir -p ${DESTDIR}${TESTSBASE}
	@${MTREE} -deU -f ${SRCTOP}/etc/mtree/BSD.root.dist \
	    -p ${DESTDIR} >/dev/null
	@${MTREE} -deU -f ${SRCTOP}/etc/mtree/BSD.tests.dist \
	    -p ${DESTDIR}${TESTSBASE} >/dev/null

_install_and_show: .PHONY .MAKE
	@cd ${.CURDIR} && ${MAKE} install showworld

showworld: .PHONY .MAKE
	@cd ${SRCTOP}/tools/bufszinfo && ${MAKE} all >/dev/null
	@echo "Installed under ${DESTDIR}:"
	@cd ${DESTDIR} && find . -type f ! -path './usr/tests/*' | sort | \
	    sed 's,^\.,	,'
	@echo "	and $$(find ${DESTDIR}${TESTSBASE} -type f | wc -l) files of tests under ${TESTSBASE}"
	@echo
	@${OBJTOP}/tools/bufszinfo/bufszinfo

test: .PHONY all
	@sh ${SRCTOP}/tests/kyua-run.sh ${DESTDIR} ${OBJTOP}/kyua

lint: .PHONY
	@sh ${SRCTOP}/tools/lint.sh ${SRCTOP}

bench: .PHONY all
	@cd ${SRCTOP}/tests/bench && ${MAKE} ROOT=${DESTDIR} bench

fuzz: .PHONY
	@cd ${SRCTOP}/tests/fuzz && ${MAKE} fuzz

safety: .PHONY all
	@cd ${SRCTOP}/tests/safety && ${MAKE} ROOT=${DESTDIR} seeds

clean: .PHONY
	rm -rf ${SRCTOP}/obj

.endif
