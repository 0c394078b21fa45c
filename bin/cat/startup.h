/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What cat, cp, tail and yes share beside the copy: the standard
 * descriptors held at start, the getopt(3) messages, and the progress
 * signal.  Built from bin/cat by each of them.
 */

#ifndef _STARTUP_H_
#define	_STARTUP_H_

#include <stddef.h>
#include <stdint.h>

/*
 * Hold each of descriptors 0, 1 and 2 that is closed with /dev/null, so
 * that no file the program opens becomes one.  Call it first.  Returns 0,
 * or -1 with errno set.
 */
int	std_fds(void);

/*
 * Say what getopt(3) (longopts NULL) or getopt_long(3), called with
 * opterr 0, refused when it returned ch, in FreeBSD's words on every
 * system; the caller then gives its usage.  An optstring with options
 * that take an argument begins with ':' (after any '+').
 */
struct option;
void	bad_option(int ch, char *const argv[], const struct option *longopts);

/*
 * The progress signal is SIGINFO where the system has it, else SIGUSR1.
 * info_catch() has handler called for it, and interrupted calls go on
 * after it; with NULL the signal is ignored.  Returns 0, or -1 with errno
 * set.
 */
int	info_catch(void (*handler)(int));

/*
 * Write v in decimal, without a NUL, into buf of INFO_DIGITS bytes and
 * return its length.  Safe in a signal handler, where printf is not.
 */
#define	INFO_DIGITS	20
size_t	info_digits(char *buf, uintmax_t v);

#endif /* !_STARTUP_H_ */
