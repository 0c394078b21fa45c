/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What the engine's test programs share: the paths, files of known
 * bytes, and an engine forced onto a path, with what its copy took.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atf-c.h>

#include "bufsz_private.h"
#include "engine_util.h"

const enum bufsz_path all_paths[NPATHS] = {
	COPY_AUTO, COPY_RW, COPY_CFR, COPY_SPLICE,
	COPY_SENDFILE
};

/* Bytes no path could make up, the same on every run. */
void
fill(char *buf, size_t len, uint32_t seed)
{
	uint32_t x;
	size_t i;

	x = seed | 1;
	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (char)(x >> 24);
	}
}

void
put_file(const char *path, const char *buf, size_t len)
{
	int fd;

	ATF_REQUIRE((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0);
	ATF_REQUIRE(bufsz_write_all(fd, buf, len) == 0);
	ATF_REQUIRE(close(fd) == 0);
}

char *
slurp_fd(int fd, size_t *len)
{
	size_t cap, n;
	ssize_t r;
	char *buf;

	cap = 64 * KiB;
	n = 0;
	ATF_REQUIRE((buf = malloc(cap)) != NULL);
	for (;;) {
		if (n == cap) {
			cap *= 2;
			ATF_REQUIRE((buf = realloc(buf, cap)) != NULL);
		}
		ATF_REQUIRE((r = bufsz_read(fd, buf + n, cap - n)) >= 0);
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*len = n;
	return (buf);
}

char *
slurp(const char *path, size_t *len)
{
	char *buf;
	int fd;

	ATF_REQUIRE_MSG((fd = open(path, O_RDONLY)) >= 0, "%s", path);
	buf = slurp_fd(fd, len);
	ATF_REQUIRE(close(fd) == 0);
	return (buf);
}

/* The file at path holds exactly want[0..len). */
void
same_bytes(const char *path, const char *want, size_t len, const char *what,
    enum bufsz_path p)
{
	size_t got;
	char *buf;

	buf = slurp(path, &got);
	ATF_CHECK_MSG(got == len && memcmp(buf, want, len) == 0,
	    "%s by %s: got %zu bytes, want %zu (or they differ)", what,
	    bufsz_path_name(p), got, len);
	free(buf);
}

/* The flags engine_for() was given, for every copy of the case. */
static int	copy_flags;

/* An engine whose copies take these flags, forced onto p and size. */
struct bufsz_engine *
engine_for(enum bufsz_path p, int flags, size_t size)
{
	struct bufsz_engine *e;

	ATF_REQUIRE((e = bufsz_engine_new()) != NULL);
	bufsz_engine_force(e, p, size);
	copy_flags = flags;
	return (e);
}

int
copy(struct bufsz_engine *e, int in, const struct stat *inst, int out,
    const struct stat *outst, int flags)
{

	return (bufsz_engine_copy(e, in, inst, out, outst, flags | copy_flags));
}

off_t
moved(const struct bufsz_engine *e)
{

	return (e->be_moved);
}

/* The path the engine's last copy took, and its name. */
enum bufsz_path
last(const struct bufsz_engine *e)
{

	return (e->be_last);
}

const char *
took(const struct bufsz_engine *e)
{

	return (bufsz_path_name(e->be_last));
}

/* Copy the file src into a new file dst; the engine is left for checks. */
int
copy_paths(enum bufsz_path p, int flags, const char *src, const char *dst,
    struct bufsz_engine **ep)
{
	struct bufsz_engine *e;
	int in, out, r;

	*ep = e = engine_for(p, flags, 0);
	ATF_REQUIRE((in = open(src, O_RDONLY)) >= 0);
	ATF_REQUIRE((out = open(dst, O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	r = copy(e, in, NULL, out, NULL, 0);
	ATF_REQUIRE(close(in) == 0);
	ATF_REQUIRE(close(out) == 0);
	return (r);
}

/*
 * BUFSZ_UNSEEN: an input just opened, copied before anything looks at
 * it.  It is read whole however it ends (the copy's count and the
 * input's offset show it): into /dev/null on Linux without a stat,
 * anywhere else after the engine takes one.
 */
int
copy_unseen(struct bufsz_engine *e, const char *src, int out, off_t *pos)
{
	struct stat ost;
	int in, r;

	ATF_REQUIRE(fstat(out, &ost) == 0);
	ATF_REQUIRE_MSG((in = open(src, O_RDONLY)) >= 0, "%s", src);
	r = copy(e, in, NULL, out, &ost, BUFSZ_UNSEEN);
	ATF_REQUIRE((*pos = lseek(in, 0, SEEK_CUR)) != -1 || errno == ESPIPE);
	ATF_REQUIRE(close(in) == 0);
	return (r);
}
