/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The safety checker: generated file trees and cp invocations, and the
 * invariants every run must keep whatever cp is asked to do.  See README.
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
void		 content_fill(uint64_t, off_t, unsigned char *, size_t);

/* tree.c: a tree as the list of operations that make it. */
enum op_kind { OP_DIR, OP_FILE, OP_HARDLINK, OP_SYMLINK, OP_FIFO };

struct op {
	enum op_kind	 kind;
	char		*path;		/* relative to the scratch root */
	char		*arg;		/* link: the existing path or the text */
	mode_t		 mode;		/* permissions, applied last */
	off_t		 size;
	off_t		 doff;		/* the data, holes around it */
	off_t		 dlen;
	uint64_t	 data;		/* what the bytes are made from */
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
void		 tree_free(struct tree *);

/* snap.c: what a tree holds, never following a link. */
struct entry {
	char		*path;		/* relative to the root; "." is it */
	mode_t		 mode;
	off_t		 size;
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
void		 snap_free(struct snap *);

/* A cp case: a tree, cp's arguments, how it is run. */
enum io { IO_NULL, IO_FILE, IO_CLOSED };

struct cpcase {
	uint64_t	 seed;
	uint64_t	 num;
	struct tree	 tree;
	char		**args;		/* cp's, without argv[0]; ROOTMARK */
	size_t		 nargs;
	int		 nobody;
	enum io		 in;		/* IO_NULL or IO_CLOSED */
	enum io		 err;		/* IO_FILE or IO_CLOSED */
	off_t		 fsize;
	char		*env[3];	/* FAULTINJ_PATH=, FAULTINJ_BUFSIZE= */
};

/* run.c: one run of cp. */
struct run {
	const struct cpcase *cc;	/* env, user, stdin, stderr, limit */
	char		**argv;
	const char	 *cwd;
	/* What came of it. */
	int		  status;	/* as waitpid gives it */
	char		 *outbuf;
	char		 *errbuf;
	char		 *fds;		/* the preload's report, or NULL */
};

void		 run_init(const char *, const char *);
void		 run(struct run *);
int		 run_status(const struct run *, int *);
int		 fd_exempt(unsigned, uintmax_t);
void		 run_free(struct run *);
int		 nobody_ids(uid_t *, gid_t *);

/* The settings of a run of the checker (main.c). */
struct ctx {
	const char	*work;		/* scratch areas go below */
	char		 cp[1024];
	int		 verbose;
	int		 keep;
	int		 have_nobody;
	int		 preload;	/* descriptors reported at exit */
};

/* cpgen.c */
void		 cp_gen(const struct ctx *, struct rng *, struct cpcase *);
void		 cp_case_free(struct cpcase *);

/* check.c */
int		 cp_case(const struct ctx *, uint64_t, uint64_t, FILE *);

/* util.c */
void		*xmalloc(size_t);
void		*xrealloc(void *, size_t);
char		*xstrdup(const char *);
char		*xasprintf(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));
void		 rm_tree(const char *);
void		 make_dir(const char *, mode_t);
char		*read_all(int);
char		*shell_quote(const char *);

#endif /* !SAFETY_H */
