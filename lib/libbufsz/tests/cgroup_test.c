/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * Linux's memory probe: the cgroup limits (v2 and v1) read from fake
 * hierarchies, and the probe against this host.
 */

#include <sys/types.h>
#include <sys/stat.h>

#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <atf-c.h>

#include "bufsz_private.h"

/* probe_linux.c's, given a root and a membership file of the test's. */
int	bufsz_physmem_cgroup(const char *, const char *, uint64_t *);
int	bufsz_cpus_cgroup(const char *, const char *, int *);

#define	MiB	((uint64_t)1024 * 1024)
#define	GiB	(1024 * MiB)

ATF_TC_WITHOUT_HEAD(probe_matches_host);
ATF_TC_BODY(probe_matches_host, tc)
{
	uint64_t mem, host, limit;

	host = (uint64_t)sysconf(_SC_PHYS_PAGES) *
	    (uint64_t)sysconf(_SC_PAGESIZE);
	bufsz_limits(&mem, NULL);
	ATF_REQUIRE(mem > 0);
	if (bufsz_physmem_cgroup("/sys/fs/cgroup", "/proc/self/cgroup",
	    &limit) && limit < host)
		ATF_CHECK_EQ(mem, limit);
	else
		ATF_CHECK_EQ(mem, host);
	ATF_CHECK_EQ(bufsz_pagesize(), (size_t)sysconf(_SC_PAGESIZE));
}

static void
write_file(const char *path, const char *text)
{
	FILE *fp;

	ATF_REQUIRE((fp = fopen(path, "w")) != NULL);
	ATF_REQUIRE(fputs(text, fp) >= 0);
	ATF_REQUIRE(fclose(fp) == 0);
}

