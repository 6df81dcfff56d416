/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Affinity writes without the module: through /proc/irq/N/smp_affinity_list,
 * every earlier write put back when one fails, and the affinities a bind
 * replaced kept under /run/nictl for restore. Not atomic against another
 * writer between two writes (irqbalance), and not kept across a driver
 * reload: the module's BIND is both.
 */
#ifndef NICTLCTL_DIRECT_APPLY_H
#define NICTLCTL_DIRECT_APPLY_H

#include "cpuset.h"
#include "dev.h"

/* Fails the k-th write of direct_apply() with EIO (tests). */
#define DIRECT_FAULT_ENV	"NICTL_FAULT_IRQ_WRITE"
/* How many tries of a bind find their first IRQ re-set after the writes: testing only. */
#define DIRECT_RESET_FAULT_ENV	"NICTL_FAULT_DIRECT_RESET"

/* One IRQ's write: @target to set, @saved filled with what it replaced. */
struct direct_write {
	unsigned int irq;
	const char *name;
	struct cpuset target;
	struct cpuset saved;
};

void direct_writes_free(struct direct_write *w, unsigned int n);

/*
 * Write each @w in order; on a failure put back every earlier one, in
 * reverse, and say in @why (one clause) which IRQ failed and how. Returns 0
 * or the failed write's -errno.
 */
int direct_apply(struct direct_write *w, unsigned int n, char *why, size_t len);
/* Put back what the first @n writes of a successful direct_apply() replaced, in reverse. */
void direct_undo(const struct direct_write *w, unsigned int n);

/*
 * The affinity each IRQ of device @ifindex had before the first bind
 * without the module, and the CPU that bind placed it on: kept in
 * $NICTL_RUN_DIR (/run/nictl)/irq-IFINDEX, a "IRQ CPULIST TARGET" line per
 * IRQ. direct_saved_keep() adds @w (their @saved as the original, unless
 * the IRQ has one already, and their @target) and writes the file whole.
 */
int direct_saved_keep(const struct nictl_dev *dev, const struct direct_write *w, unsigned int n);
int direct_saved_load(unsigned int ifindex, struct direct_write **w, unsigned int *n);
int direct_saved_remove(unsigned int ifindex);
/*
 * Remove the kept files of devices that no longer exist (in this network
 * namespace): their IRQs went with them, and an ifindex used again later
 * would name another device. Returns how many went.
 */
unsigned int direct_saved_prune(void);

/* Mark @dev's IRQs that a bind without the module holds: bound, and their target. */
void direct_saved_annotate(struct nictl_dev *dev);

#endif /* NICTLCTL_DIRECT_APPLY_H */
