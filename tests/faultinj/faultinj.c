/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * faultinj: a preloaded library that makes the program under test meet
 * the failures its environment can hand it, on demand and one call at a
 * time, and that tells it the machine is bigger or smaller than it is.
 *
 * It works wherever the dynamic linker honours LD_PRELOAD and dlsym(3)
 * has RTLD_NEXT: ELF hosts (Linux with glibc, the BSDs).  It is built
 * without sanitizers; to preload it into an AddressSanitizer build, set
 * ASAN_OPTIONS=verify_asan_link_order=0.  With the sanitizer runtime
 * linked statically (clang), that runtime's malloc is the program's own
 * and allocations cannot be failed; the system calls still can.
 *
 * The environment:
 *
 * FAULTINJ=SPEC[,SPEC...]	SPEC is FUNC:N:ACTION, or FUNC:N+:ACTION
 *	for the Nth call of FUNC and every later one.  FUNC is one of the
 *	names in fn_names below.  ACTION is an errno name (EIO, ENOSPC, ...;
 *	see errnos below) to fail the call with; "short" to ask the kernel
 *	for half the count (at least 1; a count of 1 cannot be shortened);
 *	or "truncate=SIZE" or "grow=SIZE" to let the call run and then cut
 *	the file named by FAULTINJ_FILE to SIZE bytes, or append SIZE bytes
 *	to it; or, for stat, fstat and fstatat, "unlinked" to let the call
 *	run and say st_nlink 0, as Linux does of a name whose removal is
 *	half done; or "wait" to hold the call until the file named by
 *	FAULTINJ_FILE exists, then let it run, so that a test can catch the
 *	program at that call.
 * FAULTINJ_LOG=FILE	per function: FUNC.calls (calls counted), .faults
 *	(failed on purpose), .eagain (EAGAIN from the kernel itself), .max
 *	(the largest count, length or size asked).  The file is a shared
 *	mapping updated at every call, so it is right however the program
 *	ends (yes(1) dies of SIGPIPE).  A line is "NAME VALUE", blank-padded;
 *	the last is "pid" and the process's id.
 * FAULTINJ_PHYSMEM=BYTES	sysconf(_SC_PHYS_PAGES) says BYTES / page, and
 *	on the BSDs sysctlbyname(3) says BYTES of hw.physmem and
 *	hw.physmem64, which their memory probe asks instead.
 * FAULTINJ_PAGESIZE=BYTES	sysconf(_SC_PAGESIZE) says BYTES.
 * FAULTINJ_NCPU=N	sysconf(_SC_NPROCESSORS_ONLN) says N, and on Linux
 *	sched_getaffinity(2) says the process may run on processors 0 to
 *	N - 1: how many threads cp copies a tree with (where no cgroup
 *	quota allows fewer).
 * FAULTINJ_PATH=PATH	the kernel's copy calls other than PATH's are
 *	refused (ENOSYS), uncounted, so that the engine copies by PATH
 *	where it would and read/write elsewhere: rw refuses them all; cfr
 *	keeps copy_file_range, splice splice and vmsplice, sendfile
 *	sendfile; auto refuses none.
 * FAULTINJ_BUFSIZE=BYTES	posix_memalign of more than BYTES fails with
 *	ENOMEM, uncounted: the engine then takes a smaller buffer, as it
 *	would on a machine short of memory.
 * FAULTINJ_NONBLOCK=FD[,FD...]	O_NONBLOCK is set on these descriptors
 *	before main() runs, as a caller sharing them might have.
 * FAULTINJ_SCOPE=all	count calls made from shared libraries too.  By
 *	default only calls from the program's own text (which holds the
 *	static libbufsz) are counted and affected, not those libc makes for
 *	itself (stdio's buffers, fopen's open) nor the sanitizer's.
 *
 * A malformed setting is reported on stderr and the program exits 125
 * before main(), so that a typo never passes for a clean run.  Programs
 * that the one under test starts are left alone (FAULTINJ_PID).
 */

/* Both open and open64 (and so on) are defined here: see LFS64. */
#undef _FILE_OFFSET_BITS

#include <sys/types.h>
#include <sys/mman.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/sendfile.h>
#include <sys/uio.h>
#include <sys/vfs.h>
#endif

#include <dlfcn.h>
#include <errno.h>
#ifdef __linux__
#include <sched.h>
#endif
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__) || defined(__FreeBSD__)
#define	HAVE_CFR	1
#endif

#if defined(__FreeBSD__) || defined(__NetBSD__)
#include <sys/sysctl.h>
#define	HAVE_SYSCTLBYNAME	1
#endif

/*
 * copy_file_range and splice take 64-bit offsets whatever off_t is, and
 * glibc declares them so; this file is built with glibc's 32-bit off_t.
 */
#ifdef __GLIBC__
typedef __off64_t	off64p_t;
#else
typedef off_t		off64p_t;
#endif

/*
 * glibc has a second entry point for each call that takes an off_t or a
 * struct stat, and a program built with _FILE_OFFSET_BITS=64 (as this
 * tree builds) calls that one, on 64-bit hosts too.  This library is
 * built without it, defines both, and counts both under one name.
 */
#if defined(__GLIBC__) && defined(_LARGEFILE64_SOURCE)
#define	LFS64	1
#endif

#ifndef ElfW
#define	ElfW(type)	Elf_##type
#endif

enum fn {
	F_READ, F_WRITE, F_PREAD, F_PWRITE, F_CFR, F_SPLICE, F_SENDFILE,
	F_VMSPLICE, F_OPEN, F_OPENAT, F_FSTAT, F_FSTATAT, F_FSYNC,
	F_CLOSE, F_LSEEK, F_MALLOC, F_CALLOC, F_REALLOC, F_MEMALIGN,
	F_FSTATFS, F_STAT, NFN
};

