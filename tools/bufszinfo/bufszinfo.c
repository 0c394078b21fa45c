/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Show the buffer policy this machine gets: the facts libbufsz probes
 * and, for the copies people make, the path the engine takes and the
 * buffer the policy gives.
 *
 * The path is not predicted but seen: each case copies a few bytes
 * between descriptors of its kinds (files in TMPDIR, a pipe, /dev/null,
 * a pseudo-terminal), and the engine says which path took the copy,
 * refusals and fallbacks included.  The buffer is the policy's for the
 * sizes the case names, on those same descriptors.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <err.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

/* The bytes each case copies: less than any pipe or terminal holds. */
#define	SAMPLE_LEN	512

enum kind { NONE, FILE_IN, FILE_OUT, PIPE, DEVNULL, TTY, NKINDS };

struct scenario {
	const char	*name;
	enum kind	 in;
	off_t		 in_size;	/* what the policy is told a file has */
	enum kind	 out;
};

static const char *const kind_names[] = {
	[NONE] = "input", [FILE_IN] = "file", [FILE_OUT] = "file",
	[PIPE] = "pipe", [DEVNULL] = "/dev/null", [TTY] = "pseudo-terminal",
};

static const struct scenario scenarios[] = {
	{ "1 GiB file -> file", FILE_IN, 1LL << 30, FILE_OUT },
	{ "1 GiB file -> pipe", FILE_IN, 1LL << 30, PIPE },
	{ "1 GiB file -> /dev/null", FILE_IN, 1LL << 30, DEVNULL },
	{ "4 KiB file -> /dev/null", FILE_IN, 4096, DEVNULL },
	{ "1 GiB file -> terminal", FILE_IN, 1LL << 30, TTY },
	{ "pipe -> pipe", PIPE, -1, PIPE },
	{ "pipe -> file", PIPE, -1, FILE_OUT },
};

/*
 * The descriptors kept for the whole run (-1: none could be had), and
 * each case's own pipes.
 */
static int	 fds[NKINDS];
static int	 tty_master = -1;
static int	 in_pipe[2] = { -1, -1 };
static int	 out_pipe[2] = { -1, -1 };
static char	 sample[SAMPLE_LEN];

static void	open_kinds(const char *);
static int	temp_file(const char *);
static int	open_tty(void);
static int	side_in(enum kind);
static int	side_out(enum kind);
static void	close_case(void);
static const char *case_path(const struct scenario *, int, int,
		    const struct stat *);
static void	print_case(const struct scenario *);
static void	print_header(void);
static void	print_size(size_t);

int
main(void)
{
	const char *tmp;
	size_t i;

	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	print_header();
	open_kinds(tmp);
	printf("  %-26s%-10s%10s\n", "copy", "path", "buffer");
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		print_case(&scenarios[i]);
	printf("Paths as seen copying %d bytes (files in %s).  cfr, splice "
	    "and sendfile\nmove data in the kernel: there the buffer "
	    "serves cat's formatting and\nany refusal.\n", SAMPLE_LEN, tmp);
	if (fflush(stdout) != 0 || ferror(stdout))
		err(1, "stdout");
	return (0);
}

static void
print_header(void)
{
	uint64_t mem, machine;
	long pages;

	bufsz_limits(&mem, NULL);
	if (mem == 0)
		errx(1, "physical memory: unknown");
	printf("Buffer policy (libbufsz) on this machine:\n");
	printf("  memory %" PRIu64 " MiB", mem >> 20);
	/* Less than the machine has: a limit (Linux: the cgroup's). */
	if ((pages = sysconf(_SC_PHYS_PAGES)) > 0 &&
	    (machine = (uint64_t)pages * bufsz_pagesize()) > mem)
		printf(" (a limit; the machine has %" PRIu64 " MiB)",
		    machine >> 20);
	printf(", page %zu bytes\n", bufsz_pagesize());
}

/*
 * One descriptor of each kind, or -1: a machine without pseudo-terminals
 * (a container) still gets the rest, and its case says what it lacks.
 */
static void
open_kinds(const char *tmp)
{
	size_t i;

	memset(sample, 'y', sizeof(sample));
	for (i = 0; i < SAMPLE_LEN; i += 64)
		sample[i] = '\n';
	fds[NONE] = fds[PIPE] = -1;
	fds[FILE_IN] = temp_file(tmp);
	if (fds[FILE_IN] != -1 &&
	    write(fds[FILE_IN], sample, sizeof(sample)) != sizeof(sample)) {
		(void)close(fds[FILE_IN]);
		fds[FILE_IN] = -1;
	}
	fds[FILE_OUT] = temp_file(tmp);
	fds[DEVNULL] = open("/dev/null", O_WRONLY);
	fds[TTY] = open_tty();
}

