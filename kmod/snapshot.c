// SPDX-License-Identifier: GPL-2.0
/*
 * What the module last saw of each device: its name (the notifier does not
 * say what a renamed device was called), queue counts and queue IRQs
 * (ethtool -L raises no notifier event, so a change shows only by
 * comparing). Keyed by the net_device and dropped when it unregisters, so
 * under nictl_snapshots_mutex alone every snapshot's device is registered.
 * A snapshot is stale after an event nobody heard (watch.c): the next
 * listener's join looks at the device again before it can hear anything.
 */
#include <linux/jhash.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nictl.h"

/**
 * struct nictl_snapshot - one device as last seen
 * @list: in nictl_snapshots
 * @netdev: the device, registered as long as the snapshot exists
 * @name: its name
 * @queues: its queues
 * @stale: the device had an event nobody heard since
 */
struct nictl_snapshot {
	struct list_head list;
	struct net_device *netdev;
	char name[IFNAMSIZ];
	struct nictl_queue_set queues;
	bool stale;
};

static LIST_HEAD(nictl_snapshots);
static DEFINE_MUTEX(nictl_snapshots_mutex);
/* A device has no snapshot for want of memory: look at every device again. */
static bool nictl_snapshots_incomplete;

static struct nictl_snapshot *nictl_snapshot_find(const struct net_device *netdev)
{
	struct nictl_snapshot *s;

	ASSERT_RTNL();
	list_for_each_entry(s, &nictl_snapshots, list)
		if (s->netdev == netdev)
			return s;
	return NULL;
}

/* The IRQs beyond those kept count through a hash. */
static u32 nictl_tail_hash(const struct nictl_dev *dev)
{
	const struct nictl_qirq *q;
	unsigned int i;
	u32 h = 0;

	for (i = NICTL_EVENT_OLD_IRQS_MAX; i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		h = jhash_3words(q->irq, q->queue, q->kind, h);
	}
	return h;
}

static bool nictl_queues_equal(const struct nictl_queue_set *seen, const struct nictl_dev *dev)
{
	const struct net_device *netdev = dev->netdev;
	unsigned int i;

	if (seen->rx != netdev->real_num_rx_queues || seen->tx != netdev->real_num_tx_queues ||
	    seen->n_irqs != dev->n_irqs || seen->tail_hash != nictl_tail_hash(dev))
		return false;
	for (i = 0; i < seen->n_kept; i++)
		if (seen->irqs[i].irq != dev->irqs[i].irq ||
		    seen->irqs[i].queue != dev->irqs[i].queue ||
		    seen->irqs[i].kind != dev->irqs[i].kind)
			return false;
	return true;
}

/* Fill @qs from @dev. Return: 0 or -ENOMEM (@qs untouched). */
static int nictl_queues_take(struct nictl_queue_set *qs, const struct nictl_dev *dev)
{
	unsigned int i, n = min_t(unsigned int, dev->n_irqs, NICTL_EVENT_OLD_IRQS_MAX);
	struct nictl_queue_id *irqs = NULL;

	if (n) {
		irqs = kcalloc(n, sizeof(*irqs), GFP_KERNEL);
		if (!irqs)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		irqs[i].irq = dev->irqs[i].irq;
		irqs[i].queue = dev->irqs[i].queue;
		irqs[i].kind = dev->irqs[i].kind;
	}
	kfree(qs->irqs);
	qs->irqs = irqs;
	qs->n_kept = n;
	qs->n_irqs = dev->n_irqs;
	qs->tail_hash = nictl_tail_hash(dev);
	qs->rx = dev->netdev->real_num_rx_queues;
	qs->tx = dev->netdev->real_num_tx_queues;
	return 0;
}

/**
 * nictl_snapshot_name() - the name a device had when last seen
 * @netdev: the device
 *
 * Return: the name, or NULL when the device was never seen. Valid under
 * rtnl until the next nictl_snapshot_update() of the device.
 */
const char *nictl_snapshot_name(const struct net_device *netdev)
{
	struct nictl_snapshot *s = nictl_snapshot_find(netdev);

	return s ? s->name : NULL;
}

/**
 * nictl_snapshot_update() - compare a device with what was last seen, send
 *	%NICTL_EVENT_QUEUES_CHANGED if its queues differ, and remember it
 * @dev: the device, just discovered
 *
 * A device seen for the first time is only remembered. Out of memory, the
 * old snapshot stays and the next look compares with it again.
 *
 * Context: rtnl held.
 */
void nictl_snapshot_update(const struct nictl_dev *dev)
{
	struct nictl_snapshot *s;
	struct nictl_queue_set seen = {};

	mutex_lock(&nictl_snapshots_mutex);
	s = nictl_snapshot_find(dev->netdev);
	if (!s) {
		s = kzalloc(sizeof(*s), GFP_KERNEL);
		if (!s || nictl_queues_take(&s->queues, dev)) {
			kfree(s);
			nictl_snapshots_incomplete = true;
			goto out;
		}
		s->netdev = dev->netdev;
		list_add(&s->list, &nictl_snapshots);
	} else if (!nictl_queues_equal(&s->queues, dev)) {
		if (nictl_queues_take(&seen, dev))
			goto out;
		nictl_event_queues(dev, &s->queues);
		swap(seen, s->queues);
		kfree(seen.irqs);
	}
	s->stale = false;
	strscpy(s->name, dev->netdev->name, sizeof(s->name));
out:
	mutex_unlock(&nictl_snapshots_mutex);
}

