/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The policy's whole table, walked without the machines it describes,
 * and the probe and the allocator on this host.
 */

#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atf-c.h>

#include "bufsz_private.h"

#define	KiB	((size_t)1024)
#define	MiB	(1024 * KiB)
#define	GiB	((uint64_t)1024 * MiB)
#define	TiB	(1024 * GiB)

/* Under AddressSanitizer, a failed huge allocation must return NULL. */
#if defined(__SANITIZE_ADDRESS__)
#define	BUFSZ_TEST_ASAN
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define	BUFSZ_TEST_ASAN
#endif
#endif
#ifdef BUFSZ_TEST_ASAN
const char *__asan_default_options(void);
const char *
__asan_default_options(void)
{
	return ("allocator_may_return_null=1");
}
#endif

static struct bufsz_facts
facts(uint64_t mem, mode_t in, long long inblk, off_t insize, mode_t out,
    long long outblk)
{
	struct bufsz_facts f;

	memset(&f, 0, sizeof(f));
	f.bf_physmem = mem;
	f.bf_pagesize = 4096;
	f.bf_in_type = in;
	f.bf_in_blksize = inblk;
	f.bf_in_size = insize;
	f.bf_out_type = out;
	f.bf_out_blksize = outblk;
	return (f);
}

static size_t
policy(uint64_t mem, mode_t in, long long inblk, off_t insize, mode_t out,
    long long outblk)
{
	struct bufsz_facts f;

	f = facts(mem, in, inblk, insize, out, outblk);
	return (bufsz_policy(&f));
}

#define	BIG	((off_t)1 << 30)	/* a 1 GiB input: a bulk copy */

ATF_TC_WITHOUT_HEAD(memory_sizes_bulk_file_copy);
ATF_TC_BODY(memory_sizes_bulk_file_copy, tc)
{
	/* Only a machine of 512 MiB or more takes the large buffer. */
	ATF_CHECK_EQ(policy(64 * MiB, S_IFREG, 4096, BIG, S_IFREG, 4096),
	    128 * KiB);
	ATF_CHECK_EQ(policy(512 * MiB - 1, S_IFREG, 4096, BIG, S_IFREG,
	    4096), 128 * KiB);
	ATF_CHECK_EQ(policy(512 * MiB, S_IFREG, 4096, BIG, S_IFREG, 4096),
	    1 * MiB);
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, 4096, BIG, S_IFREG, 4096),
	    1 * MiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, BIG, S_IFREG, 4096),
	    1 * MiB);
	ATF_CHECK_EQ(policy(1 * TiB, S_IFREG, 4096, BIG, S_IFREG, 4096),
	    1 * MiB);
	/* A block device is bulk output too. */
	ATF_CHECK_EQ(policy(1 * TiB, S_IFREG, 4096, BIG, S_IFBLK, 4096),
	    1 * MiB);
}

ATF_TC_WITHOUT_HEAD(memory_sizes_stream_output);
ATF_TC_BODY(memory_sizes_stream_output, tc)
{
	/* Pipes, ttys and /dev/null gain nothing from a large buffer. */
	uint64_t mems[] = { 64 * MiB, 1 * GiB, 24 * GiB, 1 * TiB };
	size_t i;

	for (i = 0; i < sizeof(mems) / sizeof(mems[0]); i++) {
		ATF_CHECK_EQ(policy(mems[i], S_IFREG, 4096, BIG, S_IFIFO,
		    4096), 64 * KiB);
		ATF_CHECK_EQ(policy(mems[i], S_IFREG, 4096, BIG, S_IFCHR,
		    4096), 128 * KiB);
		ATF_CHECK_EQ(policy(mems[i], S_IFIFO, 4096, -1, S_IFIFO,
		    4096), 64 * KiB);
		ATF_CHECK_EQ(policy(mems[i], S_IFCHR, 1024, -1, S_IFCHR,
		    1024), 128 * KiB);
		ATF_CHECK_EQ(policy(mems[i], 0, 0, -1, S_IFIFO, 4096),
		    64 * KiB);
	}
}

/*
 * Into a pipe, no write larger than the pipe holds by default: cat -n
 * or yes would wait half way through each for the reader.  Only the
 * output counts: a pipe read into a file is not written into a pipe.
 */
