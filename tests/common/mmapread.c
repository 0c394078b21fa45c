/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * mmapread FILE OFFSET LENGTH: write LENGTH bytes of FILE from OFFSET as
 * mmap(2) maps them, for a suite to compare with what read(2) gives.  An
 * emulator may map the wrong part of a large file (qemu-user cuts a
 * 32-bit program's offset to 32 bits), and then no program's mmap path
 * can be judged there.
 */

#include <sys/types.h>
#include <sys/mman.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static uintmax_t
number(const char *s)
{
	uintmax_t v;
	char *end;

	errno = 0;
	v = strtoumax(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		errx(1, "%s: not a number", s);
	return (v);
}

int
main(int argc, char *argv[])
{
	uintmax_t off, len, pg;
	off_t start;
	char *map;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: mmapread FILE OFFSET LENGTH\n");
		exit(1);
	}
	off = number(argv[2]);
	len = number(argv[3]);
	pg = (uintmax_t)sysconf(_SC_PAGESIZE);
	if ((fd = open(argv[1], O_RDONLY)) == -1)
		err(1, "%s", argv[1]);
	start = (off_t)(off / pg * pg);
	if (len > SIZE_MAX - off % pg)
		errx(1, "%s: too long", argv[3]);
	map = mmap(NULL, (size_t)(off % pg + len), PROT_READ, MAP_SHARED, fd,
	    start);
	if (map == MAP_FAILED)
		err(1, "mmap");
	if (fwrite(map + off % pg, 1, (size_t)len, stdout) != (size_t)len ||
	    fflush(stdout) != 0)
		err(1, "stdout");
	return (0);
}
