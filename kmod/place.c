// SPDX-License-Identifier: GPL-2.0
/*
 * Placement: which CPU each queue of a device goes to, and the NUMA and SMT
 * checks. The unit is the queue: the rx and tx IRQs of queue q always share
 * a CPU. Callers hold cpus_read_lock, so the online mask cannot change
 * between these checks and the writes.
 */
#include <linux/slab.h>
#include <linux/topology.h>
#include <net/genetlink.h>

#include "nictl.h"

/**
 * nictl_check_cpu() - may a bind use this CPU?
 * @cpu: the CPU
 * @dev: the device being bound
 * @numa_strict: refuse a CPU off the device's node
 * @attr: the attribute that named the CPU, for extack
 * @extack: where to say why not
 *
 * Return: 0 or -EINVAL.
 */
int nictl_check_cpu(unsigned int cpu, const struct nictl_dev *dev, bool numa_strict,
		    const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u does not exist", cpu);
		return -EINVAL;
	}
	if (!cpu_online(cpu)) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u is offline", cpu);
		return -EINVAL;
	}
	if (numa_strict && dev->node != NUMA_NO_NODE && cpu_to_node(cpu) != dev->node) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u is on node %d, %s is on node %d",
					cpu, cpu_to_node(cpu), dev->netdev->name, dev->node);
		return -EINVAL;
	}
	return 0;
}

/* How many allowed siblings of @cpu come before it: 0 for a core's first. */
static unsigned int nictl_smt_rank(unsigned int cpu, const struct cpumask *allowed)
{
	unsigned int sib, rank = 0;

	for_each_cpu_and(sib, topology_sibling_cpumask(cpu), allowed)
		if (sib < cpu)
			rank++;
	return rank;
}

/**
 * nictl_place_on_set() - spread the device's queues over a CPU set
 * @dev: the device; each IRQ's plan_cpu is set
 * @allowed: the CPUs the user allowed
 * @flags: &enum nictl_bind_flags
 * @attr: the CPU-set attribute, for extack
 * @extack: where to say what is wrong
 *
 * CPUs are ordered first thread of every core, then every core's second
 * thread, and so on, and queue i takes the i-th (wrapping around): distinct
 * physical cores are used before any sibling is.
 *
 * Return: 0, -EINVAL (a CPU or the SMT rule) or -ENOMEM.
 */
int nictl_place_on_set(struct nictl_dev *dev, const struct cpumask *allowed, u32 flags,
		       const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	unsigned int ncpus = cpumask_weight(allowed), nqueues = nictl_dev_queue_count(dev);
	unsigned int ncores = 0, n = 0, rank, cpu, i, slot = 0;
	unsigned int *order;
	int err;

	for_each_cpu(cpu, allowed) {
		err = nictl_check_cpu(cpu, dev, flags & NICTL_BIND_F_NUMA_STRICT, attr, extack);
		if (err)
			return err;
		if (!nictl_smt_rank(cpu, allowed))
			ncores++;
	}
	if ((flags & NICTL_BIND_F_SMT_EXCLUSIVE) && nqueues > ncores) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr,
					"%u queues need %u physical cores, the CPU set has %u",
					nqueues, nqueues, ncores);
		return -EINVAL;
	}

	order = kcalloc(ncpus, sizeof(*order), GFP_KERNEL);
	if (!order)
		return -ENOMEM;
	for (rank = 0; n < ncpus; rank++)
		for_each_cpu(cpu, allowed)
			if (nictl_smt_rank(cpu, allowed) == rank)
				order[n++] = cpu;

	for (i = 0; i < dev->n_irqs; i++) {
		if (i && dev->irqs[i].queue != dev->irqs[i - 1].queue)
			slot++;
		dev->irqs[i].plan_cpu = order[slot % ncpus];
	}
	kfree(order);
	return 0;
}

static int nictl_plan_queue(struct nictl_dev *dev, const struct nlattr *entry,
			    bool numa_strict, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[NICTL_A_QUEUE_CPU_MAX + 1];
	unsigned int queue, cpu, i;
	bool found = false;
	int err;

	/* The op's policy has already validated every entry. */
	err = nla_parse_nested(tb, NICTL_A_QUEUE_CPU_MAX, entry, NULL, extack);
	if (err)
		return err;
	if (!tb[NICTL_A_QUEUE_CPU_QUEUE] || !tb[NICTL_A_QUEUE_CPU_CPU]) {
		NL_SET_ERR_MSG_ATTR(extack, entry, "a queue-cpu entry needs a queue and a cpu");
		return -EINVAL;
	}
	queue = nla_get_u32(tb[NICTL_A_QUEUE_CPU_QUEUE]);
	cpu = nla_get_u32(tb[NICTL_A_QUEUE_CPU_CPU]);
	err = nictl_check_cpu(cpu, dev, numa_strict, tb[NICTL_A_QUEUE_CPU_CPU], extack);
	if (err)
		return err;

	for (i = 0; i < dev->n_irqs; i++) {
		if (dev->irqs[i].queue != queue)
			continue;
		if (dev->irqs[i].plan_cpu >= 0) {
			NL_SET_ERR_MSG_ATTR_FMT(extack, entry, "queue %u is given twice", queue);
			return -EINVAL;
		}
		dev->irqs[i].plan_cpu = cpu;
		found = true;
	}
	if (!found) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, tb[NICTL_A_QUEUE_CPU_QUEUE],
					"%s has no queue %u", dev->netdev->name, queue);
		return -EINVAL;
	}
	return 0;
}

/* Explicit placements must still keep different queues off one core. */
static int nictl_check_smt_exclusive(const struct nictl_dev *dev, struct netlink_ext_ack *extack)
{
	const struct nictl_qirq *a, *b;
	unsigned int i, j;

	for (i = 0; i < dev->n_irqs; i++) {
		a = &dev->irqs[i];
		for (j = i + 1; j < dev->n_irqs; j++) {
			b = &dev->irqs[j];
			if (a->plan_cpu < 0 || b->plan_cpu < 0 || a->queue == b->queue)
				continue;
			if (cpumask_test_cpu(b->plan_cpu, topology_sibling_cpumask(a->plan_cpu))) {
				NL_SET_ERR_MSG_FMT(extack,
						   "queues %u and %u would share the core of CPU %d",
						   a->queue, b->queue, a->plan_cpu);
				return -EINVAL;
			}
		}
	}
	return 0;
}

/**
 * nictl_place_explicit() - take the placement given queue by queue
 * @dev: the device; plan_cpu is set for the queues named
 * @info: the request, holding one or more %NICTL_A_QUEUE_CPU
 * @flags: &enum nictl_bind_flags
 *
 * Return: 0 or -EINVAL.
 */
int nictl_place_explicit(struct nictl_dev *dev, const struct genl_info *info, u32 flags)
{
	const struct nlattr *entry;
	int rem, err;

	nlmsg_for_each_attr(entry, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(entry) != NICTL_A_QUEUE_CPU)
			continue;
		err = nictl_plan_queue(dev, entry, flags & NICTL_BIND_F_NUMA_STRICT, info->extack);
		if (err)
			return err;
	}
	if (flags & NICTL_BIND_F_SMT_EXCLUSIVE)
		return nictl_check_smt_exclusive(dev, info->extack);
	return 0;
}
