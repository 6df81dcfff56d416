// SPDX-License-Identifier: GPL-2.0
/*
 * irq_set_affinity() before 5.14, when it is not exported. The one exported way into its setter,
 * __irq_set_affinity(irq, mask, false), is irq_set_affinity_hint(), with two side effects undone
 * here: it makes the mask the IRQ's affinity hint, a pointer the IRQ keeps
 * (/proc/irq/N/affinity_hint, irqbalance), and drops the setter's error.
 */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/rcupdate.h>

#include "nictl.h"

/**
 * nictl_irq_set_affinity() - irq_set_affinity() through the affinity hint
 * @irq: the IRQ
 * @mask: its new affinity
 *
 * The driver's hint is put back, unless the driver set a new one meanwhile, so the IRQ never
 * keeps a pointer to @mask. Success is read back: the affinity (pending or not) is @mask exactly
 * when the setter succeeded or the IRQ already had it.
 *
 * Context: may be called under rtnl and cpus_read_lock; does not sleep.
 * Return: 0, -EINVAL (no such IRQ, or per-CPU) or -EIO (refused; the kernel's error is lost).
 */
int nictl_irq_set_affinity(unsigned int irq, const struct cpumask *mask)
{
	const struct cpumask *hint;
	struct irq_desc *desc;
	struct irq_data *d;
	unsigned long flags;
	bool pending, given;
	int err;

	/* The descriptor stays ours to compare while we are in RCU. */
	rcu_read_lock();
	d = nictl_irq_lock(irq, &flags);
	if (!d) {
		rcu_read_unlock();
		return -EINVAL;
	}
	desc = irq_data_to_desc(d);
	hint = desc->affinity_hint;
	nictl_irq_unlock(d, flags);

	err = irq_set_affinity_hint(irq, mask);
	if (err) {
		rcu_read_unlock();
		return err;
	}

	d = nictl_irq_lock(irq, &flags);
	if (!d) {
		rcu_read_unlock();
		return -EINVAL;
	}
	/* An IRQ freed and allocated again in between gets no stale hint. */
	if (irq_data_to_desc(d)->affinity_hint == mask)
		irq_data_to_desc(d)->affinity_hint = irq_data_to_desc(d) == desc ? hint : NULL;
	given = cpumask_equal(nictl_irq_affinity(d, &pending), mask);
	nictl_irq_unlock(d, flags);
	rcu_read_unlock();
	return given ? 0 : -EIO;
}
