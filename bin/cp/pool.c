/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: the files of a tree, copied by several threads.
 *
 * The walk stays in one thread and decides everything: what is copied,
 * in what order, what is asked and what is said.  It hands over only the
 * copy of a regular file into a directory that this copy has just made,
 * where nothing can be in the way: open the source, create the target,
 * move the bytes, set the attributes of -p, close.  Workers take the
 * files in the order they were handed over, each with an engine of its
 * own, and keep what they have to say.  The walk says it for them, file
 * by file in that order, so that the messages and the -v lines are those
 * of a copy made one file at a time, and a file that failed is never
 * said to be copied.  A file that a worker finds other than the walk saw
 * it (no longer a regular file, or a target in the way, or no descriptor
 * to spare) is given back untouched: the walk copies it itself at its
 * turn, as it copies every file when there are no workers.
 *
 * A file that a worker could not copy for want of room (ENOSPC, EDQUOT),
 * or whose write failed (EIO), or for which memory ran out, may have
 * failed only because the files copied beside it took what it needed.
 * Then the workers stop, what they made of it and of the files after it
 * is removed, and the walk copies them itself, one at a time: the files
 * that fit are those that one thread would have fitted.
 *
 * Whatever depends on the files handed over (another entry of the
 * directory, its attributes, leaving it) waits for them: pool_drain().
 * The workers start only once a few files have been handed over, so
 * that a small tree costs no thread.
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/*
 * At most POOL_MAX workers, one a processor; RING files handed over and
 * not yet reported; the workers start when the POOL_START-th file of the
 * run is handed over.  Below POOL_FDS descriptors the walk keeps them
 * all for its directories: each worker holds two, its engine two more.
 */
#define	POOL_MAX	4
#define	RING		64
#define	POOL_START	8
#define	POOL_FDS	256

/* A file handed over. */
struct job {
	struct node	 n;
	struct stat	 dirst;		/* the target's directory */
	struct xbuf	 names;		/* its source path, NUL, target path */
	size_t		 dpath;		/* where the target path starts */
	struct xbuf	 said;		/* (errno, text, NUL)... to be said */
	size_t		 saidlen;
	struct inflight	 fl;		/* for the progress report */
	int		 done;
	int		 failed;
	int		 back;		/* given back to the walk */
	int		 made;		/* its target made by a worker */
	int		 redo;		/* to be copied again: replay() */
};

static struct job	ring[RING];
static size_t	head;		/* the oldest file not yet reported */
static size_t	next;		/* the oldest file no worker has taken */
static size_t	tail;		/* where the next file goes */
static size_t	handed;		/* files handed over in all */
static int	nworkers;	/* started; -1: none will be */
static int	quit;
static atomic_int	stopped;	/* the workers take no more files */
static struct job	*awaited;	/* the file the walk waits for */
static pthread_t	workers[POOL_MAX];
static struct bufsz_engine	*engines[POOL_MAX];
static int	parked[POOL_MAX];	/* PARKED, LEAVING, or 0: working */
#define	PARKED		1		/* out of memory: never joined */
#define	LEAVING		2		/* out of its loop: to be joined */
static pthread_mutex_t	lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t	finished = PTHREAD_COND_INITIALIZER;
static pthread_cond_t	never = PTHREAD_COND_INITIALIZER;

/* The file a worker is copying; NULL in the walk's thread. */
static _Thread_local struct job	*current;
static _Thread_local int	*in_worker;	/* its parked[] */

static int	pool_wanted(void);
static void	pool_start(void);
static void	*worker(void *);
static void	copy_job(struct job *);
static int	retire_upto(size_t);
static int	retire(void);
static int	wait_for(size_t);
static void	replay(void);
static int	say(struct job *);
static void	keep(int, const char *, va_list)
		    __attribute__((__format__(__printf__, 2, 0)));

/*
 * Hand over the regular file name, from the source directory sdir into
 * ddir, a directory this copy made, described by dirst; src and dst name
 * the two directories.  When RING files wait, the oldest half are
 * reported first.  Returns 1 when a file reported meanwhile failed.
 */
