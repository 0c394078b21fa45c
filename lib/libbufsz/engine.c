/*
 * The copy engine: moves every byte from one descriptor to another.
 * This is the portable read(2)/write(2) core; the fast paths build on it
 * and fall back to it.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz.h"

/* BUFSZ_SIZE above this is taken for a typo, not a wish. */
#define	BUFSZ_SIZE_MAX	((size_t)1 << 30)

static int	parse_path(const char *, enum bufsz_path *);
static int	parse_size(const char *, size_t *);
static int	wait_for(int, short);
static int	copy_rw(struct bufsz_engine *, int, const struct stat *, int,
		    const struct stat *);

static const char *const path_names[] = {
	[BUFSZ_PATH_AUTO] = "auto",
	[BUFSZ_PATH_RW] = "rw",
	[BUFSZ_PATH_MMAP] = "mmap",
	[BUFSZ_PATH_CFR] = "cfr",
	[BUFSZ_PATH_SPLICE] = "splice",
	[BUFSZ_PATH_SENDFILE] = "sendfile",
};

#define	NPATHS	(sizeof(path_names) / sizeof(path_names[0]))

const char *
bufsz_path_name(enum bufsz_path p)
{

	if ((size_t)p >= NPATHS)
		return ("unknown");
	return (path_names[p]);
}

static int
parse_path(const char *s, enum bufsz_path *p)
{
	size_t i;

	for (i = 0; i < NPATHS; i++) {
		if (strcmp(s, path_names[i]) == 0) {
			*p = (enum bufsz_path)i;
			return (0);
		}
	}
	return (-1);
}

static int
parse_size(const char *s, size_t *sz)
{
	unsigned long long v;
	char *end;

	/* strtoull would take a sign or leading blanks; we do not. */
	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v == 0 || v > BUFSZ_SIZE_MAX)
		return (-1);
	*sz = (size_t)v;
	return (0);
}

int
bufsz_engine_init(struct bufsz_engine *e)
{
	const char *s;

	memset(e, 0, sizeof(*e));
	e->be_pipe[0] = e->be_pipe[1] = -1;
	e->be_force = BUFSZ_PATH_AUTO;
	e->be_last = BUFSZ_PATH_AUTO;
	if ((s = getenv("BUFSZ_PATH")) != NULL &&
	    parse_path(s, &e->be_force) != 0) {
		errno = EINVAL;
		return (-1);
	}
	if ((s = getenv("BUFSZ_SIZE")) != NULL &&
	    parse_size(s, &e->be_force_size) != 0) {
		errno = EINVAL;
		return (-1);
	}
	return (0);
}

void
bufsz_engine_fini(struct bufsz_engine *e)
{
	int i;

	if (e->be_buf != NULL)
		bufsz_free(e->be_buf, e->be_bufsz);
	e->be_buf = NULL;
	e->be_bufsz = 0;
	for (i = 0; i < 2; i++) {
		if (e->be_pipe[i] != -1)
			(void)close(e->be_pipe[i]);
		e->be_pipe[i] = -1;
	}
}

/*
 * The buffer is kept across calls and only grows: cat copying thousands
 * of small files must not pay an allocation (and its page faults) each.
 */
char *
bufsz_buffer(struct bufsz_engine *e, const struct stat *inst,
    const struct stat *outst, size_t *len)
{
	size_t want, got;
	char *p;

	want = e->be_force_size != 0 ? e->be_force_size :
	    bufsz_choose(inst, outst);
	if (e->be_buf == NULL || e->be_bufsz < want) {
		if ((p = bufsz_alloc(want, &got)) == NULL) {
			if (e->be_buf == NULL)
				return (NULL);
		} else if (e->be_buf == NULL || got > e->be_bufsz) {
			if (e->be_buf != NULL)
				bufsz_free(e->be_buf, e->be_bufsz);
			e->be_buf = p;
			e->be_bufsz = got;
		} else
			bufsz_free(p, got);
	}
	*len = e->be_bufsz;
	return (e->be_buf);
}

/*
 * Sleep until fd is ready.  EAGAIN comes only from a descriptor someone
 * made non-blocking (a shared terminal, a pipe from a shell); spinning on
 * it would burn a CPU and reporting it would lose data.
 */
static int
wait_for(int fd, short events)
{
	struct pollfd pfd;

	pfd.fd = fd;
	pfd.events = events;
	pfd.revents = 0;
	for (;;) {
		if (poll(&pfd, 1, -1) >= 0)
			return (0);
		if (errno != EINTR)
			return (-1);
	}
}

ssize_t
bufsz_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	for (;;) {
		if ((n = read(fd, buf, len)) >= 0)
			return (n);
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return (-1);
		if (wait_for(fd, POLLIN) != 0)
			return (-1);
	}
}

int
bufsz_write_all(int fd, const void *buf, size_t len)
{
	const char *p;
	ssize_t n;

	p = buf;
	while (len > 0) {
		if ((n = write(fd, p, len)) > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0) {
			/* A write that takes nothing would loop forever. */
			errno = EIO;
			return (-1);
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return (-1);
		if (wait_for(fd, POLLOUT) != 0)
			return (-1);
	}
	return (0);
}

/* The path that always works: through the buffer, a read at a time. */
static int
copy_rw(struct bufsz_engine *e, int in, const struct stat *inst, int out,
    const struct stat *outst)
{
	size_t len;
	ssize_t n;
	char *buf;

	if ((buf = bufsz_buffer(e, inst, outst, &len)) == NULL)
		return (BUFSZ_EREAD);
	e->be_last = BUFSZ_PATH_RW;
	for (;;) {
		if ((n = bufsz_read(in, buf, len)) < 0)
			return (BUFSZ_EREAD);
		if (n == 0)
			return (BUFSZ_OK);
		if (bufsz_write_all(out, buf, (size_t)n) != 0)
			return (BUFSZ_EWRITE);
		e->be_moved += n;
	}
}

int
bufsz_copy(struct bufsz_engine *e, int in, const struct stat *inst, int out,
    const struct stat *outst)
{
	struct stat isb, osb;

	if (inst == NULL) {
		if (fstat(in, &isb) != 0)
			return (BUFSZ_EREAD);
		inst = &isb;
	}
	if (outst == NULL) {
		if (fstat(out, &osb) != 0)
			return (BUFSZ_EWRITE);
		outst = &osb;
	}
	e->be_moved = 0;
	return (copy_rw(e, in, inst, out, outst));
}
