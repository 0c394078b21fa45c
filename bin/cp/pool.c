/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * cp: the entries of a tree, their regular files copied by several
 * threads.
 *
 * The walk stays in one thread and decides everything: what is copied, in
 * what order, what is asked and what is said.  It hands over only regular
 * files that go into a directory this copy made, where nothing can be in
 * the way, and without -l, -s or -p: open the source, create the target,
 * move the bytes, close.  Workers take the files in the order they were
 * handed over, each with an engine of its own, and keep what went wrong.
 * The walk says it, or the -v line, file by file in that order, so that
 * what cp says is what a copy made one file at a time says.  A file that
 * a worker finds other than the walk saw it (no longer a regular file, a
 * target in the way, no descriptor to spare) is given back untouched, and
 * the walk copies it at its turn, as it does every file when there are no
 * workers.
 *
 * A file that a worker could not copy for want of room, for a failed write
 * or for want of memory may have failed only because the files copied
 * beside it took what it needed.  Then the workers stop, what they made
 * of that file and of the files after it is removed, and the walk copies
 * those itself, one at a time, into the room one thread would have had.
 *
 * Every other entry, and the end of a directory, waits for the files
 * handed over before it.  The workers start only once a few files have
 * been handed over, so that a small tree costs no thread.
 */

#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "extern.h"

/*
 * At most POOL_MAX workers, one a processor; RING files handed over and
 * not yet reported; the workers start at the POOL_START-th file.  Below
 * POOL_FDS descriptors the walk keeps them all for its directories: a
 * worker holds two, its engine two more.
 */
#define	POOL_MAX	4
#define	RING		64
#define	POOL_START	8
#define	POOL_FDS	256

/* A failure that the files copied beside may have caused. */
#define	SHARED_FAILURE(e)	\
	((e) == ENOSPC || (e) == EDQUOT || (e) == EIO || (e) == ENOMEM)

/* A file handed over. */
struct job {
	struct ent	 e;
	struct inflight	 fl;
	int		 error;		/* errno of what failed, or 0 */
	int		 onsrc;		/* ...on the source's side */
	int		 done;
	int		 back;		/* given back to the walk */
	int		 made;		/* its target made by a worker */
};

static struct job	ring[RING];
static size_t	head;		/* the oldest file not reported */
static size_t	next;		/* the oldest file no worker has taken */
static size_t	tail;		/* where the next file goes */
static size_t	handed;
static int	nworkers;	/* -1: none will start */
static int	ready;		/* workers that have their engine */
static atomic_int	stopped;	/* the workers take no more files */
static struct job	*awaited;
static pthread_mutex_t	lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	work = PTHREAD_COND_INITIALIZER;
static pthread_cond_t	finished = PTHREAD_COND_INITIALIZER;

static int	pool_usable(void);
static int	pool_wanted(void);
static void	pool_start(void);
static void	hand_over(const struct ent *);
static void	*worker(void *);
static void	copy_job(struct job *);
static void	retire_upto(size_t);
static void	retire(void);
static void	name(const struct job *, size_t *, size_t *);
static int	wait_for(size_t);
static void	replay(void);

void
copy_entries(void)
{
	struct ent e;

	while (next_entry(&e)) {
		if (e.name != NULL && e.type == DT_REG && e.made && !lflag &&
		    !sflag && !pflag && e.sdir != -1 && e.ddir != -1 &&
		    pool_usable()) {
			hand_over(&e);
			continue;
		}
		retire_upto(tail);
		visit(&e);
	}
}

/*
 * Whether files may be handed over: there are processors to copy them
 * and descriptors to spare (asked once), and no worker failed to start
 * or was stopped.
 */
static int
pool_usable(void)
{
	static int usable = -1;

	if (usable == -1)
		usable = pool_wanted() > 1;
	return (usable && nworkers >= 0 && !atomic_load(&stopped));
}

/* One thread a processor cp may run on, where descriptors allow. */
static int
pool_wanted(void)
{
	struct rlimit rl;
	int n;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < POOL_FDS)
		return (1);
	bufsz_limits(NULL, &n);
	return (n > POOL_MAX ? POOL_MAX : n);
}

/*
 * The workers block every signal, so that the progress signal comes to
 * the walk, which reports for them.  With none, the files handed over
 * are given back.
 */
static void
pool_start(void)
{
	pthread_t t;
	sigset_t all, old;
	int i, n;

	n = pool_wanted();
	(void)sigfillset(&all);
	(void)pthread_sigmask(SIG_BLOCK, &all, &old);
	for (i = 0; i < n && pthread_create(&t, NULL, worker, NULL) == 0;
	    i++)
		continue;
	(void)pthread_sigmask(SIG_SETMASK, &old, NULL);
	nworkers = i > 0 ? i : -1;
	/* Each makes its engine now, whatever files come: the same calls. */
	(void)pthread_mutex_lock(&lock);
	while (ready < i)
		(void)pthread_cond_wait(&finished, &lock);
	(void)pthread_mutex_unlock(&lock);
}

/* When RING files wait, the oldest half are reported first. */
static void
hand_over(const struct ent *e)
{
	struct job *j;

	if (tail - head == RING)
		retire_upto(tail - RING / 2);
	j = &ring[tail % RING];
	j->e = *e;
	j->fl.counter = NULL;
	j->fl.size = 0;
	j->error = j->onsrc = j->done = j->back = j->made = 0;
	(void)pthread_mutex_lock(&lock);
	tail++;
	(void)pthread_cond_signal(&work);
	(void)pthread_mutex_unlock(&lock);
	if (nworkers == 0 && ++handed >= POOL_START)
		pool_start();
}