int
pool_add(int sdir, int ddir, const struct stat *dirst, const char *name)
{
	struct job *j;
	size_t slen, dlen, nlen;
	int rv;

	rv = 0;
	/* Room for half a ring at once: the walk sleeps once for as many. */
	if (tail - head == RING)
		rv = retire_upto(tail - RING / 2);
	j = &ring[tail % RING];
	inflight_start(&j->fl, NULL, 0);
	memset(&j->n, 0, sizeof(j->n));
	j->n.sdir = sdir;
	j->n.sname = name;
	j->n.ddir = ddir;
	j->n.dname = name;
	j->n.sfd = -1;
	j->n.followed = follow_all;
	j->n.dirst = &j->dirst;
	j->dirst = *dirst;
	slen = src.len;
	dlen = dst.len;
	nlen = strlen(name);
	if (j->names.len < slen + dlen + 2 * nlen + 4)
		xbuf_grow(&j->names, slen + dlen + 2 * nlen + 4);
	j->dpath = (size_t)snprintf(j->names.p, j->names.len, "%s%s%s",
	    src.p, slen > 0 && src.p[slen - 1] != '/' ? "/" : "", name) + 1;
	(void)snprintf(j->names.p + j->dpath, j->names.len - j->dpath,
	    "%s%s%s", dst.p, dlen > 0 && dst.p[dlen - 1] != '/' ? "/" : "",
	    name);
	j->saidlen = 0;
	j->done = j->failed = j->back = j->made = j->redo = 0;
	(void)pthread_mutex_lock(&lock);
	tail++;
	(void)pthread_cond_signal(&work);
	(void)pthread_mutex_unlock(&lock);
	if (nworkers == 0 && ++handed >= POOL_START)
		pool_start();
	return (rv);
}

/*
 * Whether files may be handed over: there are processors to copy them
 * and descriptors to spare (asked once), no worker failed to start, and
 * the workers were not stopped.
 */
int
pool_usable(void)
{
	static int usable = -1;

	if (usable == -1)
		usable = pool_wanted() > 1;
	return (usable && nworkers >= 0 && !atomic_load(&stopped));
}

/*
 * Wait for every file handed over and say what each has to say, in the
 * order they were handed over.  Returns 1 when one of them failed.
 */
int
pool_drain(void)
{

	return (retire_upto(tail));
}

/* Whether the calling thread is a worker. */
int
pool_worker(void)
{

	return (current != NULL);
}

/*
 * Memory ran out: err(3).  A worker must not exit, which would race the
 * walk's -v lines, nor end its thread, which may want memory itself:
 * the file it copies is to be copied again by the walk (replay()), and
 * the worker waits for the end of cp.  The walk exits at the file's
 * turn if memory is still short then, as one thread would have there.
 */
void
cp_nomem(void)
{

	if (in_worker == NULL)
		err(1, NULL);
	(void)pthread_mutex_lock(&lock);
	if (current != NULL) {
		current->redo = 1;
		inflight_over(&current->fl);
		current->done = 1;
	}
	*in_worker = PARKED;
	atomic_store(&stopped, 1);
	(void)pthread_cond_broadcast(&finished);
	for (;;)
		(void)pthread_cond_wait(&never, &lock);
}

/*
 * warn(3), or in a worker, kept for the walk to say at the file's turn
 * as warn(3) would.
 */
void
cp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (current == NULL)
		vwarn(fmt, ap);
	else
		keep(errno, fmt, ap);
	va_end(ap);
}

/* End the workers, once every file is reported. */
void
pool_end(void)
{
	int i;

	/* A worker may still park: each is joined once it is leaving. */
	(void)pthread_mutex_lock(&lock);
	quit = 1;
	(void)pthread_cond_broadcast(&work);
	for (i = 0; i < nworkers; i++) {
		while (parked[i] == 0)
			(void)pthread_cond_wait(&finished, &lock);
		if (parked[i] == LEAVING) {
			(void)pthread_mutex_unlock(&lock);
			(void)pthread_join(workers[i], NULL);
			bufsz_engine_free(engines[i]);
			(void)pthread_mutex_lock(&lock);
		}
	}
	(void)pthread_mutex_unlock(&lock);
	nworkers = -1;
	for (i = 0; i < RING; i++) {
		free(ring[i].names.p);
		free(ring[i].said.p);
	}
}

