/*
 * cat: concatenate and print files.
 *
 * Plain copies go through libbufsz's engine, which picks the buffer and
 * the kernel path; only the formatting options (-AbEenstTv) read the
 * bytes here, into an output buffer of our own.
 */

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "bufsz.h"

/*
 * glibc's getopt would take options found after the first operand
 * ("cat file -n"); a leading '+' asks it for the POSIX rule instead.
 */
#ifdef __GLIBC__
#define	OPTSTRING	"+AETbelnstuv"
#else
#define	OPTSTRING	"AETbelnstuv"
#endif

/*
 * The most one input byte can add to the output: a line number and its
 * tab (at most 20 digits), or a blank number field, then "M-^X" or "$\n".
 */
#define	COOK_ROOM	64

/* The state of formatting one operand; it starts afresh with each. */
struct cook {
	int		ck_bol;		/* the next byte begins a line */
	int		ck_gobble;	/* an empty line was just written (-s) */
	intmax_t	ck_line;	/* lines numbered so far (-n, -b) */
};

static int bflag, eflag, lflag, nflag, sflag, tflag, uflag, vflag;
static int mbvis;		/* -v in a multibyte locale */
static unsigned char special[256]; /* bytes the formatting options change */
static int only_newline;	/* ...of which there is one: '\n' */
static int rval;

static struct bufsz_engine engine;
static struct stat outst;	/* the standard output, taken once */
static int out_append = -1;	/* whether it has O_APPEND; -1: not asked */

static char *obuf;		/* formatted output waiting to be written */
static size_t obufsz, olen;

static _Noreturn void usage(void);
static void	lock_output(void);
static void	do_operand(const char *);
static int	open_operand(const char *);
static int	connect_socket(const char *);
static int	is_directory(const struct stat *);
static int	is_output(int, const struct stat *);
static void	raw_copy(int, const char *, const struct stat *);
static void	cook_copy(int, const char *, const struct stat *);
static void	set_special(void);
static size_t	cook_bytes(struct cook *, const unsigned char *, size_t, int);
static size_t	plain_run(const unsigned char *, size_t);
static void	put_number(intmax_t);
static void	put_char(unsigned char);
static size_t	put_multibyte(const unsigned char *, size_t, int);
static void	out_alloc(void);
static void	out_flush(void);

int
main(int argc, char *argv[])
{
	int ch;

	(void)setlocale(LC_CTYPE, "");

	/* Our own message: glibc's names the full path, BSD's says "illegal". */
	opterr = 0;
	while ((ch = getopt(argc, argv, OPTSTRING)) != -1)
		switch (ch) {
		case 'A':
			eflag = tflag = vflag = 1;
			break;
		case 'E':
			eflag = 1;
			break;
		case 'T':
			tflag = 1;
			break;
		case 'b':
			bflag = nflag = 1;
			break;
		case 'e':
			eflag = vflag = 1;
			break;
		case 'l':
			lflag = 1;
			break;
		case 'n':
			nflag = 1;
			break;
		case 's':
			sflag = 1;
			break;
		case 't':
			tflag = vflag = 1;
			break;
		case 'u':
			uflag = 1;
			break;
		case 'v':
			vflag = 1;
			break;
		default:
			warnx("illegal option -- %c", optopt);
			usage();
		}
	argv += optind;
	mbvis = vflag && MB_CUR_MAX > 1;
	set_special();

	/*
	 * Before any open: with descriptor 1 closed, the first input would
	 * be given it and we would write into our own input.
	 */
	if (fstat(STDOUT_FILENO, &outst) != 0)
		err(1, "stdout");
	if (lflag)
		lock_output();
	if (bufsz_engine_init(&engine) != 0)
		err(1, "BUFSZ_PATH or BUFSZ_SIZE");

	if (*argv == NULL)
		do_operand("-");
	for (; *argv != NULL; argv++)
		do_operand(*argv);

	out_flush();
	if (obuf != NULL)
		bufsz_free(obuf, obufsz);
	bufsz_engine_fini(&engine);
	if (close(STDOUT_FILENO) != 0)
		err(1, "stdout");
	return (rval);
}

static void
usage(void)
{

	(void)fprintf(stderr, "usage: cat [-AETbelnstuv] [file ...]\n");
	exit(1);
}

/* -l: wait for an exclusive lock on the whole of the output. */
static void
lock_output(void)
{
	struct flock fl;

	memset(&fl, 0, sizeof(fl));
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = 0;
	fl.l_len = 0;
	while (fcntl(STDOUT_FILENO, F_SETLKW, &fl) != 0)
		if (errno != EINTR)
			err(1, "stdout");
}