ATF_TC_WITHOUT_HEAD(pipe_output_gets_pipe_capacity);
ATF_TC_BODY(pipe_output_gets_pipe_capacity, tc)
{
	struct bufsz_facts f;

	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, BIG, S_IFIFO, 4096),
	    64 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFCHR, 1024, -1, S_IFIFO, 4096),
	    64 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFSOCK, 4096, -1, S_IFIFO, 4096),
	    64 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFIFO, 4096, -1, S_IFREG, 4096),
	    128 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFIFO, 4096, -1, S_IFCHR, 4096),
	    128 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, BIG, S_IFSOCK, 4096),
	    128 * KiB);
	/* A small file still gets its own size, a pipe's st_blksize its. */
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 10 * KiB, S_IFIFO,
	    4096), 12 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, BIG, S_IFIFO,
	    256 * KiB), 256 * KiB);
	f = facts(24 * GiB, S_IFREG, 4096, BIG, S_IFIFO, 4096);
	ATF_CHECK_EQ(bufsz_policy(&f), 64 * KiB);
}

ATF_TC_WITHOUT_HEAD(bulk_needs_a_large_regular_input);
ATF_TC_BODY(bulk_needs_a_large_regular_input, tc)
{
	/* A pipe or a small file is not a bulk copy, however roomy. */
	ATF_CHECK_EQ(policy(1 * TiB, S_IFIFO, 4096, -1, S_IFREG, 4096),
	    128 * KiB);
	ATF_CHECK_EQ(policy(1 * TiB, S_IFREG, 4096, 1 * MiB - 1, S_IFREG,
	    4096), 128 * KiB);
	ATF_CHECK_EQ(policy(1 * TiB, S_IFREG, 4096, 1 * MiB, S_IFREG, 4096),
	    1 * MiB);
}

ATF_TC_WITHOUT_HEAD(never_below_a_page);
ATF_TC_BODY(never_below_a_page, tc)
{
	struct bufsz_facts f;

	/* A pty or /proc reports 1 KiB blocks; a 1-byte file needs a page. */
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 1024, 1, S_IFCHR, 1024),
	    4 * KiB);
	f = facts(24 * GiB, S_IFREG, 1024, 1, S_IFCHR, 1024);
	f.bf_pagesize = 16 * KiB;
	ATF_CHECK_EQ(bufsz_policy(&f), 16 * KiB);
	/* An unknown page size is taken to be 4 KiB, not 0. */
	f.bf_pagesize = 0;
	ATF_CHECK_EQ(bufsz_policy(&f), 4 * KiB);
}

ATF_TC_WITHOUT_HEAD(small_files_get_their_size);
ATF_TC_BODY(small_files_get_their_size, tc)
{
	/* And a byte: the read that takes it all comes back short. */
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 1, S_IFCHR, 4096),
	    4 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 4095, S_IFCHR, 4096),
	    4 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 4096, S_IFCHR, 4096),
	    8 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 4097, S_IFCHR, 4096),
	    8 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 100 * KiB, S_IFCHR,
	    4096), 104 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 128 * KiB - 1, S_IFCHR,
	    4096), 128 * KiB);
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4096, 64 * KiB - 1, S_IFIFO,
	    4096), 64 * KiB);
	/* /proc files say 0 bytes and have content: the default, then. */
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 1024, 0, S_IFCHR, 4096),
	    128 * KiB);
	/* Never below the st_blksize the file system asked for. */
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 128 * KiB, 4096, S_IFCHR,
	    4096), 128 * KiB);
}

ATF_TC_WITHOUT_HEAD(large_blksize_is_honoured);
ATF_TC_BODY(large_blksize_is_honoured, tc)
{
	/* ZFS reports its record size: 128 KiB, 1 MiB, or odd sizes. */
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, 128 * KiB, BIG, S_IFCHR,
	    4096), 128 * KiB);
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, 1 * MiB, BIG, S_IFIFO, 4096),
	    1 * MiB);
	ATF_CHECK_EQ(policy(1 * GiB, S_IFIFO, 4096, -1, S_IFREG, 1 * MiB),
	    1 * MiB);
	/* More than the large buffer, when the device asks for it. */
	ATF_CHECK_EQ(policy(24 * GiB, S_IFREG, 4 * MiB, BIG, S_IFREG, 4096),
	    4 * MiB);
	/* Not a power of two: rounded up to whole pages. */
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, 1536 * KiB + 512, BIG,
	    S_IFCHR, 4096), 1540 * KiB);
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, 3584, BIG, S_IFCHR, 3584),
	    128 * KiB);
}

