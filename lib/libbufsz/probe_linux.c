/*-
 * Copyright (c) 2026 The contributors to this tree.
 *
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The memory of a Linux machine: sysconf(3), lowered to the limit of the
 * process's memory cgroup, which is the memory that really exists for it
 * (a container, a systemd service, a CI job).  Its processors likewise:
 * those its affinity mask allows, lowered to its cgroup's CPU quota.
 */

#include <sys/types.h>

#include <errno.h>
#include <sched.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

/* The least limits from self's cgroup up, under root; cgroup_test's too. */
int	bufsz_physmem_cgroup(const char *, const char *, uint64_t *);
int	bufsz_cpus_cgroup(const char *, const char *, int *);

/*
 * The two layouts: cgroup v2 has one hierarchy ("0::/path" in the
 * membership file, memory.max); v1, still the memory controller's home
 * on many hosts, has one per controller ("N:cpu,memory:/path", mounted
 * at ROOT/memory, memory.limit_in_bytes).
 */
struct layout {
	const char	*l_controller;	/* in the membership line; "" for v2 */
	const char	*l_mount;	/* under the root */
	const char	*l_file;
};

static const struct layout layouts[] = {
	{ "", "", "memory.max" },
	{ "memory", "/memory", "memory.limit_in_bytes" },
};

static int	has_controller(const char *, size_t, const char *);
static int	self_path(const char *, const struct layout *, char *,
		    size_t);
typedef int	reader(const char *, const char *, uint64_t *);

static reader	dir_limit;
static reader	dir_quota;
static int	read_value(const char *, const char *, char *, size_t);
static int	least_limit(const char *, const char *, const struct layout *,
		    reader *, uint64_t *);

int
bufsz_host_physmem(uint64_t *mem)
{
	uint64_t limit, pages;
	size_t page;
	long n;

	/*
	 * glibc counts the pages in an unsigned long and returns it as a
	 * long, which a 32-bit process sees negative from 8 TiB on.
	 */
	if ((n = sysconf(_SC_PHYS_PAGES)) == 0 || n == -1) {
		errno = ENOSYS;
		return (-1);
	}
	pages = (unsigned long)n;
	page = bufsz_pagesize();
	*mem = pages > UINT64_MAX / page ? UINT64_MAX : pages * page;
	if (bufsz_physmem_cgroup("/sys/fs/cgroup", "/proc/self/cgroup",
	    &limit) && limit < *mem)
		*mem = limit;
	return (0);
}

int
bufsz_host_cpus(void)
{
	cpu_set_t set;
	long online;
	int n, quota;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		n = CPU_COUNT(&set);
	else {
		/* More processors than a cpu_set_t holds: all of them. */
		online = sysconf(_SC_NPROCESSORS_ONLN);
		n = online < 1 ? 1 : online > INT_MAX ? INT_MAX : (int)online;
	}
	if (bufsz_cpus_cgroup("/sys/fs/cgroup", "/proc/self/cgroup",
	    &quota) && quota < n)
		n = quota;
	return (n < 1 ? 1 : n);
}

/* Whether the list of controllers at list, len bytes, names ctl. */
static int
has_controller(const char *list, size_t len, const char *ctl)
{
	size_t n, clen;

	clen = strlen(ctl);
	for (;;) {
		n = strcspn(list, ",:");
		if (n == clen && strncmp(list, ctl, clen) == 0)
			return (1);
		if (n >= len)
			return (0);
		list += n + 1;
		len -= n + 1;
	}
}

/*
 * This process's cgroup in the layout's hierarchy, from the membership
 * file's "ID:CONTROLLERS:PATH" lines: 0 and path, or -1 when it has none.
 */
static int
self_path(const char *self, const struct layout *l, char *path,
    size_t pathlen)
{
	char line[PATH_MAX + 64];
	const char *ctl, *rel;
	FILE *fp;
	size_t n;
	int found;

	if ((fp = fopen(self, "re")) == NULL)
		return (-1);
	found = 0;
	while (!found && fgets(line, sizeof(line), fp) != NULL) {
		if ((ctl = strchr(line, ':')) == NULL ||
		    (rel = strchr(++ctl, ':')) == NULL)
			continue;
		/* v2's line is "0::"; v1's name their controllers. */
		if (*l->l_controller == '\0' ? strncmp(line, "0::", 3) != 0 :
		    !has_controller(ctl, (size_t)(rel - ctl), l->l_controller))
			continue;
		n = strcspn(++rel, "\n");
		if (n < pathlen) {
			memcpy(path, rel, n);
			path[n] = '\0';
			found = 1;
		}
	}
	(void)fclose(fp);
	return (found ? 0 : -1);
}

