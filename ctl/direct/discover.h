/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Devices and their queue IRQs found without the module, from sysfs, /proc
 * and netdev-genl's NAPI links, in the shape a DEV_GET reply has (dev.h).
 * The classifier and the grouping are the module's own sources
 * (kmod/classify.c, kmod/qirq.c), compiled in, so the two paths cannot
 * disagree on what a queue IRQ is.
 */
#ifndef NICTLCTL_DIRECT_DISCOVER_H
#define NICTLCTL_DIRECT_DISCOVER_H

#include "dev.h"

/* 1: find queue IRQs by their NAPI links only; 2: by name only (tests). */
#define DIRECT_FAULT_SOURCE_ENV	"NICTL_FAULT_DISCOVERY_SOURCE"

/*
 * Fill @out with the device @ref names, or with every device that has a
 * bus parent (as a DEV_GET dump) when @ref is NULL, in ifindex order; a
 * stacked device (a bond) gives its physical devices and its name in
 * @out->stacked. Returns 0, -ENODEV for no such device, -ENOENT for a
 * stacked device above a leaf without a bus parent, or -errno.
 */
int direct_discover(const struct dev_ref *ref, struct dev_list *out);
/* The same, saying in one line why it failed: 0 or -1. */
int direct_discover_said(const struct dev_ref *ref, struct dev_list *out);

#endif /* NICTLCTL_DIRECT_DISCOVER_H */
