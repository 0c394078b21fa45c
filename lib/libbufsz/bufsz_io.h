/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * libbufsz's reads, writes and buffers, for the copy loops the engine
 * does not run itself: cat's formatting, tail's windows and yes.
 */

#ifndef _BUFSZ_IO_H_
#define	_BUFSZ_IO_H_

#include <sys/types.h>

#include <stddef.h>

struct bufsz_engine;
struct stat;

/*
 * Whole writes and patient reads.  EINTR is retried, EAGAIN on a
 * non-blocking descriptor is waited out with poll(2), and short writes are
 * finished.  A positioned read of len bytes gives fewer only at the end
 * of the file.
 */
int	bufsz_write_all(int fd, const void *, size_t);	/* 0, or -1 */
ssize_t	bufsz_read(int fd, void *, size_t);
ssize_t	bufsz_pread_full(int fd, void *, size_t len, off_t);

/*
 * Page-aligned buffers in whole pages of bufsz_pagesize() bytes.  When
 * want cannot be had, a smaller buffer is given, down to a page.
 */
size_t	bufsz_pagesize(void);
void	*bufsz_alloc(size_t want, size_t *got);
void	bufsz_free(void *, size_t);

/*
 * 1 when the engine would hand out the pages it copies by reference
 * (splice into a pipe), so that a caller whose pages never change (yes)
 * may lend them with vmsplice(2); 0 otherwise.
 */
int	bufsz_lends_pages(const struct bufsz_engine *, const struct stat *out);

#endif /* !_BUFSZ_IO_H_ */