/**
 * nictl_snapshots_check() - find the devices whose queue counts changed,
 *	without rtnl
 * @recheck: receives the devices to discover again under rtnl
 *
 * Return: true, once, when a device went unremembered for want of memory:
 * every device then needs a look under rtnl.
 */
bool nictl_snapshots_check(struct nictl_recheck *recheck)
{
	const struct net_device *netdev;
	struct nictl_snapshot *s;
	bool incomplete;

	mutex_lock(&nictl_snapshots_mutex);
	list_for_each_entry(s, &nictl_snapshots, list) {
		netdev = s->netdev;
		if ((READ_ONCE(netdev->real_num_rx_queues) != s->queues.rx ||
		     READ_ONCE(netdev->real_num_tx_queues) != s->queues.tx) &&
		    !nictl_recheck_add(recheck, netdev->ifindex))
			break;
	}
	incomplete = nictl_snapshots_incomplete;
	nictl_snapshots_incomplete = false;
	mutex_unlock(&nictl_snapshots_mutex);
	return incomplete;
}

#ifdef NICTL_HAVE_GENL_BIND
/* Stale marks serve the join (watch.c), which needs genl's join callback. */
/**
 * nictl_snapshot_unheard() - a device had an event nobody may hear
 * @netdev: the device
 *
 * The mark stays until the device is discovered again.
 *
 * Context: rtnl held.
 */
void nictl_snapshot_unheard(const struct net_device *netdev)
{
	struct nictl_snapshot *s;

	mutex_lock(&nictl_snapshots_mutex);
	s = nictl_snapshot_find(netdev);
	if (s)
		s->stale = true;
	mutex_unlock(&nictl_snapshots_mutex);
}

/* Queue counts change without a notifier event (ethtool -L). */
static bool nictl_snapshot_stale(const struct nictl_snapshot *s)
{
	return s->stale || READ_ONCE(s->netdev->real_num_rx_queues) != s->queues.rx ||
	       READ_ONCE(s->netdev->real_num_tx_queues) != s->queues.tx;
}

/**
 * nictl_snapshots_any_stale() - may a device have changed unseen?
 *
 * Context: rtnl not needed: a device's mark is set under the snapshots
 * mutex before its notifier looks for a listener.
 * Return: true when nictl_snapshots_stale() would find one.
 */
bool nictl_snapshots_any_stale(void)
{
	struct nictl_snapshot *s;
	bool any = false;

	mutex_lock(&nictl_snapshots_mutex);
	list_for_each_entry(s, &nictl_snapshots, list) {
		any = nictl_snapshot_stale(s);
		if (any)
			break;
	}
	mutex_unlock(&nictl_snapshots_mutex);
	return any;
}

/**
 * nictl_snapshots_stale() - the devices that may have changed unseen: an
 *	event nobody heard, or other queue counts
 * @n: set to how many
 *
 * Context: rtnl held, and kept while the devices are used.
 * Return: a new array of them (kfree it), NULL when there are none; when
 * it cannot be allocated, NULL, and the next check looks at every device.
 */
struct net_device **nictl_snapshots_stale(unsigned int *n)
{
	struct net_device **stale = NULL;
	struct nictl_snapshot *s;
	unsigned int max = 0;

	ASSERT_RTNL();
	*n = 0;
	mutex_lock(&nictl_snapshots_mutex);
	list_for_each_entry(s, &nictl_snapshots, list)
		max += nictl_snapshot_stale(s);
	if (max)
		stale = kmalloc_array(max, sizeof(*stale), GFP_KERNEL);
	if (max && !stale)
		nictl_snapshots_incomplete = true;
	list_for_each_entry(s, &nictl_snapshots, list)
		if (stale && nictl_snapshot_stale(s))
			stale[(*n)++] = s->netdev;
	mutex_unlock(&nictl_snapshots_mutex);
	return stale;
}
#endif /* NICTL_HAVE_GENL_BIND */

static void nictl_snapshot_free(struct nictl_snapshot *s)
{
	list_del(&s->list);
	kfree(s->queues.irqs);
	kfree(s);
}

void nictl_snapshot_drop(const struct net_device *netdev)
{
	struct nictl_snapshot *s;

	mutex_lock(&nictl_snapshots_mutex);
	s = nictl_snapshot_find(netdev);
	if (s)
		nictl_snapshot_free(s);
	mutex_unlock(&nictl_snapshots_mutex);
}

/* At module unload. */
void nictl_snapshots_drop_all(void)
{
	struct nictl_snapshot *s, *tmp;

	ASSERT_RTNL();
	mutex_lock(&nictl_snapshots_mutex);
	list_for_each_entry_safe(s, tmp, &nictl_snapshots, list)
		nictl_snapshot_free(s);
	mutex_unlock(&nictl_snapshots_mutex);
}
