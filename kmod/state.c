// SPDX-License-Identifier: GPL-2.0
/*
 * Bindings: for each device nictl bound, the affinities its queue IRQs had before nictl first
 * touched them (what RESTORE puts back), where nictl put them, and the drift last reported.
 * Dropped when the device unregisters, so no stale pointer is ever compared; each IRQ belongs
 * to one binding at most (nictl_owners).
 *
 * The drift check holds only nictl_bindings_mutex, never rtnl (NETDEV_UNREGISTER drops the
 * binding under it first). So a binding keeps what the drift event says, as the last discovery
 * found it, except the IRQ's name: the check reads it anyway and compares it with a hash.
 */
#include <linux/jhash.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/xarray.h>

#include "nictl.h"

/* What a binding keeps of an IRQ's &struct nictl_qirq for its drift event. */
struct nictl_saved_desc {
	unsigned int queue;
	unsigned int kind;
	unsigned int group;
	unsigned int first_ref;
	unsigned int n_refs;
	bool managed;
	bool shared;
};

/**
 * struct nictl_saved_irq - one IRQ of a binding
 * @irq: the IRQ
 * @target_cpu: where nictl placed it
 * @from_change: the change whose saved mask becomes @orig at commit, or -1
 * @reserved: the prepared binding reserved the IRQ's slot in nictl_owners
 * @drifts: times drift was reported, across binds
 * @drift_ns: when it was last reported
 * @orig: the affinity before nictl first set it
 * @drift: the affinity last reported as drift, empty while there is none
 * @live: the last discovery found @irq with an action, and the check still finds its name
 * @name_hash: hash of that name, compared with the one the check reads: no copy needed
 * @desc: the IRQ as the last discovery found it, for the drift event
 */
struct nictl_saved_irq {
	unsigned int irq;
	int target_cpu;
	int from_change;
	bool reserved;
	unsigned int drifts;
	u64 drift_ns;
	cpumask_var_t orig;
	cpumask_var_t drift;
	bool live;
	u32 name_hash;
	struct nictl_saved_desc desc;
};

/**
 * struct nictl_binding - what nictl holds for one bound device
 * @list: in nictl_bindings
 * @netdev: the device, registered as long as the binding exists
 * @ifname: its name at the last discovery
 * @dev: the device at the last discovery, without IRQs, for the drift event (no rtnl)
 * @refs: a copy of the queues the device's IRQs serve, for that event
 * @n_refs: room in @refs
 * @n: entries in @irqs
 * @irqs: the IRQs nictl has set
 * @kept_by_core: the core keeps the device's IRQ affinity: a drift is confirmed under rtnl
 */
struct nictl_binding {
	struct list_head list;
	const struct net_device *netdev;
	char ifname[IFNAMSIZ];
	struct nictl_dev dev;
	struct nictl_qref *refs;
	unsigned int n_refs;
	unsigned int n;
	struct nictl_saved_irq *irqs;
	bool kept_by_core;
};

static u32 nictl_name_hash(const char *name)
{
	return jhash(name, strlen(name), 0);
}

static LIST_HEAD(nictl_bindings);
/* IRQ -> the binding that holds it. */
static DEFINE_XARRAY(nictl_owners);
static DEFINE_MUTEX(nictl_bindings_mutex);

/**
 * nictl_bindings_lock() - order binding changes against the drift check
 *
 * A bind holds it from its first write to its commit: the check sees old with old, new with new.
 *
 * Context: rtnl held, and cpus_read_lock in a bind.
 */
void nictl_bindings_lock(void)
{
	ASSERT_RTNL();
	mutex_lock(&nictl_bindings_mutex);
}

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
	kvfree(b->irqs);
	kvfree(b->refs);
	kfree(b);
}

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

/* Copy @dev's queue references into @b->refs, growing it; false: no memory. */
static bool nictl_binding_take_refs(struct nictl_binding *b, const struct nictl_dev *dev)
{
	unsigned int i, n = 0;
	struct nictl_qref *refs;

	for (i = 0; i < dev->n_irqs; i++)
		n = max(n, dev->irqs[i].first_ref + dev->irqs[i].n_refs);
	if (n > b->n_refs) {
		refs = kvcalloc(n, sizeof(*refs), GFP_KERNEL);
		if (!refs)
			return false;
		kvfree(b->refs);
		b->refs = refs;
		b->n_refs = n;
	}
	/* n, not b->n_refs: a device that shrank has fewer. */
	if (n)
		memcpy(b->refs, dev->refs, n * sizeof(*b->refs));
	return true;
}

