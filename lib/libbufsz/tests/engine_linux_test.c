/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The copy engine on what only Linux has: files of /proc and /sys, whose
 * sizes lie; copy_file_range refused between file systems; an unseen
 * input copied into /dev/null.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <atf-c.h>

#include "bufsz_private.h"
#include "engine_util.h"

/*
 * A file whose st_size is 0 but which has content (/proc): every path
 * gives it to read/write, which copies all of it.
 */
ATF_TC_WITHOUT_HEAD(size_zero_input);
ATF_TC_BODY(size_zero_input, tc)
{
	const char *src = "/proc/version";
	struct bufsz_engine *e;
	struct stat sb;
	size_t k, len;
	int in, out;
	char *want;

	if (stat(src, &sb) != 0)
		atf_tc_skip("no %s on this system", src);
	ATF_REQUIRE_EQ(sb.st_size, 0);
	want = slurp(src, &len);
	ATF_REQUIRE(len > 0);
	for (k = 0; k < NPATHS; k++) {
		ATF_CHECK_EQ(copy_paths(all_paths[k], 0, src, "dst", &e),
		    BUFSZ_OK);
		ATF_CHECK_EQ_MSG(last(e), COPY_RW, "%s took %s",
		    bufsz_path_name(all_paths[k]), took(e));
		bufsz_engine_free(e);
		same_bytes("dst", want, len, src, all_paths[k]);
		/* Told a size, the kernel paths must not trust it either. */
		sb.st_size = 1 * (off_t)MiB;
		e = engine_for(all_paths[k], 0, 0);
		ATF_REQUIRE((in = open(src, O_RDONLY)) >= 0);
		ATF_REQUIRE((out = open("dst", O_WRONLY | O_CREAT | O_TRUNC,
		    0644)) >= 0);
		ATF_CHECK_EQ(copy(e, in, &sb, out, NULL, 0), BUFSZ_OK);
		ATF_REQUIRE(close(in) == 0);
		ATF_REQUIRE(close(out) == 0);
		bufsz_engine_free(e);
		same_bytes("dst", want, len, "told 1 MiB", all_paths[k]);
	}
	free(want);
}

/*
 * A file whose st_size is larger than 0 but a lie (sysfs reports a page
 * and copy_file_range moves nothing from it): nothing is lost.
 */
ATF_TC_WITHOUT_HEAD(size_lie_input);
ATF_TC_BODY(size_lie_input, tc)
{
	const char *src = "/sys/kernel/mm/transparent_hugepage/enabled";
	struct bufsz_engine *e;
	struct stat sb;
	size_t k, len;
	char *want;

	if (stat(src, &sb) != 0)
		atf_tc_skip("no %s on this system", src);
	want = slurp(src, &len);
	if (len == 0 || (off_t)len == sb.st_size)
		atf_tc_skip("%s tells its true size", src);
	for (k = 0; k < NPATHS; k++) {
		ATF_CHECK_EQ(copy_paths(all_paths[k], 0, src, "dst", &e),
		    BUFSZ_OK);
		bufsz_engine_free(e);
		same_bytes("dst", want, len, src, all_paths[k]);
	}
	free(want);
}

/*
 * The same sysfs files copied as cp copies, keeping holes: st_blocks 0
 * under a size of 4096 looks sparse, and the copy must still hold what
 * reading gives, not be padded with zeros to the size the file claims.
 */
ATF_TC_WITHOUT_HEAD(size_lie_sparse);
ATF_TC_BODY(size_lie_sparse, tc)
{
	static const char *const srcs[] = {
		"/sys/kernel/mm/transparent_hugepage/enabled",
		"/sys/devices/system/cpu/online",
	};
	struct bufsz_engine *e;
	struct stat sb, out;
	size_t i, k, len;
	int tried;
	char *want;

	tried = 0;
	for (i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		if (stat(srcs[i], &sb) != 0)
			continue;
		want = slurp(srcs[i], &len);
		if (len == 0 || (off_t)len == sb.st_size) {
			free(want);
			continue;
		}
		tried++;
		for (k = 0; k < NPATHS; k++) {
			ATF_CHECK_EQ(copy_paths(all_paths[k], BUFSZ_SPARSE,
			    srcs[i], "dst", &e), BUFSZ_OK);
			bufsz_engine_free(e);
			same_bytes("dst", want, len, srcs[i], all_paths[k]);
			ATF_REQUIRE(stat("dst", &out) == 0);
			ATF_CHECK_EQ_MSG(out.st_size, (off_t)len,
			    "%s by %s: %jd bytes", srcs[i],
			    bufsz_path_name(all_paths[k]),
			    (intmax_t)out.st_size);
		}
		free(want);
	}
	if (tried == 0)
		atf_tc_skip("no sysfs file here lies about its size");
}

