/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The fuzz target without libFuzzer, for the test suite: every input
 * found in the directories and files named goes through it once.
 *
 *	cook_replay dir|file ...	replay; say how many inputs were
 *					replayed, exit 1 for none
 *	cook_replay -r options file ...	write ref_cook.c's output for the
 *					files and cat's options (-bEnsTv,
 *					or "" for none), as cat would
 *
 * A difference aborts, as under libFuzzer.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cook.h"
#include "fuzz_cook.h"
#include "ref_cook.h"

static void	usage(void) __dead2;
static int	replay_path(const char *);
static int	replay_dir(const char *);
static void	replay_file(const char *);
static void	read_file(const char *, struct outbuf *);
static int	parse_options(const char *);
static void	print_reference(int, char **);

int
main(int argc, char *argv[])
{
	const char *ropts;
	long n;
	int ch;

	ropts = NULL;
	while ((ch = getopt(argc, argv, "r:")) != -1)
		switch (ch) {
		case 'r':
			ropts = optarg;
			break;
		default:
			usage();
		}
	argc -= optind;
	argv += optind;
	if (argc < 1)
		usage();
	if (ropts != NULL) {
		print_reference(parse_options(ropts), argv);
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

	(void)fprintf(stderr, "usage: cook_replay dir|file ...\n"
	    "       cook_replay -r options file ...\n");
	exit(1);
}

/* How many inputs there were at path. */
static int
replay_path(const char *path)
{
	struct stat st;

	if (stat(path, &st) != 0)
		err(1, "%s", path);
	if (S_ISDIR(st.st_mode))
		return (replay_dir(path));
	replay_file(path);
	return (1);
}

/* Each file in dir, but those whose names begin with a dot. */
static int
replay_dir(const char *dir)
{
	struct dirent *de;
	DIR *d;
	char *path;
	int n;

	if ((d = opendir(dir)) == NULL)
		err(1, "%s", dir);
	n = 0;
	errno = 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) == -1)
			err(1, "%s", dir);
		replay_file(path);
		free(path);
		n++;
		errno = 0;
	}
	if (errno != 0)
		err(1, "%s", dir);
	(void)closedir(d);
	return (n);
}

static void
replay_file(const char *path)
{
	struct outbuf in;

	memset(&in, 0, sizeof(in));
	read_file(path, &in);
	(void)LLVMFuzzerTestOneInput(in.ob_buf, in.ob_len);
	outbuf_free(&in);
}

static void
read_file(const char *path, struct outbuf *ob)
{
	char buf[8192];
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		outbuf_add(ob, buf, (size_t)n);
	if (n < 0)
		err(1, "%s", path);
	(void)close(fd);
}

/* cat's letters for the options, as cook.h's flags. */
static int
parse_options(const char *s)
{
	static const struct {
		char	letter;
		int	flag;
	} opts[] = {
		{ 'E', COOK_ENDS }, { 'T', COOK_TABS }, { 'b', COOK_NONBLANK },
		{ 'n', COOK_NUMBER }, { 's', COOK_SQUEEZE }, { 'v', COOK_VIS },
	};
	size_t i;
	int flags;

	for (flags = 0; *s != '\0'; s++) {
		if (*s == '-')
			continue;
		for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
			if (opts[i].letter == *s)
				break;
		if (i == sizeof(opts) / sizeof(opts[0]))
			errx(1, "%c: not one of -bEnsTv", *s);
		flags |= opts[i].flag;
	}
	return (flags);
}

static void
print_reference(int flags, char **files)
{
	struct outbuf in, out;

	memset(&out, 0, sizeof(out));
	for (; *files != NULL; files++) {
		memset(&in, 0, sizeof(in));
		read_file(*files, &in);
		ref_cook(flags, in.ob_buf, in.ob_len, &out);
		outbuf_free(&in);
	}
	if (out.ob_len > 0 && fwrite(out.ob_buf, 1, out.ob_len, stdout) !=
	    out.ob_len)
		err(1, "stdout");
	outbuf_free(&out);
	if (fflush(stdout) != 0)
		err(1, "stdout");
}
