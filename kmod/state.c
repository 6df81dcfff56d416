// SPDX-License-Identifier: GPL-2.0
/*
 * Bindings: for every device nictl has bound, the affinities its queue IRQs
 * had before nictl first touched them (what RESTORE puts back), where nictl
 * placed them, and the drift last reported for them. Keyed by the
 * net_device, and dropped when it unregisters, so a stale pointer is never
 * compared.
 *
 * Changes hold rtnl and nictl_bindings_mutex; readers hold either. The drift
 * check holds the lock only, so it never takes rtnl: while it holds the lock
 * every binding's device is registered (NETDEV_UNREGISTER drops the binding
 * under the lock first), and a bind holds the lock from its first affinity
 * write to its commit, so the check never sees a new affinity next to an old
 * target. Each binding keeps what the drift event says of the device and of
 * each IRQ, as the last discovery under rtnl found them.
 */
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nictl.h"

/**
 * struct nictl_saved_irq - one IRQ of a binding
 * @irq: the IRQ
 * @target_cpu: where nictl placed it
 * @from_change: index of the change whose saved mask becomes @orig when
 *	the binding is committed, or -1 when @orig is already known
 * @orig: the affinity before nictl first set it
 * @drift: the affinity last reported as drift, empty while there is none
 * @live: the last discovery found @irq, with an action, among the device's
 *	queue IRQs, and the drift check has found that action's name since
 * @desc: the IRQ as the last discovery found it, for the drift event
 */
struct nictl_saved_irq {
	unsigned int irq;
	int target_cpu;
	int from_change;
	cpumask_var_t orig;
	cpumask_var_t drift;
	bool live;
	struct nictl_qirq desc;
};

/**
 * struct nictl_binding - what nictl holds for one bound device
 * @list: in nictl_bindings
 * @netdev: the device, registered as long as the binding exists
 * @ifname: its name at the last discovery
 * @dev: the device as the last discovery found it, without IRQs and named
 *	@ifname: the drift event describes it by this, without rtnl
 * @n: entries in @irqs
 * @irqs: the IRQs nictl has set
 */
struct nictl_binding {
	struct list_head list;
	const struct net_device *netdev;
	char ifname[IFNAMSIZ];
	struct nictl_dev dev;
	unsigned int n;
	struct nictl_saved_irq *irqs;
};

static LIST_HEAD(nictl_bindings);
static DEFINE_MUTEX(nictl_bindings_mutex);

/**
 * nictl_bindings_lock() - take the lock that orders binding changes
 *	against the drift check
 *
 * A bind holds it from its first affinity write to its commit, so the check
 * sees the old affinities with the old targets or the new with the new.
 *
 * Context: rtnl held, and cpus_read_lock in a bind (lock order: rtnl ->
 * cpus_read_lock -> bindings lock -> events lock).
 */
void nictl_bindings_lock(void)
{
	ASSERT_RTNL();
	mutex_lock(&nictl_bindings_mutex);
}

/**
 * nictl_bindings_unlock() - release nictl_bindings_lock()
 */
void nictl_bindings_unlock(void)
{
	mutex_unlock(&nictl_bindings_mutex);
}

static void nictl_binding_free(struct nictl_binding *b)
{
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		free_cpumask_var(b->irqs[i].orig);
		free_cpumask_var(b->irqs[i].drift);
	}
	kfree(b->irqs);
	kfree(b);
}

/**
 * nictl_binding_find() - the binding of a device
 * @netdev: the device
 *
 * Return: the binding, or NULL when nictl has not bound @netdev.
 */
struct nictl_binding *nictl_binding_find(const struct net_device *netdev)
{
	struct nictl_binding *b;

	ASSERT_RTNL();
	list_for_each_entry(b, &nictl_bindings, list)
		if (b->netdev == netdev)
			return b;
	return NULL;
}

static struct nictl_saved_irq *nictl_binding_irq(const struct nictl_binding *b, unsigned int irq)
{
	unsigned int i;

	for (i = 0; b && i < b->n; i++)
		if (b->irqs[i].irq == irq)
			return &b->irqs[i];
	return NULL;
}

