// SPDX-License-Identifier: GPL-2.0
/* Descriptors are RCU-freed, actions and masks change under desc->lock: copy out holding both. */
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/string.h>

#include "nictl.h"

/**
 * nictl_irq_lock() - find an IRQ's descriptor and take its lock
 * @irq: the IRQ
 * @flags: saved interrupt state, for nictl_irq_unlock()
 *
 * Context: takes the RCU read lock and desc->lock, with interrupts off.
 * Return: the IRQ's data, or NULL (nothing held) when it does not exist.
 */
struct irq_data *nictl_irq_lock(unsigned int irq, unsigned long *flags)
{
	struct irq_data *d;

	rcu_read_lock();
	d = irq_get_irq_data(irq);
	if (!d) {
		rcu_read_unlock();
		return NULL;
	}
	raw_spin_lock_irqsave(&irq_data_to_desc(d)->lock, *flags);
	return d;
}

void nictl_irq_unlock(struct irq_data *d, unsigned long flags)
{
	raw_spin_unlock_irqrestore(&irq_data_to_desc(d)->lock, flags);
	rcu_read_unlock();
}

/**
 * nictl_irq_name() - name of an IRQ's (first) action
 * @irq: the IRQ
 * @name: buffer for the name
 * @len: size of @name
 * @managed: set to whether the kernel manages the IRQ's affinity
 * @shared: set to whether another action shares the IRQ
 *
 * Return: true when the IRQ exists and has a named action.
 */
bool nictl_irq_name(unsigned int irq, char *name, size_t len, bool *managed, bool *shared)
{
	struct irqaction *action;
	struct irq_data *d;
	unsigned long flags;
	bool found = false;

	d = nictl_irq_lock(irq, &flags);
	if (!d)
		return false;
	action = irq_data_to_desc(d)->action;
	if (action && action->name) {
		strscpy(name, action->name, len);
		*managed = irqd_affinity_is_managed(d);
		*shared = action->next;
		found = true;
	}
	nictl_irq_unlock(d, flags);
	return found;
}

/**
 * nictl_irq_affinity() - the affinity an IRQ was last given
 * @d: the IRQ, locked with nictl_irq_lock()
 * @pending: set when the move waits for the IRQ's next interrupt
 *
 * A move the chip cannot make at once (x86 without interrupt remapping moves a vector at its
 * next interrupt) waits in pending_mask, which /proc/irq/N/smp_affinity then shows.
 *
 * Return: the mask, valid until the lock is dropped.
 */
const struct cpumask *nictl_irq_affinity(struct irq_data *d, bool *pending)
{
#ifdef CONFIG_GENERIC_PENDING_IRQ
	if (irqd_is_setaffinity_pending(d)) {
		*pending = true;
		return irq_data_to_desc(d)->pending_mask;
	}
#endif
	*pending = false;
	return irq_data_get_affinity_mask(d);
}

/**
 * nictl_irq_masks() - copy an IRQ's affinity and effective affinity
 * @irq: the IRQ
 * @affinity: receives the affinity it was last given (pending or not)
 * @effective: receives the effective affinity in force, or NULL
 * @pending: set when @affinity waits for the next interrupt, or NULL
 *
 * Return: 0, or -ENOENT when the IRQ does not exist (masks cleared).
 */
int nictl_irq_masks(unsigned int irq, struct cpumask *affinity, struct cpumask *effective,
		    bool *pending)
{
	struct irq_data *d;
	unsigned long flags;
	bool is_pending;

	d = nictl_irq_lock(irq, &flags);
	if (!d) {
		cpumask_clear(affinity);
		if (effective)
			cpumask_clear(effective);
		return -ENOENT;
	}
	cpumask_copy(affinity, nictl_irq_affinity(d, &is_pending));
	if (effective)
		cpumask_copy(effective, irq_data_get_effective_affinity_mask(d));
	if (pending)
		*pending = is_pending;
	nictl_irq_unlock(d, flags);
	return 0;
}

/**
 * nictl_irq_check_settable() - can nictl set this IRQ's affinity?
 * @irq: the IRQ
 * @name: its name, for the message
 * @extack: where to say why not
 *
 * Unlike /proc, the in-kernel setter lets managed IRQs through: refuse here.
 *
 * Return: 0, -ENOENT (gone), -EPERM (managed) or -EOPNOTSUPP (cannot move).
 */
int nictl_irq_check_settable(unsigned int irq, const char *name, struct netlink_ext_ack *extack)
{
	struct irq_chip *chip;
	struct irq_data *d;
	unsigned long flags;
	int err = 0;

	d = nictl_irq_lock(irq, &flags);
	if (!d) {
		NL_SET_ERR_MSG_FMT(extack, "IRQ %u (%.24s) no longer exists", irq, name);
		return -ENOENT;
	}
	chip = irq_data_get_irq_chip(d);
	if (irqd_affinity_is_managed(d)) {
		NL_SET_ERR_MSG_FMT(extack, "IRQ %u (%.24s) is managed by the kernel", irq, name);
		err = -EPERM;
	} else if (!irqd_can_balance(d) || !chip || !chip->irq_set_affinity) {
		NL_SET_ERR_MSG_FMT(extack, "IRQ %u (%.24s) cannot be moved", irq, name);
		err = -EOPNOTSUPP;
	}
	nictl_irq_unlock(d, flags);
	return err;
}
