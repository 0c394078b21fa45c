/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * A cp case: a tree, cp's arguments, how it is run; what the model
 * expects of it; and the judge.
 */

#ifndef CPCASE_H
#define	CPCASE_H

#include "safety.h"

struct cpcase {
	uint64_t	 seed;
	uint64_t	 num;
	struct tree	 tree;
	char		**args;		/* cp's, without argv[0]; ROOTMARK */
	size_t		 nargs;
	int		 nobody;
	enum io		 in;
	char		*answers;	/* -i, IO_PIPE */
	enum io		 err;
	off_t		 fsize;
	char		*env[3];	/* BUFSZ_PATH=, BUFSZ_SIZE= */
	int		 signals;	/* SIGUSR1s (progress) during the copy */
};

/* What cp is asked to do, as its getopt would read it. */
struct cpopts {
	int		 R, r, H, L, P, f, i, n, l, s, p, v, x;
	int		 usage;		/* an option error: usage, exit 1 */
	int		 follow_root;
	int		 follow_all;
	size_t		 first;		/* the first operand */
};

enum xkind { X_REG, X_HARD, X_SYM, X_LINK, X_DIR, X_FIFO };

struct expect {
	char		*dst;		/* normalized */
	char		*src;		/* normalized, as cp names it */
	enum xkind	 kind;
	uint64_t	 hash;
	off_t		 size;
	blkcnt_t	 blocks;
	dev_t		 dev;
	ino_t		 ino;
	struct timespec	 mtime;
	char		*text;
	char		*real;		/* a file's real path, if known */
	char		*alt;		/* where a link at dst, followed, leads */
	int		 optional;	/* may be left as it was */
	int		 either;	/* ...but then exactly as it was */
	int		 keep;		/* must be left as it was */
};

/* A pre-existing link where cp writes, and where it leads. */
struct trap {
	char		*at;
	char		*to;		/* normalized; NULL: outside */
	int		 isdir;
};

struct model {
	struct expect	*x;
	size_t		 nx;
	char		**allow;	/* paths cp may change */
	size_t		 nallow;
	char		**below;	/* ...and everything below these */
	size_t		 nbelow;
	char		**read;		/* files cp reads: never changed */
	size_t		 nread;
	ino_t		*readino;	/* ...and their inodes (one device) */
	struct trap	*trap;
	size_t		 ntrap;
	int		 fail;		/* some operand cannot be copied */
	int		 may_fail;	/* cp may refuse something */
	char		*why;
	int		 unsure;	/* outcome not judged, only safety */
	int		 declines;	/* -n, -i: exit 1 without a word */
	int		 usage;
	dev_t		 tdev;		/* the target directory, if one */
	ino_t		 tino;
	int		 lateopt;	/* an option after an operand */
	int		 wouldblock;	/* cp would wait on a FIFO */
	int		 overlap;	/* one operand holds another */
	int		 selfdir;	/* a later operand is the target itself */
	int		 later;		/* visiting an operand after the first */
	char		*tgiven;	/* the target as named, normalized */
	char		*treal;		/* ...and where it leads */
};

void	cp_gen(const struct ctx *, struct rng *, struct cpcase *);
void	cp_case_free(struct cpcase *);
char	*cp_arg(const char *, const char *);
void	cp_parse(const struct cpcase *, struct cpopts *);
void	cp_model(const struct cpcase *, const struct cpopts *, const char *,
	    struct model *);
void	cp_model_free(struct model *);
void	cp_judge(const struct cpcase *, const struct cpopts *,
	    const struct model *, const struct snap *, const struct snap *,
	    const struct run *, const char *, struct findings *);

#endif /* !CPCASE_H */
