// SPDX-License-Identifier: GPL-2.0
/*
 * The early placement of sticky bindings (x86): a vector gets its CPU when
 * its driver allocates it, before the driver can request it. It is for the
 * drivers that no notifier point comes before: virtio_net allocates and
 * requests at probe, before it registers; igb allocates anew inside
 * `ethtool -L` and when VFs are made. The x86 vector domain's tracepoint
 * vector_activate fires with @reserve set once for each vector allocated in
 * reservation mode (every MSI-X vector, and MSI with a mask bit), while it
 * is not yet activated for real: an affinity written then is stored, and
 * the request takes its vector from it, so the IRQ's first interrupt comes
 * on that CPU, with interrupt remapping or without.
 *
 * A tracepoint probe may not sleep, and the allocating thread may hold
 * rtnl, the device lock or the MSI descriptor lock: the probe takes none of
 * nictl's mutexes. It reads layouts published under RCU (a PCI function,
 * and for each vector position the CPU the sticky binding's last apply gave
 * it) and records, under a raw spinlock, what it wrote and the mask that
 * write replaced, until the sticky binding takes the record under rtnl as a
 * pre-set (nictl_early_take()). A layout changes only under rtnl.
 *
 * A vector past those the function had at the last apply (`ethtool -L` to
 * more queues) has no position in the layout: it gets all the CPUs the
 * layout uses, and x86 picks one of them, until the apply after the request
 * gives it its own.
 */
#include <linux/cpumask.h>
#include <linux/irq.h>
#include <linux/moduleparam.h>
#include <linux/msi.h>
#include <linux/pci.h>
#include <linux/rculist.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <asm/trace/irq_vectors.h>

#include "nictl.h"

/* Records for vectors past the layout's; more are placed by the apply only. */
#define NICTL_EARLY_EXTRA	16

/**
 * struct nictl_early_slot - one vector position of a layout
 * @vector: the position among the function's vectors; for a record past
 *	the layout, the one written, or %UINT_MAX when free
 * @cpu: its CPU, or -1 for all the layout's (past the layout)
 * @irq: the IRQ the probe last wrote to, 0 when none since the last take
 * @saved: the mask that write replaced
 */
struct nictl_early_slot {
	unsigned int vector;
	int cpu;
	unsigned int irq;
	cpumask_var_t saved;
};

/**
 * struct nictl_early - the layout of one sticky binding, for the probe
 * @list: in nictl_early_layouts, under RCU
 * @rcu: frees it
 * @function: the PCI function's name, as dev_name() gives it
 * @n_vectors: how many vectors the function had then
 * @all: every CPU of the layout, for a vector past @n_vectors
 * @lock: guards the slots' @vector (past the layout), @irq and @saved
 * @n_slots: entries in @slots: the layout's, then %NICTL_EARLY_EXTRA
 *	records for vectors past it
 * @slots: the positions the binding's last apply placed
 */
struct nictl_early {
	struct list_head list;
	struct rcu_head rcu;
	char function[NICTL_STICKY_ID_LEN];
	unsigned int n_vectors;
	cpumask_var_t all;
	raw_spinlock_t lock;
	unsigned int n_slots;
	struct nictl_early_slot slots[];
};

static LIST_HEAD(nictl_early_layouts);
static struct tracepoint *nictl_vector_activate;

static bool nictl_sticky_early = true;
module_param_named(sticky_early, nictl_sticky_early, bool, 0444);
MODULE_PARM_DESC(sticky_early,
		 "place a sticky binding's vectors when they are allocated (x86; default Y; N when the kernel's vector_activate tracepoint cannot be used)");

static const struct cpumask *nictl_early_target(const struct nictl_early *e,
						const struct nictl_early_slot *slot)
{
	return slot->cpu < 0 ? e->all : cpumask_of(slot->cpu);
}

/*
 * The slot for position @pos: the layout's, or past the layout a record
 * that is free or was for @pos; NULL when there is none. Called with
 * @e->lock held.
 */
static struct nictl_early_slot *nictl_early_slot(struct nictl_early *e, unsigned int pos)
{
	struct nictl_early_slot *free = NULL;
	unsigned int i;

	for (i = 0; i < e->n_slots; i++) {
		if (e->slots[i].vector == pos)
			return &e->slots[i];
		if (e->slots[i].vector == UINT_MAX && !free)
			free = &e->slots[i];
	}
	if (pos < e->n_vectors || !free)
		return NULL;
	free->vector = pos;
	return free;
}

