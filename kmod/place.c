// SPDX-License-Identifier: GPL-2.0
/* Placement of IRQ groups; callers hold cpus_read_lock, so online CPUs stay as checked. */
#include <linux/slab.h>
#include <linux/topology.h>
#include <net/genetlink.h>

#include "nictl.h"

/* Nodes NUMA-strict allows for @node: itself if it has online CPUs, else the nearest that do. */
static void nictl_near_nodes(int node, nodemask_t *near)
{
	int n, d, best = INT_MAX;

	nodes_clear(*near);
	for_each_online_node(n) {
		if (!cpumask_intersects(cpumask_of_node(n), cpu_online_mask))
			continue;
		d = node_distance(node, n);
		if (d < best) {
			nodes_clear(*near);
			best = d;
		}
		if (d == best)
			node_set(n, *near);
	}
}

/**
 * nictl_check_cpu() - may a bind use this CPU?
 * @cpu: the CPU
 * @dev: the device being bound
 * @numa_strict: refuse CPUs off the device's node (see nictl_near_nodes())
 * @attr: the attribute that named the CPU, for extack
 * @extack: where to say why not
 *
 * Context: cpus_read_lock held.
 * Return: 0 or -EINVAL.
 */
int nictl_check_cpu(unsigned int cpu, const struct nictl_dev *dev, bool numa_strict,
		    const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	nodemask_t near;

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu)) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u does not exist", cpu);
		return -EINVAL;
	}
	if (!cpu_online(cpu)) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u is offline", cpu);
		return -EINVAL;
	}
	if (!numa_strict || dev->node == NUMA_NO_NODE || cpu_to_node(cpu) == dev->node)
		return 0;
	nictl_near_nodes(dev->node, &near);
	if (node_isset(cpu_to_node(cpu), near) && !node_isset(dev->node, near))
		return 0;
	if (node_isset(dev->node, near))
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "CPU %u is on node %d, %s is on node %d",
					cpu, cpu_to_node(cpu), dev->netdev->name, dev->node);
	else
		/* Within the 80 characters of a formatted extack. */
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr,
					"CPU %u is on node %d; %s's node %d has no CPU, nearest: %*pbl",
					cpu, cpu_to_node(cpu), dev->netdev->name, dev->node,
					nodemask_pr_args(&near));
	return -EINVAL;
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

/* "4 queues" where every group is one queue, else how the queues share IRQs. */
static const char *nictl_units(const struct nictl_dev *dev, char *buf, size_t len)
{
	unsigned int i, k, queues = 0;

	/* Active queues are numbered from 0 up. */
	for (i = 0; i < dev->n_irqs; i++)
		for (k = 0; k < dev->irqs[i].n_refs; k++)
			queues = max(queues, dev->refs[dev->irqs[i].first_ref + k].queue + 1);
	if (queues == dev->n_groups)
		snprintf(buf, len, "%u queues", queues);
	else
		snprintf(buf, len, "%u queues on %u groups of shared IRQs", queues, dev->n_groups);
	return buf;
}

/**
 * nictl_place_on_set() - spread the device's IRQ groups over a CPU set
 * @dev: the device; each IRQ's plan_cpu is set
 * @allowed: the CPUs the user allowed
 * @flags: &enum nictl_bind_flags
 * @offset: groups of the request's other devices placed on this set before
 * @attr: the CPU-set attribute, for extack
 * @extack: where to say what is wrong
 *
 * CPUs are ordered every core's first thread, then every second thread, and so on; group i
 * takes the (@offset + i)-th, wrapping: distinct cores before any sibling, across members too.
 *
 * Return: 0, -EINVAL (a CPU or the SMT rule) or -ENOMEM.
 */
int nictl_place_on_set(struct nictl_dev *dev, const struct cpumask *allowed, u32 flags,
		       unsigned int offset, const struct nlattr *attr,
		       struct netlink_ext_ack *extack)
{
	unsigned int ncpus = cpumask_weight(allowed), ncores = 0, n = 0, rank, cpu, i;
	unsigned int *order;
	char units[64];
	int err;

