// SPDX-License-Identifier: GPL-2.0
#include <linux/moduleparam.h>

#include "fault.h"
#include "nictl.h"

static unsigned int fault_fail_nth;
module_param(fault_fail_nth, uint, 0600);
MODULE_PARM_DESC(fault_fail_nth,
		 "test build only: fail the k-th affinity write of every apply with -EIO (0: off)");

static unsigned int fault_share_ifindex;
module_param(fault_share_ifindex, uint, 0600);
MODULE_PARM_DESC(fault_share_ifindex,
		 "test build only: this device's queues all use queue 0's IRQs (0: off)");

static unsigned int fault_extra_ifindex;
module_param(fault_extra_ifindex, uint, 0600);
MODULE_PARM_DESC(fault_extra_ifindex,
		 "test build only: this device's queue 0 is also served by fault_extra_irq (0: off)");

static unsigned int fault_extra_irq;
module_param(fault_extra_irq, uint, 0600);
MODULE_PARM_DESC(fault_extra_irq, "test build only: the IRQ fault_extra_ifindex shares");

static unsigned int fault_shared_irq;
module_param(fault_shared_irq, uint, 0600);
MODULE_PARM_DESC(fault_shared_irq,
		 "test build only: discovery sees this IRQ as shared with another handler (0: off)");

/**
 * nictl_fault_write() - should the @nth write (from 1) of this apply fail?
 * @nth: position of the write in the apply
 *
 * Return: -EIO when the knob names @nth, else 0.
 */
int nictl_fault_write(unsigned int nth)
{
	return READ_ONCE(fault_fail_nth) == nth ? -EIO : 0;
}

/* Every queue's IRQ becomes the IRQ of queue 0 of the same kind, as on ice. */
static void nictl_fault_share(struct nictl_dev *dev)
{
	struct nictl_qirq *q, *first;
	unsigned int i, j;

	for (i = 0; i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		for (j = 0; q->queue && j < dev->n_irqs; j++) {
			first = &dev->irqs[j];
			if (first->queue || first->kind != q->kind)
				continue;
			q->irq = first->irq;
			strscpy(q->name, first->name, sizeof(q->name));
			break;
		}
	}
}

/* Queue 0 is also served by another device's IRQ, as an SF is by its PF's. */
static void nictl_fault_extra(struct nictl_dev *dev, unsigned int irq)
{
	struct nictl_qirq *q = &dev->irqs[dev->n_irqs];

	memset(q, 0, sizeof(*q));
	if (!nictl_irq_name(irq, q->name, sizeof(q->name), &q->managed, &q->shared))
		return;
	q->irq = irq;
	q->kind = NICTL_QUEUE_KIND_COMBINED;
	q->target_cpu = -1;
	q->plan_cpu = -1;
	dev->n_irqs++;
}

/**
 * nictl_fault_discovery() - make the queues of the devices the knobs name
 *	share IRQs, and an IRQ look shared with another handler, before
 *	discovery merges them
 * @dev: a device being discovered, with room for %NICTL_FAULT_EXTRA_IRQS
 *	more entries
 */
void nictl_fault_discovery(struct nictl_dev *dev)
{
	unsigned int ifindex = dev->netdev->ifindex;
	unsigned int irq = READ_ONCE(fault_extra_irq), shared = READ_ONCE(fault_shared_irq);
	unsigned int i;

	if (ifindex == READ_ONCE(fault_share_ifindex))
		nictl_fault_share(dev);
	if (ifindex == READ_ONCE(fault_extra_ifindex) && irq)
		nictl_fault_extra(dev, irq);
	for (i = 0; shared && i < dev->n_irqs; i++)
		dev->irqs[i].shared |= dev->irqs[i].irq == shared;
}
