#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-s390x: build the world, its tests included, for s390x, a
# big-endian 64-bit machine, with Debian's cross compiler and -Werror,
# and run the test suites on it under qemu-user with the host's kyua and
# atf-sh (tools/check-cross.subr).
#
# The programs name the cross toolchain's dynamic linker and libraries
# by their paths on this host, so they run through the kernel's
# binfmt_misc entry for qemu-s390x with no further setting; the s390x
# libatf packages (tools/packages.debian, group s390x-deb) need s390x
# among dpkg's architectures.  A case that cannot hold under the
# emulator skips and says why (tests/common/portable.subr,
# under_emulator).  Ends with "N passed, N failed, N skipped"; without
# the compiler, the packages or the binfmt_misc entry, says so, skips,
# and reports no case at all.
#
# usage: check-s390x.sh srctop workdir

target=s390x
arch=s390x
multiarch=s390x-linux-gnu
cc=s390x-linux-gnu-gcc
sysroot=/usr/s390x-linux-gnu
ldflags="-Wl,--dynamic-linker=$sysroot/lib/ld64.so.1 -Wl,-rpath,$sysroot/lib"
elf_head="7f 45 4c 46 02 02"
binfmt_cmd="cat /usr/lib/binfmt.d/qemu-s390x.conf >/proc/sys/fs/binfmt_misc/register"

. "$(dirname "$0")/check-cross.subr"
cross_main "$@"
