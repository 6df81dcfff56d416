/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The settings netdev-genl keeps per NAPI (6.13+, threaded 6.17+), read
 * with the raw client of nl.h: what a bind's --defer-hard-irqs,
 * --gro-flush-timeout, --irq-suspend-timeout and --threaded set is checked
 * against the kernel's own dump.
 */
#ifndef NICTL_TEST_NAPICFG_H
#define NICTL_TEST_NAPICFG_H

#include <stdint.h>

#define NAPICFG_MAX	64

/* One NAPI: its id and settings, -1 where the kernel shows none; its thread, 0 for none. */
struct napicfg {
	unsigned int id;
	int64_t defer_hard_irqs;
	int64_t gro_flush_timeout;
	int64_t irq_suspend_timeout;
	int64_t threaded;
	unsigned int pid;
};

struct napicfgs {
	struct napicfg n[NAPICFG_MAX];
	unsigned int nr;
};

/* The NAPIs of device @ifindex: 0, or -errno (-ENOENT: no netdev family). */
int napicfg_read(unsigned int ifindex, struct napicfgs *out);
/*
 * Switch NAPI @id's own thread on (1) or off (0) over NAPI_SET, as a user
 * with the kernel's ynl would (6.17+): 0, or -errno.
 */
int napicfg_set_threaded(unsigned int id, unsigned int threaded);
/* "id:defer/gro/suspend/threaded,..." of @c, for a comparison and a log line. */
void napicfg_format(const struct napicfgs *c, char *buf, size_t len);

#endif /* NICTL_TEST_NAPICFG_H */
