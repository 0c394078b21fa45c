/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * tail's fuzz target without libFuzzer, for the test suite.
 *
 *	tail_replay dir|file ...	every input found goes through the
 *					target once; say how many, exit 1
 *					for none
 *	tail_replay -s style -k count file ...
 *					ref_tail.c's output for each file,
 *					whole, in the style (fbytes, flines,
 *					rbytes, rlines, reverse, rrbytes,
 *					rrlines) with the count (as tail has
 *					it once parsed: -n +3 is flines 2)
 *
 * A difference aborts, as under libFuzzer.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_tail.h"

static void	usage(void) __dead2;
static int	replay_path(const char *);
static void	replay_file(const char *);
static void	read_file(const char *, struct tbuf *);
static enum tstyle parse_style(const char *);
static void	print_reference(enum tstyle, uint64_t, char **);

int
main(int argc, char *argv[])
{
	const char *style, *count;
	char *end;
	uint64_t k;
	long n;
	int ch;

	style = count = NULL;
	while ((ch = getopt(argc, argv, "k:s:")) != -1)
		switch (ch) {
		case 'k':
			count = optarg;
			break;
		case 's':
			style = optarg;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc < 1 || (style == NULL) != (count == NULL))
		usage();
	if (style != NULL) {
		errno = 0;
		k = strtoumax(count, &end, 10);
		if (errno != 0 || *end != '\0' || *count == '\0')
			errx(1, "%s: not a count", count);
		print_reference(parse_style(style), k, argv);
		return (0);
	}
	for (n = 0; *argv != NULL; argv++)
		n += replay_path(*argv);
	(void)printf("%ld inputs replayed\n", n);
	return (n == 0);
}

static void
usage(void)
{

	(void)fprintf(stderr, "usage: tail_replay dir|file ...\n"
	    "       tail_replay -s style -k count file ...\n");
	exit(1);
}

/* How many inputs there were at path: a file, or each in a directory. */
static int
replay_path(const char *path)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	char *p;
	int n;

	if (stat(path, &st) != 0)
		err(1, "%s", path);
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return (1);
	}
	if ((d = opendir(path)) == NULL)
		err(1, "%s", path);
	for (n = 0; (errno = 0, de = readdir(d)) != NULL; n++) {
		if (de->d_name[0] == '.') {
			n--;
			continue;
		}
		if (asprintf(&p, "%s/%s", path, de->d_name) == -1)
			err(1, "%s", path);
		replay_file(p);
		free(p);
	}
	if (errno != 0)
		err(1, "%s", path);
	(void)closedir(d);
	return (n);
}

static void
replay_file(const char *path)
{
	struct tbuf in;

	memset(&in, 0, sizeof(in));
	read_file(path, &in);
	(void)LLVMFuzzerTestOneInput((const uint8_t *)in.tb_buf, in.tb_len);
	tbuf_free(&in);
}

static void
read_file(const char *path, struct tbuf *tb)
{
	char buf[8192];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		tbuf_add(tb, buf, (size_t)n);
	if (n < 0)
		err(1, "%s", path);
	(void)close(fd);
}

static enum tstyle
parse_style(const char *s)
{
	static const char *const names[T_NSTYLES] = {
		"fbytes", "flines", "rbytes", "rlines", "reverse", "rrbytes",
		"rrlines"
	};
	int i;

	for (i = 0; i < T_NSTYLES; i++)
		if (strcmp(s, names[i]) == 0)
			return ((enum tstyle)i);
	errx(1, "%s: not a style", s);
}

static void
print_reference(enum tstyle style, uint64_t count, char **files)
{
	struct tbuf in, out;

	for (; *files != NULL; files++) {
		memset(&in, 0, sizeof(in));
		memset(&out, 0, sizeof(out));
		read_file(*files, &in);
		ref_tail(style, count, in.tb_buf, in.tb_len, &out);
		if (out.tb_len > 0 &&
		    fwrite(out.tb_buf, 1, out.tb_len, stdout) != out.tb_len)
			err(1, "stdout");
		tbuf_free(&in);
		tbuf_free(&out);
	}
	if (fflush(stdout) != 0)
		err(1, "stdout");
}
