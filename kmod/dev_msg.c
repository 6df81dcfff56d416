// SPDX-License-Identifier: GPL-2.0
/* The message describing a device, in replies and events: itself, then one nest per queue IRQ. */
#include <net/genetlink.h>

#include "fault.h"
#include "nictl.h"

/* Room one nest of nictl_put_irq() takes, without what its caller adds to it. */
size_t nictl_irq_nest_size(const struct nictl_qirq *q)
{
	return nla_total_size(0) +				/* NICTL_A_IRQ */
	       nla_total_size(sizeof(u32)) * 9 +		/* NUM QUEUE KIND FLAGS NODE TARGET
								 * GROUP OWNER DRIFTS */
	       nla_total_size_64bit(sizeof(u64)) +		/* DRIFT_NS */
	       nla_total_size(NICTL_IRQ_NAME_LEN) +		/* NAME */
	       nictl_nla_cpumask_size() * 2 +			/* AFFINITY EFFECTIVE */
	       q->n_refs * (nla_total_size(0) +			/* QUEUE_REF */
			    nla_total_size(sizeof(u32)) * 2);	/* QUEUE KIND */
}

size_t nictl_irqs_size(const struct nictl_dev *dev)
{
	size_t size = 0;
	unsigned int i;

	for (i = 0; i < dev->n_irqs; i++)
		size += nictl_irq_nest_size(&dev->irqs[i]);
	return size;
}

size_t nictl_dev_attrs_size(const struct nictl_dev *dev)
{
	return nla_total_size(sizeof(u32)) * 6 +		/* IFINDEX NODE RXQ TXQ FLAGS SOURCE */
	       nla_total_size(IFNAMSIZ) +
	       nla_total_size(dev->netdev->addr_len) +	/* PERM_ADDR */
	       nla_total_size(strlen(dev->driver) + 1) +
	       (dev->bus_addr ? nla_total_size(strlen(dev->bus_addr) + 1) : 0) +
	       nla_total_size(NICTL_STICKY_ID_LEN) +	/* a bind may give it one */
	       nictl_uppers_size() + nictl_netns_id_size();
}

size_t nictl_dev_msg_size(const struct nictl_dev *dev)
{
	return nictl_dev_attrs_size(dev) + nictl_irqs_size(dev);
}

int nictl_put_dev_attrs(struct sk_buff *skb, const struct nictl_dev *dev)
{
	const struct net_device *netdev = dev->netdev;
	u32 flags = (dev->bound ? NICTL_DEV_F_BOUND : 0) |
		    (READ_ONCE(netdev->flags) & IFF_UP ? NICTL_DEV_F_UP : 0) |
		    (dev->sticky_id ? NICTL_DEV_F_STICKY : 0);

	/* Without rtnl (drift events) changing fields are read once each. */
	if (nla_put_u32(skb, NICTL_A_IFINDEX, netdev->ifindex) ||
	    nla_put_string(skb, NICTL_A_IFNAME, dev->ifname) ||
	    nla_put_string(skb, NICTL_A_DRIVER, dev->driver) ||
	    (dev->bus_addr && nla_put_string(skb, NICTL_A_BUS_ADDR, dev->bus_addr)) ||
	    (netdev->addr_len &&
	     nla_put(skb, NICTL_A_PERM_ADDR, netdev->addr_len, netdev->perm_addr)) ||
	    nla_put_s32(skb, NICTL_A_NUMA_NODE, dev->node) ||
	    nla_put_u32(skb, NICTL_A_RX_QUEUES, READ_ONCE(netdev->real_num_rx_queues)) ||
	    nla_put_u32(skb, NICTL_A_TX_QUEUES, READ_ONCE(netdev->real_num_tx_queues)) ||
	    nla_put_u32(skb, NICTL_A_DEV_FLAGS, flags) ||
	    nla_put_u32(skb, NICTL_A_SOURCE, dev->source) ||
	    (dev->sticky_id && nla_put_string(skb, NICTL_A_STICKY_ID, dev->sticky_id)) ||
	    nictl_put_netns_id(skb, netdev))
		return -EMSGSIZE;
	return nictl_put_uppers(skb, dev->netdev);
}

