/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The settings netdev-genl keeps per NAPI (6.13+), read with the raw
 * client of nl.h: what a bind's --defer-hard-irqs, --gro-flush-timeout and
 * --irq-suspend-timeout set is checked against the kernel's own dump.
 */
#ifndef NICTL_TEST_NAPICFG_H
#define NICTL_TEST_NAPICFG_H

#include <stdint.h>

#define NAPICFG_MAX	64

/* One NAPI: its id and settings, -1 where the kernel shows none. */
struct napicfg {
	unsigned int id;
	int64_t defer_hard_irqs;
	int64_t gro_flush_timeout;
	int64_t irq_suspend_timeout;
};

struct napicfgs {
	struct napicfg n[NAPICFG_MAX];
	unsigned int nr;
};

/* The NAPIs of device @ifindex: 0, or -errno (-ENOENT: no netdev family). */
int napicfg_read(unsigned int ifindex, struct napicfgs *out);
/* "id:defer/gro/suspend,..." of @c, for a comparison and a log line. */
void napicfg_format(const struct napicfgs *c, char *buf, size_t len);

#endif /* NICTL_TEST_NAPICFG_H */
