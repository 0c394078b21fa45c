/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * What the engine's test programs share: the paths, files of known
 * bytes, and an engine forced onto a path, with what its copy took.
 */

#ifndef ENGINE_UTIL_H
#define ENGINE_UTIL_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stdint.h>

#include "bufsz_private.h"

#define	KiB	((size_t)1024)
#define	MiB	(1024 * KiB)
#define	GiB	((off_t)1024 * (off_t)MiB)

#define	NPATHS	((size_t)5)
extern const enum bufsz_path all_paths[NPATHS];

void	fill(char *, size_t, uint32_t);
void	put_file(const char *, const char *, size_t);
char	*slurp_fd(int, size_t *);
char	*slurp(const char *, size_t *);
void	same_bytes(const char *, const char *, size_t, const char *,
	    enum bufsz_path);
struct bufsz_engine *engine_for(enum bufsz_path, int, size_t);
int	copy(struct bufsz_engine *, int, const struct stat *, int,
	    const struct stat *, int);
off_t	moved(const struct bufsz_engine *);
enum bufsz_path last(const struct bufsz_engine *);
const char *took(const struct bufsz_engine *);
int	copy_paths(enum bufsz_path, int, const char *, const char *,
	    struct bufsz_engine **);
int	copy_unseen(struct bufsz_engine *, const char *, int, off_t *);

#endif
