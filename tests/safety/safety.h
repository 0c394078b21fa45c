/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The safety checker: generated file trees, cp and cat invocations, and
 * the invariants every run must keep.  See README.
 */

#ifndef SAFETY_H
#define	SAFETY_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* rng.c: xoshiro256**, seeded by splitmix64 from (seed, stream). */
struct rng {
	uint64_t	s[4];
};

void		 rng_init(struct rng *, uint64_t, uint64_t);
uint64_t	 rng_next(struct rng *);
uint64_t	 rng_below(struct rng *, uint64_t);
int		 rng_chance(struct rng *, unsigned);
uint64_t	 mix64(uint64_t);
void		 content_fill(uint64_t, int, off_t, unsigned char *, size_t);

/* tree.c: a tree as the list of operations that make it. */
enum op_kind { OP_DIR, OP_FILE, OP_HARDLINK, OP_SYMLINK, OP_FIFO };

#define	MAXSEG	4
struct seg {
	off_t		 off;
	off_t		 len;
};

struct op {
	enum op_kind	 kind;
	char		*path;		/* relative to the scratch root */
	char		*arg;		/* link: the existing path or the text */
	mode_t		 mode;		/* permissions, applied last */
	off_t		 size;
	int		 nseg;		/* sparse: the data; 0: all data */
	struct seg	 seg[MAXSEG];
	uint64_t	 data;		/* what the bytes are made from */
	int		 text;		/* lines of text rather than bytes */
	int		 off;		/* left out (by the minimizer) */
};

struct tree {
	struct op	*op;
	size_t		 n;
	size_t		 cap;
	int		 nobody;	/* everything owned by nobody */
};

/* A symbolic link's text starting with this stands for the scratch root. */
#define	ROOTMARK	"$S/"

struct op	*tree_add(struct tree *, enum op_kind, const char *,
		    const char *);
const struct op	*tree_find(const struct tree *, const char *);
void		 tree_apply(const struct tree *, const char *);
void		 tree_print(const struct tree *, FILE *);
void		 tree_copy(struct tree *, const struct tree *);
void		 tree_free(struct tree *);

/* snap.c: what a tree holds, never following a link. */
struct entry {
	char		*path;		/* relative to the root; "." is it */
	mode_t		 mode;
	off_t		 size;
	blkcnt_t	 blocks;
	dev_t		 dev;
	ino_t		 ino;
	struct timespec	 mtime;
	uint64_t	 hash;		/* regular files: the bytes */
	char		*link;		/* symbolic links: the text */
};

struct snap {
	struct entry	*e;
	size_t		 n;
	size_t		 cap;
};

void		 snap_take(struct snap *, const char *);
const struct entry *snap_get(const struct snap *, const char *);
void		 snap_free(struct snap *);
int		 hash_fd(int, uint64_t *);
int		 hash_path(const char *, uint64_t *, struct stat *);
int		 has_holes(const struct stat *);

/* run.c: one run of a program under test. */
enum io { IO_NULL, IO_PIPE, IO_CLOSED, IO_SETUP, IO_MERGE };

struct run {
	char		**argv;
	const char	 *cwd;
	char *const	 *env;		/* more NAME=value, NULL-terminated */
	int		  nobody;
	enum io		  in;
	const char	 *input;	/* IO_PIPE: what stdin gives */
	size_t		  inputlen;
	enum io		  out;		/* IO_PIPE, IO_NULL, IO_CLOSED, IO_SETUP */
	enum io		  err;		/* IO_PIPE, IO_CLOSED, IO_MERGE (into out) */
	void		(*setup)(void *);	/* in the child, before exec */
	void		 *arg;
	off_t		  fsize;	/* RLIMIT_FSIZE; 0: none */
	unsigned	  timeout;
	int		  signals;	/* SIGUSR1s to send while it runs */
	/* What came of it. */
	int		  status;	/* as waitpid gives it */
	char		 *outbuf;
	size_t		  outlen;
	char		 *errbuf;
	size_t		  errlen;
	char		 *fds;		/* the preload's report, or NULL */
	int		  sent;		/* SIGUSR1s sent */
};

void		 run_init(const char *, const char *);
int		 run(struct run *);
int		 run_status(const struct run *, int *);
int		 fd_exempt(unsigned, uintmax_t);
char		*fds_unexcused(const char *);
void		 run_free(struct run *);
char		*run_describe(const struct run *);
int		 nobody_ids(uid_t *, gid_t *);

/* A list of findings. */
struct finding {
	char		*kind;		/* the invariant, e.g. OUTSIDE */
	char		*what;		/* the detail */
	const char	*known;		/* the known issue item, or NULL */
};

struct findings {
	struct finding	*f;
	size_t		 n;
	size_t		 cap;
};

void		 finding(struct findings *, const char *, const char *,
		    const char *, ...) __attribute__((__format__(__printf__, 4, 5)));
void		 findings_free(struct findings *);

/* The settings every mode shares (main.c). */
struct ctx {
	const char	*rootdir;	/* programs are rootdir/bin/... */
	const char	*work;		/* scratch areas go below */
	char		 cp[1024];
	char		 cat[1024];
	int		 verbose;
	int		 keep;
	int		 minimize;
	uid_t		 nobody_uid;
	gid_t		 nobody_gid;
	int		 have_nobody;
	unsigned	 longopts;	/* what this cp accepts beyond the core */
};

#define	LONG_OPTS	0x01	/* --recursive and the rest */
#define	LONG_SORT	0x02	/* --sort */
#define	LONG_N		0x04	/* -N */

/* cpcase.c, catcase.c, procsys.c: one case each, by (seed, number). */
int		 cp_case(const struct ctx *, uint64_t, uint64_t,
		    struct findings *, FILE *);
int		 cat_case(const struct ctx *, uint64_t, uint64_t,
		    struct findings *, FILE *);
int		 proc_case(const struct ctx *, uint64_t, uint64_t,
		    struct findings *, FILE *);
void		 cp_probe(struct ctx *);

/* util.c */
void		*xmalloc(size_t);
void		*xrealloc(void *, size_t);
char		*xstrdup(const char *);
char		*xasprintf(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));
void		 rm_tree(const char *);
void		 make_dir(const char *, mode_t);
char		*read_all(int, size_t *);
int		 write_all(int, const void *, size_t);
int		 read_file(const char *, char **, size_t *);
char		*path_join(const char *, const char *);
char		*path_norm(const char *, const char *);
char		*shell_quote(const char *);

/* host_*.c: what only some hosts can do. */
int		 host_bind_alias(const char *, const char *);
int		 host_next_data(int, off_t, off_t, off_t *, off_t *);
int		 host_catches(pid_t, int);
int		 host_has_procsys(void);

#endif /* !SAFETY_H */