static const char *const fn_names[NFN] = {
	"read", "write", "pread", "pwrite", "copy_file_range", "splice",
	"sendfile", "vmsplice", "open", "openat", "fstat", "fstatat",
	"fsync", "close", "lseek", "malloc", "calloc", "realloc",
	"posix_memalign", "fstatfs", "stat"
};

static const struct {
	const char	*name;
	int		 value;
} errnos[] = {
	{ "EINTR", EINTR }, { "EAGAIN", EAGAIN }, { "EIO", EIO },
	{ "ENOSPC", ENOSPC }, { "ENOMEM", ENOMEM }, { "EXDEV", EXDEV },
	{ "ENOSYS", ENOSYS }, { "EINVAL", EINVAL },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "EBADF", EBADF },
	{ "EFAULT", EFAULT }, { "EPIPE", EPIPE }, { "EACCES", EACCES },
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "ENODEV", ENODEV },
	{ "EFBIG", EFBIG }, { "EDQUOT", EDQUOT }, { "EMFILE", EMFILE },
	{ "ENFILE", ENFILE }, { "EOVERFLOW", EOVERFLOW },
	{ "ESPIPE", ESPIPE }, { "ETXTBSY", ETXTBSY }
};
#define	NERRNOS	(sizeof(errnos) / sizeof(errnos[0]))

enum kind { K_ERRNO, K_SHORT, K_TRUNCATE, K_GROW, K_UNLINKED, K_WAIT };

struct fault {
	enum fn		 fn;
	uintmax_t	 nth;
	int		 onward;	/* N+: this call and all later */
	enum kind	 kind;
	int		 err;
	off_t		 size;
};

#define	MAXFAULTS	32

/* The log's records, in this order for each function. */
enum stat_ix { S_CALLS, S_FAULTS, S_EAGAIN, S_MAX, NSTATS };
static const char *const stat_names[NSTATS] = {
	"calls", "faults", "eagain", "max"
};
#define	LOG_NAMEW	32	/* "copy_file_range.eagain", padded */
#define	LOG_VALW	20
#define	LOG_LINE	(LOG_NAMEW + LOG_VALW + 1)
/* Last, the pid of the process that opened it. */
#define	LOG_PIDOFF	((size_t)NFN * NSTATS * LOG_LINE)

/* Executable segments of the program itself: the default scope. */
#define	MAXSEGS	8
static struct {
	uintptr_t	lo, hi;
} segs[MAXSEGS];
static int nsegs;

static struct fault faults[MAXFAULTS];
static int nfaults;
static uintmax_t stats[NFN][NSTATS];
static char *logmap;
static int ready, scope_all;
static long fake_pagesize;
static uintmax_t fake_physmem;
static long fake_ncpu;
static unsigned refused;	/* 1 << enum fn, for FAULTINJ_PATH */
static uintmax_t max_align;	/* FAULTINJ_BUFSIZE, or 0 */
static const char *action_file;
static int action_fd = -1;	/* action_file, opened before the program ran */

/* The next definitions of what we interpose. */
static ssize_t	(*real_read)(int, void *, size_t);
static ssize_t	(*real_write)(int, const void *, size_t);
static ssize_t	(*real_pread)(int, void *, size_t, off_t);
static ssize_t	(*real_pwrite)(int, const void *, size_t, off_t);
static int	(*real_open)(const char *, int, ...);
static int	(*real_openat)(int, const char *, int, ...);
static int	(*real_fstat)(int, struct stat *);
static int	(*real_fstatat)(int, const char *, struct stat *, int);
static int	(*real_stat)(const char *, struct stat *);
static int	(*real_fsync)(int);
static int	(*real_close)(int);
static void	*(*real_malloc)(size_t);
static void	*(*real_calloc)(size_t, size_t);
static void	*(*real_realloc)(void *, size_t);
static void	(*real_free)(void *);
static int	(*real_memalign)(void **, size_t, size_t);
static void	*(*real_aligned_alloc)(size_t, size_t);
static long	(*real_sysconf)(int);
static off_t	(*real_lseek)(int, off_t, int);
#ifdef LFS64
static off64_t	(*real_lseek64)(int, off64_t, int);
static ssize_t	(*real_pread64)(int, void *, size_t, off64_t);
static ssize_t	(*real_pwrite64)(int, const void *, size_t, off64_t);
static int	(*real_open64)(const char *, int, ...);
static int	(*real_openat64)(int, const char *, int, ...);
static int	(*real_fstat64)(int, struct stat64 *);
static int	(*real_fstatat64)(int, const char *, struct stat64 *, int);
static int	(*real_stat64)(const char *, struct stat64 *);
#ifdef __linux__
static ssize_t	(*real_sendfile64)(int, int, off64_t *, size_t);
static int	(*real_fstatfs64)(int, struct statfs64 *);
#endif
#endif
#ifdef HAVE_CFR
static ssize_t	(*real_copy_file_range)(int, off64p_t *, int, off64p_t *,
		    size_t, unsigned int);
#endif
#ifdef HAVE_SYSCTLBYNAME
static int	(*real_sysctlbyname)(const char *, void *, size_t *,
		    const void *, size_t);
#endif
#ifdef __linux__
static ssize_t	(*real_splice)(int, off64p_t *, int, off64p_t *, size_t,
		    unsigned int);
static ssize_t	(*real_sendfile)(int, int, off_t *, size_t);
static ssize_t	(*real_vmsplice)(int, const struct iovec *, size_t,
		    unsigned int);
static int	(*real_fstatfs)(int, struct statfs *);
static int	(*real_sched_getaffinity)(pid_t, size_t, cpu_set_t *);
#endif