/* Take what the drift check reports of @b's device and IRQs from @dev. */
static void nictl_binding_learn(struct nictl_binding *b, const struct nictl_dev *dev)
{
	struct nictl_saved_irq *s;
	unsigned int i;

	strscpy(b->ifname, dev->ifname, sizeof(b->ifname));
	/*
	 * The strings belong to the parent device and its driver: both stay
	 * while the device is registered, as long as the binding.
	 */
	b->dev.netdev = dev->netdev;
	b->dev.ifname = b->ifname;
	b->dev.driver = dev->driver;
	b->dev.bus_addr = dev->bus_addr;
	b->dev.node = dev->node;
	b->dev.source = dev->source;
	b->dev.bound = true;
	for (i = 0; i < b->n; i++)
		b->irqs[i].live = false;
	for (i = 0; i < dev->n_irqs; i++) {
		s = nictl_binding_irq(b, dev->irqs[i].irq);
		if (!s)
			continue;
		s->desc = dev->irqs[i];
		s->desc.bound = true;
		s->desc.target_cpu = s->target_cpu;
		/* Without an action (freed while the device is down) there is nothing to check. */
		s->live = s->desc.name[0];
	}
}

/**
 * nictl_binding_annotate() - mark which of a device's IRQs nictl has bound
 * @dev: the device, as just discovered
 *
 * The binding learns the device as found, so the drift check, which cannot
 * discover, checks the IRQs that are queue IRQs of the device now.
 *
 * Context: rtnl held, the bindings lock not.
 */
void nictl_binding_annotate(struct nictl_dev *dev)
{
	struct nictl_binding *b;
	struct nictl_saved_irq *s;
	unsigned int i;

	mutex_lock(&nictl_bindings_mutex);
	b = nictl_binding_find(dev->netdev);
	dev->bound = b;
	for (i = 0; i < dev->n_irqs; i++) {
		s = nictl_binding_irq(b, dev->irqs[i].irq);
		dev->irqs[i].bound = s;
		dev->irqs[i].target_cpu = s ? s->target_cpu : -1;
	}
	if (b)
		nictl_binding_learn(b, dev);
	mutex_unlock(&nictl_bindings_mutex);
}

/**
 * nictl_binding_prepare() - allocate the binding a bind will leave behind
 * @dev: the device, with plan_cpu set for the IRQs the bind changes
 * @changes: those changes, in the order of @dev's IRQs
 *
 * Everything that can fail happens here, before any affinity is written;
 * nictl_binding_commit() then cannot fail. IRQs bound earlier keep their
 * original affinity; IRQs bound earlier that are no longer queue IRQs of
 * the device are forgotten.
 *
 * Return: the new binding, or NULL when out of memory.
 */
struct nictl_binding *nictl_binding_prepare(const struct nictl_dev *dev,
					    const struct nictl_change *changes)
{
	struct nictl_binding *old = nictl_binding_find(dev->netdev), *b;
	const struct nictl_qirq *q;
	struct nictl_saved_irq *s, *prev;
	unsigned int i, n = 0;
	int k = 0;

	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].plan_cpu >= 0 || nictl_binding_irq(old, dev->irqs[i].irq))
			n++;
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b)
		return NULL;
	b->netdev = dev->netdev;
	b->irqs = kcalloc(n, sizeof(*b->irqs), GFP_KERNEL);
	if (!b->irqs) {
		kfree(b);
		return NULL;
	}

	for (i = 0; i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		prev = nictl_binding_irq(old, q->irq);
		if (q->plan_cpu < 0 && !prev)
			continue;
		s = &b->irqs[b->n++];
		if (!zalloc_cpumask_var(&s->orig, GFP_KERNEL) ||
		    !zalloc_cpumask_var(&s->drift, GFP_KERNEL)) {
			nictl_binding_free(b);
			return NULL;
		}
		s->irq = q->irq;
		s->target_cpu = q->plan_cpu >= 0 ? q->plan_cpu : prev->target_cpu;
		s->from_change = prev ? -1 : k;
		if (prev)
			cpumask_copy(s->orig, prev->orig);
		if (q->plan_cpu >= 0) {
			WARN_ON_ONCE(changes[k].irq != q->irq);
			k++;
		}
	}
	nictl_binding_learn(b, dev);
	return b;
}

/**
 * nictl_binding_commit() - make a prepared binding the device's binding
 * @b: from nictl_binding_prepare()
 * @changes: the changes just applied, whose saved masks are the originals
 *	of IRQs bound for the first time
 *
 * Context: the bindings lock held, since before the changes were applied.
 */
void nictl_binding_commit(struct nictl_binding *b, const struct nictl_change *changes)
{
	unsigned int i;

	for (i = 0; i < b->n; i++)
		if (b->irqs[i].from_change >= 0)
			cpumask_copy(b->irqs[i].orig, changes[b->irqs[i].from_change].saved);
	nictl_binding_drop(b->netdev);
	list_add(&b->list, &nictl_bindings);
}

/**
 * nictl_binding_discard() - free a prepared binding that was not committed
 * @b: from nictl_binding_prepare(), or NULL
 */
