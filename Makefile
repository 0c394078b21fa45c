# SPDX-License-Identifier: BSD-2-Clause
#
# The top of the tree.
#
#	make			build the world, install it under DESTDIR
#				(default obj/root), show what it holds
#	make test		the same, then run every test suite with kyua
#	make buildworld | installworld | lint | bench | fuzz | safety | clean
#	make check-bsd		compile everything for FreeBSD and NetBSD
#	make check-freebsd-mk	build cat, cp and yes with FreeBSD's share/mk
#	make check-musl		build with musl-gcc, run the suites on that
#	make check-i386		build with gcc -m32, run the suites on that
#	make check-s390x	build for s390x, run the suites under qemu
#	make freebsd-import FREEBSD_SRC=DIR [PATCH=file]
#				put the tree into a FreeBSD source tree
#	make check-freebsd-import	the import, into a small extract
#	make compare-freebsd FREEBSD_SRC=DIR
#				this tree beside FreeBSD's, in
#				docs/freebsd/comparison.md
#	make check-freebsd-vm FREEBSD_SRC=DIR [SQLITE_C=file]
#				import, build FreeBSD, boot it in qemu, run
#				the suites there (tools/freebsd-vm/vm.sh)
#	make obj | depend | cleandir	as on any BSD, in every directory
#
# Variables: DESTDIR, CC, SANITIZE=1 (ASan and UBSan), QUICK=1 (bench),
# FUZZTIME=seconds (fuzz), TIME=seconds or SEEDS="1 2 ..." (safety),
# MAKEOBJDIRPREFIX, WITHOUT_TESTS.

_TARGETS=	all buildworld installworld install test lint bench fuzz \
		safety clean cleandir obj depend showworld check-bsd \
		check-freebsd-mk check-musl check-i386 check-s390x \
		freebsd-import check-freebsd-import compare-freebsd check-freebsd-vm

.if !defined(_BASE_MK)
# Started with the host's mk files: start again with the tree's own.
_TOP:=	${.PARSEDIR:tA}
.MAIN: all
${_TARGETS}: .PHONY .MAKE
	@cd ${_TOP} && MAKESYSPATH=${_TOP}/share/mk \
	    ${MAKE} -m ${_TOP}/share/mk -f ${_TOP}/Makefile ${.TARGET}
.else

.include <src.opts.mk>

SUBDIR=		lib .WAIT bin usr.bin
SUBDIR.${MK_TESTS}+=	.WAIT tests
DESTDIR?=	${OBJROOT}root${BUILDNAME}
.export DESTDIR

_LOCAL_install=	hierarchy
_POST_all=	_install_and_show
# clean removes all the objects at once, below.
SUBDIR_TARGETS=	all install cleandir obj depend

.include <bsd.subdir.mk>

buildworld: .PHONY subdir-all
installworld: .PHONY install

hierarchy: .PHONY
	@mkdir -p ${DESTDIR}
	@${MTREE} -deU -f ${SRCTOP}/etc/mtree/BSD.root.dist \
	    -p ${DESTDIR} >/dev/null
.if ${MK_TESTS} != "no"
	@${MTREE} -deU -f ${SRCTOP}/etc/mtree/BSD.tests.dist \
	    -p ${DESTDIR}${TESTSBASE} >/dev/null
.endif

# One after the other, even under -j.
_install_and_show: .PHONY .MAKE
	@cd ${.CURDIR} && ${MAKE} install
	@cd ${.CURDIR} && ${MAKE} showworld

showworld: .PHONY
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

# The BSD checks: the sysroots and FreeBSD's share/mk are found beside
# the tree (../shared), or where these say; each check skips, saying so,
# where they are not.
BSD_SYSROOTS?=	${SRCTOP}/../shared/sysroots
# The import writes into the tree it is given: never into this default.
_IMPORT_INTO:=	${FREEBSD_SRC:U}
FREEBSD_SRC?=	${SRCTOP}/../shared/freebsd-src

check-bsd: .PHONY
	@env BSD_SYSROOTS=${BSD_SYSROOTS} \
	    sh ${SRCTOP}/tools/check-bsd.sh ${SRCTOP} ${OBJROOT}check-bsd

check-freebsd-mk: .PHONY
	@env BSD_SYSROOTS=${BSD_SYSROOTS} FREEBSD_SRC=${FREEBSD_SRC} \
	    sh ${SRCTOP}/tools/check-freebsd-mk/check.sh ${SRCTOP} \
	    ${OBJROOT}check-freebsd-mk

# The musl programs over a copy of this build's world, whose test
# programs are built for the host's libc.
check-musl: .PHONY all
	@sh ${SRCTOP}/tools/check-musl.sh ${SRCTOP} ${OBJROOT}check-musl \
	    ${DESTDIR}

# The whole world and its tests built for i386, run on this kernel.
check-i386: .PHONY
	@sh ${SRCTOP}/tools/check-i386.sh ${SRCTOP} ${OBJROOT}check-i386

# The same for s390x, big-endian, run under qemu-user.
check-s390x: .PHONY
	@sh ${SRCTOP}/tools/check-s390x.sh ${SRCTOP} ${OBJROOT}check-s390x

freebsd-import: .PHONY
.if empty(_IMPORT_INTO)
	@echo "make freebsd-import: say where: FREEBSD_SRC=DIR [PATCH=file]" >&2
	@false
.else
	@sh ${SRCTOP}/tools/freebsd-import/import.sh \
	    ${PATCH:D-p ${PATCH}} ${SRCTOP} ${_IMPORT_INTO}
.endif

check-freebsd-import: .PHONY
	@env BSD_SYSROOTS=${BSD_SYSROOTS} FREEBSD_SRC=${FREEBSD_SRC} \
	    sh ${SRCTOP}/tools/freebsd-import/check.sh ${SRCTOP} \
	    ${OBJROOT}check-freebsd-import

compare-freebsd: .PHONY
.if empty(_IMPORT_INTO)
	@echo "make compare-freebsd: say where: FREEBSD_SRC=DIR" >&2
	@false
.else
	@sh ${SRCTOP}/tools/compare-freebsd.sh ${_IMPORT_INTO}
.endif

check-freebsd-vm: .PHONY
.if empty(_IMPORT_INTO)
	@echo "make check-freebsd-vm: say where: FREEBSD_SRC=DIR" >&2
	@false
.else
	@env SQLITE_C=${SQLITE_C} sh ${SRCTOP}/tools/freebsd-vm/vm.sh \
	    ${SRCTOP} ${_IMPORT_INTO}
.endif

clean: .PHONY
	rm -rf ${OBJROOT:S,/$,,}

.endif