static void	die(const char *, const char *) __dead2;
static void	*next_sym(const char *);
static void	resolve_all(void);
static int	find_segs(struct dl_phdr_info *, size_t, void *);
static int	parse_uint(const char *, uintmax_t *);
static void	parse_path(const char *);
static void	parse_faults(const char *);
static int	is_refused(enum fn, const void *);
static void	parse_one(char *);
static void	parse_action(struct fault *, const char *);
static void	open_log(const char *);
static void	set_nonblock(const char *);
static void	log_put(enum fn, enum stat_ix);
static int	in_scope(const void *);
static struct fault *begin(enum fn, const void *, uintmax_t);
static void	end(enum fn, const struct fault *, int);
static size_t	shorten(size_t);
static void	act_on_file(const struct fault *);
static void	hold(void);
static void	*arena_alloc(size_t);
static int	in_arena(const void *);
static int	log_is_parents(const char *);
static int	is_child(void);
static void	faultinj_init(void) __attribute__((__constructor__));

#define	CALLER	__builtin_return_address(0)

static void
die(const char *what, const char *why)
{
	static const char pfx[] = "faultinj: ";
	ssize_t (*w)(int, const void *, size_t);

	w = real_write != NULL ? real_write : write;
	(void)w(STDERR_FILENO, pfx, sizeof(pfx) - 1);
	(void)w(STDERR_FILENO, what, strlen(what));
	(void)w(STDERR_FILENO, ": ", 2);
	(void)w(STDERR_FILENO, why, strlen(why));
	(void)w(STDERR_FILENO, "\n", 1);
	_exit(125);
}

/*
 * dlsym may allocate (its error buffer), and we are malloc: while it
 * runs, allocations come from a small arena that is never freed.
 * Volatile: glibc declares dlsym a leaf function, which lets the
 * compiler drop a count that only calls back into us can see.  A
 * thread's own: another thread's allocations while one thread is in
 * dlsym are real ones (cp copies with threads).  Initial-exec, so that
 * reading it never allocates.
 */
static _Thread_local volatile int in_dlsym
    __attribute__((__tls_model__("initial-exec")));
static char arena[16384] __attribute__((__aligned__(64)));
static size_t arena_used;

static void *
arena_alloc(size_t n)
{
	void *p;

	n = (n + 63) & ~(size_t)63;
	if (n > sizeof(arena) - arena_used)
		return (NULL);
	p = arena + arena_used;
	arena_used += n;
	return (p);
}

static int
in_arena(const void *p)
{

	return ((const char *)p >= arena &&
	    (const char *)p < arena + sizeof(arena));
}

/*
 * Every function is looked up before the program starts: a lookup made
 * later, in one of its threads, would send the others' allocations to
 * the arena while it lasts.
 */
static void *
next_sym(const char *name)
{
	void *p;

	if (ready)
		die(name, "looked up after the program started (resolve_all)");
	in_dlsym++;
	p = dlsym(RTLD_NEXT, name);
	in_dlsym--;
	if (p == NULL)
		die(name, "not found by dlsym(RTLD_NEXT)");
	return (p);
}

#define	RESOLVE(var, name)	do {					\
	if ((var) == NULL)						\
		*(void **)(void *)&(var) = next_sym(name);		\
} while (0)

static void
resolve_all(void)
{

	RESOLVE(real_read, "read");
	RESOLVE(real_write, "write");
	RESOLVE(real_pread, "pread");
	RESOLVE(real_pwrite, "pwrite");
	RESOLVE(real_open, "open");
	RESOLVE(real_openat, "openat");
	RESOLVE(real_fstat, "fstat");
	RESOLVE(real_fstatat, "fstatat");
	RESOLVE(real_stat, "stat");
	RESOLVE(real_fsync, "fsync");
	RESOLVE(real_close, "close");
	RESOLVE(real_malloc, "malloc");
	RESOLVE(real_calloc, "calloc");
	RESOLVE(real_realloc, "realloc");
	RESOLVE(real_free, "free");
	RESOLVE(real_memalign, "posix_memalign");
	RESOLVE(real_aligned_alloc, "aligned_alloc");
	RESOLVE(real_sysconf, "sysconf");
	RESOLVE(real_lseek, "lseek");
#ifdef HAVE_CFR
	RESOLVE(real_copy_file_range, "copy_file_range");
#endif
#ifdef HAVE_SYSCTLBYNAME
	RESOLVE(real_sysctlbyname, "sysctlbyname");
#endif
#ifdef __linux__
	RESOLVE(real_splice, "splice");
	RESOLVE(real_sendfile, "sendfile");
	RESOLVE(real_vmsplice, "vmsplice");
	RESOLVE(real_fstatfs, "fstatfs");
	RESOLVE(real_sched_getaffinity, "sched_getaffinity");
#endif
#ifdef LFS64
	RESOLVE(real_lseek64, "lseek64");
	RESOLVE(real_pread64, "pread64");
	RESOLVE(real_pwrite64, "pwrite64");
	RESOLVE(real_open64, "open64");
	RESOLVE(real_openat64, "openat64");
	RESOLVE(real_fstat64, "fstat64");
	RESOLVE(real_fstatat64, "fstatat64");
	RESOLVE(real_stat64, "stat64");
#ifdef __linux__
	RESOLVE(real_sendfile64, "sendfile64");
	RESOLVE(real_fstatfs64, "fstatfs64");
#endif
#endif
}

/* The first object dl_iterate_phdr reports is the program itself. */
static int
find_segs(struct dl_phdr_info *info, size_t size, void *arg)
{
	const ElfW(Phdr) *ph;
	int i;

	(void)size;
	(void)arg;
	for (i = 0; i < info->dlpi_phnum && nsegs < MAXSEGS; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_X) == 0)
			continue;
		segs[nsegs].lo = (uintptr_t)info->dlpi_addr + ph->p_vaddr;
		segs[nsegs].hi = segs[nsegs].lo + ph->p_memsz;
		nsegs++;
	}
	return (1);
}