static int nictl_put_qrefs(struct sk_buff *skb, const struct nictl_dev *dev,
			   const struct nictl_qirq *q)
{
	const struct nictl_qref *ref;
	struct nlattr *nest;
	unsigned int k;

	for (k = 0; k < q->n_refs; k++) {
		ref = &dev->refs[q->first_ref + k];
		nest = nla_nest_start(skb, NICTL_A_IRQ_QUEUE_REF);
		if (!nest || nla_put_u32(skb, NICTL_A_QREF_QUEUE, ref->queue) ||
		    nla_put_u32(skb, NICTL_A_QREF_KIND, ref->kind))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* What nictl adds to the kernel's view of an IRQ: its holder, its drifts. */
static int nictl_put_irq_binding(struct sk_buff *skb, const struct nictl_qirq *q)
{
	if ((q->target_cpu >= 0 && nla_put_u32(skb, NICTL_A_IRQ_TARGET_CPU, q->target_cpu)) ||
	    (q->owner_ifindex && nla_put_u32(skb, NICTL_A_IRQ_OWNER, q->owner_ifindex)))
		return -EMSGSIZE;
	if (!q->drifts)
		return 0;
	if (nla_put_u32(skb, NICTL_A_IRQ_DRIFTS, q->drifts) ||
	    nla_put_u64_64bit(skb, NICTL_A_IRQ_DRIFT_NS, q->drift_ns, NICTL_A_IRQ_PAD))
		return -EMSGSIZE;
	return 0;
}

/**
 * nictl_put_irq() - open a %NICTL_A_IRQ nest describing a queue IRQ's state
 * @skb: the message
 * @dev: its device
 * @q: the IRQ
 * @affinity: scratch mask
 * @effective: scratch mask
 *
 * Return: the nest, still open for the caller to add to; NULL (nothing added) if it did not fit.
 */
struct nlattr *nictl_put_irq(struct sk_buff *skb, const struct nictl_dev *dev,
			     const struct nictl_qirq *q, struct cpumask *affinity,
			     struct cpumask *effective)
{
	u32 flags = (q->managed ? NICTL_IRQ_F_MANAGED : 0) | (q->bound ? NICTL_IRQ_F_BOUND : 0) |
		    (q->shared ? NICTL_IRQ_F_SHARED : 0);
	unsigned int first;
	struct nlattr *nest;
	bool pending = false;

	nictl_irq_masks(q->irq, affinity, effective, &pending);
	if (pending)
		flags |= NICTL_IRQ_F_PENDING;
	first = cpumask_first(effective);

	nest = nla_nest_start(skb, NICTL_A_IRQ);
	if (!nest)
		return NULL;
	if (nla_put_u32(skb, NICTL_A_IRQ_NUM, q->irq) ||
	    nla_put_string(skb, NICTL_A_IRQ_NAME, q->name) ||
	    nla_put_u32(skb, NICTL_A_IRQ_QUEUE, q->queue) ||
	    nla_put_u32(skb, NICTL_A_IRQ_KIND, q->kind) ||
	    nictl_nla_put_cpumask(skb, NICTL_A_IRQ_AFFINITY, affinity) ||
	    nictl_nla_put_cpumask(skb, NICTL_A_IRQ_EFFECTIVE, effective) ||
	    nla_put_u32(skb, NICTL_A_IRQ_FLAGS, flags) ||
	    nla_put_u32(skb, NICTL_A_IRQ_GROUP, q->group) ||
	    nla_put_s32(skb, NICTL_A_IRQ_NODE,
			first < nr_cpu_ids ? cpu_to_node(first) : NUMA_NO_NODE) ||
	    nictl_put_irq_binding(skb, q) || nictl_put_qrefs(skb, dev, q)) {
		nla_nest_cancel(skb, nest);
		return NULL;
	}
	return nest;
}

/* The scratch masks nictl_put_irq() takes: both allocated, or neither. */
static bool nictl_scratch_alloc(cpumask_var_t *affinity, cpumask_var_t *effective)
{
	if (alloc_cpumask_var(affinity, GFP_KERNEL) && alloc_cpumask_var(effective, GFP_KERNEL))
		return true;
	free_cpumask_var(*affinity);
	return false;
}

/* @dev's IRQ nests from @from, as many as fit, at most @max (0: no limit). */
static unsigned int nictl_put_irqs(struct sk_buff *skb, const struct nictl_dev *dev,
				   unsigned int from, unsigned int max, struct cpumask *affinity,
				   struct cpumask *effective)
{
	struct nlattr *nest;
	unsigned int i;

	for (i = from; i < dev->n_irqs; i++) {
		if (max && i - from == max)
			break;
		nest = nictl_put_irq(skb, dev, &dev->irqs[i], affinity, effective);
		if (!nest)
			break;
		nla_nest_end(skb, nest);
	}
	return i;
}

/* A nest's length is a u16: a member continues in the next nest (smaller with fault_dump_items). */
static bool nictl_lower_part_full(size_t nest_len, unsigned int n_irqs)
{
	unsigned int max = nictl_fault_dump_items();

	return nest_len > U16_MAX || (max && n_irqs > max);
}

/**
 * nictl_lower_size() - room the %NICTL_A_LOWER nests of a member take
 * @dev: the member
 *
 * Packs the largest possible nests as nictl_put_lower() packs the real ones: never too small.
 *
 * Return: the size.
 */
size_t nictl_lower_size(const struct nictl_dev *dev)
{
	size_t attrs = nictl_dev_attrs_size(dev), part = 0, size = 0, irq;
	unsigned int i, in_part = 0;

	for (i = 0; i < dev->n_irqs; i++) {
		irq = nictl_irq_nest_size(&dev->irqs[i]);
		if (in_part && nictl_lower_part_full(nla_total_size(attrs + part + irq),
						     in_part + 1)) {
			size += nla_total_size(attrs + part);
			part = 0;
			in_part = 0;
		}
		part += irq;
		in_part++;
	}
	return size + nla_total_size(attrs + part);
}

/* One %NICTL_A_LOWER nest of IRQs from @from: returns the next, or -EMSGSIZE (not even one fit). */
static int nictl_put_lower_part(struct sk_buff *skb, const struct nictl_dev *dev,
				unsigned int from, struct cpumask *affinity,
				struct cpumask *effective)
{
	struct nlattr *nest, *irq;
	unsigned int i;

	nest = nla_nest_start(skb, NICTL_A_LOWER);
	if (!nest)
		return -EMSGSIZE;
	if (nictl_put_dev_attrs(skb, dev))
		goto cancel;
	for (i = from; i < dev->n_irqs; i++) {
		irq = nictl_put_irq(skb, dev, &dev->irqs[i], affinity, effective);
		if (!irq)
			goto cancel;
		nla_nest_end(skb, irq);
		if (nictl_lower_part_full(skb_tail_pointer(skb) - (unsigned char *)nest,
					  i - from + 1)) {
			nla_nest_cancel(skb, irq);
			break;
		}
	}
	if (i == from && i < dev->n_irqs)
		goto cancel;
	nla_nest_end(skb, nest);
	return i;
cancel:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

/**
 * nictl_put_lower() - the %NICTL_A_LOWER nest(s) describing all of a member
 * @skb: the message
 * @dev: the member of a stacked device
 *
 * Return: 0, -EMSGSIZE (nothing added) or -ENOMEM.
 */
int nictl_put_lower(struct sk_buff *skb, const struct nictl_dev *dev)
{
	unsigned char *start = skb_tail_pointer(skb);
	cpumask_var_t affinity, effective;
	int next = 0, err;

	if (!nictl_scratch_alloc(&affinity, &effective))
		return -ENOMEM;
	do
		next = nictl_put_lower_part(skb, dev, next, affinity, effective);
	while (next >= 0 && next < dev->n_irqs);
	err = next < 0 ? next : 0;
	if (err)
		nlmsg_trim(skb, start);
	free_cpumask_var(effective);
	free_cpumask_var(affinity);
	return err;
}

/**
 * nictl_dev_fill() - write one message describing a device
 * @skb: the message buffer
 * @dev: the device
 * @portid: netlink port of the requester
 * @seq: sequence number of the request
 * @flags: netlink message flags (NLM_F_MULTI in dumps)
 * @cmd: command to put in the header
 * @cb: the dump this message belongs to, or NULL
 * @next_irq: in: the first IRQ to describe; out: the first that did not fit (dumps continue)
 *
 * Return: 0 when written, even if only some IRQs fit; -EMSGSIZE (nothing written) if none did.
 */
int nictl_dev_fill(struct sk_buff *skb, const struct nictl_dev *dev, u32 portid, u32 seq,
		   int flags, u8 cmd, struct netlink_callback *cb, unsigned int *next_irq)
{
	cpumask_var_t affinity, effective;
	unsigned int max = nictl_fault_dump_items(), i = *next_irq;
	void *hdr;
	int err = -EMSGSIZE;

	if (!nictl_scratch_alloc(&affinity, &effective))
		return -ENOMEM;
	hdr = genlmsg_put(skb, portid, seq, &nictl_family, flags, cmd);
	if (!hdr)
		goto out;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (nictl_put_dev_attrs(skb, dev)) {
		genlmsg_cancel(skb, hdr);
		goto out;
	}
	i = nictl_put_irqs(skb, dev, i, cb ? max : 0, affinity, effective);
	if (i == *next_irq && i < dev->n_irqs) {
		genlmsg_cancel(skb, hdr);
		goto out;
	}
	genlmsg_end(skb, hdr);
	*next_irq = i;
	err = 0;
out:
	free_cpumask_var(effective);
	free_cpumask_var(affinity);
	return err;
}

static int nictl_stacked_fill(struct sk_buff *msg, const struct genl_info *info,
			      const struct nictl_stack *stack)
{
	unsigned int i;
	void *hdr;
	int err;

	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq, &nictl_family, 0,
			  info->genlhdr->cmd);
	if (!hdr)
		return -EMSGSIZE;
	err = nictl_put_stacked_attrs(msg, stack->upper);
	for (i = 0; !err && i < stack->n; i++)
		err = nictl_put_lower(msg, &stack->dev[i]);
	if (err)
		return err;
	genlmsg_end(msg, hdr);
	return 0;
}

/**
 * nictl_stack_reply_new() - room for the reply describing the devices of a request
 * @stack: the device, or the members of the stacked device it named, discovered
 *
 * BIND and RESTORE take it before their first write: once they have written, a reply that could
 * not be allocated would report a failure that is not. The room holds the devices as the request
 * leaves them (a binding, a sticky identity).
 *
 * Return: the message, or NULL.
 */
struct sk_buff *nictl_stack_reply_new(const struct nictl_stack *stack)
{
	size_t size = nictl_uppers_size() + nla_total_size(sizeof(u32)) * 2 +
		      nla_total_size(IFNAMSIZ) * 2;		/* IFINDEX FLAGS IFNAME KIND */
	unsigned int i;

	for (i = 0; i < stack->n; i++)
		size += nictl_lower_size(&stack->dev[i]);
	return genlmsg_new(size, GFP_KERNEL);
}

/**
 * nictl_stack_reply() - fill the reply describing the devices of a request
 * @msg: from nictl_stack_reply_new() for the same devices
 * @info: the request
 * @stack: the device, or the members of the stacked device it named
 *
 * DEV_GET, BIND and RESTORE share one shape; a stacked device is itself plus one
 * %NICTL_A_LOWER nest per member. The reply carries the request's command, as YNL expects.
 *
 * Return: 0, or -EMSGSIZE: a size above is wrong.
 */
int nictl_stack_reply(struct sk_buff *msg, const struct genl_info *info,
		      const struct nictl_stack *stack)
{
	unsigned int next = 0;
	int err;

	if (stack->upper)
		return nictl_stacked_fill(msg, info, stack);
	err = nictl_dev_fill(msg, &stack->dev[0], info->snd_portid, info->snd_seq, 0,
			     info->genlhdr->cmd, NULL, &next);
	return err ?: next < stack->dev[0].n_irqs ? -EMSGSIZE : 0;
}