/*
 * Between two file systems that refuse copy_file_range to each other
 * (Linux 5.19 and later, unless both share one of their own: here the
 * test's directory and /dev/shm, a tmpfs), AUTO goes on by sendfile,
 * both ways, and the copies are exact.
 */
static void
across_file_systems_linux(void)
{
	struct bufsz_engine *e;
	struct stat here, shm;
	char *data, other[64];
	enum bufsz_path want;
	size_t len;
	int in, out;

	if (stat(".", &here) != 0 || stat("/dev/shm", &shm) != 0 ||
	    here.st_dev == shm.st_dev || access("/dev/shm", W_OK) != 0)
		atf_tc_skip("no writable /dev/shm on a file system of its own");
	len = 3 * 1024 * 1024 + 17;
	ATF_REQUIRE((data = malloc(len)) != NULL);
	fill(data, len, 11);
	put_file("src", data, len);
	(void)snprintf(other, sizeof(other), "/dev/shm/engine_test.%ld",
	    (long)getpid());
	/* The kernel's answer decides which path is right. */
	ATF_REQUIRE((in = open("src", O_RDONLY)) >= 0);
	ATF_REQUIRE((out = open(other, O_WRONLY | O_CREAT | O_TRUNC,
	    0644)) >= 0);
	want = copy_file_range(in, NULL, out, NULL, 1, 0) == -1 &&
	    errno == EXDEV ? COPY_SENDFILE : COPY_CFR;
	ATF_REQUIRE(close(in) == 0 && close(out) == 0);
	ATF_CHECK_EQ(copy_paths(COPY_AUTO, 0, "src", other, &e),
	    BUFSZ_OK);
	ATF_CHECK_EQ_MSG(last(e), want, "into /dev/shm took %s", took(e));
	same_bytes(other, data, len, "into /dev/shm", last(e));
	bufsz_engine_free(e);
	ATF_CHECK_EQ(copy_paths(COPY_AUTO, 0, other, "back", &e),
	    BUFSZ_OK);
	ATF_CHECK_EQ_MSG(last(e), want, "out of /dev/shm took %s", took(e));
	same_bytes("back", data, len, "out of /dev/shm", last(e));
	bufsz_engine_free(e);
	/* Forced, copy_file_range stays itself: refused, read/write. */
	ATF_CHECK_EQ(copy_paths(COPY_CFR, 0, "src", other, &e),
	    BUFSZ_OK);
	ATF_CHECK_EQ_MSG(last(e), want == COPY_SENDFILE ?
	    COPY_RW : COPY_CFR,
	    "forced cfr into /dev/shm took %s", took(e));
	same_bytes(other, data, len, "forced into /dev/shm", last(e));
	bufsz_engine_free(e);
	(void)unlink(other);
	free(data);
}

ATF_TC_WITHOUT_HEAD(across_file_systems);
ATF_TC_BODY(across_file_systems, tc)
{

	across_file_systems_linux();
}

/*
 * Inputs whose end the first call does not prove: /proc (size 0, and no
 * seek to the end), /sys (4096 claimed, fewer held).  Read on, whole.
 */
ATF_TC_WITHOUT_HEAD(unseen_devnull_lying_sizes);
ATF_TC_BODY(unseen_devnull_lying_sizes, tc)
{
	static const char *const srcs[] = {
		"/proc/version",
		"/sys/kernel/mm/transparent_hugepage/enabled",
		"/sys/devices/system/cpu/online",
	};
	struct bufsz_engine *e;
	size_t k, len, tried;
	off_t pos;
	char *want;
	int out;

	ATF_REQUIRE((out = open("/dev/null", O_WRONLY)) >= 0);
	e = engine_for(COPY_AUTO, 0, 0);
	for (k = tried = 0; k < sizeof(srcs) / sizeof(srcs[0]); k++) {
		if (access(srcs[k], R_OK) != 0)
			continue;
		want = slurp(srcs[k], &len);
		tried++;
		ATF_CHECK_EQ_MSG(copy_unseen(e, srcs[k], out, &pos), BUFSZ_OK,
		    "%s", srcs[k]);
		ATF_CHECK_EQ_MSG(moved(e), (off_t)len,
		    "%s: moved %jd of %zu", srcs[k], (intmax_t)moved(e),
		    len);
		free(want);
	}
	bufsz_engine_free(e);
	ATF_REQUIRE(close(out) == 0);
	if (tried == 0)
		atf_tc_skip("none of the /proc and /sys files is here");
}

ATF_TP_ADD_TCS(tp)
{

	ATF_TP_ADD_TC(tp, size_zero_input);
	ATF_TP_ADD_TC(tp, size_lie_input);
	ATF_TP_ADD_TC(tp, size_lie_sparse);
	ATF_TP_ADD_TC(tp, across_file_systems);
	ATF_TP_ADD_TC(tp, unseen_devnull_lying_sizes);
	return (atf_no_error());
}
