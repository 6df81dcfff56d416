/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bind's NAPI threads: where a device polls in threads, each thread goes
 * to the CPUs the bind gave the IRQ that wakes it (a thread tied to no IRQ
 * to the bind's whole CPU set), in the bind's transaction: when a thread
 * cannot move, every thread moved goes back and the caller puts back the
 * IRQs. The CPUs each thread had before nictl are kept under /run/nictl
 * (napi-IFINDEX) for `restore`.
 */
#ifndef NICTLCTL_NAPI_PLACE_H
#define NICTLCTL_NAPI_PLACE_H

#include <stdio.h>

#include "cpuset.h"
#include "dev.h"
#include "napi/config.h"
#include "napi/threads.h"

/* How many thread moves of a bind to let through before one fails: testing only. */
#define NAPI_FAULT_ENV	"NICTL_FAULT_NAPI_WRITE"

/*
 * Move @threads of @bound (napi_threads_of() after the bind) where @bound's
 * IRQs went, the untied ones to @set, keeping first what each had. 0, or -1
 * after saying why, with every thread as it was. A later step of the bind
 * that fails puts them back with napi_restore().
 */
int napi_follow_threads(const struct nictl_dev *bound, const struct cpuset *set,
			const struct napi_threads *threads);
/* napi_follow_threads() for the threads @bound has now (none in another namespace). */
int napi_follow(const struct nictl_dev *bound, const struct cpuset *set);

/*
 * After a bind, which left @bound: the NAPI settings @c (napi/config.h),
 * then napi_follow(). 0, or -1 after saying why, with the settings and
 * threads of the failing step as before it; napi_put_back() undoes the
 * rest.
 */
int napi_apply(const struct nictl_dev *bound, const struct cpuset *set,
	       const struct napi_config *c);
/* Threads and settings as before nictl: napi_restore(), napi_config_restore(); 0 or -1. */
int napi_put_back(unsigned int ifindex);
/*
 * After a bind without the module: napi_apply(), and when it fails the
 * settings, threads and IRQs as before nictl. 0, or -1 after saying why.
 */
int napi_follow_direct(const struct dev_list *bound, const struct cpuset *set,
		       const struct napi_config *c);

/*
 * The threads of @dev (none in another namespace) tied to an IRQ of it that
 * are not on exactly that IRQ's CPUs (made after the bind, or moved since),
 * each described, for a log line or a verdict; NULL when there are none or
 * they cannot be read. Free it.
 */
char *napi_astray(const struct nictl_dev *dev);

/*
 * `restore`: give each thread the file of @ifindex names, where it still
 * runs under the same name, the CPUs it had before nictl, and drop the
 * file. 0, or -1 after saying what could not be put back (the file stays).
 */
int napi_restore(unsigned int ifindex);

#endif /* NICTLCTL_NAPI_PLACE_H */
