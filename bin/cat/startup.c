/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What every program of the tree does as it starts: the standard
 * descriptors it was started without are held, a refused option is said
 * in FreeBSD's words, and the progress signal is caught or ignored.
 */

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <paths.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "startup.h"

static const char *refused_arg(char *const []);
static int	is_long(const char *, const struct option *);
static void	bad_long(const char *, const struct option *);

/*
 * A descriptor among 0, 1 and 2 that is closed would be handed to the
 * first file the program opens: cp's target would receive its progress
 * report as descriptor 2, and cp -i would read its answer from a source
 * opened as descriptor 0.  So each closed one is held by /dev/null, opened
 * for the other direction only: reading descriptor 0, or writing 1 or 2,
 * still fails with EBADF as it did while closed, and the program reports
 * it the same way.
 */
int
std_fds(void)
{
	int fd, nfd, serrno;

	for (fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		nfd = open(_PATH_DEVNULL, (fd == STDIN_FILENO ? O_WRONLY :
		    O_RDONLY) | O_NOCTTY);
		if (nfd == -1)
			return (-1);
		/* open(2) takes the lowest free slot, which is fd. */
		if (nfd != fd) {
			if (dup2(nfd, fd) == -1) {
				serrno = errno;
				(void)close(nfd);
				errno = serrno;
				return (-1);
			}
			(void)close(nfd);
		}
	}
	return (0);
}

/*
 * glibc's getopt_long words its messages otherwise than FreeBSD's libc
 * ("unrecognized option '--x'", "invalid option -- 'x'"), so the programs
 * turn the library's own messages off (opterr = 0) and say them here,
 * alike on every system.  ch is what getopt returned, longopts what it
 * was given (NULL for getopt(3)).  An optstring that takes arguments
 * must begin with ':' (after any '+'), so that a missing argument comes
 * back as ':' and not as '?'.  getopt_long has stepped past a long
 * option it refused: argv[optind - 1] is the option as it was given.
 */
void
bad_option(int ch, char *const argv[], const struct option *longopts)
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

/*
 * The signal that asks a program how far it has come: SIGINFO on the
 * systems that have it (the BSDs, where ^T at a terminal sends it), and
 * SIGUSR1, which stands in for it as dd(1) uses it, where they have not
 * (Linux).  Every program of the tree answers it, so that a signal meant
 * for one of them never ends another in the same pipeline: those with
 * something to report catch it, the others ignore it.
 */
int
info_catch(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler != NULL ? handler : SIG_IGN;
	sa.sa_flags = SA_RESTART;
	(void)sigemptyset(&sa.sa_mask);
#ifdef SIGINFO
	return (sigaction(SIGINFO, &sa, NULL));
#else
	return (sigaction(SIGUSR1, &sa, NULL));
#endif
}

size_t
info_digits(char *buf, uintmax_t v)
{
	char rev[INFO_DIGITS];
	size_t i, n;

	n = 0;
	do
		rev[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	for (i = 0; i < n; i++)
		buf[i] = rev[n - 1 - i];
	return (n);
}