static void
do_operand(const char *path)
{
	struct stat st;
	const char *name;
	int fd, is_stdin;

	is_stdin = strcmp(path, "-") == 0;
	if (is_stdin) {
		name = "stdin";
		fd = STDIN_FILENO;
	} else {
		name = path;
		if ((fd = open_operand(path)) == -1) {
			out_flush();
			warn("%s", path);
			rval = 1;
			return;
		}
	}
	if (fstat(fd, &st) != 0 || is_directory(&st)) {
		out_flush();
		warn("%s", name);
		rval = 1;
	} else if (is_output(fd, &st)) {
		warnx("%s: input file is output file", name);
		rval = 1;
	} else if (bflag || eflag || nflag || sflag || tflag || vflag)
		cook_copy(fd, name, &st);
	else
		raw_copy(fd, name, &st);
	if (!is_stdin)
		(void)close(fd);
}

/*
 * A Unix-domain socket cannot be opened, only connected to: open(2)
 * refuses it with ENXIO on Linux and EOPNOTSUPP on the BSDs.
 */
static int
open_operand(const char *path)
{
	int fd;

	fd = open(path, O_RDONLY);
	if (fd == -1 && (errno == ENXIO || errno == EOPNOTSUPP))
		fd = connect_socket(path);
	return (fd);
}

/* Connect to the socket at path; -1 with open's errno if it is none. */
static int
connect_socket(const char *path)
{
	struct sockaddr_un sa;
	struct stat st;
	size_t len;
	int fd, serrno;

	serrno = errno;
	if (stat(path, &st) != 0 || !S_ISSOCK(st.st_mode)) {
		errno = serrno;
		return (-1);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if ((len = strlen(path)) >= sizeof(sa.sun_path)) {
		errno = ENAMETOOLONG;
		return (-1);
	}
	memcpy(sa.sun_path, path, len);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1)
		return (-1);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		serrno = errno;
		(void)close(fd);
		errno = serrno;
		return (-1);
	}
	/* We only read; a peer that waits for our end of input gets it. */
	(void)shutdown(fd, SHUT_WR);
	return (fd);
}

/*
 * Linux lets a directory be opened and fails its reads; say so before
 * the engine tries, with the same error either way.
 */
static int
is_directory(const struct stat *st)
{

	if (!S_ISDIR(st->st_mode))
		return (0);
	errno = EISDIR;
	return (1);
}

/*
 * Whether copying this input would read back what we write: the same
 * regular file, something left to read, and the output landing past
 * the reading point (appending, or ahead of it).  "cat f > f" truncates
 * f first and is harmless; "cat f >> f" would grow f until the disk is
 * full.  Only a match on the inode costs system calls.
 */
static int
is_output(int fd, const struct stat *st)
{
	off_t in_off, out_off;
	int fl;

	if (!S_ISREG(st->st_mode) || !S_ISREG(outst.st_mode) ||
	    st->st_dev != outst.st_dev || st->st_ino != outst.st_ino)
		return (0);
	out_flush();
	if ((in_off = lseek(fd, 0, SEEK_CUR)) == -1 || in_off >= st->st_size)
		return (0);
	if (out_append == -1) {
		if ((fl = fcntl(STDOUT_FILENO, F_GETFL)) == -1)
			err(1, "stdout");
		out_append = (fl & O_APPEND) != 0;
	}
	if (out_append)
		return (1);
	if ((out_off = lseek(STDOUT_FILENO, 0, SEEK_CUR)) == -1)
		return (0);
	return (out_off > in_off);
}

static void
raw_copy(int fd, const char *name, const struct stat *st)
{

	switch (bufsz_copy(&engine, fd, st, STDOUT_FILENO, &outst)) {
	case BUFSZ_OK:
		break;
	case BUFSZ_EREAD:
		warn("%s", name);
		rval = 1;
		break;
	default:
		err(1, "stdout");
	}
}

static void
cook_copy(int fd, const char *name, const struct stat *st)
{
	struct cook ck;
	unsigned char *buf;
	size_t len, left, used;
	ssize_t n;

	if (obuf == NULL)
		out_alloc();
	if ((buf = (unsigned char *)bufsz_buffer(&engine, st, &outst,
	    &len)) == NULL)
		err(1, "%s", name);
	ck.ck_bol = 1;
	ck.ck_gobble = 0;
	ck.ck_line = 0;
	/*
	 * A character cut by the end of the buffer is kept, at its start,
	 * for the next read to complete.
	 */
	left = 0;
	do {
		n = bufsz_read(fd, buf + left, len - left);
		left += n > 0 ? (size_t)n : 0;
		used = cook_bytes(&ck, buf, left, n <= 0);
		left -= used;
		memmove(buf, buf + used, left);
		/* -u: nothing read waits in our buffer for more input. */
		if (uflag)
			out_flush();
	} while (n > 0);
	if (n < 0) {
		out_flush();
		warn("%s", name);
		rval = 1;
	}
}

/*
 * Which bytes the formatting changes or must see (a newline ends a line);
 * the others are copied in runs.
 */
