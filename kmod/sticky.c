// SPDX-License-Identifier: GPL-2.0
/*
 * Sticky bindings: a bind's request (%NICTL_BIND_F_STICKY) kept under an identity that outlives
 * ifindex, name and IRQ numbers (PCI function and port, or permanent address), and applied again
 * whenever the device's queue IRQs appear or change; unlike a binding (state.c) it outlives its
 * net_device, until RESTORE, a non-sticky bind or unload. Vectors allocated at probe and
 * requested at open (igb, e1000e) are pre-set in between, by their index in the PCI function,
 * so the first interrupt lands right; drivers that allocate and request in one go (virtio_net,
 * igb in ethtool -L) are placed after the request (docs/design.md, Sticky bindings).
 *
 * All of this runs under rtnl; only the count is read without it, by the periodic check, which
 * must run while a sticky binding exists even when nobody listens.
 */
#include <linux/cpu.h>
#include <linux/etherdevice.h>
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "fault.h"
#include "nictl.h"

/**
 * struct nictl_sticky_slot - where one vector of the device's PCI function goes
 * @vector: its position among the function's MSI/MSI-X vectors
 * @cpu: its CPU
 */
struct nictl_sticky_slot {
	unsigned int vector;
	unsigned int cpu;
};

/**
 * struct nictl_sticky - one sticky binding
 * @list: in nictl_stickies
 * @id: the identity it is kept under (%NICTL_A_STICKY_ID)
 * @netdev: the registered device with @id, or NULL while there is none
 * @req: the request it applies, without attributes or extack
 * @n_vectors: the PCI function's vector count at the last apply (another: no pre-set)
 * @n_slots: entries in @slots, 0 when there is nothing to pre-set
 * @slots: the vectors that apply placed, and where
 * @preset: the last pre-set's writes and the masks they replaced, until an apply takes them
 * @n_preset: entries in @preset
 */
struct nictl_sticky {
	struct list_head list;
	char id[NICTL_STICKY_ID_LEN];
	const struct net_device *netdev;
	struct nictl_request req;
	unsigned int n_vectors;
	unsigned int n_slots;
	struct nictl_sticky_slot *slots;
	struct nictl_change *preset;
	unsigned int n_preset;
};

static LIST_HEAD(nictl_stickies);
static unsigned int nictl_sticky_count;

/* A fleet host has a handful of NICs; a runaway client should not grow this. */
static unsigned int nictl_sticky_max = 64;
module_param_named(sticky_max, nictl_sticky_max, uint, 0644);
MODULE_PARM_DESC(sticky_max, "most sticky bindings kept at once (default 64)");

/**
 * nictl_sticky_id() - the identity a device's sticky binding is kept under
 * @netdev: the device
 * @buf: receives it
 * @len: room in @buf, %NICTL_STICKY_ID_LEN
 *
 * Return: 0, or -EOPNOTSUPP: no PCI function and no permanent address.
 */
int nictl_sticky_id(const struct net_device *netdev, char *buf, size_t len)
{
	struct device *pci = nictl_pci_function(netdev);

	if (nictl_fault_one_identity())
		snprintf(buf, len, "pci:fault");
	else if (pci && netdev->dev_port)
		snprintf(buf, len, "pci:%s/port%u", dev_name(pci), netdev->dev_port);
	else if (pci)
		snprintf(buf, len, "pci:%s", dev_name(pci));
	else if (netdev->addr_len && !is_zero_ether_addr(netdev->perm_addr))
		snprintf(buf, len, "mac:%*phC", netdev->addr_len, netdev->perm_addr);
	else
		return -EOPNOTSUPP;
	return 0;
}

static struct nictl_sticky *nictl_sticky_by_id(const char *id)
{
	struct nictl_sticky *s;

	list_for_each_entry(s, &nictl_stickies, list)
		if (!strcmp(s->id, id))
			return s;
	return NULL;
}

static struct nictl_sticky *nictl_sticky_by_dev(const struct net_device *netdev)
{
	struct nictl_sticky *s;

	list_for_each_entry(s, &nictl_stickies, list)
		if (s->netdev == netdev)
			return s;
	return NULL;
}

static struct net_device *nictl_sticky_twin_in(struct net *net, const struct net_device *netdev,
					       const char *id)
{
	char other_id[NICTL_STICKY_ID_LEN];
	struct net_device *other;

	for_each_netdev(net, other)
		if (other != netdev && !nictl_sticky_id(other, other_id, sizeof(other_id)) &&
		    !strcmp(other_id, id))
			return other;
	return NULL;
}