static int
parse_uint(const char *s, uintmax_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return (-1);
	errno = 0;
	*v = strtoumax(s, &end, 10);
	return (errno != 0 || *end != '\0' ? -1 : 0);
}

static void
parse_action(struct fault *f, const char *s)
{
	uintmax_t v;
	size_t i;

	if (strcmp(s, "short") == 0) {
		f->kind = K_SHORT;
		return;
	}
	if (strcmp(s, "wait") == 0) {
		f->kind = K_WAIT;
		if (action_file == NULL)
			die(s, "needs FAULTINJ_FILE");
		return;
	}
	if (strcmp(s, "unlinked") == 0) {
		f->kind = K_UNLINKED;
		if (f->fn != F_STAT && f->fn != F_FSTAT && f->fn != F_FSTATAT)
			die(s, "only for stat, fstat and fstatat");
		return;
	}
	if (strncmp(s, "truncate=", 9) == 0 || strncmp(s, "grow=", 5) == 0) {
		f->kind = s[0] == 't' ? K_TRUNCATE : K_GROW;
		if (parse_uint(strchr(s, '=') + 1, &v) != 0 ||
		    v > (uintmax_t)INT32_MAX)
			die(s, "bad size");
		if (action_file == NULL)
			die(s, "needs FAULTINJ_FILE");
		f->size = (off_t)v;
		if (f->fn >= F_MALLOC)
			die(s, "only for system calls");
		return;
	}
	for (i = 0; i < NERRNOS; i++)
		if (strcmp(s, errnos[i].name) == 0) {
			f->kind = K_ERRNO;
			f->err = errnos[i].value;
			return;
		}
	die(s, "unknown action");
}

/* FUNC:N[+]:ACTION, in place. */
static void
parse_one(char *spec)
{
	struct fault *f;
	char *name, *nth, *action;
	size_t len;
	int i;

	if (nfaults == MAXFAULTS)
		die(spec, "too many faults");
	f = &faults[nfaults];
	name = spec;
	if ((nth = strchr(name, ':')) == NULL ||
	    (action = strchr(nth + 1, ':')) == NULL)
		die(spec, "not FUNC:N:ACTION");
	*nth++ = '\0';
	*action++ = '\0';
	for (i = 0; i < NFN; i++)
		if (strcmp(name, fn_names[i]) == 0)
			break;
	if (i == NFN)
		die(name, "not a function faultinj knows");
	f->fn = (enum fn)i;
	len = strlen(nth);
	if (len > 0 && nth[len - 1] == '+') {
		f->onward = 1;
		nth[len - 1] = '\0';
	}
	if (parse_uint(nth, &f->nth) != 0 || f->nth == 0)
		die(nth, "not a call number (1 is the first)");
	parse_action(f, action);
	nfaults++;
}

static void
parse_path(const char *s)
{
	static const struct {
		const char	*name;
		unsigned	 keep;
	} paths[] = {
		{ "auto", ~0u }, { "rw", 0 }, { "cfr", 1u << F_CFR },
		{ "splice", 1u << F_SPLICE | 1u << F_VMSPLICE },
		{ "sendfile", 1u << F_SENDFILE }
	};
	size_t i;

	for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (strcmp(s, paths[i].name) == 0) {
			refused = (1u << F_CFR | 1u << F_SPLICE |
			    1u << F_SENDFILE | 1u << F_VMSPLICE) &
			    ~paths[i].keep;
			return;
		}
	die(s, "FAULTINJ_PATH is auto, rw, cfr, splice or sendfile");
}

static void
parse_faults(const char *env)
{
	static char copy[1024];
	char *p, *comma;

	if (strlen(env) >= sizeof(copy))
		die("FAULTINJ", "too long");
	(void)strcpy(copy, env);
	for (p = copy; *p != '\0'; p = comma + 1) {
		if ((comma = strchr(p, ',')) != NULL)
			*comma = '\0';
		parse_one(p);
		if (comma == NULL)
			break;
	}
}

static void
log_put(enum fn f, enum stat_ix s)
{
	char *p;
	uintmax_t v;

	if (logmap == NULL)
		return;
	p = logmap + ((size_t)f * NSTATS + (size_t)s) * LOG_LINE +
	    LOG_NAMEW + LOG_VALW;
	v = stats[f][s];
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
}

static void
open_log(const char *path)
{
	size_t len, i, n;
	uintmax_t v;
	char *line;
	int fd, f, s;

	len = LOG_PIDOFF + LOG_LINE;
	fd = real_open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd == -1)
		die(path, strerror(errno));
	if (ftruncate(fd, (off_t)len) != 0)
		die(path, strerror(errno));
	logmap = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
	    fd, 0);
	if (logmap == MAP_FAILED)
		die(path, strerror(errno));
	(void)real_close(fd);
	memset(logmap, ' ', len);
	for (f = 0; f < NFN; f++)
		for (s = 0; s < NSTATS; s++) {
			line = logmap + ((size_t)f * NSTATS + (size_t)s) *
			    LOG_LINE;
			n = strlen(fn_names[f]);
			memcpy(line, fn_names[f], n);
			line[n] = '.';
			for (i = 0; stat_names[s][i] != '\0'; i++)
				line[n + 1 + i] = stat_names[s][i];
			line[LOG_LINE - 1] = '\n';
			log_put((enum fn)f, (enum stat_ix)s);
		}
	line = logmap + LOG_PIDOFF;
	memcpy(line, "pid", 3);
	line[LOG_LINE - 1] = '\n';
	for (v = (uintmax_t)getpid(), line += LOG_LINE - 1; v != 0; v /= 10)
		*--line = (char)('0' + v % 10);
}