	for_each_cpu(cpu, allowed) {
		err = nictl_check_cpu(cpu, dev, flags & NICTL_BIND_F_NUMA_STRICT, attr, extack);
		if (err)
			return err;
		if (!nictl_smt_rank(cpu, allowed))
			ncores++;
	}
	if ((flags & NICTL_BIND_F_SMT_EXCLUSIVE) && offset + dev->n_groups > ncores) {
		if (offset)
			NL_SET_ERR_MSG_ATTR_FMT(extack, attr,
						"%s's %s and %u before need %u cores, %u there",
						dev->netdev->name,
						nictl_units(dev, units, sizeof(units)), offset,
						offset + dev->n_groups, ncores);
		else
			NL_SET_ERR_MSG_ATTR_FMT(extack, attr,
						"%s need %u physical cores, the CPU set has %u",
						nictl_units(dev, units, sizeof(units)),
						dev->n_groups, ncores);
		return -EINVAL;
	}

	order = kvcalloc(ncpus, sizeof(*order), GFP_KERNEL);
	if (!order)
		return -ENOMEM;
	for (rank = 0; n < ncpus; rank++)
		for_each_cpu(cpu, allowed)
			if (nictl_smt_rank(cpu, allowed) == rank)
				order[n++] = cpu;

	for (i = 0; i < dev->n_irqs; i++)
		dev->irqs[i].plan_cpu = order[(offset + dev->irqs[i].group) % ncpus];
	kvfree(order);
	return 0;
}

/* A queue of @group other than @queue named before, for the message; *@cpu: the group's CPU. */
static const struct nictl_qref *nictl_group_named(const struct nictl_dev *dev,
						  unsigned int group, unsigned int queue,
						  const unsigned long *named, int *cpu)
{
	const struct nictl_qref *ref;
	unsigned int i, k;

	for (i = 0; i < dev->n_irqs; i++) {
		if (dev->irqs[i].group != group)
			continue;
		*cpu = dev->irqs[i].plan_cpu;
		for (k = 0; k < dev->irqs[i].n_refs; k++) {
			ref = &dev->refs[dev->irqs[i].first_ref + k];
			if (ref->queue != queue && test_bit(ref->queue, named))
				return ref;
		}
	}
	return NULL;
}

static int nictl_plan_queue(struct nictl_dev *dev, const struct nictl_queue_place *place,
			    bool numa_strict, unsigned long *named,
			    struct netlink_ext_ack *extack)
{
	const struct nictl_qref *other;
	int group, err, other_cpu;

	err = nictl_check_cpu(place->cpu, dev, numa_strict, place->cpu_attr, extack);
	if (err)
		return err;

	group = nictl_qirqs_group_of(dev->irqs, dev->n_irqs, dev->refs, place->queue);
	if (group < 0) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, place->queue_attr, "%s has no queue %u",
					dev->netdev->name, place->queue);
		return -EINVAL;
	}
	/* A group's queues are active ones, below the bitmap's end. */
	if (__test_and_set_bit(place->queue, named)) {
		NL_SET_ERR_MSG_ATTR_FMT(extack, place->entry, "queue %u is given twice",
					place->queue);
		return -EINVAL;
	}
	if (nictl_qirqs_plan_group(dev->irqs, dev->n_irqs, group, place->cpu)) {
		/* Only a queue named before can have planned the group. */
		other = nictl_group_named(dev, group, place->queue, named, &other_cpu);
		NL_SET_ERR_MSG_ATTR_FMT(extack, place->entry,
					"queue %u shares IRQs with queue %u, placed on CPU %d",
					place->queue, other ? other->queue : place->queue,
					other_cpu);
		return -EINVAL;
	}
	return 0;
}