/* The first line of file in one cgroup directory: 0, or -1 for none. */
static int
read_value(const char *dir, const char *file, char *value, size_t len)
{
	char path[PATH_MAX];
	FILE *fp;
	int ok;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >=
	    (int)sizeof(path))
		return (-1);
	if ((fp = fopen(path, "re")) == NULL)
		return (-1);
	ok = fgets(value, (int)len, fp) != NULL;
	(void)fclose(fp);
	return (ok ? 0 : -1);
}

/* The limit in file of one cgroup directory: 1 and *limit, 0 for none. */
static int
dir_limit(const char *dir, const char *file, uint64_t *limit)
{
	char value[64];
	char *end;
	uintmax_t v;

	if (read_value(dir, file, value, sizeof(value)) != 0 ||
	    strncmp(value, "max", 3) == 0)
		return (0);
	errno = 0;
	v = strtoumax(value, &end, 10);
	if (errno != 0 || end == value || (*end != '\n' && *end != '\0'))
		return (0);
	*limit = (uint64_t)v;
	return (1);
}

/*
 * cpu.max of one cgroup directory, "QUOTA PERIOD" in microseconds or
 * "max PERIOD": 1 and the processors the quota keeps busy, rounded up,
 * in *cpus; 0 for none.
 */
static int
dir_quota(const char *dir, const char *file, uint64_t *cpus)
{
	char value[64];
	char *end, *end2;
	uintmax_t quota, period;

	if (read_value(dir, file, value, sizeof(value)) != 0 ||
	    strncmp(value, "max", 3) == 0)
		return (0);
	errno = 0;
	quota = strtoumax(value, &end, 10);
	if (errno != 0 || end == value || *end != ' ')
		return (0);
	period = strtoumax(end + 1, &end2, 10);
	if (errno != 0 || end2 == end + 1 || period == 0 ||
	    (*end2 != '\n' && *end2 != '\0'))
		return (0);
	*cpus = quota / period + (quota % period != 0);
	return (1);
}

/*
 * A cgroup's limit binds its descendants, so the limit in force is the
 * least from this process's cgroup up to the root of the hierarchy.
 */
static int
least_limit(const char *root, const char *self, const struct layout *l,
    reader *value, uint64_t *limit)
{
	char rel[PATH_MAX], dir[PATH_MAX];
	uint64_t v;
	char *slash;
	int found;

	if (self_path(self, l, rel, sizeof(rel)) != 0)
		return (0);
	found = 0;
	for (;;) {
		if (snprintf(dir, sizeof(dir), "%s%s%s", root, l->l_mount,
		    rel) >= (int)sizeof(dir))
			return (0);
		if (value(dir, l->l_file, &v) && (!found || v < *limit)) {
			*limit = v;
			found = 1;
		}
		if ((slash = strrchr(rel, '/')) == NULL || rel[1] == '\0')
			break;
		slash[slash == rel ? 1 : 0] = '\0';
	}
	return (found);
}

int
bufsz_physmem_cgroup(const char *root, const char *self, uint64_t *limit)
{
	uint64_t v;
	size_t i;
	int found;

	found = 0;
	for (i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		if (least_limit(root, self, &layouts[i], dir_limit, &v) &&
		    (!found || v < *limit)) {
			*limit = v;
			found = 1;
		}
	}
	return (found);
}

int
bufsz_cpus_cgroup(const char *root, const char *self, int *cpus)
{
	static const struct layout v2 = { "", "", "cpu.max" };
	uint64_t v;

	if (!least_limit(root, self, &v2, dir_quota, &v))
		return (0);
	*cpus = v < 1 ? 1 : v > INT_MAX ? INT_MAX : (int)v;
	return (1);
}