/* Give @irq, at position @pos of @e's function, the CPUs @e has for it. */
static void nictl_early_place(struct nictl_early *e, unsigned int pos, unsigned int irq,
			      struct irq_data *d)
{
	struct nictl_early_slot *slot;
	const struct cpumask *target;
	unsigned long flags;

	raw_spin_lock_irqsave(&e->lock, flags);
	slot = nictl_early_slot(e, pos);
	if (slot) {
		/* An earlier write not taken yet was to a vector this one replaces. */
		slot->irq = 0;
		cpumask_copy(slot->saved, irq_data_get_affinity_mask(d));
	}
	raw_spin_unlock_irqrestore(&e->lock, flags);
	if (!slot)
		return;
	target = nictl_early_target(e, slot);
	if (nictl_irq_set_affinity(irq, target))
		return;
	raw_spin_lock_irqsave(&e->lock, flags);
	slot->irq = irq;
	raw_spin_unlock_irqrestore(&e->lock, flags);
}

/*
 * The probe. Only an allocation reserves, and it holds no descriptor lock
 * (a request does: with @reserve clear this returns at once). A managed
 * vector's affinity is the kernel's.
 */
static void nictl_vector_activated(void *data, unsigned int irq, bool is_managed,
				   bool can_reserve, bool reserve)
{
	struct msi_desc *desc;
	struct nictl_early *e;
	struct irq_data *d;
	unsigned int pos;

	if (!reserve || is_managed)
		return;
	d = irq_get_irq_data(irq);
	desc = d ? irq_data_get_msi_desc(d) : NULL;
	if (!desc || !desc->dev || !dev_is_pci(desc->dev) || irq < desc->irq ||
	    irq - desc->irq >= desc->nvec_used)
		return;
	/* A stored mask, never a chip call on a vector that is not active. */
	if (irqd_is_activated(d) || !irqd_affinity_on_activate(d))
		return;
	pos = nictl_msi_desc_index(desc) + irq - desc->irq;
	rcu_read_lock();
	/*
	 * A layout with a CPU offline places no vector, rather than some: the
	 * apply after the request fails as a whole, and the device is left as
	 * its driver makes it.
	 */
	list_for_each_entry_rcu(e, &nictl_early_layouts, list)
		if (!strcmp(e->function, dev_name(desc->dev)) &&
		    cpumask_subset(e->all, cpu_online_mask))
			nictl_early_place(e, pos, irq, d);
	rcu_read_unlock();
}

static void nictl_early_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "vector_activate"))
		nictl_vector_activate = tp;
}

/**
 * nictl_early_init() - attach the probe, unless the parameter says not to
 *
 * Without the tracepoint the module works on, placing vectors at the
 * notifier's points only; the parameter then reads N.
 */
void nictl_early_init(void)
{
	int err = -ENOENT;

	check_trace_callback_type_vector_activate(nictl_vector_activated);
	if (!nictl_sticky_early)
		return;
	for_each_kernel_tracepoint(nictl_early_find, NULL);
	if (nictl_vector_activate)
		err = tracepoint_probe_register(nictl_vector_activate, nictl_vector_activated,
						NULL);
	if (err) {
		pr_notice("sticky bindings place vectors after the request only: vector_activate: %d\n",
			  err);
		nictl_sticky_early = false;
	}
}

/**
 * nictl_early_exit() - detach the probe and wait for the layouts' frees
 *
 * Context: every layout unpublished.
 */
void nictl_early_exit(void)
{
	if (nictl_sticky_early) {
		tracepoint_probe_unregister(nictl_vector_activate, nictl_vector_activated, NULL);
		tracepoint_synchronize_unregister();
	}
	rcu_barrier();
}

static void nictl_early_free(struct nictl_early *e)
{
	unsigned int i;

	for (i = 0; i < e->n_slots; i++)
		free_cpumask_var(e->slots[i].saved);
	free_cpumask_var(e->all);
	kfree(e);
}

static void nictl_early_free_rcu(struct rcu_head *rcu)
{
	nictl_early_free(container_of(rcu, struct nictl_early, rcu));
}

/**
 * nictl_early_publish() - let the probe place a function's future vectors
 * @function: the PCI function's name
 * @n_vectors: how many vectors the function had then
 * @slots: where the sticky binding's last apply put each vector position
 * @n: entries in @slots
 *
 * Context: rtnl held.
 * Return: the layout, for nictl_early_unpublish(); NULL when the probe is
 * off, there is nothing to place or no memory (then the notifier's points
 * place the vectors, later).
 */