/* Whether the log at path was opened by our parent. */
static int
log_is_parents(const char *path)
{
	char line[LOG_LINE + 1];
	uintmax_t v;
	char *p;
	int fd;
	ssize_t n;

	if ((fd = real_open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (0);
	n = real_pread(fd, line, LOG_LINE, (off_t)LOG_PIDOFF);
	(void)real_close(fd);
	if (n != LOG_LINE || strncmp(line, "pid ", 4) != 0)
		return (0);
	line[LOG_LINE - 1] = '\0';
	for (p = line + 3; *p == ' '; p++)
		continue;
	return (parse_uint(p, &v) == 0 && v == (uintmax_t)getppid());
}

static void
set_nonblock(const char *list)
{
	uintmax_t fd;
	char buf[16], *p;
	const char *s;
	size_t n;
	int fl;

	for (s = list; *s != '\0'; s += n + (s[n] == ',')) {
		n = strcspn(s, ",");
		if (n == 0 || n >= sizeof(buf))
			die(list, "not a list of descriptors");
		memcpy(buf, s, n);
		buf[n] = '\0';
		p = buf;
		if (parse_uint(p, &fd) != 0 || fd > INT32_MAX)
			die(list, "not a list of descriptors");
		if ((fl = fcntl((int)fd, F_GETFL)) == -1 ||
		    fcntl((int)fd, F_SETFL, fl | O_NONBLOCK) == -1)
			die("FAULTINJ_NONBLOCK", strerror(errno));
	}
}

/*
 * Only the process started with the library is affected: one it starts
 * (the sanitizer's symbolizer, say) inherits the environment, and must
 * neither meet its faults nor truncate its log.  A sanitizer may start
 * it with the environment as it was before we ran (without
 * FAULTINJ_PID): the log's owner tells then.
 */
static int
is_child(void)
{
	char buf[32];
	const char *s;
	uintmax_t v;

	if ((s = getenv("FAULTINJ_PID")) != NULL && parse_uint(s, &v) == 0 &&
	    v != (uintmax_t)getpid())
		return (1);
	if ((s = getenv("FAULTINJ_LOG")) != NULL && log_is_parents(s))
		return (1);
	(void)snprintf(buf, sizeof(buf), "%ju", (uintmax_t)getpid());
	if (setenv("FAULTINJ_PID", buf, 1) != 0)
		die("FAULTINJ_PID", strerror(errno));
	return (0);
}

static void
faultinj_init(void)
{
	const char *s;
	uintmax_t v;

	resolve_all();
	if (is_child())
		return;
	(void)dl_iterate_phdr(find_segs, NULL);
	if ((s = getenv("FAULTINJ_SCOPE")) != NULL) {
		if (strcmp(s, "all") != 0 && strcmp(s, "prog") != 0)
			die(s, "FAULTINJ_SCOPE is all or prog");
		scope_all = strcmp(s, "all") == 0;
	}
	/*
	 * Opened now: a program that confines itself (cat's Landlock) may
	 * no longer open it by name when the fault comes, but what was open
	 * before stays usable.
	 */
	if ((action_file = getenv("FAULTINJ_FILE")) != NULL)
		action_fd = real_open(action_file, O_WRONLY | O_APPEND |
		    O_CLOEXEC);
	if ((s = getenv("FAULTINJ_PAGESIZE")) != NULL) {
		if (parse_uint(s, &v) != 0 || v == 0 || v > LONG_MAX)
			die(s, "bad FAULTINJ_PAGESIZE");
		fake_pagesize = (long)v;
	}
	if ((s = getenv("FAULTINJ_PHYSMEM")) != NULL) {
		if (parse_uint(s, &v) != 0 || v == 0)
			die(s, "bad FAULTINJ_PHYSMEM");
		fake_physmem = v;
	}
	if ((s = getenv("FAULTINJ_NCPU")) != NULL) {
		if (parse_uint(s, &v) != 0 || v == 0 || v > LONG_MAX)
			die(s, "bad FAULTINJ_NCPU");
		fake_ncpu = (long)v;
	}
	if ((s = getenv("FAULTINJ_PATH")) != NULL)
		parse_path(s);
	if ((s = getenv("FAULTINJ_BUFSIZE")) != NULL &&
	    (parse_uint(s, &max_align) != 0 || max_align == 0))
		die(s, "bad FAULTINJ_BUFSIZE");
	if ((s = getenv("FAULTINJ")) != NULL)
		parse_faults(s);
	if ((s = getenv("FAULTINJ_LOG")) != NULL)
		open_log(s);
	if ((s = getenv("FAULTINJ_NONBLOCK")) != NULL)
		set_nonblock(s);
	ready = 1;
}

static int
in_scope(const void *caller)
{
	uintptr_t a;
	int i;

	if (!ready)
		return (0);
	if (scope_all)
		return (1);
	a = (uintptr_t)caller;
	for (i = 0; i < nsegs; i++)
		if (a >= segs[i].lo && a < segs[i].hi)
			return (1);
	return (0);
}

/* FAULTINJ_PATH's refusal of a copy call; the call is not counted. */
static int
is_refused(enum fn f, const void *caller)
{

	if ((refused & 1u << f) == 0 || !in_scope(caller))
		return (0);
	errno = ENOSYS;
	return (1);
}

/*
 * Count a call of f asking for size (a count, a length), and return the
 * fault it is to meet, if any: the first errno or "short" given for the
 * call.  A change to the file given for it is left pending for end().
 */
static struct fault *pending;

static struct fault *
begin(enum fn f, const void *caller, uintmax_t size)
{
	struct fault *ft, *found;
	uintmax_t n;
	int i;

	if (!in_scope(caller))
		return (NULL);
	/* Atomic: cp's threads call side by side, each call counted once. */
	n = __atomic_add_fetch(&stats[f][S_CALLS], 1, __ATOMIC_SEQ_CST);
	log_put(f, S_CALLS);
	if (size > stats[f][S_MAX]) {
		stats[f][S_MAX] = size;
		log_put(f, S_MAX);
	}
	found = NULL;
	for (i = 0; i < nfaults; i++) {
		ft = &faults[i];
		if (ft->fn != f ||
		    (n != ft->nth && !(ft->onward && n > ft->nth)))
			continue;
		if (ft->kind == K_TRUNCATE || ft->kind == K_GROW) {
			pending = ft;
			continue;
		}
		if (ft->kind == K_WAIT) {
			hold();
			continue;
		}
		if (found == NULL) {
			(void)__atomic_add_fetch(&stats[f][S_FAULTS], 1,
			    __ATOMIC_SEQ_CST);
			log_put(f, S_FAULTS);
			found = ft;
		}
	}
	return (found);
}

/* After the real call: note a kernel EAGAIN; change the file. */
static void
end(enum fn f, const struct fault *ft, int failed)
{
	int serrno;

	serrno = errno;
	if (failed && (errno == EAGAIN || errno == EWOULDBLOCK) &&
	    ready && (ft == NULL || ft->kind != K_ERRNO)) {
		stats[f][S_EAGAIN]++;
		log_put(f, S_EAGAIN);
	}
	if (pending != NULL) {
		ft = pending;
		pending = NULL;
		act_on_file(ft);
	}
	errno = serrno;
}

static size_t
shorten(size_t n)
{

	return (n > 1 ? n / 2 : n);
}

/* Change the file under the program, as another process might. */
static void
act_on_file(const struct fault *ft)
{
	char buf[4096];
	off_t left;
	ssize_t n;
	int fd;

	/* A file made after the program started is opened now. */
	if ((fd = action_fd) == -1 &&
	    (fd = real_open(action_file, O_WRONLY | O_APPEND)) == -1)
		die(action_file, strerror(errno));
	if (ft->kind == K_TRUNCATE) {
		if (ftruncate(fd, ft->size) != 0)
			die(action_file, strerror(errno));
	} else {
		memset(buf, 'G', sizeof(buf));
		for (left = ft->size; left > 0; left -= n) {
			n = real_write(fd, buf, (size_t)(left <
			    (off_t)sizeof(buf) ? left : (off_t)sizeof(buf)));
			if (n <= 0)
				die(action_file, strerror(errno));
		}
	}
	if (fd != action_fd)
		(void)real_close(fd);
}

/* Until the file named by FAULTINJ_FILE is there. */
static void
hold(void)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };

	while (access(action_file, F_OK) != 0)
		(void)nanosleep(&tick, NULL);
}