ATF_TC_WITHOUT_HEAD(bogus_blksize_is_tolerated);
ATF_TC_BODY(bogus_blksize_is_tolerated, tc)
{
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, 0, BIG, S_IFCHR, 0),
	    128 * KiB);
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, -1, BIG, S_IFCHR, -4096),
	    128 * KiB);
	ATF_CHECK_EQ(policy(1 * GiB, S_IFREG, LLONG_MIN, BIG, S_IFCHR,
	    LLONG_MIN), 128 * KiB);
	/* Absurdly large: clamped to the large buffer, not believed. */
	ATF_CHECK_EQ(policy(64 * MiB, S_IFREG, 1LL << 40, BIG, S_IFCHR,
	    4096), 8 * MiB);
	ATF_CHECK_EQ(policy(64 * MiB, S_IFCHR, LLONG_MAX, -1, S_IFCHR,
	    LLONG_MAX), 8 * MiB);
}

/* A forced size: up to 1/512 of memory, and the small buffer anywhere. */
ATF_TC_WITHOUT_HEAD(forced_size_limit);
ATF_TC_BODY(forced_size_limit, tc)
{
	struct bufsz_facts f;

	f = facts(64 * MiB, 0, 0, -1, S_IFIFO, 4096);
	ATF_CHECK_EQ(bufsz_policy_limit(&f), 128 * KiB);
	f = facts(16 * MiB, 0, 0, -1, S_IFIFO, 4096);
	ATF_CHECK_EQ(bufsz_policy_limit(&f), 128 * KiB);
	f = facts(0, 0, 0, -1, S_IFIFO, 4096);
	ATF_CHECK_EQ(bufsz_policy_limit(&f), 128 * KiB);
	f = facts(24 * GiB, 0, 0, -1, S_IFIFO, 4096);
	ATF_CHECK_EQ(bufsz_policy_limit(&f), 48 * MiB);
	/* Whole pages of the machine's size. */
	f = facts(1 * TiB + 512 * 4097, 0, 0, -1, S_IFIFO, 4096);
	f.bf_pagesize = 16384;
	ATF_CHECK_EQ(bufsz_policy_limit(&f) % 16384, 0);
	ATF_CHECK_EQ(bufsz_policy_limit(&f), 2 * GiB);
}

/* The host's probe, wherever it runs: cgroup_test has Linux's details. */
ATF_TC_WITHOUT_HEAD(probe_answers);
ATF_TC_BODY(probe_answers, tc)
{
	uint64_t mem, again;

	bufsz_limits(&mem, NULL);
	ATF_CHECK(mem >= 4096);
	bufsz_limits(&again, NULL);
	ATF_CHECK_EQ(again, mem);
	ATF_CHECK_EQ(bufsz_pagesize(), (size_t)sysconf(_SC_PAGESIZE));
}

/* The engine's buffer of size bytes (forced), whatever it could have. */
static char *
buffer_of(struct bufsz_engine *e, size_t size, size_t *got)
{

	bufsz_engine_force(e, COPY_AUTO, size);
	return (bufsz_engine_buffer(e, NULL, NULL, got));
}

ATF_TC_WITHOUT_HEAD(buffer_is_page_aligned);
ATF_TC_BODY(buffer_is_page_aligned, tc)
{
	struct bufsz_engine *e;
	size_t got, page;
	char *p;

	page = bufsz_pagesize();
	ATF_REQUIRE((e = bufsz_engine_new()) != NULL);
	ATF_REQUIRE((p = buffer_of(e, 128 * KiB, &got)) != NULL);
	ATF_CHECK_EQ(got, 128 * KiB);
	ATF_CHECK_EQ((uintptr_t)p % page, 0);
	memset(p, 0xa5, got);
	bufsz_engine_free(e);

	/* Less than a page is a page. */
	ATF_REQUIRE((e = bufsz_engine_new()) != NULL);
	ATF_REQUIRE((p = buffer_of(e, 1, &got)) != NULL);
	ATF_CHECK_EQ(got, page);
	bufsz_engine_free(e);
}

