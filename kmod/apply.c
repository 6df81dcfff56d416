// SPDX-License-Identifier: GPL-2.0
/*
 * All-or-nothing affinity changes: validate all, save every mask, write in order, and on a failed
 * write put every earlier one back. Under rtnl and cpus_read_lock, so IRQs and CPUs hold still.
 * Where the core keeps a device's IRQ affinity, the reply waits until it has recorded the new one.
 */
#include <linux/interrupt.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "fault.h"
#include "nictl.h"

struct nictl_change *nictl_changes_alloc(unsigned int n)
{
	struct nictl_change *changes;
	unsigned int i;

	changes = kcalloc(n, sizeof(*changes), GFP_KERNEL);
	if (!changes)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!zalloc_cpumask_var(&changes[i].target, GFP_KERNEL) ||
		    !zalloc_cpumask_var(&changes[i].saved, GFP_KERNEL)) {
			nictl_changes_free(changes, n);
			return NULL;
		}
	}
	return changes;
}

void nictl_changes_free(struct nictl_change *changes, unsigned int n)
{
	unsigned int i;

	if (!changes)
		return;
	for (i = 0; i < n; i++) {
		free_cpumask_var(changes[i].target);
		free_cpumask_var(changes[i].saved);
	}
	kfree(changes);
}

static void nictl_rollback(struct nictl_change *changes, unsigned int n)
{
	while (n--)
		if (nictl_irq_set_affinity(changes[n].irq, changes[n].saved))
			pr_err("could not restore the affinity of IRQ %u (%s)\n",
			       changes[n].irq, changes[n].name);
}

/**
 * nictl_apply() - set every change's affinity, or none
 * @changes: the changes; their saved masks are filled
 * @n: how many
 * @dry_run: validate only
 * @extack: names the IRQ that could not be set
 *
 * Return: 0, a validation error, or the failed write's error after every earlier one was undone.
 */
int nictl_apply(struct nictl_change *changes, unsigned int n, bool dry_run,
		struct netlink_ext_ack *extack)
{
	unsigned int i;
	int err;

	for (i = 0; i < n; i++) {
		err = nictl_irq_check_settable(changes[i].irq, changes[i].name, extack);
		if (err)
			return err;
		if (!cpumask_intersects(changes[i].target, cpu_online_mask)) {
			NL_SET_ERR_MSG_FMT(extack, "IRQ %u (%.24s): none of CPUs %*pbl is online",
					   changes[i].irq, changes[i].name,
					   cpumask_pr_args(changes[i].target));
			return -EINVAL;
		}
	}
	if (dry_run)
		return 0;

	for (i = 0; i < n; i++)
		nictl_irq_masks(changes[i].irq, changes[i].saved, NULL, NULL);
	for (i = 0; i < n; i++) {
		err = nictl_fault_write(i + 1);
		if (!err)
			err = nictl_irq_set_affinity(changes[i].irq, changes[i].target);
		if (err) {
			nictl_rollback(changes, i);
			NL_SET_ERR_MSG_FMT(extack, "setting IRQ %u (%.24s) failed; all rolled back",
					   changes[i].irq, changes[i].name);
			return err;
		}
	}
	return 0;
}

#ifdef NICTL_HAVE_AFFINITY_AUTO
/**
 * nictl_apply_settle() - wait until the core has recorded a device's new IRQ affinities
 * @netdev: a device whose IRQs were just set
 *
 * A driver may have the core keep its IRQs' affinity (irq_affinity_auto, 6.15+): each NAPI's
 * config learns it from the IRQ's notifier, and the core gives it back when the driver enables
 * the NAPI again, after a reset. The notifier is a work item, and a driver that takes the
 * notifier away in its reset cancels one still pending: a reset right after the reply would get
 * the affinity from before the change. So the reply waits for the work.
 *
 * Context: rtnl and @netdev's instance lock held, so its NAPIs and their notifiers stay.
 */
void nictl_apply_settle(struct net_device *netdev)
{
	struct napi_struct *napi;

	if (!netdev->irq_affinity_auto)
		return;
	list_for_each_entry(napi, &netdev->napi_list, dev_list)
		if (test_bit(NAPI_STATE_HAS_NOTIFIER, &napi->state))
			flush_work(&napi->notify.work);
}

/* Whether the driver opted in with netif_set_affinity_auto(). */
bool nictl_apply_kept_by_core(const struct net_device *netdev)
{
	return netdev->irq_affinity_auto;
}

/**
 * nictl_apply_core_pending() - is the core about to give an IRQ its kept affinity?
 * @netdev: a device whose affinity the core keeps
 * @irq: one of its queue IRQs
 *
 * In a reset, a driver requests new IRQs (the default affinity) and links them to its NAPIs
 * while they are disabled; the core sets each NAPI's kept mask when the driver enables it again.
 * Until then, an IRQ that has no enabled NAPI shows the default, and that is not a drift yet.
 * napi_disable() leaves %NAPI_STATE_SCHED and %NAPI_STATE_NPSVC set until napi_enable().
 *
 * Context: rtnl and @netdev's instance lock held, so its NAPIs and their IRQs stay.
 * Return: true while @irq waits for its NAPI, or for a NAPI to be linked to it in a reset.
 */
bool nictl_apply_core_pending(struct net_device *netdev, unsigned int irq)
{
	struct napi_struct *napi;
	bool disabled, any = false;

	netdev_assert_locked(netdev);
	list_for_each_entry(napi, &netdev->napi_list, dev_list) {
		disabled = test_bit(NAPI_STATE_SCHED, &napi->state) &&
			   test_bit(NAPI_STATE_NPSVC, &napi->state);
		if (napi->irq == irq)
			return disabled;
		any |= disabled;
	}
	return any;
}
#endif