ATF_TC_WITHOUT_HEAD(cgroup_limit_is_the_least_on_the_path);
ATF_TC_BODY(cgroup_limit_is_the_least_on_the_path, tc)
{
	uint64_t limit;

	ATF_REQUIRE(mkdir("cg", 0755) == 0);
	ATF_REQUIRE(mkdir("cg/a", 0755) == 0);
	ATF_REQUIRE(mkdir("cg/a/b", 0755) == 0);
	write_file("self", "1:name=systemd:/x\n0::/a/b\n");

	/* No memory.max anywhere: no limit. */
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 0);

	/* The parent's limit binds the child, whose own is "max". */
	write_file("cg/a/memory.max", "1073741824\n");
	write_file("cg/a/b/memory.max", "max\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 1);
	ATF_CHECK_EQ(limit, 1 * GiB);

	/* The child's lower limit wins. */
	write_file("cg/a/b/memory.max", "536870912\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 1);
	ATF_CHECK_EQ(limit, 512 * MiB);

	/* Garbage is no limit. */
	write_file("cg/a/memory.max", "lots\n");
	write_file("cg/a/b/memory.max", "12x\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 0);
}

/* A v1 membership line is no v2 cgroup, and no file is no limit. */
ATF_TC_WITHOUT_HEAD(cgroup_v1_is_not_v2);
ATF_TC_BODY(cgroup_v1_is_not_v2, tc)
{
	uint64_t limit;

	ATF_REQUIRE(mkdir("cg", 0755) == 0);
	write_file("cg/memory.max", "4096\n");
	write_file("self", "4:memory:/x\n1:cpu:/\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 0);
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "no-such-file", &limit), 0);
}

/*
 * cgroup v1, where the memory controller still lives on many hosts: its
 * own hierarchy under ROOT/memory, memory.limit_in_bytes, the least on
 * the path; "unlimited" there is a huge number, never below memory.
 */
ATF_TC_WITHOUT_HEAD(cgroup_v1_limit);
ATF_TC_BODY(cgroup_v1_limit, tc)
{
	uint64_t limit;

	ATF_REQUIRE(mkdir("cg", 0755) == 0);
	ATF_REQUIRE(mkdir("cg/memory", 0755) == 0);
	ATF_REQUIRE(mkdir("cg/memory/job", 0755) == 0);
	ATF_REQUIRE(mkdir("cg/memory/job/x", 0755) == 0);
	write_file("self", "5:cpu,cpuacct:/y\n4:blkio,memory:/job/x\n"
	    "0::/\n");
	write_file("cg/memory/memory.limit_in_bytes",
	    "9223372036854771712\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 1);
	ATF_CHECK_EQ(limit, 9223372036854771712ULL);
	write_file("cg/memory/job/memory.limit_in_bytes", "67108864\n");
	write_file("cg/memory/job/x/memory.limit_in_bytes",
	    "9223372036854771712\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 1);
	ATF_CHECK_EQ(limit, 64 * MiB);
	/* Beside a v2 limit, the least of the two. */
	write_file("cg/memory.max", "33554432\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 1);
	ATF_CHECK_EQ(limit, 32 * MiB);
	/* "memoryx" is another controller. */
	write_file("self", "4:blkio,memoryx:/job/x\n");
	ATF_CHECK_EQ(bufsz_physmem_cgroup("cg", "self", &limit), 0);
}

/*
 * cpu.max, "QUOTA PERIOD" or "max PERIOD": the processors a quota keeps
 * busy, rounded up, the least from the process's cgroup to the root.
 */
ATF_TC_WITHOUT_HEAD(cgroup_cpu_quota);
ATF_TC_BODY(cgroup_cpu_quota, tc)
{
	int cpus;

	ATF_REQUIRE(mkdir("cg", 0755) == 0);
	ATF_REQUIRE(mkdir("cg/a", 0755) == 0);
	ATF_REQUIRE(mkdir("cg/a/b", 0755) == 0);
	write_file("self", "1:name=systemd:/x\n0::/a/b\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 0);
	write_file("cg/a/b/cpu.max", "max 100000\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 0);
	/* One and a half processors' worth: two threads keep it busy. */
	write_file("cg/a/cpu.max", "150000 100000\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 1);
	ATF_CHECK_EQ(cpus, 2);
	write_file("cg/a/b/cpu.max", "300000 100000\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 1);
	ATF_CHECK_EQ(cpus, 2);
	/* Less than one is one. */
	write_file("cg/a/b/cpu.max", "10000 100000\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 1);
	ATF_CHECK_EQ(cpus, 1);
	write_file("cg/a/b/cpu.max", "400000 100000\n");
	write_file("cg/a/cpu.max", "max 100000\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 1);
	ATF_CHECK_EQ(cpus, 4);
	/* Garbage, or a period of 0, is no quota. */
	write_file("cg/a/b/cpu.max", "400000\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 0);
	write_file("cg/a/b/cpu.max", "400000 0\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 0);
	write_file("cg/a/b/cpu.max", "4x 100000\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 0);
	/* A v1 membership alone is no v2 cgroup. */
	write_file("cg/a/b/cpu.max", "100000 100000\n");
	write_file("self", "1:cpu,cpuacct:/a/b\n");
	ATF_CHECK_EQ(bufsz_cpus_cgroup("cg", "self", &cpus), 0);
}

/*
 * The processors this process may run on: those of its affinity mask,
 * whatever the machine has; fewer where its cgroup's quota says so.
 */
/* What bufsz_limits() says of the processors. */
static int
cpus(void)
{
	int n;

	bufsz_limits(NULL, &n);
	return (n);
}

ATF_TC_WITHOUT_HEAD(cpus_follow_affinity);
ATF_TC_BODY(cpus_follow_affinity, tc)
{
	cpu_set_t set;
	int n, quota;

	ATF_REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
	n = CPU_COUNT(&set);
	if (bufsz_cpus_cgroup("/sys/fs/cgroup", "/proc/self/cgroup",
	    &quota) && quota < n)
		n = quota;
	ATF_CHECK_EQ(cpus(), n);
}

/* The same, asked after the mask was narrowed to one processor. */
ATF_TC_WITHOUT_HEAD(cpus_one_allowed);
ATF_TC_BODY(cpus_one_allowed, tc)
{
	cpu_set_t set, one;
	int i;

	ATF_REQUIRE(sched_getaffinity(0, sizeof(set), &set) == 0);
	if (CPU_COUNT(&set) < 2)
		atf_tc_skip("this process may run on one processor only");
	for (i = 0; !CPU_ISSET(i, &set); i++)
		continue;
	CPU_ZERO(&one);
	CPU_SET(i, &one);
	ATF_REQUIRE(sched_setaffinity(0, sizeof(one), &one) == 0);
	ATF_CHECK_EQ(cpus(), 1);
}

ATF_TP_ADD_TCS(tp)
{
	ATF_TP_ADD_TC(tp, probe_matches_host);
	ATF_TP_ADD_TC(tp, cgroup_limit_is_the_least_on_the_path);
	ATF_TP_ADD_TC(tp, cgroup_v1_is_not_v2);
	ATF_TP_ADD_TC(tp, cgroup_v1_limit);
	ATF_TP_ADD_TC(tp, cgroup_cpu_quota);
	ATF_TP_ADD_TC(tp, cpus_follow_affinity);
	ATF_TP_ADD_TC(tp, cpus_one_allowed);
	return (atf_no_error());
}