ATF_TC_WITHOUT_HEAD(buffer_falls_back_to_smaller);
ATF_TC_BODY(buffer_falls_back_to_smaller, tc)
{
	struct bufsz_engine *e;
	size_t want, got, page, n;
	char *p;

	/*
	 * Half the address space cannot be had anywhere (64 TiB can, where
	 * the kernel overcommits as FreeBSD's does); some power-of-two
	 * fraction of it can.
	 */
	page = bufsz_pagesize();
	want = SIZE_MAX / 2 + 1;
	ATF_REQUIRE((e = bufsz_engine_new()) != NULL);
	ATF_REQUIRE((p = buffer_of(e, want, &got)) != NULL);
	ATF_CHECK(got < want);
	ATF_CHECK(got >= page);
	for (n = want; n > got; n /= 2)
		continue;
	ATF_CHECK_EQ_MSG(n, got, "got %zu, not a halving of %zu", got, want);
	ATF_CHECK_EQ((uintptr_t)p % page, 0);
	p[0] = 1;
	p[got - 1] = 1;
	/* It only grows: a smaller want keeps what it has. */
	ATF_REQUIRE(buffer_of(e, page, &n) == p);
	ATF_CHECK_EQ(n, got);
	bufsz_engine_free(e);
}

/*
 * Cases for FreeBSD's own paths: each skips, saying why, elsewhere.
 */

/* The host's name, as uname -s prints it. */
static const char *
host_sysname(void)
{
	static struct utsname u;

	ATF_REQUIRE(uname(&u) == 0);
	return (u.sysname);
}

/*
 * What sysctl(8) prints for a numeric variable, read through a pipe:
 * another program's view, not the library's own call.
 */
static uint64_t
sysctl_number(const char *name)
{
	char cmd[128], line[64], *end;
	uintmax_t v;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "sysctl -n %s", name);
	ATF_REQUIRE((p = popen(cmd, "r")) != NULL);
	ATF_REQUIRE_MSG(fgets(line, sizeof(line), p) != NULL,
	    "no output from %s", cmd);
	ATF_REQUIRE_EQ(pclose(p), 0);
	errno = 0;
	v = strtoumax(line, &end, 10);
	ATF_REQUIRE_MSG(errno == 0 && end != line && *end == '\n',
	    "%s printed \"%s\"", cmd, line);
	return ((uint64_t)v);
}

ATF_TC_WITHOUT_HEAD(freebsd_physmem_is_sysctl);
ATF_TC_BODY(freebsd_physmem_is_sysctl, tc)
{
	uint64_t mem;

	if (strcmp(host_sysname(), "FreeBSD") != 0)
		atf_tc_skip("FreeBSD's hw.physmem: not on %s", host_sysname());
	bufsz_limits(&mem, NULL);
	ATF_CHECK_EQ_MSG(mem, sysctl_number("hw.physmem"),
	    "the probe says %ju bytes", (uintmax_t)mem);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, memory_sizes_bulk_file_copy);
	ATF_TP_ADD_TC(tp, memory_sizes_stream_output);
	ATF_TP_ADD_TC(tp, pipe_output_gets_pipe_capacity);
	ATF_TP_ADD_TC(tp, bulk_needs_a_large_regular_input);
	ATF_TP_ADD_TC(tp, never_below_a_page);
	ATF_TP_ADD_TC(tp, small_files_get_their_size);
	ATF_TP_ADD_TC(tp, large_blksize_is_honoured);
	ATF_TP_ADD_TC(tp, bogus_blksize_is_tolerated);
	ATF_TP_ADD_TC(tp, forced_size_limit);
	ATF_TP_ADD_TC(tp, probe_answers);
	ATF_TP_ADD_TC(tp, buffer_is_page_aligned);
	ATF_TP_ADD_TC(tp, buffer_falls_back_to_smaller);
	ATF_TP_ADD_TC(tp, freebsd_physmem_is_sysctl);
	return (atf_no_error());
}