void nictl_binding_discard(struct nictl_binding *b)
{
	if (b)
		nictl_binding_free(b);
}

/**
 * nictl_binding_restore_changes() - the changes that undo a binding
 * @b: the binding
 * @dev: the device as it is now
 * @changesp: receives the changes (free with nictl_changes_free())
 * @np: receives their number
 *
 * Only IRQs that are still queue IRQs of the device are restored: the others
 * were freed (and their number possibly reused) since nictl bound them.
 *
 * Return: 0, -ENOENT when none is left, or -ENOMEM.
 */
int nictl_binding_restore_changes(struct nictl_binding *b, const struct nictl_dev *dev,
				  struct nictl_change **changesp, unsigned int *np)
{
	struct nictl_change *changes;
	struct nictl_saved_irq *s;
	unsigned int i, n = 0;

	for (i = 0; i < dev->n_irqs; i++)
		if (nictl_binding_irq(b, dev->irqs[i].irq))
			n++;
	if (!n)
		return -ENOENT;
	changes = nictl_changes_alloc(n);
	if (!changes)
		return -ENOMEM;
	for (i = 0, n = 0; i < dev->n_irqs; i++) {
		s = nictl_binding_irq(b, dev->irqs[i].irq);
		if (!s)
			continue;
		changes[n].irq = s->irq;
		changes[n].name = dev->irqs[i].name;
		cpumask_copy(changes[n].target, s->orig);
		n++;
	}
	*changesp = changes;
	*np = n;
	return 0;
}

/*
 * Report a drift of @s if it is news: each is reported once, and the
 * affinity reported is remembered until the IRQ has nictl's affinity
 * again, or another one.
 */
static void nictl_binding_check_irq(const struct nictl_binding *b, struct nictl_saved_irq *s,
				    struct cpumask *found)
{
	/*
	 * The affinity read is the pending one while a move waits for the
	 * next interrupt: a move nictl made is not drift.
	 */
	if (nictl_irq_masks(s->irq, found, NULL, NULL))
		return;
	if (cpumask_equal(found, cpumask_of(s->target_cpu))) {
		cpumask_clear(s->drift);
		return;
	}
	if (cpumask_equal(found, s->drift))
		return;
	cpumask_copy(s->drift, found);
	nictl_event_drift(&b->dev, &s->desc, cpumask_of(s->target_cpu));
}

/**
 * nictl_bindings_check() - report the drift of every bound IRQ, without rtnl
 * @recheck: receives the devices to discover again under rtnl: those with
 *	a bound IRQ that is gone or has another name since the last discovery
 * @found: scratch mask
 *
 * An IRQ that changed is not checked again until a discovery finds it
 * among its device's queue IRQs, so it asks for one discovery only.
 *
 * Context: rtnl not needed; takes the bindings lock.
 */
void nictl_bindings_check(struct nictl_recheck *recheck, struct cpumask *found)
{
	char name[NICTL_IRQ_NAME_LEN];
	struct nictl_saved_irq *s;
	struct nictl_binding *b;
	bool managed;
	unsigned int i;

	mutex_lock(&nictl_bindings_mutex);
	list_for_each_entry(b, &nictl_bindings, list) {
		for (i = 0; i < b->n; i++) {
			s = &b->irqs[i];
			if (!s->live)
				continue;
			if (nictl_irq_name(s->irq, name, sizeof(name), &managed) &&
			    !strcmp(name, s->desc.name)) {
				nictl_binding_check_irq(b, s, found);
				continue;
			}
			/* With no room left, it is found again next period. */
			if (nictl_recheck_add(recheck, b->netdev->ifindex))
				s->live = false;
		}
	}
	mutex_unlock(&nictl_bindings_mutex);
}

/**
 * nictl_binding_drop() - forget a device's binding, if any
 * @netdev: the device
 *
 * Context: rtnl and the bindings lock held.
 */
void nictl_binding_drop(const struct net_device *netdev)
{
	struct nictl_binding *b;

	lockdep_assert_held(&nictl_bindings_mutex);
	b = nictl_binding_find(netdev);

	if (b) {
		list_del(&b->list);
		nictl_binding_free(b);
	}
}

/**
 * nictl_bindings_drop_all() - forget every binding (module unload)
 */
void nictl_bindings_drop_all(void)
{
	struct nictl_binding *b, *tmp;

	nictl_bindings_lock();
	list_for_each_entry_safe(b, tmp, &nictl_bindings, list) {
		list_del(&b->list);
		nictl_binding_free(b);
	}
	nictl_bindings_unlock();
}
