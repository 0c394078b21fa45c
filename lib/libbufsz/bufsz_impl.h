/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Inside libbufsz: the engine's state and what its files share.  Never
 * included from outside lib/libbufsz.
 */

#ifndef _BUFSZ_IMPL_H_
#define	_BUFSZ_IMPL_H_

#include "bufsz_private.h"

struct bufsz_engine {
	char		*be_buf;	/* the read/write buffer, lazily had */
	size_t		 be_bufsz;
	enum bufsz_path	 be_force;	/* BUFSZ_PATH, or bufsz_engine_force() */
	size_t		 be_force_size;	/* BUFSZ_SIZE, or forced; 0: policy */
	int		 be_flags;
	int		 be_pipe[2];	/* private pipe for splice, or -1 */
	enum bufsz_path	 be_last;	/* the path the last copy took */
	volatile off_t	 be_moved;	/* bytes moved by the copy under way */
};

/* The environment, read once a process (env.c). */
enum bufsz_path	bufsz_env_path(void);
size_t	bufsz_env_size(void);

#endif /* !_BUFSZ_IMPL_H_ */