/*
 * How many threads would copy: one a processor this process may run on,
 * at most POOL_MAX, where the descriptor limit leaves enough for the
 * walk.
 */
static int
pool_wanted(void)
{
	struct rlimit rl;
	int n;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < POOL_FDS)
		return (1);
	n = bufsz_cpus();
	return (n > POOL_MAX ? POOL_MAX : n);
}

/*
 * Start the workers, each with an engine, and with every signal blocked
 * so that the progress signal comes to the walk, which reports for them.
 * What cannot be had is done without: with no worker, the files handed
 * over are given back.
 */
static void
pool_start(void)
{
	sigset_t all, old;
	int i, n;

	n = pool_wanted();
	bufsz_learn();
	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < n; i++) {
		if ((engines[i] = bufsz_engine_new(BUFSZ_SPARSE)) == NULL)
			break;
		if (pthread_create(&workers[i], NULL, worker,
		    &parked[i]) != 0) {
			bufsz_engine_free(engines[i]);
			break;
		}
	}
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	nworkers = i > 0 ? i : -1;
}

static void *
worker(void *arg)
{
	struct job *j;

	in_worker = arg;
	engine = engines[in_worker - parked];
	/* Made now, whatever files come: the same calls run after run. */
	path_set(&src, "");
	path_set(&dst, "");
	(void)pthread_mutex_lock(&lock);
	for (;;) {
		while ((next == tail || atomic_load(&stopped)) && !quit)
			(void)pthread_cond_wait(&work, &lock);
		if (next == tail || atomic_load(&stopped))
			break;
		j = &ring[next++ % RING];
		inflight_start(&j->fl, engine, 0);
		(void)pthread_mutex_unlock(&lock);
		current = j;
		copy_job(j);
		current = NULL;
		inflight_over(&j->fl);
		(void)pthread_mutex_lock(&lock);
		j->done = 1;
		if (j->redo)
			atomic_store(&stopped, 1);
		if (j == awaited || atomic_load(&stopped))
			(void)pthread_cond_broadcast(&finished);
	}
	*in_worker = LEAVING;
	(void)pthread_cond_broadcast(&finished);
	(void)pthread_mutex_unlock(&lock);
	free(src.p);
	free(dst.p);
	return (NULL);
}

/*
 * What copy_file() does for a new file, from the open that visit() makes:
 * what it would not have done so (a file that changed, a target in the
 * way) or could not for want of a descriptor is given back before
 * anything is made.
 */
static void
copy_job(struct job *j)
{
	struct stat outst;
	mode_t mode;
	int in, out;

	path_set(&src, j->names.p);
	path_set(&dst, j->names.p + j->dpath);
	in = openat(j->n.sdir, j->n.sname, SOURCE_OPEN(j->n.followed));
	if (in == -1 && (errno == ELOOP || errno == ENOTDIR ||
	    errno == EMFILE || errno == ENFILE)) {
		j->back = 1;
		return;
	}
	if (in == -1 || fstat(in, &j->n.st) == -1) {
		cp_warn("%s", src.p);
		if (in != -1)
			(void)close(in);
		j->failed = 1;
		return;
	}
	if (!S_ISREG(j->n.st.st_mode)) {
		(void)close(in);
		j->back = 1;
		return;
	}
	atomic_store(&j->fl.size, j->n.st.st_size);
	mode = j->n.st.st_mode & MODEBITS & ~(mode_t)(S_ISUID | S_ISGID);
	if ((out = create_target(&j->n, mode)) == -1) {
		(void)close(in);
		if (errno == EEXIST || errno == EMFILE || errno == ENFILE)
			j->back = 1;
		else {
			cp_warn("%s", dst.p);
			j->failed = 1;
		}
		return;
	}
	j->made = 1;
	new_file_stat(&j->n, mode, &outst);
	j->failed = copy_open(&j->n, in, out, &outst);
}

/*
 * Report the files handed over before the upto-th of the run, in order.
 * The last of them is waited for first, as it is likely to be done last:
 * the walk then sleeps once for them all.
 */