/* Take what the drift check reports of @b's device and IRQs from @dev. */
static void nictl_binding_learn(struct nictl_binding *b, const struct nictl_dev *dev)
{
	bool refs = nictl_binding_take_refs(b, dev);
	const struct nictl_qirq *q;
	struct nictl_saved_irq *s;
	unsigned int i;

	strscpy(b->ifname, dev->ifname, sizeof(b->ifname));
	/* The parent's and its driver's strings outlive the binding. */
	b->dev.netdev = dev->netdev;
	b->dev.ifname = b->ifname;
	b->dev.driver = dev->driver;
	b->dev.bus_addr = dev->bus_addr;
	b->dev.node = dev->node;
	b->dev.source = dev->source;
	b->dev.bound = true;
	b->dev.refs = b->refs;
	for (i = 0; i < b->n; i++)
		b->irqs[i].live = false;
	for (i = 0; i < dev->n_irqs; i++) {
		s = nictl_binding_irq(b, dev->irqs[i].irq);
		if (!s)
			continue;
		q = &dev->irqs[i];
		s->desc = (struct nictl_saved_desc){
			.queue = q->queue, .kind = q->kind, .group = q->group,
			.first_ref = q->first_ref,
			/* No copy: the drift event names no queue. */
			.n_refs = refs ? q->n_refs : 0,
			.managed = q->managed, .shared = q->shared,
		};
		s->name_hash = nictl_name_hash(q->name);
		/* No action (freed while down): nothing to check. */
		s->live = q->name[0];
	}
}

/**
 * nictl_binding_annotate() - mark which of a device's IRQs nictl has bound
 * @dev: the device, as just discovered
 *
 * The binding learns @dev for the drift check, which cannot discover.
 *
 * Context: rtnl held, the bindings lock not.
 */
void nictl_binding_annotate(struct nictl_dev *dev)
{
	struct nictl_binding *b, *owner;
	struct nictl_saved_irq *s;
	struct nictl_qirq *q;
	unsigned int i;

	mutex_lock(&nictl_bindings_mutex);
	b = nictl_binding_find(dev->netdev);
	dev->bound = b;
	for (i = 0; i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		owner = xa_load(&nictl_owners, q->irq);
		s = owner == b ? nictl_binding_irq(b, q->irq) : NULL;
		q->bound = s;
		q->target_cpu = s ? s->target_cpu : -1;
		q->drifts = s ? s->drifts : 0;
		q->drift_ns = s ? s->drift_ns : 0;
		q->owner_ifindex = owner && owner != b ? owner->netdev->ifindex : 0;
	}
	if (b)
		nictl_binding_learn(b, dev);
	mutex_unlock(&nictl_bindings_mutex);
}

struct net_device *nictl_binding_owner(unsigned int irq)
{
	struct nictl_binding *b = xa_load(&nictl_owners, irq);

	ASSERT_RTNL();
	return b ? (struct net_device *)b->netdev : NULL;
}

/* Take @s out of @b; @b stays listed even when empty. */
static void nictl_binding_remove(struct nictl_binding *b, struct nictl_saved_irq *s)
{
	free_cpumask_var(s->orig);
	free_cpumask_var(s->drift);
	*s = b->irqs[--b->n];
}

static void nictl_binding_unlink(struct nictl_binding *b)
{
	unsigned int i;

	for (i = 0; i < b->n; i++)
		if (xa_load(&nictl_owners, b->irqs[i].irq) == b)
			xa_erase(&nictl_owners, b->irqs[i].irq);
	list_del(&b->list);
	nictl_binding_free(b);
}

/**
 * nictl_binding_forget_irq() - drop an IRQ from a device's binding
 * @netdev: the device
 * @irq: no longer its queue IRQ: the driver freed it; the number may serve another device
 *
 * Context: rtnl held, the bindings lock not.
 */
void nictl_binding_forget_irq(const struct net_device *netdev, unsigned int irq)
{
	struct nictl_binding *b;
	struct nictl_saved_irq *s;

	nictl_bindings_lock();
	b = nictl_binding_find(netdev);
	s = nictl_binding_irq(b, irq);
	if (s) {
		if (xa_load(&nictl_owners, irq) == b)
			xa_erase(&nictl_owners, irq);
		nictl_binding_remove(b, s);
		if (!b->n)
			nictl_binding_unlink(b);
	}
	nictl_bindings_unlock();
}

static void nictl_binding_release(struct nictl_binding *b)
{
	unsigned int i;

	for (i = 0; i < b->n; i++)
		if (b->irqs[i].reserved)
			xa_release(&nictl_owners, b->irqs[i].irq);
	nictl_binding_free(b);
}

static void nictl_saved_irq_inherit(struct nictl_saved_irq *s, const struct nictl_saved_irq *prev)
{
	cpumask_copy(s->orig, prev->orig);
	s->drifts = prev->drifts;
	s->drift_ns = prev->drift_ns;
}