struct nictl_early *nictl_early_publish(const char *function, unsigned int n_vectors,
					const struct nictl_sticky_slot *slots, unsigned int n)
{
	struct nictl_early *e;
	unsigned int i;

	ASSERT_RTNL();
	if (!nictl_sticky_early || !n)
		return NULL;
	e = kzalloc(struct_size(e, slots, n + NICTL_EARLY_EXTRA), GFP_KERNEL);
	if (!e)
		return NULL;
	e->n_slots = n + NICTL_EARLY_EXTRA;
	for (i = 0; i < e->n_slots; i++) {
		if (!zalloc_cpumask_var(&e->slots[i].saved, GFP_KERNEL))
			goto free;
		e->slots[i].vector = i < n ? slots[i].vector : UINT_MAX;
		e->slots[i].cpu = i < n ? slots[i].cpu : -1;
	}
	if (!zalloc_cpumask_var(&e->all, GFP_KERNEL))
		goto free;
	for (i = 0; i < n; i++)
		cpumask_set_cpu(slots[i].cpu, e->all);
	strscpy(e->function, function, sizeof(e->function));
	e->n_vectors = n_vectors;
	raw_spin_lock_init(&e->lock);
	list_add_rcu(&e->list, &nictl_early_layouts);
	return e;
free:
	nictl_early_free(e);
	return NULL;
}

/**
 * nictl_early_unpublish() - stop placing by a layout and free it
 * @e: from nictl_early_publish(), or NULL
 *
 * Context: rtnl held.
 */
void nictl_early_unpublish(struct nictl_early *e)
{
	ASSERT_RTNL();
	if (!e)
		return;
	list_del_rcu(&e->list);
	call_rcu(&e->rcu, nictl_early_free_rcu);
}

/*
 * Whether @irq's affinity is still what the probe gave it; a driver that
 * set its own after the request (virtio_net does) made that the original.
 */
static bool nictl_early_kept(unsigned int irq, const struct cpumask *target)
{
	struct irq_data *d;
	unsigned long flags;
	bool pending, kept;

	d = nictl_irq_lock(irq, &flags);
	if (!d)
		return false;
	kept = cpumask_equal(nictl_irq_affinity(d, &pending), target);
	nictl_irq_unlock(d, flags);
	return kept;
}

/* Keep the first @n of @changes' @max entries. */
static void nictl_early_trim(struct nictl_change *changes, unsigned int n, unsigned int max)
{
	while (max-- > n) {
		free_cpumask_var(changes[max].target);
		free_cpumask_var(changes[max].saved);
	}
}

/**
 * nictl_early_take() - what the probe wrote since the last take, as changes
 * @e: the layout, or NULL
 * @n: set to how many changes are returned
 *
 * Each change has the IRQ written, the CPUs it was given as target and the
 * mask the write replaced as saved. A write another writer has replaced
 * since is left out.
 *
 * Context: rtnl held.
 * Return: an array from nictl_changes_alloc() of @n, or NULL when @n is 0
 * (or no memory: the writes stay for the next take).
 */
struct nictl_change *nictl_early_take(struct nictl_early *e, unsigned int *n)
{
	struct nictl_early_slot *slot;
	struct nictl_change *changes;
	unsigned int i, max = 0;
	unsigned long flags;

	*n = 0;
	for (i = 0; e && i < e->n_slots; i++)
		max += !!READ_ONCE(e->slots[i].irq);
	changes = max ? nictl_changes_alloc(max) : NULL;
	for (i = 0; changes && i < e->n_slots && *n < max; i++) {
		slot = &e->slots[i];
		raw_spin_lock_irqsave(&e->lock, flags);
		changes[*n].irq = slot->irq;
		cpumask_copy(changes[*n].saved, slot->saved);
		cpumask_copy(changes[*n].target, nictl_early_target(e, slot));
		slot->irq = 0;
		if (slot->cpu < 0)
			slot->vector = UINT_MAX;
		raw_spin_unlock_irqrestore(&e->lock, flags);
		if (!changes[*n].irq || !nictl_early_kept(changes[*n].irq, changes[*n].target))
			continue;
		changes[*n].name = "a vector placed at its allocation";
		(*n)++;
	}
	nictl_early_trim(changes, *n, max);
	if (!*n) {
		kfree(changes);
		return NULL;
	}
	return changes;
}