/* Another device with identity @id, in any netns: a moved VF keeps it. */
static struct net_device *nictl_sticky_twin(const struct net_device *netdev, const char *id)
{
	struct net_device *twin = NULL;
	struct net *net;

	/* Taken last: the walk takes nothing else. */
	down_read(&net_rwsem);
	for_each_net(net) {
		twin = nictl_sticky_twin_in(net, netdev, id);
		if (twin)
			break;
	}
	up_read(&net_rwsem);
	return twin;
}

/* Caller holds rtnl for as long as the string is used. */
const char *nictl_sticky_of(const struct net_device *netdev)
{
	struct nictl_sticky *s;

	ASSERT_RTNL();
	s = nictl_sticky_by_dev(netdev);
	return s ? s->id : NULL;
}

/**
 * nictl_sticky_prepare() - check that a bind may be sticky, and make its sticky binding
 * @netdev: the device being bound
 * @req: the request; its extack says why not
 * @added: the new identities the request has prepared so far (a bond's ports), counted up
 *	when this is one more
 *
 * Return: the sticky binding, or ERR_PTR(-EOPNOTSUPP: no identity; -EEXIST:
 * another device has it; -ENOSPC: sticky_max reached; -ENOMEM).
 */
struct nictl_sticky *nictl_sticky_prepare(const struct net_device *netdev,
					  const struct nictl_request *req, unsigned int *added)
{
	struct net_device *twin;
	struct nictl_sticky *s;
	bool new;
	int err;

	ASSERT_RTNL();
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	err = nictl_sticky_id(netdev, s->id, sizeof(s->id));
	if (err) {
		NL_SET_ERR_MSG_FMT(req->extack,
				   "%s has no PCI function or permanent address to stick to",
				   netdev->name);
		goto free;
	}
	twin = nictl_sticky_twin(netdev, s->id);
	if (twin) {
		NL_SET_ERR_MSG_FMT(req->extack, "%s is also %s: no sticky binding",
				   twin->name, s->id);
		err = -EEXIST;
		goto free;
	}
	/* Replacing the device's own takes no new room. */
	new = !nictl_sticky_by_id(s->id);
	if (new && nictl_sticky_count + *added >= READ_ONCE(nictl_sticky_max)) {
		NL_SET_ERR_MSG_FMT(req->extack,
				   "nictl keeps %u sticky bindings at most (sticky_max)",
				   READ_ONCE(nictl_sticky_max));
		err = -ENOSPC;
		goto free;
	}
	err = nictl_request_copy(&s->req, req);
	if (!err) {
		*added += new;
		return s;
	}
free:
	kfree(s);
	return ERR_PTR(err);
}

static void nictl_sticky_forget_preset(struct nictl_sticky *s)
{
	nictl_changes_free(s->preset, s->n_preset);
	s->preset = NULL;
	s->n_preset = 0;
}

static void nictl_sticky_free(struct nictl_sticky *s)
{
	nictl_sticky_forget_preset(s);
	kfree(s->slots);
	nictl_request_free(&s->req);
	kfree(s);
}

static void nictl_sticky_remove(struct nictl_sticky *s)
{
	list_del(&s->list);
	WRITE_ONCE(nictl_sticky_count, nictl_sticky_count - 1);
	nictl_sticky_free(s);
}

/**
 * nictl_sticky_commit() - keep a prepared sticky binding, replacing its identity's old one
 * @s: from nictl_sticky_prepare()
 * @netdev: the device it was just applied to
 */
void nictl_sticky_commit(struct nictl_sticky *s, const struct net_device *netdev)
{
	struct nictl_sticky *old = nictl_sticky_by_id(s->id);

	ASSERT_RTNL();
	if (old)
		nictl_sticky_remove(old);
	s->netdev = netdev;
	list_add_tail(&s->list, &nictl_stickies);
	WRITE_ONCE(nictl_sticky_count, nictl_sticky_count + 1);
}

void nictl_sticky_discard(struct nictl_sticky *s)
{
	if (!IS_ERR_OR_NULL(s))
		nictl_sticky_free(s);
}

bool nictl_sticky_drop(const struct net_device *netdev)
{
	struct nictl_sticky *s;

	ASSERT_RTNL();
	s = nictl_sticky_by_dev(netdev);
	if (s)
		nictl_sticky_remove(s);
	return s;
}