/**
 * nictl_binding_prepare() - allocate the binding a bind will leave behind
 * @dev: the device, with plan_cpu set for the IRQs the bind changes
 * @changes: those changes, in the order of @dev's IRQs
 *
 * All that can fail happens here, before any write, so nictl_binding_commit()
 * cannot. IRQs bound before, by this device or another, keep their original
 * affinity; those no longer queue IRQs of the device are forgotten.
 *
 * Return: the new binding, or NULL when out of memory.
 */
struct nictl_binding *nictl_binding_prepare(const struct nictl_dev *dev,
					    const struct nictl_change *changes)
{
	struct nictl_binding *old = nictl_binding_find(dev->netdev), *owner, *b;
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
	b->kept_by_core = nictl_apply_kept_by_core(dev->netdev);
	b->irqs = kvcalloc(n, sizeof(*b->irqs), GFP_KERNEL);
	if (!b->irqs) {
		kfree(b);
		return NULL;
	}

	for (i = 0; i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		owner = xa_load(&nictl_owners, q->irq);
		prev = nictl_binding_irq(old, q->irq);
		if (q->plan_cpu < 0 && !prev)
			continue;
		if (!prev && owner)
			prev = nictl_binding_irq(owner, q->irq);
		s = &b->irqs[b->n++];
		if (!zalloc_cpumask_var(&s->orig, GFP_KERNEL) ||
		    !zalloc_cpumask_var(&s->drift, GFP_KERNEL))
			goto fail;
		s->irq = q->irq;
		if (!owner) {
			if (xa_reserve(&nictl_owners, q->irq, GFP_KERNEL))
				goto fail;
			s->reserved = true;
		}
		s->target_cpu = q->plan_cpu >= 0 ? q->plan_cpu : prev->target_cpu;
		s->from_change = prev ? -1 : k;
		if (prev)
			nictl_saved_irq_inherit(s, prev);
		if (q->plan_cpu >= 0) {
			WARN_ON_ONCE(changes[k].irq != q->irq);
			k++;
		}
	}
	nictl_binding_learn(b, dev);
	return b;

fail:
	nictl_binding_release(b);
	return NULL;
}

/**
 * nictl_binding_commit() - make a prepared binding the device's binding
 * @b: from nictl_binding_prepare()
 * @changes: the changes just applied; their saved masks are first-time IRQs' originals
 *
 * IRQs the binding takes over leave other devices' bindings.
 *
 * Context: the bindings lock held since before the changes were applied.
 */
void nictl_binding_commit(struct nictl_binding *b, const struct nictl_change *changes)
{
	struct nictl_binding *old = nictl_binding_find(b->netdev), *owner;
	struct nictl_saved_irq *s;
	unsigned int i;

	for (i = 0; i < b->n; i++) {
		s = &b->irqs[i];
		if (s->from_change >= 0)
			cpumask_copy(s->orig, changes[s->from_change].saved);
		owner = xa_load(&nictl_owners, s->irq);
		if (!owner || owner == old)
			continue;
		nictl_binding_remove(owner, nictl_binding_irq(owner, s->irq));
		if (!owner->n)
			nictl_binding_unlink(owner);
	}
	if (old) {
		for (i = 0; i < old->n; i++)
			if (!nictl_binding_irq(b, old->irqs[i].irq))
				xa_erase(&nictl_owners, old->irqs[i].irq);
		list_del(&old->list);
		nictl_binding_free(old);
	}
	/* Every slot is held or reserved: the store allocates nothing. */
	for (i = 0; i < b->n; i++) {
		xa_store(&nictl_owners, b->irqs[i].irq, b, GFP_KERNEL);
		b->irqs[i].reserved = false;
	}
	list_add(&b->list, &nictl_bindings);
}

void nictl_binding_discard(struct nictl_binding *b)
{
	if (b)
		nictl_binding_release(b);
}

/**
 * nictl_binding_restore_changes() - the changes that undo a binding
 * @b: the binding
 * @dev: the device as it is now
 * @changesp: receives the changes (free with nictl_changes_free())
 * @np: receives their number
 *
 * Only IRQs still the device's are restored: the others were freed, their numbers perhaps reused.
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

/* Whether @s has an affinity (read into @found) not reported yet; a drift that ended is forgotten. */
static bool nictl_binding_drifted(struct nictl_saved_irq *s, struct cpumask *found)
{
	/* Pending mask while a move waits: nictl's own move is no drift. */
	if (nictl_irq_masks(s->irq, found, NULL, NULL))
		return false;
	if (cpumask_equal(found, cpumask_of(s->target_cpu))) {
		cpumask_clear(s->drift);
		return false;
	}
	return !cpumask_equal(found, s->drift);
}

