# SPDX-License-Identifier: BSD-2-Clause
#
# src.opts.mk: the build options, for a Makefile that tests one before it
# includes bsd.prog.mk and the like: SUBDIR.${MK_TESTS}+= tests.  As in
# FreeBSD's, such a Makefile starts with .include <src.opts.mk>.

.include <bsd.opts.mk>