/**
 * nictl_sticky_detach() - keep a device's sticky binding for the next one with its identity
 * @netdev: the device, unregistering
 */
void nictl_sticky_detach(const struct net_device *netdev)
{
	struct nictl_sticky *s;

	ASSERT_RTNL();
	s = nictl_sticky_by_dev(netdev);
	if (s) {
		s->netdev = NULL;
		nictl_sticky_forget_preset(s);
	}
}

/* At module unload. */
void nictl_sticky_drop_all(void)
{
	struct nictl_sticky *s, *tmp;

	ASSERT_RTNL();
	list_for_each_entry_safe(s, tmp, &nictl_stickies, list)
		nictl_sticky_remove(s);
}

/* Read without rtnl: a hint, good enough to keep the periodic check running. */
bool nictl_sticky_any(void)
{
	return READ_ONCE(nictl_sticky_count);
}

/*
 * @netdev's sticky binding: its own, else an unattached one with its identity, which it takes.
 * One attached to another device with its identity stays there, that device in @twin.
 */
static struct nictl_sticky *nictl_sticky_attach(const struct net_device *netdev,
						const struct net_device **twin)
{
	char id[NICTL_STICKY_ID_LEN];
	struct nictl_sticky *s;

	*twin = NULL;
	s = nictl_sticky_by_dev(netdev);
	if (s || list_empty(&nictl_stickies) || nictl_sticky_id(netdev, id, sizeof(id)))
		return s;
	s = nictl_sticky_by_id(id);
	if (s && s->netdev)
		*twin = s->netdev;
	else if (s)
		s->netdev = netdev;
	return s;
}

/**
 * nictl_sticky_request() - the request of a device's sticky binding, or NULL
 * @netdev: the device, whose queue IRQs may have appeared or changed
 * @id: receives the identity it is kept under
 * @twin: receives another device that holds it (then not @netdev's to apply), or NULL
 *
 * Context: rtnl held while the request is used.
 *
 * Return: the request, or NULL when the device has no sticky binding.
 */
struct nictl_request *nictl_sticky_request(const struct net_device *netdev, const char **id,
					   const struct net_device **twin)
{
	struct nictl_sticky *s;

	ASSERT_RTNL();
	s = nictl_sticky_attach(netdev, twin);
	*id = s ? s->id : NULL;
	return s ? &s->req : NULL;
}

static void nictl_copy_saved(struct nictl_change *to, unsigned int n_to,
			     const struct nictl_change *from, unsigned int n_from)
{
	unsigned int i, j;

	for (i = 0; i < n_to; i++)
		for (j = 0; j < n_from; j++)
			if (to[i].irq == from[j].irq)
				cpumask_copy(to[i].saved, from[j].saved);
}

/**
 * nictl_sticky_originals() - give an apply's changes the masks the last pre-set replaced
 * @netdev: the device just applied to
 * @changes: the apply's changes
 * @n: how many
 *
 * Context: before the binding is committed.
 */
void nictl_sticky_originals(const struct net_device *netdev, struct nictl_change *changes,
			    unsigned int n)
{
	struct nictl_sticky *s = nictl_sticky_by_dev(netdev);

	if (!s || !s->n_preset)
		return;
	nictl_copy_saved(changes, n, s->preset, s->n_preset);
	nictl_sticky_forget_preset(s);
}

static int nictl_vector_of(const unsigned int *vectors, unsigned int n, unsigned int irq)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (vectors[i] == irq)
			return i;
	return -1;
}

/* All of @pci's vectors in a new array (kfree it); NULL: none or no memory. */
static unsigned int *nictl_vectors(struct device *pci, unsigned int *n)
{
	unsigned int *vectors;

	*n = pci ? nictl_msi_vectors(pci, NULL, 0) : 0;
	if (!*n)
		return NULL;
	vectors = kcalloc(*n, sizeof(*vectors), GFP_KERNEL);
	/* Vectors come and go under rtnl only: the count stays. */
	if (vectors)
		nictl_msi_vectors(pci, vectors, *n);
	return vectors;
}

/**
 * nictl_sticky_learn() - remember where an apply put the vectors, for the next pre-set
 * @dev: the device, with the plan just applied
 *
 * Context: the device's instance lock held too.
 */
