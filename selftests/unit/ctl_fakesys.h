/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake sysfs tree in a temporary directory, handed to nictlctl's topology
 * code through $NICTL_SYSFS, and the same directory as the root of the
 * files module_absent.c reads ($NICTL_ROOT: lib/modules, var/lib/dkms).
 * Include it first: nftw() needs _GNU_SOURCE before any system header.
 */
#ifndef CTL_FAKESYS_H
#define CTL_FAKESYS_H

#define _GNU_SOURCE
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

struct fakesys {
	char root[64];
};

static inline void fakesys_create(struct fakesys *f)
{
	snprintf(f->root, sizeof(f->root), "/tmp/nictlctl-sysfs-XXXXXX");
	if (!mkdtemp(f->root) || setenv("NICTL_SYSFS", f->root, 1) ||
	    setenv("NICTL_ROOT", f->root, 1))
		abort();
}

/* The path @fmt names under the root, in @path, with its directories made. */
static inline void fakesys_vpath(const struct fakesys *f, char *path, size_t size,
				 const char *fmt, va_list ap)
{
	char *slash;
	int n;

	n = snprintf(path, size, "%s/", f->root);
	vsnprintf(path + n, size - n, fmt, ap);
	for (slash = strchr(path + n, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
}

/* Write @content to the file @fmt under the root, creating its directories. */
static inline __printf(3, 4) void
fakesys_write(const struct fakesys *f, const char *content, const char *fmt, ...)
{
	char path[512];
	va_list ap;
	FILE *file;

	va_start(ap, fmt);
	fakesys_vpath(f, path, sizeof(path), fmt, ap);
	va_end(ap);
	file = fopen(path, "w");
	if (!file || fputs(content, file) < 0 || fclose(file))
		abort();
}

/* Make the link @fmt under the root point to @target, creating its directories. */
static inline __printf(3, 4) void
fakesys_link(const struct fakesys *f, const char *target, const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	fakesys_vpath(f, path, sizeof(path), fmt, ap);
	va_end(ap);
	if (symlink(target, path))
		abort();
}

/* Give CPUs 0..@n-1 two SMT threads per core: CPU c pairs with c ^ 1. */
static inline void fakesys_smt_pairs(const struct fakesys *f, int n)
{
	char list[32];
	int cpu;

	for (cpu = 0; cpu < n; cpu++) {
		snprintf(list, sizeof(list), "%d-%d\n", cpu & ~1, cpu | 1);
		fakesys_write(f, list, "devices/system/cpu/cpu%d/topology/thread_siblings_list",
			      cpu);
	}
}

static inline int fakesys_unlink(const char *path, const struct stat *st, int flag,
				 struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void fakesys_destroy(struct fakesys *f)
{
	nftw(f->root, fakesys_unlink, 16, FTW_DEPTH | FTW_PHYS);
	unsetenv("NICTL_SYSFS");
	unsetenv("NICTL_ROOT");
}

#endif /* CTL_FAKESYS_H */
