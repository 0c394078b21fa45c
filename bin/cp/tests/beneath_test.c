/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The walk that opens a file below a directory without leaving it
 * (bin/cp/beneath_portable.c), which cp uses where the kernel has no
 * such open.  It is compiled in here whole, so that it is tested also
 * where cp asks the kernel first (Linux's openat2): the table below is
 * what openat2 and FreeBSD's O_RESOLVE_BENEATH give, and cp_test.sh
 * checks cp against the same layouts on every host.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <atf-c.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../beneath_portable.c"

/* What opening a path below top gives: a file's contents, or an errno. */
struct want {
	const char	*path;
	const char	*text;		/* NULL: fails with err */
	int		 err;
};

static const struct want table[] = {
	{ "file", "file", 0 },
	{ "./file", "file", 0 },
	{ "dir/inner", "inner", 0 },
	{ "dir//inner", "inner", 0 },
	{ "dir/toinner", "inner", 0 },
	{ "dir/chain1", "file", 0 },
	{ "dir/viaup", "inner", 0 },
	{ "dir/up/file", "file", 0 },
	{ "dir/up/dir/up/dir/inner", "inner", 0 },
	{ "dir/dirlink/s", "s", 0 },
	{ "dir/../file", "file", 0 },
	{ "dir/esc", NULL, EXDEV },
	{ "dir/abs", NULL, EXDEV },
	{ "dir/outin", NULL, EXDEV },
	{ "dir/up/../outside", NULL, EXDEV },
	{ "../outside", NULL, EXDEV },
	{ "dir/../../outside", NULL, EXDEV },
	{ "dir/dangle", NULL, ENOENT },
	{ "nosuch", NULL, ENOENT },
	{ "nosuch/file", NULL, ENOENT },
	{ "dir/inner/x", NULL, ENOTDIR },
	{ "dir/loop", NULL, ELOOP },
	{ "dir/loop/x", NULL, ELOOP },
};

static void
put(const char *path, const char *text)
{
	FILE *fp;

	ATF_REQUIRE_MSG((fp = fopen(path, "w")) != NULL, "%s", path);
	ATF_REQUIRE(fputs(text, fp) >= 0 && fclose(fp) == 0);
}

static void
link_to(const char *target, const char *path)
{

	ATF_REQUIRE_MSG(symlink(target, path) == 0, "%s -> %s: %s", path,
	    target, strerror(errno));
}

static void
make_layout(void)
{
	char abs[PATH_MAX + 16];

	ATF_REQUIRE(getcwd(abs, PATH_MAX) != NULL);
	(void)strcat(abs, "/top/file");
	ATF_REQUIRE(mkdir("top", 0755) == 0 && mkdir("top/dir", 0755) == 0 &&
	    mkdir("top/sub", 0755) == 0);
	put("outside", "outside");
	put("top/file", "file");
	put("top/dir/inner", "inner");
	put("top/sub/s", "s");
	link_to("..", "top/dir/up");
	link_to("inner", "top/dir/toinner");
	link_to("chain2", "top/dir/chain1");
	link_to("../file", "top/dir/chain2");
	link_to("../dir/inner", "top/dir/viaup");
	link_to("../sub", "top/dir/dirlink");
	link_to("../../outside", "top/dir/esc");
	link_to(abs, "top/dir/abs");
	link_to("../../top/file", "top/dir/outin");
	link_to("nothere", "top/dir/dangle");
	link_to("loop", "top/dir/loop");
}

/* Open path below top with open_beneath() and check the outcome. */
static void
check(int top, const struct want *w)
{
	char buf[64];
	ssize_t n;
	int fd;

	errno = 0;
	fd = open_beneath(top, w->path, O_RDONLY);
	if (w->text == NULL) {
		ATF_CHECK_MSG(fd == -1 && errno == w->err,
		    "%s: fd %d, %s; want %s", w->path, fd, strerror(errno),
		    strerror(w->err));
		if (fd != -1)
			(void)close(fd);
		return;
	}
	if (fd == -1) {
		ATF_CHECK_MSG(0, "%s: %s; want \"%s\"", w->path,
		    strerror(errno), w->text);
		return;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	ATF_CHECK_MSG(strcmp(buf, w->text) == 0, "%s: \"%s\"; want \"%s\"",
	    w->path, buf, w->text);
	(void)close(fd);
}

ATF_TC_WITHOUT_HEAD(table);
ATF_TC_BODY(table, tc)
{
	size_t i;
	int top;

	make_layout();
	ATF_REQUIRE((top = open("top", O_RDONLY | O_DIRECTORY)) != -1);
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		check(top, &table[i]);
	(void)close(top);
}

ATF_TC_WITHOUT_HEAD(no_descriptor_left);
ATF_TC_BODY(no_descriptor_left, tc)
{
	size_t i;
	int before, after, top;

	make_layout();
	ATF_REQUIRE((top = open("top", O_RDONLY | O_DIRECTORY)) != -1);
	before = dup(0);
	(void)close(before);
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		int fd = open_beneath(top, table[i].path, O_RDONLY);
		if (fd != -1)
			(void)close(fd);
	}
	after = dup(0);
	(void)close(after);
	ATF_CHECK_EQ(before, after);
	(void)close(top);
}

/*
 * A path longer than PATH_MAX, which the kernels refuse and the walk
 * takes name by name: LEVELS levels of long names, a link at the bottom
 * that climbs back all of them, and one that climbs out.  The names are
 * long and the levels few because a link's text must itself be shorter
 * than PATH_MAX, on FreeBSD the smaller of the two.  The tree is removed
 * here: kyua cannot, by paths that long.
 */
#define	LEVELS		100
#define	LEVEL_NAME	"abcdefghijklmnopqrstuvwxyz-abcdefghijklmnopqrstuvw"

/* Remove levels of LEVEL_NAME below top, and what the last holds. */
static void
remove_chain(int top, size_t levels)
{
	int *fd;
	size_t i;

	ATF_REQUIRE((fd = calloc(levels + 1, sizeof(*fd))) != NULL);
	fd[0] = top;
	for (i = 1; i <= levels; i++)
		ATF_REQUIRE((fd[i] = openat(fd[i - 1], LEVEL_NAME,
		    O_RDONLY | O_DIRECTORY)) != -1);
	(void)unlinkat(fd[levels], "back", 0);
	(void)unlinkat(fd[levels], "out", 0);
	for (i = levels; i > 0; i--) {
		(void)close(fd[i]);
		ATF_CHECK(unlinkat(fd[i - 1], LEVEL_NAME, AT_REMOVEDIR) == 0);
	}
	free(fd);
}

ATF_TC_WITHOUT_HEAD(longer_than_path_max);
ATF_TC_BODY(longer_than_path_max, tc)
{
	char *path, *up;
	size_t i, len;
	int fd, dir, top;

	ATF_REQUIRE(mkdir("top", 0755) == 0);
	ATF_REQUIRE((top = open("top", O_RDONLY | O_DIRECTORY)) != -1);
	put("top/first", "first");
	len = (LEVELS + 1) * (sizeof(LEVEL_NAME) + 3) + 64;
	ATF_REQUIRE((path = calloc(1, len)) != NULL);
	ATF_REQUIRE((up = calloc(1, len)) != NULL);
	dir = dup(top);
	for (i = 0; i < LEVELS; i++) {
		ATF_REQUIRE(mkdirat(dir, LEVEL_NAME, 0755) == 0);
		fd = openat(dir, LEVEL_NAME, O_RDONLY | O_DIRECTORY);
		ATF_REQUIRE(fd != -1);
		(void)close(dir);
		dir = fd;
		(void)strcat(path, LEVEL_NAME "/");
		(void)strcat(up, "../");
	}
	(void)strcat(up, "first");
	ATF_REQUIRE(symlinkat(up, dir, "back") == 0);
	/* One ".." more than the depth: out of top. */
	up[0] = '\0';
	for (i = 0; i < LEVELS + 1; i++)
		(void)strcat(up, "../");
	(void)strcat(up, "outside");
	ATF_REQUIRE(symlinkat(up, dir, "out") == 0);
	(void)close(dir);
	put("outside", "outside");
	ATF_REQUIRE(strlen(path) > PATH_MAX);

	len = strlen(path);
	(void)strcat(path, "back");
	fd = open_beneath(top, path, O_RDONLY);
	ATF_CHECK_MSG(fd != -1, "back: %s", strerror(errno));
	if (fd != -1)
		(void)close(fd);
	path[len] = '\0';
	(void)strcat(path, "out");
	errno = 0;
	fd = open_beneath(top, path, O_RDONLY);
	ATF_CHECK_MSG(fd == -1 && errno == EXDEV, "out: fd %d, %s", fd,
	    strerror(errno));
	free(path);
	free(up);
	remove_chain(top, LEVELS);
	(void)close(top);
}

ATF_TP_ADD_TCS(tp)
{

	ATF_TP_ADD_TC(tp, table);
	ATF_TP_ADD_TC(tp, no_descriptor_left);
	ATF_TP_ADD_TC(tp, longer_than_path_max);
	return (atf_no_error());
}