#define	FAIL_WITH(f, ft, rv)	do {					\
	if ((ft) != NULL && (ft)->kind == K_ERRNO) {			\
		end((f), (ft), 0);					\
		errno = (ft)->err;					\
		return (rv);						\
	}								\
} while (0)

#define	SHORTEN(ft, n)	do {						\
	if ((ft) != NULL && (ft)->kind == K_SHORT)			\
		(n) = shorten(n);					\
} while (0)

/*
 * The interposers, each written once as a macro and made once for every
 * name it goes by: with LFS64, glibc's *64 twin of each call that takes
 * an off_t or a struct stat is made from the same definition (an empty
 * SFX or 64), and counted under the same name.
 *
 * COUNTED: a call that moves len bytes: counted, failed or shortened.
 */
#define	COUNTED(name, fn, params, args)					\
ssize_t									\
name params								\
{									\
	struct fault *ft;						\
	ssize_t n;							\
									\
	RESOLVE(real_##name, #name);					\
	if (is_refused(fn, CALLER))					\
		return (-1);						\
	ft = begin(fn, CALLER, len);					\
	FAIL_WITH(fn, ft, -1);						\
	SHORTEN(ft, len);						\
	n = real_##name args;						\
	end(fn, ft, n < 0);						\
	return (n);							\
}

#define	DEF_PREAD(sfx, offt)						\
	COUNTED(pread##sfx, F_PREAD,					\
	    (int fd, void *buf, size_t len, offt off), (fd, buf, len, off))
#define	DEF_PWRITE(sfx, offt)						\
	COUNTED(pwrite##sfx, F_PWRITE,					\
	    (int fd, const void *buf, size_t len, offt off),		\
	    (fd, buf, len, off))
#define	DEF_SENDFILE(sfx, offt)						\
	COUNTED(sendfile##sfx, F_SENDFILE,				\
	    (int out, int in, offt *off, size_t len), (out, in, off, len))

/* open and openat: the mode is there only with O_CREAT or O_TMPFILE. */
#define	DEF_OPEN(name, fn, params, args)				\
int									\
name params								\
{									\
	struct fault *ft;						\
	va_list ap;							\
	mode_t mode;							\
	int fd;								\
									\
	RESOLVE(real_##name, #name);					\
	mode = 0;							\
	if (has_mode(flags)) {						\
		va_start(ap, flags);					\
		mode = (mode_t)va_arg(ap, int);				\
		va_end(ap);						\
	}								\
	ft = begin(fn, CALLER, 0);					\
	FAIL_WITH(fn, ft, -1);						\
	fd = real_##name args;						\
	end(fn, ft, fd < 0);						\
	return (fd);							\
}

/*
 * The stat family; UNLINKED is what "unlinked" does to a result that
 * has a link count (st_nlink = 0), nothing for statfs.
 */
#define	DEF_STAT(name, fn, params, args, UNLINKED)			\
int									\
name params								\
{									\
	struct fault *ft;						\
	int r;								\
									\
	RESOLVE(real_##name, #name);					\
	ft = begin(fn, CALLER, 0);					\
	FAIL_WITH(fn, ft, -1);						\
	r = real_##name args;						\
	if (r == 0 && ft != NULL && ft->kind == K_UNLINKED)		\
		UNLINKED;						\
	end(fn, ft, r != 0);						\
	return (r);							\
}
#define	DEF_FILESTAT(name, fn, params, args)				\
	DEF_STAT(name, fn, params, args, sb->st_nlink = 0)

/* lseek: for a change to the file at the moment the engine looks. */
#define	DEF_LSEEK(sfx, offt)						\
offt									\
lseek##sfx(int fd, offt off, int whence)				\
{									\
	struct fault *ft;						\
	offt r;								\
									\
	RESOLVE(real_lseek##sfx, "lseek" #sfx);				\
	ft = begin(F_LSEEK, CALLER, 0);					\
	FAIL_WITH(F_LSEEK, ft, -1);					\
	r = real_lseek##sfx(fd, off, whence);				\
	end(F_LSEEK, ft, r == -1);					\
	return (r);							\
}

#define	DEF_FSTAT(sfx, statt)						\
	DEF_FILESTAT(fstat##sfx, F_FSTAT, (int fd, statt *sb), (fd, sb))
#define	DEF_FSTATAT(sfx, statt)						\
	DEF_FILESTAT(fstatat##sfx, F_FSTATAT,				\
	    (int dir, const char *path, statt *sb, int flags),		\
	    (dir, path, sb, flags))
#define	DEF_PSTAT(sfx, statt)						\
	DEF_FILESTAT(stat##sfx, F_STAT, (const char *path, statt *sb),	\
	    (path, sb))

COUNTED(read, F_READ, (int fd, void *buf, size_t len), (fd, buf, len))
COUNTED(write, F_WRITE, (int fd, const void *buf, size_t len),
    (fd, buf, len))
DEF_PREAD(, off_t)
DEF_PWRITE(, off_t)
#ifdef HAVE_CFR
COUNTED(copy_file_range, F_CFR, (int in, off64p_t *inoff, int out,
    off64p_t *outoff, size_t len, unsigned int flags),
    (in, inoff, out, outoff, len, flags))
#endif
DEF_LSEEK(, off_t)

#ifdef __linux__
COUNTED(splice, F_SPLICE, (int in, off64p_t *inoff, int out,
    off64p_t *outoff, size_t len, unsigned int flags),
    (in, inoff, out, outoff, len, flags))
DEF_SENDFILE(, off_t)

/* "short" lends the pipe half of the first segment only. */
ssize_t
vmsplice(int fd, const struct iovec *iov, size_t cnt, unsigned int flags)
{
	struct fault *ft;
	struct iovec half;
	ssize_t n;

	RESOLVE(real_vmsplice, "vmsplice");
	if (is_refused(F_VMSPLICE, CALLER))
		return (-1);
	ft = begin(F_VMSPLICE, CALLER, cnt > 0 ? iov[0].iov_len : 0);
	FAIL_WITH(F_VMSPLICE, ft, -1);
	if (ft != NULL && ft->kind == K_SHORT && cnt > 0) {
		half = iov[0];
		half.iov_len = shorten(half.iov_len);
		iov = &half;
		cnt = 1;
	}
	n = real_vmsplice(fd, iov, cnt, flags);
	end(F_VMSPLICE, ft, n < 0);
	return (n);
}

/* The engine asks it once per file system, to learn if sizes are kept. */
DEF_STAT(fstatfs, F_FSTATFS, (int fd, struct statfs *sb), (fd, sb), (void)sb)
#endif /* __linux__ */

/* O_CREAT and O_TMPFILE (where there is one) carry a mode. */
static int
has_mode(int flags)
{

#ifdef O_TMPFILE
	if ((flags & O_TMPFILE) == O_TMPFILE)
		return (1);
#endif
	return ((flags & O_CREAT) != 0);
}

DEF_OPEN(open, F_OPEN, (const char *path, int flags, ...),
    (path, flags, mode))
DEF_OPEN(openat, F_OPENAT, (int dir, const char *path, int flags, ...),
    (dir, path, flags, mode))

/*
 * glibc 2.33 and later export stat, fstat and fstatat (and their *64
 * twins) as functions, and programs built against them call those (nm -D
 * shows fstat@GLIBC_2.33, or fstat64 with _FILE_OFFSET_BITS=64).
 * Programs built against older glibc call __fxstat instead, which this
 * library does not see.
 */
DEF_FSTAT(, struct stat)
DEF_FSTATAT(, struct stat)
DEF_PSTAT(, struct stat)

int
fsync(int fd)
{
	struct fault *ft;
	int r;

	RESOLVE(real_fsync, "fsync");
	ft = begin(F_FSYNC, CALLER, 0);
	FAIL_WITH(F_FSYNC, ft, -1);
	r = real_fsync(fd);
	end(F_FSYNC, ft, r != 0);
	return (r);
}

/*
 * A failed close(2) still closes the descriptor on Linux and the BSDs;
 * so does this one, then reports the fault.
 */
int
close(int fd)
{
	struct fault *ft;
	int r;

	RESOLVE(real_close, "close");
	ft = begin(F_CLOSE, CALLER, 0);
	r = real_close(fd);
	FAIL_WITH(F_CLOSE, ft, -1);
	end(F_CLOSE, ft, r != 0);
	return (r);
}

void *
malloc(size_t n)
{
	struct fault *ft;

	if (in_dlsym)
		return (arena_alloc(n));
	RESOLVE(real_malloc, "malloc");
	ft = begin(F_MALLOC, CALLER, n);
	FAIL_WITH(F_MALLOC, ft, NULL);
	return (real_malloc(n));
}

void *
calloc(size_t n, size_t size)
{
	struct fault *ft;
	void *p;

	if (in_dlsym) {
		/* The arena is zeroed and never reused. */
		if (size != 0 && n > SIZE_MAX / size)
			return (NULL);
		return (arena_alloc(n * size));
	}
	RESOLVE(real_calloc, "calloc");
	ft = begin(F_CALLOC, CALLER, size != 0 && n > SIZE_MAX / size ?
	    SIZE_MAX : n * size);
	FAIL_WITH(F_CALLOC, ft, NULL);
	p = real_calloc(n, size);
	return (p);
}

void *
realloc(void *old, size_t n)
{
	struct fault *ft;

	if (in_dlsym || in_arena(old)) {
		errno = ENOMEM;
		return (NULL);
	}
	RESOLVE(real_realloc, "realloc");
	ft = begin(F_REALLOC, CALLER, n);
	FAIL_WITH(F_REALLOC, ft, NULL);
	return (real_realloc(old, n));
}

/*
 * What dlsym frees while it looks for free itself is dropped: the only
 * free that could take it is the one being looked for.
 */
void
free(void *p)
{

	if (p == NULL || in_arena(p) || (in_dlsym && real_free == NULL))
		return;
	RESOLVE(real_free, "free");
	real_free(p);
}

int
posix_memalign(void **pp, size_t align, size_t n)
{
	struct fault *ft;

	RESOLVE(real_memalign, "posix_memalign");
	if (max_align != 0 && n > max_align && in_scope(CALLER))
		return (ENOMEM);
	ft = begin(F_MEMALIGN, CALLER, n);
	if (ft != NULL && ft->kind == K_ERRNO)
		return (ft->err);
	return (real_memalign(pp, align, n));
}

/*
 * Passed through untouched.  musl's allocator refuses aligned memory
 * once malloc is replaced and aligned_alloc is not (it cannot know that
 * the replacement hands out its own blocks), and its posix_memalign is
 * built on aligned_alloc.
 */
void *
aligned_alloc(size_t align, size_t n)
{

	RESOLVE(real_aligned_alloc, "aligned_alloc");
	return (real_aligned_alloc(align, n));
}

#ifdef LFS64
DEF_LSEEK(64, off64_t)
DEF_PREAD(64, off64_t)
DEF_PWRITE(64, off64_t)
DEF_OPEN(open64, F_OPEN, (const char *path, int flags, ...),
    (path, flags, mode))
DEF_OPEN(openat64, F_OPENAT, (int dir, const char *path, int flags, ...),
    (dir, path, flags, mode))
DEF_FSTAT(64, struct stat64)
DEF_FSTATAT(64, struct stat64)
DEF_PSTAT(64, struct stat64)
#ifdef __linux__
DEF_SENDFILE(64, off64_t)
DEF_STAT(fstatfs64, F_FSTATFS, (int fd, struct statfs64 *sb), (fd, sb),
    (void)sb)
#endif
#endif /* LFS64 */

/*
 * The memory probe and cp's thread count ask these; the answer is what
 * we were told to say.
 */
long
sysconf(int name)
{
	uintmax_t pages;
	long pg;

	RESOLVE(real_sysconf, "sysconf");
	if (!in_scope(CALLER))
		return (real_sysconf(name));
	pg = fake_pagesize != 0 ? fake_pagesize : real_sysconf(_SC_PAGESIZE);
	if (name == _SC_PAGESIZE && fake_pagesize != 0)
		return (fake_pagesize);
	if (name == _SC_NPROCESSORS_ONLN && fake_ncpu != 0)
		return (fake_ncpu);
#ifdef _SC_PHYS_PAGES
	if (name == _SC_PHYS_PAGES && fake_physmem != 0 && pg > 0) {
		/*
		 * As glibc says it: an unsigned long, saturated short of the
		 * -1 of an error, returned as a long however it wraps.
		 */
		pages = fake_physmem / (uintmax_t)pg;
		if (pages >= ULONG_MAX)
			pages = ULONG_MAX - 1;
		return ((long)(unsigned long)pages);
	}
#endif
	return (real_sysconf(name));
}

#ifdef __linux__
int
sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	long i;

	RESOLVE(real_sched_getaffinity, "sched_getaffinity");
	if (!in_scope(CALLER) || fake_ncpu == 0)
		return (real_sched_getaffinity(pid, size, set));
	memset(set, 0, size);
	for (i = 0; i < fake_ncpu && (size_t)i < size * 8; i++)
		CPU_SET_S((size_t)i, size, set);
	return (0);
}
#endif

#ifdef HAVE_SYSCTLBYNAME
/*
 * The BSDs' memory probe asks for hw.physmem (NetBSD's 64-bit one is
 * hw.physmem64).  The real call runs first, so that a name this system
 * lacks fails as it would; the answer is then replaced, in the width
 * the kernel gave.
 */
int
sysctlbyname(const char *name, void *old, size_t *oldlen, const void *new,
    size_t newlen)
{
	uint64_t u64;
	uint32_t u32;
	int rc;

	RESOLVE(real_sysctlbyname, "sysctlbyname");
	rc = real_sysctlbyname(name, old, oldlen, new, newlen);
	if (rc != 0 || fake_physmem == 0 || old == NULL || oldlen == NULL ||
	    !in_scope(CALLER) || (strcmp(name, "hw.physmem") != 0 &&
	    strcmp(name, "hw.physmem64") != 0))
		return (rc);
	if (*oldlen == sizeof(u64)) {
		u64 = fake_physmem;
		memcpy(old, &u64, sizeof(u64));
	} else if (*oldlen == sizeof(u32)) {
		u32 = fake_physmem > UINT32_MAX ? UINT32_MAX :
		    (uint32_t)fake_physmem;
		memcpy(old, &u32, sizeof(u32));
	}
	return (rc);
}
#endif