void nictl_sticky_learn(const struct nictl_dev *dev)
{
	struct nictl_sticky *s = nictl_sticky_by_dev(dev->netdev);
	struct nictl_sticky_slot *slots;
	unsigned int *vectors, n, i, k = 0;
	struct device *pci;
	int v;

	if (!s)
		return;
	kfree(s->slots);
	s->slots = NULL;
	s->n_slots = 0;
	pci = nictl_pci_function(dev->netdev);
	vectors = nictl_vectors(pci, &n);
	slots = vectors ? kcalloc(dev->n_irqs, sizeof(*slots), GFP_KERNEL) : NULL;
	/* No PCI function (IRQs found by NAPI links alone), or no vector. */
	if (!slots)
		goto out;
	for (i = 0; i < dev->n_irqs; i++) {
		if (dev->irqs[i].plan_cpu < 0)
			continue;
		v = nictl_vector_of(vectors, n, dev->irqs[i].irq);
		if (v < 0)
			goto out;
		slots[k++] = (struct nictl_sticky_slot){ .vector = v, .cpu = dev->irqs[i].plan_cpu };
	}
	s->slots = slots;
	s->n_slots = k;
	s->n_vectors = n;
	slots = NULL;
out:
	kfree(slots);
	kfree(vectors);
}

/* Pre-set the learned vectors if as many exist and none is requested; keep the masks replaced. */
static void nictl_sticky_preset_vectors(struct nictl_sticky *s, struct net_device *netdev)
{
	struct netlink_ext_ack extack = {};
	struct nictl_change *changes;
	bool managed, shared;
	unsigned int *vectors, n, i;
	char name[NICTL_IRQ_NAME_LEN];
	int err;

	vectors = nictl_vectors(nictl_pci_function(netdev), &n);
	changes = vectors && n == s->n_vectors ? nictl_changes_alloc(s->n_slots) : NULL;
	for (i = 0; changes && i < s->n_slots; i++) {
		changes[i].irq = vectors[s->slots[i].vector];
		changes[i].name = "a vector not yet requested";
		cpumask_set_cpu(s->slots[i].cpu, changes[i].target);
		/* Requested: too late, the apply that follows places it. */
		if (nictl_irq_name(changes[i].irq, name, sizeof(name), &managed, &shared))
			goto out;
	}
	if (!changes)
		goto out;
	cpus_read_lock();
	err = nictl_apply(changes, s->n_slots, false, &extack);
	cpus_read_unlock();
	if (err) {
		/* The apply at open tries again, and reports. */
		pr_debug("%s: no pre-set of %s: %s\n", netdev->name, s->id, extack._msg ?: "");
		goto out;
	}
	/* After REGISTER's pre-set, PRE_UP's saved masks are nictl's own. */
	nictl_copy_saved(changes, s->n_slots, s->preset, s->n_preset);
	nictl_sticky_forget_preset(s);
	s->preset = changes;
	s->n_preset = s->n_slots;
	changes = NULL;
out:
	nictl_changes_free(changes, s->n_slots);
	kfree(vectors);
}

/**
 * nictl_sticky_preset() - give vectors not yet requested the CPUs the last apply gave them
 * @netdev: the device, at NETDEV_REGISTER or NETDEV_PRE_UP
 *
 * Not for a bound device: free_irq() keeps its affinities over a reopen.
 * Vectors already requested are placed by nictl_bind_sticky() instead.
 */
void nictl_sticky_preset(struct net_device *netdev)
{
	const struct net_device *twin;
	struct nictl_sticky *s;

	ASSERT_RTNL();
	s = nictl_sticky_attach(netdev, &twin);
	if (s && !twin && s->n_slots && !nictl_binding_find(netdev))
		nictl_sticky_preset_vectors(s, netdev);
}

/**
 * nictl_sticky_undo_preset() - put back the masks of a pre-set no apply followed
 * @netdev: the device, whose sticky binding is being dropped or failed
 *
 * Context: cpus_read_lock held.
 */
void nictl_sticky_undo_preset(const struct net_device *netdev)
{
	struct nictl_sticky *s = nictl_sticky_by_dev(netdev);
	unsigned int i;

	for (i = 0; s && i < s->n_preset; i++)
		cpumask_copy(s->preset[i].target, s->preset[i].saved);
	if (s && s->n_preset && nictl_apply(s->preset, s->n_preset, false, NULL))
		pr_notice("%s: could not put back the masks of the pre-set of %s\n",
			  netdev->name, s->id);
	if (s)
		nictl_sticky_forget_preset(s);
}
