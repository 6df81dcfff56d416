/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPUs of each NAPI thread a bind moved, from before nictl, kept for
 * `restore` in run_dir()'s "napi-IFINDEX", written whole (rundir.h): a
 * "#" line naming the device, then "PID NAME CPULIST" per thread. A thread
 * is known by PID and name both, so a PID the kernel reused for another
 * task is never touched.
 */
#ifndef NICTLCTL_NAPI_KEPT_H
#define NICTLCTL_NAPI_KEPT_H

#include <stdbool.h>

#include "cpuset.h"

/* One thread a bind moved, with the CPUs it had. */
struct napi_moved {
	unsigned int pid;
	char name[64];
	struct cpuset before;
};

/* The threads of @ifindex's file into *@m (free with napi_moved_free()): 0 or -errno. */
int napi_kept_load(unsigned int ifindex, struct napi_moved **m, unsigned int *n);
/*
 * Add to @ifindex's file each of @m it does not hold yet (one it holds has
 * the CPUs from before nictl); @created says the file is new. 0 or -errno.
 */
int napi_kept_add(unsigned int ifindex, const char *ifname, const struct napi_moved *m,
		  unsigned int n, bool *created);
int napi_kept_remove(unsigned int ifindex);
void napi_moved_free(struct napi_moved *m, unsigned int n);

#endif /* NICTLCTL_NAPI_KEPT_H */
