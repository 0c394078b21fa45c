#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# make check-i386: build the world, its tests included, with gcc -m32 and
# -Werror, and run the test suites on it with the host's kyua and atf-sh
# (tools/check-cross.subr).
#
# The i386 libatf packages (tools/packages.debian, group i386-deb) need
# i386 among dpkg's architectures.  The lyingfs FUSE file system is left
# out: there is no i386 libfuse3 here.  The kernel must run i386
# programs, natively or through a binfmt_misc entry for qemu-i386, which
# Debian's qemu-user-static does not install on an amd64 host; a case
# that cannot hold under the emulator skips and says why.  Ends with
# "N passed, N failed, N skipped"; without the compiler, the packages or
# a kernel that runs the programs, says so, skips, and reports no case
# at all.
#
# usage: check-i386.sh srctop workdir

target=i386
arch=i386
multiarch=i386-linux-gnu
cc="gcc -m32"
ldflags=
elf_head="7f 45 4c 46 01 01"
binfmt_cmd="printf '%s' ':qemu-i386:M::\\x7fELF\\x01\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x03\\x00:\\xff\\xff\\xff\\xff\\xff\\xfe\\xfe\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:/usr/bin/qemu-i386-static:F' >/proc/sys/fs/binfmt_misc/register"

# Debian's gcc-multilib, which cannot be installed beside a cross
# compiler, gives gcc -m32 nothing but the kernel's <asm/...> headers,
# which are the same for both x86 word sizes: a directory of our own
# points at the host's.
inc=$2.include
if ! echo '#include <asm/types.h>' | $cc -E - >/dev/null 2>&1; then
	mkdir -p "$inc" &&
	    ln -sfn "/usr/include/$(gcc -print-multiarch)/asm" "$inc/asm" ||
	    exit 1
	cc="$cc -idirafter $(cd "$inc" && pwd)"
fi

. "$(dirname "$0")/check-cross.subr"
cross_main "$@"