/* Report the drift of @s (@name: just read) to @found, once until it has another. */
static void nictl_binding_report(const struct nictl_binding *b, struct nictl_saved_irq *s,
				 const char *name, const struct cpumask *found)
{
	struct nictl_qirq q;

	cpumask_copy(s->drift, found);
	s->drifts++;
	s->drift_ns = ktime_get_ns();
	q = (struct nictl_qirq){
		.irq = s->irq, .queue = s->desc.queue, .kind = s->desc.kind,
		.group = s->desc.group, .first_ref = s->desc.first_ref,
		.n_refs = s->desc.n_refs, .managed = s->desc.managed,
		.shared = s->desc.shared, .bound = true, .drifts = s->drifts,
		.drift_ns = s->drift_ns, .target_cpu = s->target_cpu, .plan_cpu = -1,
	};
	strscpy(q.name, name, sizeof(q.name));
	nictl_event_drift(&b->dev, &q, cpumask_of(s->target_cpu));
}

/* Whether @s is the IRQ of the name it had at the last discovery (read into @name). */
static bool nictl_binding_same_irq(const struct nictl_saved_irq *s, char *name, size_t len)
{
	bool managed, shared;

	return nictl_irq_name(s->irq, name, len, &managed, &shared) &&
	       nictl_name_hash(name) == s->name_hash;
}

/**
 * nictl_bindings_check() - report the drift of every bound IRQ, without rtnl
 * @recheck: receives the devices with a bound IRQ gone or renamed, to discover under rtnl
 * @found: scratch mask
 *
 * A changed IRQ is checked again only once a discovery finds it, so it asks for one discovery.
 * So does a drift of an IRQ whose affinity the core keeps: nictl_binding_confirm() decides; not
 * while its device is down, its NAPIs disabled, when the core could not say before it is up. A
 * device that finds @recheck full is found again the next period.
 */
void nictl_bindings_check(struct nictl_recheck *recheck, struct cpumask *found)
{
	char name[NICTL_IRQ_NAME_LEN];
	struct nictl_saved_irq *s;
	struct nictl_binding *b;
	unsigned int i;

	mutex_lock(&nictl_bindings_mutex);
	list_for_each_entry(b, &nictl_bindings, list) {
		for (i = 0; i < b->n; i++) {
			s = &b->irqs[i];
			if (!s->live)
				continue;
			if (nictl_binding_same_irq(s, name, sizeof(name))) {
				if (!nictl_binding_drifted(s, found))
					continue;
				if (!b->kept_by_core)
					nictl_binding_report(b, s, name, found);
				else if (netif_running(b->netdev))
					nictl_recheck_add(recheck, b->netdev->ifindex);
				continue;
			}
			if (nictl_recheck_add(recheck, b->netdev->ifindex))
				s->live = false;
		}
	}
	mutex_unlock(&nictl_bindings_mutex);
}

/**
 * nictl_binding_confirm() - report the drifts the check left to be confirmed under rtnl
 * @netdev: a device the check found drifted, whose IRQ affinity the core keeps
 *
 * In a reset, such a driver's new IRQs have the default affinity until it enables their NAPIs
 * and the core gives them the kept one: only under the instance lock can the core's NAPIs say
 * whether that is still to come.
 *
 * Context: rtnl and @netdev's instance lock held.
 */
void nictl_binding_confirm(struct net_device *netdev)
{
	char name[NICTL_IRQ_NAME_LEN];
	struct nictl_saved_irq *s;
	struct nictl_binding *b;
	cpumask_var_t found;
	unsigned int i;

	mutex_lock(&nictl_bindings_mutex);
	b = nictl_binding_find(netdev);
	/* Every look comes here: only a binding with drifts to confirm needs the mask. */
	if (!b || !b->kept_by_core || !alloc_cpumask_var(&found, GFP_KERNEL))
		goto out;
	for (i = 0; i < b->n; i++) {
		s = &b->irqs[i];
		if (s->live && nictl_binding_same_irq(s, name, sizeof(name)) &&
		    nictl_binding_drifted(s, found) && !nictl_apply_core_pending(netdev, s->irq))
			nictl_binding_report(b, s, name, found);
	}
	free_cpumask_var(found);
out:
	mutex_unlock(&nictl_bindings_mutex);
}

/* Caller holds rtnl and the bindings lock. */
void nictl_binding_drop(const struct net_device *netdev)
{
	struct nictl_binding *b;

	lockdep_assert_held(&nictl_bindings_mutex);
	b = nictl_binding_find(netdev);

	if (b)
		nictl_binding_unlink(b);
}

/* At module unload. */
void nictl_bindings_drop_all(void)
{
	struct nictl_binding *b, *tmp;

	nictl_bindings_lock();
	list_for_each_entry_safe(b, tmp, &nictl_bindings, list)
		nictl_binding_unlink(b);
	nictl_bindings_unlock();
}