/* Explicit placements must still keep different groups off one core. */
static int nictl_check_smt_exclusive(const struct nictl_dev *dev, struct netlink_ext_ack *extack)
{
	const struct nictl_qirq *a, *b;
	unsigned int i, j;

	for (i = 0; i < dev->n_irqs; i++) {
		a = &dev->irqs[i];
		for (j = i + 1; j < dev->n_irqs; j++) {
			b = &dev->irqs[j];
			if (a->plan_cpu < 0 || b->plan_cpu < 0 || a->group == b->group)
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
 * @dev: the device; plan_cpu is set for every IRQ of the named queues' groups
 * @req: the request, with its placement
 *
 * Return: 0, -EINVAL or -ENOMEM.
 */
int nictl_place_explicit(struct nictl_dev *dev, const struct nictl_request *req)
{
	unsigned int nbits = max(dev->netdev->num_rx_queues, dev->netdev->num_tx_queues);
	unsigned long *named;
	unsigned int i;
	int err = 0;

	named = bitmap_zalloc(nbits, GFP_KERNEL);
	if (!named)
		return -ENOMEM;
	for (i = 0; !err && i < req->n_place; i++)
		err = nictl_plan_queue(dev, &req->place[i], req->flags & NICTL_BIND_F_NUMA_STRICT,
				       named, req->extack);
	bitmap_free(named);
	if (!err && (req->flags & NICTL_BIND_F_SMT_EXCLUSIVE))
		err = nictl_check_smt_exclusive(dev, req->extack);
	return err;
}

/**
 * nictl_member_cpus() - the CPUs of a request one of its devices may use
 * @stack: the devices of the request
 * @dev: one of them
 * @req: the request, with a CPU set
 * @cpus: filled in
 *
 * NUMA-strict, a stacked member takes the part of the set on its node (or the nearest with CPUs).
 *
 * Context: cpus_read_lock held.
 * Return: 0, or -EINVAL when that part is empty.
 */
int nictl_member_cpus(const struct nictl_stack *stack, const struct nictl_dev *dev,
		      const struct nictl_request *req, struct cpumask *cpus)
{
	nodemask_t near;
	int n;

	cpumask_copy(cpus, req->cpus);
	if (!stack->upper || !(req->flags & NICTL_BIND_F_NUMA_STRICT) || dev->node == NUMA_NO_NODE)
		return 0;
	nictl_near_nodes(dev->node, &near);
	cpumask_clear(cpus);
	for_each_node_mask(n, near)
		cpumask_or(cpus, cpus, cpumask_of_node(n));
	if (cpumask_and(cpus, cpus, req->cpus))
		return 0;
	NL_SET_ERR_MSG_ATTR_FMT(req->extack, req->cpus_attr,
				"%s: %s is on node %d, the CPU set has no CPU there",
				stack->upper->name, dev->netdev->name, dev->node);
	return -EINVAL;
}

/* Members before @i that take their CPUs from the same part of the set. */
static unsigned int nictl_stack_offset(const struct nictl_stack *stack, unsigned int i,
				       bool numa_strict)
{
	unsigned int j, offset = 0;

	for (j = 0; j < i; j++)
		if (!numa_strict || stack->dev[j].node == stack->dev[i].node)
			offset += stack->dev[j].n_groups;
	return offset;
}

/* SMT_EXCLUSIVE: no core takes two members' queues where their parts of the set overlap. */
static int nictl_stack_check_cores(const struct nictl_stack *stack, int *core,
				   struct netlink_ext_ack *extack)
{
	const struct nictl_dev *dev;
	unsigned int i, k, first;
	int cpu;

	memset(core, 0xff, nr_cpu_ids * sizeof(*core));
	for (i = 0; i < stack->n; i++) {
		dev = &stack->dev[i];
		for (k = 0; k < dev->n_irqs; k++) {
			cpu = dev->irqs[k].plan_cpu;
			if (cpu < 0)
				continue;
			first = cpumask_first(topology_sibling_cpumask(cpu));
			if (core[first] >= 0 && core[first] != i) {
				NL_SET_ERR_MSG_FMT(extack, "%s and %s would share the core of CPU %d",
						   stack->dev[core[first]].netdev->name,
						   dev->netdev->name, cpu);
				return -EINVAL;
			}
			core[first] = i;
		}
	}
	return 0;
}

/**
 * nictl_place_stack() - spread the queues of a stacked device's members
 * @stack: the members, discovered; each IRQ's plan_cpu is set
 * @req: the request, with a CPU set
 *
 * Context: cpus_read_lock held.
 * Return: 0, -EINVAL or -ENOMEM.
 */
int nictl_place_stack(struct nictl_stack *stack, const struct nictl_request *req)
{
	bool numa_strict = req->flags & NICTL_BIND_F_NUMA_STRICT;
	cpumask_var_t cpus;
	unsigned int i;
	int *core, err = 0;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; !err && i < stack->n; i++)
		err = nictl_member_cpus(stack, &stack->dev[i], req, cpus) ?:
		      nictl_place_on_set(&stack->dev[i], cpus, req->flags,
					 nictl_stack_offset(stack, i, numa_strict),
					 req->cpus_attr, req->extack);
	free_cpumask_var(cpus);
	if (err || !(req->flags & NICTL_BIND_F_SMT_EXCLUSIVE))
		return err;
	core = kvmalloc_array(nr_cpu_ids, sizeof(*core), GFP_KERNEL);
	if (!core)
		return -ENOMEM;
	err = nictl_stack_check_cores(stack, core, req->extack);
	kvfree(core);
	return err;
}
