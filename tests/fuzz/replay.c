/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
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

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cook.h"
#include "fuzz_cook.h"
#include "ref_cook.h"
#include "replay_inputs.h"

static void	usage(void) __dead2;
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
		n += replay_inputs(*argv);
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
	struct outbuf out;
	size_t len;
	char *in;

	memset(&out, 0, sizeof(out));
	for (; *files != NULL; files++) {
		in = slurp_input(*files, &len);
		ref_cook(flags, 0, (const unsigned char *)in, len, &out);
		free(in);
	}
	if (out.ob_len > 0 && fwrite(out.ob_buf, 1, out.ob_len, stdout) !=
	    out.ob_len)
		err(1, "stdout");
	outbuf_free(&out);
	if (fflush(stdout) != 0)
		err(1, "stdout");
}
