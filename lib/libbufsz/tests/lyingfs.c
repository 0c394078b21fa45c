/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * lyingfs: a FUSE file system of one file, "file", whose size is not what
 * it holds, for the tests of the copy engine's end of file.
 *
 *	lyingfs [-EH] [-c chunk] [-l length] [-r file] [-s size] mountpoint
 *
 * stat(2) says the file has size bytes (default 4096); it holds length
 * bytes (default 1 MiB) of numbered lines, "%015d\n" from 0 on, the same
 * as awk 'BEGIN { for (i = 0; i < N; i++) printf "%015d\n", i }' prints.
 * It is opened with direct_io, so the kernel sends every read(2) to us
 * rather than cutting it at the size it was told, as a network file
 * system or a FUSE file system that streams its data may.  Each read is
 * answered with at most chunk bytes (default: all that was asked), so
 * that a short read can fall exactly on the size stat(2) gave.  -E makes
 * every read past that size fail with EIO, as a lost server would.  -H says
 * the file has no blocks, so that a copier that keeps holes takes it
 * for one.  -r names a file that holds, as a decimal number, the furthest
 * offset a read has reached: whether a reader went to the end shows there
 * even when what it read went to /dev/null.  The program mounts, goes
 * into the background and serves until the file system is unmounted
 * (fusermount3 -u mountpoint).
 */

#define	FUSE_USE_VERSION	31

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define	LINE_LEN	16

static const char	*file_path = "/file";
static off_t		 said_size = 4096;
static off_t		 real_len = 1 << 20;
static size_t		 chunk;
static int		 no_blocks;
static int		 fail_past;
static int		 reach_fd = -1;
static off_t		 reach;

static int	lying_getattr(const char *, struct stat *,
		    struct fuse_file_info *);
static int	lying_readdir(const char *, void *, fuse_fill_dir_t, off_t,
		    struct fuse_file_info *, enum fuse_readdir_flags);
static int	lying_open(const char *, struct fuse_file_info *);
static int	lying_read(const char *, char *, size_t, off_t,
		    struct fuse_file_info *);
static void	reached(off_t);
static off_t	number(const char *, int);
static void	usage(void);

static const struct fuse_operations lying_ops = {
	.getattr = lying_getattr,
	.readdir = lying_readdir,
	.open = lying_open,
	.read = lying_read,
};

static int
lying_getattr(const char *path, struct stat *st,
    struct fuse_file_info *fi __attribute__((unused)))
{

	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		return (0);
	}
	if (strcmp(path, file_path) != 0)
		return (-ENOENT);
	st->st_mode = S_IFREG | 0444;
	st->st_nlink = 1;
	st->st_size = said_size;
	st->st_blocks = no_blocks ? 0 : (said_size + 511) / 512;
	return (0);
}

static int
lying_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
    off_t off __attribute__((unused)),
    struct fuse_file_info *fi __attribute__((unused)),
    enum fuse_readdir_flags fl __attribute__((unused)))
{

	if (strcmp(path, "/") != 0)
		return (-ENOENT);
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, file_path + 1, NULL, 0, 0);
	return (0);
}

static int
lying_open(const char *path, struct fuse_file_info *fi)
{

	if (strcmp(path, file_path) != 0)
		return (-ENOENT);
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return (-EACCES);
	fi->direct_io = 1;
	return (0);
}

/* The bytes [off, off + len) of the numbered lines, cut at real_len. */
static int
lying_read(const char *path, char *buf, size_t len, off_t off,
    struct fuse_file_info *fi __attribute__((unused)))
{
	char line[32];
	size_t done, skip, n;

	if (strcmp(path, file_path) != 0)
		return (-ENOENT);
	if (off >= real_len)
		return (0);
	if (fail_past && off >= said_size)
		return (-EIO);
	if ((off_t)len > real_len - off)
		len = (size_t)(real_len - off);
	if (fail_past && (off_t)len > said_size - off)
		len = (size_t)(said_size - off);
	if (chunk != 0 && len > chunk)
		len = chunk;
	for (done = 0; done < len; done += n) {
		(void)snprintf(line, sizeof(line), "%015jd\n",
		    (intmax_t)((off + (off_t)done) / LINE_LEN));
		skip = (size_t)((off + (off_t)done) % LINE_LEN);
		n = LINE_LEN - skip < len - done ? LINE_LEN - skip : len - done;
		memcpy(buf + done, line + skip, n);
	}
	reached(off + (off_t)len);
	return ((int)len);
}

/* Note how far reads went; the number is rewritten whole, in place. */
static void
reached(off_t end)
{
	char num[32];
	int n;

	if (reach_fd == -1 || end <= reach)
		return;
	reach = end;
	n = snprintf(num, sizeof(num), "%20jd\n", (intmax_t)reach);
	if (pwrite(reach_fd, num, (size_t)n, 0) != n)
		err(1, "reach file");
}

static off_t
number(const char *s, int opt)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0 || end == s)
		errx(2, "-%c %s: not a count of bytes", opt, s);
	return ((off_t)v);
}

static void
usage(void)
{

	fprintf(stderr, "usage: lyingfs [-EH] [-c chunk] [-l length] "
	    "[-r file] [-s size] mountpoint\n");
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct fuse_args fargs = FUSE_ARGS_INIT(0, NULL);
	int ch;

	while ((ch = getopt(argc, argv, "EHc:l:r:s:")) != -1) {
		switch (ch) {
		case 'E':
			fail_past = 1;
			break;
		case 'H':
			no_blocks = 1;
			break;
		case 'c':
			chunk = (size_t)number(optarg, ch);
			break;
		case 'l':
			real_len = number(optarg, ch);
			break;
		case 'r':
			/* Opened here: the daemon serves from "/". */
			if ((reach_fd = open(optarg,
			    O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
				err(2, "%s", optarg);
			break;
		case 's':
			said_size = number(optarg, ch);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 1)
		usage();
	/* One thread: the test wants one answer at a time, in order. */
	if (fuse_opt_add_arg(&fargs, "lyingfs") != 0 ||
	    fuse_opt_add_arg(&fargs, "-s") != 0 ||
	    fuse_opt_add_arg(&fargs, "-o") != 0 ||
	    fuse_opt_add_arg(&fargs, "fsname=lyingfs") != 0 ||
	    fuse_opt_add_arg(&fargs, argv[0]) != 0)
		errx(2, "out of memory");
	return (fuse_main(fargs.argc, fargs.argv, &lying_ops, NULL));
}