static void *
worker(void *arg)
{
	const _Atomic off_t *moved;
	struct job *j;

	(void)arg;
	moved = bufsz_moved();
	(void)pthread_mutex_lock(&lock);
	ready++;
	(void)pthread_cond_broadcast(&finished);
	for (;;) {
		while (next == tail || atomic_load(&stopped))
			(void)pthread_cond_wait(&work, &lock);
		j = &ring[next++ % RING];
		j->fl.base = moved != NULL ? *moved : 0;
		j->fl.counter = moved;
		(void)pthread_mutex_unlock(&lock);
		copy_job(j);
		(void)pthread_mutex_lock(&lock);
		j->done = 1;
		if (SHARED_FAILURE(j->error))
			atomic_store(&stopped, 1);
		if (j == awaited || atomic_load(&stopped))
			(void)pthread_cond_broadcast(&finished);
	}
	return (NULL);
}

/*
 * What copy_file() does for a new file, from the open that look() makes;
 * what it would not have done so is given back before anything is made.
 */
static void
copy_job(struct job *j)
{
	struct node n;
	struct stat outst;
	int in, out, r;

	memset(&n, 0, sizeof(n));
	n.sdir = j->e.sdir;
	n.sname = n.dname = j->e.name;
	n.ddir = j->e.ddir;
	n.dirst = j->e.dirst;
	in = openat(n.sdir, n.sname, SOURCE_OPEN(follow_all));
	if (in == -1 && (errno == ELOOP || errno == ENOTDIR ||
	    errno == EMFILE || errno == ENFILE)) {
		j->back = 1;
		return;
	}
	if (in == -1 || fstat(in, &n.st) == -1) {
		j->error = errno;
		j->onsrc = 1;
	} else if (!S_ISREG(n.st.st_mode))
		j->back = 1;
	else {
		j->fl.size = n.st.st_size;
		if ((out = create_target(&n, &outst)) == -1) {
			if (errno == EEXIST || errno == EMFILE ||
			    errno == ENFILE)
				j->back = 1;
			else
				j->error = errno;
		} else {
			j->made = 1;
			r = bufsz_copy(in, &n.st, out, &outst, BUFSZ_SPARSE);
			if (r != BUFSZ_OK) {
				j->error = errno;
				j->onsrc = r == BUFSZ_EREAD;
			}
			if (close(out) == -1 && j->error == 0)
				j->error = errno;
		}
	}
	if (in != -1)
		(void)close(in);
}

/*
 * Report the files handed over before the upto-th, in order.  The last of
 * them is waited for first, as it is likely to be done last: the walk then
 * sleeps once for them all.
 */
static void
retire_upto(size_t upto)
{

	if (upto != head)
		(void)wait_for(upto - 1);
	while (head != upto)
		retire();
}

/* The oldest file handed over: what it has to say, or its copy. */
static void
retire(void)
{
	struct job *j;
	size_t dlen, slen;

	j = &ring[head % RING];
	if (!wait_for(head)) {
		(void)pthread_mutex_lock(&lock);
		next++;
		(void)pthread_mutex_unlock(&lock);
		j->back = 1;
	}
	if (!j->back && SHARED_FAILURE(j->error))
		replay();
	head++;
	if (j->back) {
		visit(&j->e);
		return;
	}
	name(j, &slen, &dlen);
	if (j->error != 0) {
		errno = j->error;
		warn("%s", j->onsrc ? src.p : dst.p);
		rval = 1;
	} else if (vflag)
		verbose("%s -> %s\n", src.p, dst.p);
	path_trunc(&src, slen);
	path_trunc(&dst, dlen);
}

/*
 * Name j's file in src and dst, as the walk names the files it copies;
 * their lengths before are kept in *slen and *dlen.
 */
static void
name(const struct job *j, size_t *slen, size_t *dlen)
{

	*slen = src.len;
	*dlen = dst.len;
	path_push(&src, j->e.name);
	path_push(&dst, j->e.name);
}

/*
 * Wait for a worker to copy the k-th file handed over, and report on it
 * meanwhile as on a file the walk copies.  Returns 0 when no worker has
 * taken it or will: there are none, or they were stopped.
 */
static int
wait_for(size_t k)
{
	struct job *j;
	size_t dlen, slen;
	int done;

	j = &ring[k % RING];
	name(j, &slen, &dlen);
	j->fl.from = src.p;
	j->fl.to = dst.p;
	(void)pthread_mutex_lock(&lock);
	progress_show(&j->fl);
	awaited = j;
	while (!j->done && (k - head < next - head ||
	    (nworkers > 0 && !atomic_load(&stopped))))
		(void)pthread_cond_wait(&finished, &lock);
	awaited = NULL;
	progress_show(NULL);
	done = j->done;
	(void)pthread_mutex_unlock(&lock);
	path_trunc(&src, slen);
	path_trunc(&dst, dlen);
	return (done);
}

/*
 * Once the workers still copying are done, remove what they made of the
 * oldest file and every one after it, to be copied by the walk in order.
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
			(void)unlinkat(j->e.ddir, j->e.name, 0);
		j->made = 0;
		j->back = j->done = 1;
	}
	next = tail;
	(void)pthread_mutex_unlock(&lock);
}
