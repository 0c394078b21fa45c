/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What getopt(3) or getopt_long(3) refused, in the words FreeBSD's libc
 * uses.  glibc's getopt_long words its messages otherwise ("unrecognized
 * option '--x'", "invalid option -- 'x'"), so the programs turn the
 * library's own messages off (opterr = 0) and say it here, alike on every
 * system.
 */

#include <err.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bufsz_util.h"

static const char *refused_arg(char *const []);
static int	is_long(const char *, const struct option *);
static void	bad_long(const char *, const struct option *);

/*
 * ch is what getopt returned, longopts what it was given (NULL for
 * getopt(3)).  An optstring that takes arguments must begin with ':'
 * (after any '+'), so that a missing argument comes back as ':' and not
 * as '?'.  getopt_long has stepped past a long option it refused:
 * argv[optind - 1] is the option as it was given.
 */
void
bufsz_badopt(int ch, char *const argv[], const struct option *longopts)
{
	const char *arg;

	if (longopts == NULL) {
		if (ch == ':')
			warnx("option requires an argument -- %c", optopt);
		else
			warnx("illegal option -- %c", optopt);
		return;
	}
	arg = refused_arg(argv);
	if (ch == ':') {
		if (strncmp(arg, "--", 2) == 0)
			warnx("option `%s' requires an argument", arg);
		else
			warnx("option requires an argument -- %c", optopt);
	} else if (is_long(arg, longopts))
		bad_long(arg, longopts);
	else
		/* FreeBSD's getopt_long keeps "illegal" for POSIX mode. */
		warnx("%s option -- %c", getenv("POSIXLY_CORRECT") != NULL ?
		    "illegal" : "invalid", optopt);
}

/*
 * The argument getopt_long stepped past.  After a short option's missing
 * argument musl leaves optind one past argc, where the BSDs and glibc
 * leave it at argc, so argv[optind - 1] is the NULL that ends argv: the
 * option is then the argument before it.
 */
static const char *
refused_arg(char *const argv[])
{
	int i;

	for (i = optind - 1; i > 0 && argv[i] == NULL; i--)
		continue;
	return (argv[i]);
}

/*
 * Whether a long option was refused rather than an unknown letter: then
 * optopt is 0 or that option's value, and the option was the argument
 * getopt_long stepped past.  A letter is its own optopt.
 */
static int
is_long(const char *arg, const struct option *longopts)
{
	const struct option *o;

	if (strncmp(arg, "--", 2) != 0)
		return (0);
	if (optopt == 0)
		return (1);
	for (o = longopts; o->name != NULL; o++)
		if (o->flag == NULL && o->val == optopt)
			return (1);
	return (0);
}

/*
 * A long option that is unknown, an ambiguous abbreviation (the start of
 * several options that differ), or given an argument it does not take.
 */
static void
bad_long(const char *arg, const struct option *longopts)
{
	const struct option *o, *match;
	const char *name;
	size_t len;
	int ambiguous;

	name = arg + 2;
	len = strcspn(name, "=");
	match = NULL;
	ambiguous = 0;
	for (o = longopts; o->name != NULL; o++) {
		if (strncmp(name, o->name, len) != 0)
			continue;
		if (strlen(o->name) == len) {
			match = o;
			ambiguous = 0;
			break;
		}
		if (match == NULL)
			match = o;
		else if (o->has_arg != match->has_arg ||
		    o->flag != match->flag || o->val != match->val)
			ambiguous = 1;
	}
	if (ambiguous)
		warnx("option `--%.*s' is ambiguous", (int)len, name);
	else if (match != NULL && name[len] == '=')
		warnx("option `--%.*s' doesn't allow an argument", (int)len,
		    name);
	else if (match != NULL)
		warnx("option `%s' requires an argument", arg);
	else
		warnx("unrecognized option `%s'", arg);
}
