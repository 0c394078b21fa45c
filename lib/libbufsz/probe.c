/*-
 * SPDX-License-Identifier: BSD-2-Clause
 *
 * The probe: how much memory this process may use, and the page size.
 * Host differences live here and nowhere else in the library.
 */

#include <sys/types.h>
#if defined(__FreeBSD__) || defined(__NetBSD__) || defined(__OpenBSD__) || \
    defined(__DragonFly__) || defined(__APPLE__)
#include <sys/sysctl.h>
#define	BUFSZ_HAVE_SYSCTL
#endif

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bufsz_private.h"

/* Learned once: every buffer and window is counted in these pages. */
size_t
bufsz_pagesize(void)
{
	static size_t page;
	long pg;

	if (page == 0) {
		pg = sysconf(_SC_PAGESIZE);
		page = pg > 0 ? (size_t)pg : 4096;
	}
	return (page);
}

#ifdef BUFSZ_HAVE_SYSCTL
/*
 * The BSDs name physical memory differently: NetBSD's hw.physmem is an
 * int that overflows past 2 GiB, hence hw.physmem64 there; macOS has
 * hw.memsize.  Try the 64-bit names first.
 */
static int
physmem_sysctl(uint64_t *mem)
{
	static const char *const names[] = {
		"hw.physmem64", "hw.memsize", "hw.physmem"
	};
	unsigned long ul;
	uint64_t u64;
	size_t i, len;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		len = sizeof(u64);
		if (sysctlbyname(names[i], &u64, &len, NULL, 0) == 0 &&
		    len == sizeof(u64)) {
			*mem = u64;
			return (0);
		}
		len = sizeof(ul);
		if (sysctlbyname(names[i], &ul, &len, NULL, 0) == 0 &&
		    len == sizeof(ul)) {
			*mem = ul;
			return (0);
		}
	}
	return (-1);
}
#endif

static int
physmem_sysconf(uint64_t *mem)
{
#ifdef _SC_PHYS_PAGES
	long pages, pg;

	pages = sysconf(_SC_PHYS_PAGES);
	pg = sysconf(_SC_PAGESIZE);
	if (pages > 0 && pg > 0) {
		*mem = (uint64_t)pages * (uint64_t)pg;
		return (0);
	}
#endif
	(void)mem;
	errno = ENOSYS;
	return (-1);
}

/*
 * The cgroup v2 path of this process: the "0::/path" line of its
 * membership file.  Returns 0 and fills path, or -1 when there is none
 * (cgroup v1 only, or not Linux).
 */
static int
cgroup_self_path(const char *self, char *path, size_t pathlen)
{
	char line[PATH_MAX + 8];
	FILE *fp;
	size_t n;
	int found;

	if ((fp = fopen(self, "re")) == NULL)
		return (-1);
	found = 0;
	while (!found && fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "0::", 3) != 0)
			continue;
		n = strcspn(line + 3, "\n");
		if (n < pathlen) {
			memcpy(path, line + 3, n);
			path[n] = '\0';
			found = 1;
		}
	}
	(void)fclose(fp);
	return (found ? 0 : -1);
}

/* memory.max of one cgroup directory: 1 and *limit, or 0 for "max"/none. */
static int
cgroup_dir_limit(const char *dir, uint64_t *limit)
{
	char file[PATH_MAX], value[64];
	FILE *fp;
	char *end;
	uintmax_t v;
	int ok;

	if (snprintf(file, sizeof(file), "%s/memory.max", dir) >=
	    (int)sizeof(file))
		return (0);
	if ((fp = fopen(file, "re")) == NULL)
		return (0);
	ok = fgets(value, sizeof(value), fp) != NULL;
	(void)fclose(fp);
	if (!ok || strncmp(value, "max", 3) == 0)
		return (0);
	errno = 0;
	v = strtoumax(value, &end, 10);
	if (errno != 0 || end == value || (*end != '\n' && *end != '\0'))
		return (0);
	*limit = (uint64_t)v;
	return (1);
}

/*
 * A cgroup's limit binds its descendants, so the limit in force is the
 * least memory.max from this process's cgroup up to the root.
 */
int
bufsz_physmem_cgroup(const char *root, const char *self, uint64_t *limit)
{
	char rel[PATH_MAX], dir[PATH_MAX];
	uint64_t v, least;
	char *slash;
	int found;

	if (cgroup_self_path(self, rel, sizeof(rel)) != 0)
		return (0);
	found = 0;
	least = UINT64_MAX;
	for (;;) {
		if (snprintf(dir, sizeof(dir), "%s%s", root, rel) >=
		    (int)sizeof(dir))
			return (0);
		if (cgroup_dir_limit(dir, &v) && v < least) {
			least = v;
			found = 1;
		}
		if ((slash = strrchr(rel, '/')) == NULL || rel[1] == '\0')
			break;
		slash[slash == rel ? 1 : 0] = '\0';
	}
	if (found)
		*limit = least;
	return (found);
}

int
bufsz_physmem(uint64_t *mem)
{
	uint64_t limit;
	int rv;

#ifdef BUFSZ_HAVE_SYSCTL
	rv = physmem_sysctl(mem);
#else
	rv = -1;
#endif
	if (rv != 0)
		rv = physmem_sysconf(mem);
#ifdef __linux__
	if (rv == 0 && bufsz_physmem_cgroup("/sys/fs/cgroup",
	    "/proc/self/cgroup", &limit) && limit < *mem)
		*mem = limit;
#else
	(void)limit;
#endif
	return (rv);
}