static int
retire_upto(size_t upto)
{
	int rv;

	rv = 0;
	if (upto != head)
		(void)wait_for(upto - 1);
	while (head != upto)
		rv |= retire();
	return (rv);
}

/* The oldest file handed over: wait for it, then say what it has to. */
static int
retire(void)
{
	struct job *j;
	int rv;

	j = &ring[head % RING];
	if (!wait_for(head)) {
		/* No worker will take it: the walk copies it. */
		(void)pthread_mutex_lock(&lock);
		next++;
		(void)pthread_mutex_unlock(&lock);
		j->back = 1;
	}
	if (j->redo)
		replay();
	rv = say(j);
	head++;
	return (rv);
}

/*
 * Wait for a worker to copy the k-th file handed over, reporting
 * progress on it as on a file the walk copies itself.  The report is set
 * up even for a file already copied, so that the calls cp makes (its
 * buffer for the report grows) do not depend on how fast the workers
 * were.  Returns 0 when no worker has taken the file or will: there are
 * none, or they were stopped.
 */
static int
wait_for(size_t k)
{
	struct job *j;
	int copied;

	j = &ring[k % RING];
	(void)pthread_mutex_lock(&lock);
	progress_start(j->names.p, j->names.p + j->dpath, &j->fl);
	awaited = j;
	while (!j->done && (k - head < next - head ||
	    (nworkers > 0 && !atomic_load(&stopped))))
		(void)pthread_cond_wait(&finished, &lock);
	awaited = NULL;
	progress_stop();
	copied = j->done;
	(void)pthread_mutex_unlock(&lock);
	return (copied);
}

/*
 * The file at head met a full disk, a failed write or no memory in a
 * worker: the files copied beside it may have taken what it needed.  The
 * workers stop, and once those still copying are done, what they made of
 * it and of every file after it is removed, so that the walk copies them
 * all again, in order, into the room one thread would have had.
 */
static void
replay(void)
{
	struct job *j;
	size_t k;

	(void)pthread_mutex_lock(&lock);
	atomic_store(&stopped, 1);
	for (k = head; k != next; k++)
		while (!ring[k % RING].done)
			(void)pthread_cond_wait(&finished, &lock);
	for (k = head; k != tail; k++) {
		j = &ring[k % RING];
		if (j->made)
			(void)unlinkat(j->n.ddir, j->n.dname, 0);
		j->made = j->redo = 0;
		j->back = j->done = 1;
	}
	next = tail;
	(void)pthread_mutex_unlock(&lock);
}

/* What a file handed over has to say, or its copy by the walk. */
static int
say(struct job *j)
{
	char *p;
	int e;

	if (j->back) {
		visit_again(j->n.sname);
		return (0);
	}
	for (p = j->said.p; p < j->said.p + j->saidlen; p += strlen(p) + 1) {
		memcpy(&e, p, sizeof(e));
		p += sizeof(e);
		warnx("%s: %s", p, strerror(e));
	}
	if (j->failed)
		return (1);
	if (vflag)
		verbose("%s -> %s\n", j->names.p, j->names.p + j->dpath);
	return (0);
}

/*
 * Keep a message of the current file: its errno, then its text.  One of
 * a full disk or a failed write has the file copied again (replay()).
 */
static void
keep(int e, const char *fmt, va_list ap)
{
	struct job *j;
	va_list aq;
	size_t room;
	int n;

	j = current;
	if (e == ENOSPC || e == EDQUOT || e == EIO)
		j->redo = 1;
	for (;;) {
		room = j->said.len - j->saidlen;
		if (room > sizeof(e)) {
			va_copy(aq, ap);
			n = vsnprintf(j->said.p + j->saidlen + sizeof(e),
			    room - sizeof(e), fmt, aq);
			va_end(aq);
			if (n < 0)
				return;
			if ((size_t)n < room - sizeof(e))
				break;
		} else
			n = 0;
		xbuf_grow(&j->said, j->saidlen + sizeof(e) + (size_t)n + 1);
	}
	memcpy(j->said.p + j->saidlen, &e, sizeof(e));
	j->saidlen += sizeof(e) + (size_t)n + 1;
}