static void
set_special(void)
{
	int c;

	for (c = 0; c < 256; c++)
		special[c] = c == '\n' || (c == '\t' && tflag) ||
		    (vflag && c != '\t' && (c < 0x20 || c >= 0x7f));
	only_newline = !tflag && !vflag;
}

/* The length of the run of bytes at p, at most n, that pass unchanged. */
static size_t
plain_run(const unsigned char *p, size_t n)
{
	const unsigned char *nl;
	size_t i;

	if (only_newline) {
		nl = memchr(p, '\n', n);
		return (nl == NULL ? n : (size_t)(nl - p));
	}
	for (i = 0; i < n && !special[p[i]]; i++)
		continue;
	return (i);
}

/*
 * Format n bytes; return how many were used, which is fewer only when a
 * multibyte character is cut short and more input (not at_eof) may
 * complete it.
 */
static size_t
cook_bytes(struct cook *ck, const unsigned char *p, size_t n, int at_eof)
{
	size_t i, used;
	unsigned char c;

	for (i = 0; i < n; i += used) {
		c = p[i];
		used = 1;
		if (obufsz - olen < COOK_ROOM)
			out_flush();
		if (ck->ck_bol) {
			if (sflag && c == '\n') {
				if (ck->ck_gobble)
					continue;
				ck->ck_gobble = 1;
			} else
				ck->ck_gobble = 0;
			if (nflag && (!bflag || c != '\n'))
				put_number(++ck->ck_line);
			else if (nflag && eflag) {
				/* -be: a blank line keeps the columns. */
				memcpy(obuf + olen, "      \t", 7);
				olen += 7;
			}
		}
		/* The next turn makes room again for what ends the run. */
		used = plain_run(p + i, n - i < obufsz - olen ?
		    n - i : obufsz - olen);
		if (used > 0) {
			memcpy(obuf + olen, p + i, used);
			olen += used;
			ck->ck_bol = 0;
			continue;
		}
		used = 1;
		ck->ck_bol = c == '\n';
		if (c < 0x80 || !mbvis)
			put_char(c);
		else if ((used = put_multibyte(p + i, n - i, at_eof)) == 0)
			return (i);
	}
	return (n);
}

static void
put_number(intmax_t line)
{
	char digits[24], *d;
	size_t len;

	/* printf("%6jd\t") by hand: it is called for every line. */
	d = digits + sizeof(digits);
	do {
		*--d = (char)('0' + line % 10);
		line /= 10;
	} while (line != 0);
	len = (size_t)(digits + sizeof(digits) - d);
	for (; len < 6; len++)
		*--d = ' ';
	memcpy(obuf + olen, d, len);
	olen += len;
	obuf[olen++] = '\t';
}

/* One input byte as -E, -T and -v want it; room is already made. */
static void
put_char(unsigned char c)
{

	if (c == '\n') {
		if (eflag)
			obuf[olen++] = '$';
	} else if (c == '\t') {
		if (tflag) {
			obuf[olen++] = '^';
			c = 'I';
		}
	} else if (vflag) {
		if (c >= 0x80) {
			obuf[olen++] = 'M';
			obuf[olen++] = '-';
			c &= 0x7f;
		}
		if (c < 0x20 || c == 0x7f) {
			obuf[olen++] = '^';
			c = c == 0x7f ? '?' : c | 0x40;
		}
	}
	obuf[olen++] = (char)c;
}

/*
 * -v in a multibyte locale, as FreeBSD's: a printable character is
 * written whole; one that is not printable gets the M- form of its low
 * seven bits; a byte that begins no valid character gets its own M-
 * form.  Returns the bytes used, 0 when p ends inside a character.
 */
static size_t
put_multibyte(const unsigned char *p, size_t n, int at_eof)
{
	mbstate_t mbs;
	wchar_t wc;
	size_t len;

	memset(&mbs, 0, sizeof(mbs));
	len = mbrtowc(&wc, (const char *)p, n, &mbs);
	if (len == (size_t)-2 && !at_eof)
		return (0);
	if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
		put_char(*p);
		return (1);
	}
	if (iswprint((wint_t)wc)) {
		memcpy(obuf + olen, p, len);
		olen += len;
	} else
		put_char((unsigned char)(0x80 | (wc & 0x7f)));
	return (len);
}

static void
out_alloc(void)
{
	size_t want;

	want = engine.be_force_size != 0 ? engine.be_force_size :
	    bufsz_choose(NULL, &outst);
	if ((obuf = bufsz_alloc(want, &obufsz)) == NULL)
		err(1, "output buffer");
}

static void
out_flush(void)
{

	if (olen == 0)
		return;
	if (bufsz_write_all(STDOUT_FILENO, obuf, olen) != 0)
		err(1, "stdout");
	olen = 0;
}
