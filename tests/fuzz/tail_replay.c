/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
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

#include <err.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_tail.h"
#include "replay_inputs.h"

static void	usage(void) __dead2;
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
		n += replay_inputs(*argv);
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
	struct tbuf out;
	size_t len;
	char *in;

	for (; *files != NULL; files++) {
		memset(&out, 0, sizeof(out));
		in = slurp_input(*files, &len);
		ref_tail(style, count, in, len, &out);
		if (out.tb_len > 0 &&
		    fwrite(out.tb_buf, 1, out.tb_len, stdout) != out.tb_len)
			err(1, "stdout");
		free(in);
		tbuf_free(&out);
	}
	if (fflush(stdout) != 0)
		err(1, "stdout");
}