/* A file in dir that goes when we do. */
static int
temp_file(const char *dir)
{
	char path[1024];
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/bufszinfo.XXXXXX",
	    dir) >= sizeof(path) || (fd = mkstemp(path)) == -1)
		return (-1);
	(void)unlink(path);
	return (fd);
}

/* The terminal's slave side; what is written there waits at the master. */
static int
open_tty(void)
{
	const char *name;

	if ((tty_master = posix_openpt(O_RDWR | O_NOCTTY)) == -1 ||
	    grantpt(tty_master) != 0 || unlockpt(tty_master) != 0 ||
	    (name = ptsname(tty_master)) == NULL)
		return (-1);
	return (open(name, O_RDWR | O_NOCTTY));
}

/* The input of a case, holding the sample from its start; -1: none. */
static int
side_in(enum kind k)
{

	switch (k) {
	case PIPE:
		if (pipe(in_pipe) != 0)
			return (-1);
		if (write(in_pipe[1], sample, sizeof(sample)) !=
		    sizeof(sample) || close(in_pipe[1]) != 0) {
			in_pipe[1] = -1;
			return (-1);
		}
		in_pipe[1] = -1;
		return (in_pipe[0]);
	case FILE_IN:
		if (fds[k] == -1 || lseek(fds[k], 0, SEEK_SET) == -1)
			return (-1);
		return (fds[k]);
	default:
		return (-1);
	}
}

/* The output of a case, empty; -1: none. */
static int
side_out(enum kind k)
{

	switch (k) {
	case PIPE:
		if (pipe(out_pipe) != 0)
			return (-1);
		return (out_pipe[1]);
	case FILE_OUT:
		if (fds[k] == -1 || ftruncate(fds[k], 0) != 0 ||
		    lseek(fds[k], 0, SEEK_SET) == -1)
			return (-1);
		return (fds[k]);
	default:
		return (fds[k]);
	}
}

static void
close_case(void)
{
	size_t i;

	for (i = 0; i < 2; i++) {
		if (in_pipe[i] != -1)
			(void)close(in_pipe[i]);
		if (out_pipe[i] != -1)
			(void)close(out_pipe[i]);
		in_pipe[i] = out_pipe[i] = -1;
	}
}

/* The path the engine took copying the sample from in to out. */
static const char *
case_path(const struct scenario *sc, int in, int out,
    const struct stat *outst)
{
	struct bufsz_engine *e;
	const char *path;

	if ((e = bufsz_engine_new()) == NULL)
		err(1, "engine");
	if (bufsz_engine_copy(e, in, NULL, out, outst, 0) != BUFSZ_OK) {
		warn("%s", sc->name);
		path = "failed";
	} else
		path = bufsz_path_name(e->be_last);
	bufsz_engine_free(e);
	return (path);
}

static void
print_case(const struct scenario *sc)
{
	struct bufsz_facts f;
	struct stat inst, outst;
	const char *path;
	int in, out;

	in = side_in(sc->in);
	out = side_out(sc->out);
	if ((sc->in != NONE && (in == -1 || fstat(in, &inst) != 0)) ||
	    out == -1 || fstat(out, &outst) != 0) {
		printf("  %-26s(not here: no %s)\n", sc->name,
		    in == -1 && sc->in != NONE ? kind_names[sc->in] :
		    kind_names[sc->out]);
		close_case();
		return;
	}
	path = case_path(sc, in, out, &outst);
	if (sc->in == FILE_IN)
		inst.st_size = sc->in_size;
	bufsz_facts_of(&f, sc->in != NONE ? &inst : NULL, &outst);
	printf("  %-26s%-10s", sc->name, path);
	print_size(bufsz_policy(&f));
	printf("\n");
	close_case();
}

static void
print_size(size_t n)
{
	if (n >= 1024 * 1024 && n % (1024 * 1024) == 0)
		printf("%6zu MiB", n / (1024 * 1024));
	else if (n % 1024 == 0)
		printf("%6zu KiB", n / 1024);
	else
		printf("%6zu B  ", n);
}
