/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the test build: fail the k-th affinity write of an
 * apply so that the suite can prove the rollback at every k, and make a
 * device's queues share IRQs the way drivers the guests lack do (ice with
 * fewer vectors than rings, an mlx5 sub-function on its parent's vectors).
 * Production builds compile it away.
 */
#ifndef _NICTL_FAULT_H
#define _NICTL_FAULT_H

struct nictl_dev;

#ifdef NICTL_FAULT_INJECT
/* Room discovery leaves for the IRQ nictl_fault_discovery() may add. */
#define NICTL_FAULT_EXTRA_IRQS	1

int nictl_fault_write(unsigned int nth);
void nictl_fault_discovery(struct nictl_dev *dev);
#else
#define NICTL_FAULT_EXTRA_IRQS	0

static inline int nictl_fault_write(unsigned int nth)
{
	return 0;
}

static inline void nictl_fault_discovery(struct nictl_dev *dev)
{
}
#endif

#endif /* _NICTL_FAULT_H */
