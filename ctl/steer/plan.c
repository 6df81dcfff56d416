// SPDX-License-Identifier: GPL-2.0
/*
 * Plan RPS, RFS and XPS around the queue IRQs, as the kernel's scaling
 * guide (Documentation/networking/scaling.rst) advises:
 *
 * - RPS spreads the protocol work of an rx queue over the CPUs of its IRQ's
 *   node, but only when the device has fewer rx queues than that node has
 *   cores for it: with a queue per core the hardware spreads already, and
 *   RPS would only add inter-processor interrupts.
 * - RFS gets a host-wide table of at least STEER_FLOW_ENTRIES, shared out
 *   evenly between the rx queues.
 * - XPS gives every CPU exactly one tx queue: the queue whose IRQ it takes,
 *   else the queue of its core's other threads, else the least loaded queue
 *   with its IRQ on the CPU's node, else the least loaded of all. A core
 *   stays with one queue, completions come back close to the sender, and
 *   no two queues fight over one CPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "steer/plan.h"

const char *steer_rps_case_name(enum rps_case c)
{
	return c == RPS_SPREAD ? "spread" : "off";
}

/* Why rx queue @q of @plan has RPS on or off, in words, into @buf. */
void steer_rps_why(const struct steer_plan *plan, unsigned int q, char *buf, size_t len)
{
	const struct steer_rxq *rxq = &plan->rx[q];

	switch (rxq->rps_case) {
	case RPS_SPREAD:
		snprintf(buf, len, "%u rx queues for %u cores on node %d: RPS spreads each "
			 "queue's work over them", plan->rx_queues, rxq->cores, rxq->node);
		break;
	case RPS_OFF_QUEUES:
		snprintf(buf, len, "%u rx queues for %u cores on node %d: the queues spread the "
			 "work already", plan->rx_queues, rxq->cores, rxq->node);
		break;
	case RPS_OFF_NO_IRQ:
		snprintf(buf, len, "its IRQ was placed on no CPU");
		break;
	case RPS_OFF_NO_CPU:
		snprintf(buf, len, "no CPU of the set on node %d, its IRQ's node", rxq->node);
		break;
	}
}

static struct steer_cpu cpu_topo(const struct steer_input *in, int cpu)
{
	if (cpu >= 0 && (unsigned int)cpu < in->nr_topo)
		return in->topo[cpu];
	return (struct steer_cpu){ .node = -1, .core = cpu };
}

/* The steering CPUs on @node into @out, and how many cores they span. */
static int node_share(const struct steer_input *in, const struct cpuset *cpus, int node,
		      struct cpuset *out, unsigned int *cores)
{
	struct cpuset seen = CPUSET_INIT;
	int cpu, err = 0;

	cpuset_for_each(cpu, cpus) {
		if (cpu_topo(in, cpu).node != node)
			continue;
		err = cpuset_add(out, cpu) ?: cpuset_add(&seen, cpu_topo(in, cpu).core);
		if (err)
			break;
	}
	*cores = cpuset_weight(&seen);
	cpuset_free(&seen);
	return err;
}

static int plan_rx(const struct steer_input *in, struct steer_plan *plan)
{
	struct steer_rxq *rxq;
	unsigned int q;
	int err;

	for (q = 0; q < plan->rx_queues; q++) {
		rxq = &plan->rx[q];
		rxq->irq_cpu = in->rx_cpu[q];
		rxq->node = cpu_topo(in, rxq->irq_cpu).node;
		rxq->flow_cnt = plan->flow_entries / plan->rx_queues;
		rxq->rps_case = RPS_OFF_NO_IRQ;
		if (rxq->irq_cpu < 0)
			continue;
		err = node_share(in, &plan->cpus, rxq->node, &rxq->rps_cpus, &rxq->cores);
		if (err)
			return err;
		if (!rxq->cores)
			rxq->rps_case = RPS_OFF_NO_CPU;
		else if (plan->rx_queues < rxq->cores)
			rxq->rps_case = RPS_SPREAD;
		else
			rxq->rps_case = RPS_OFF_QUEUES;
		if (rxq->rps_case != RPS_SPREAD)
			cpuset_free(&rxq->rps_cpus);
	}
	return 0;
}

/* Whether tx queue @q is placed, and the first placed on its IRQ's CPU. */
static bool first_on_its_cpu(const struct steer_input *in, unsigned int q)
{
	unsigned int k;

	for (k = 0; k < q; k++)
		if (in->tx_cpu[k] == in->tx_cpu[q])
			return false;
	return in->tx_cpu[q] >= 0;
}

/* The tx queue for @cpu, whose core has none yet: same node first, then least loaded. */
static int nearest_queue(const struct steer_input *in, const unsigned int *load, int cpu)
{
	int node = cpu_topo(in, cpu).node, best = -1;
	bool near, best_near = false;
	unsigned int q;

	for (q = 0; q < in->tx_queues; q++) {
		if (!first_on_its_cpu(in, q))
			continue;
		near = node >= 0 && cpu_topo(in, in->tx_cpu[q]).node == node;
		if (best < 0 || (near && !best_near) ||
		    (near == best_near && load[q] < load[best])) {
			best = q;
			best_near = near;
		}
	}
	return best;
}

/* Who holds which CPU while the tx queues are planned. */
struct tx_owners {
	unsigned int *load;	/* per tx queue: the CPUs it has */
	int *of_core;		/* per core (its lowest CPU): the queue, or -1 */
	int *of_cpu;		/* per CPU: the queue, or -1 */
	int nr_cpus;		/* of of_core and of_cpu */
};

static void own(struct tx_owners *o, const struct steer_input *in, int cpu, int q)
{
	int core = cpu_topo(in, cpu).core;

	o->of_cpu[cpu] = q;
	o->load[q]++;
	if (core < o->nr_cpus && o->of_core[core] < 0)
		o->of_core[core] = q;
}

/*
 * Give each IRQ CPU its queue, then each other steering CPU the queue its
 * core has, or else the nearest; queues whose IRQs share a CPU share its
 * CPUs (the first of them counts their load).
 */
static void assign_tx(struct tx_owners *o, const struct steer_input *in,
		      const struct cpuset *all)
{
	unsigned int q;
	int cpu, core, owner;

	for (q = 0; q < in->tx_queues; q++)
		if (first_on_its_cpu(in, q))
			own(o, in, in->tx_cpu[q], q);
	cpuset_for_each(cpu, all) {
		if (o->of_cpu[cpu] >= 0)
			continue;
		core = cpu_topo(in, cpu).core;
		owner = core < o->nr_cpus ? o->of_core[core] : -1;
		if (owner < 0)
			owner = nearest_queue(in, o->load, cpu);
		if (owner >= 0)
			own(o, in, cpu, owner);
	}
}

static int plan_tx(const struct steer_input *in, struct steer_plan *plan)
{
	struct tx_owners o = { NULL, NULL, NULL, 0 };
	struct cpuset all = CPUSET_INIT;
	unsigned int q;
	int cpu, err;

	err = cpuset_or(&all, &plan->cpus);
	for (q = 0; q < plan->tx_queues && !err; q++) {
		plan->tx[q].irq_cpu = in->tx_cpu[q];
		if (in->tx_cpu[q] >= 0)
			err = cpuset_add(&all, in->tx_cpu[q]);
	}
	cpuset_for_each(cpu, &all)
		o.nr_cpus = cpu + 1;
	o.load = calloc(plan->tx_queues ?: 1, sizeof(*o.load));
	o.of_core = malloc(o.nr_cpus * sizeof(*o.of_core));
	o.of_cpu = malloc(o.nr_cpus * sizeof(*o.of_cpu));
	if (!o.load || !o.of_core || !o.of_cpu)
		err = -ENOMEM;
	for (cpu = 0; cpu < o.nr_cpus && !err; cpu++)
		o.of_core[cpu] = o.of_cpu[cpu] = -1;
	if (!err)
		assign_tx(&o, in, &all);
	cpuset_for_each(cpu, &all) {
		for (q = 0; q < plan->tx_queues && !err && o.of_cpu[cpu] >= 0; q++)
			if (in->tx_cpu[q] == in->tx_cpu[o.of_cpu[cpu]])
				err = cpuset_add(&plan->tx[q].xps_cpus, cpu);
	}
	free(o.load);
	free(o.of_core);
	free(o.of_cpu);
	cpuset_free(&all);
	return err;
}

/*
 * Plan the steering of a device into @plan, to be freed with
 * steer_plan_free() whatever the result. 0; -ENOSPC when no CPU is left
 * once the isolated ones are taken out; -ENOMEM.
 */
int steer_plan_make(const struct steer_input *in, struct steer_plan *plan)
{
	int err;

	*plan = (struct steer_plan){
		.cpus = CPUSET_INIT,
		.flow_entries_before = in->flow_entries,
		.flow_entries = in->flow_entries > STEER_FLOW_ENTRIES ? in->flow_entries
								      : STEER_FLOW_ENTRIES,
		.rx_queues = in->rx_queues,
		.tx_queues = in->tx_queues,
	};
	plan->rx = calloc(in->rx_queues ?: 1, sizeof(*plan->rx));
	plan->tx = calloc(in->tx_queues ?: 1, sizeof(*plan->tx));
	if (!plan->rx || !plan->tx || cpuset_or(&plan->cpus, in->cpus))
		return -ENOMEM;
	cpuset_andnot(&plan->cpus, in->isolated);
	if (cpuset_empty(&plan->cpus))
		return -ENOSPC;
	err = plan_rx(in, plan);
	return err ?: plan_tx(in, plan);
}

void steer_plan_free(struct steer_plan *plan)
{
	unsigned int q;

	for (q = 0; plan->rx && q < plan->rx_queues; q++)
		cpuset_free(&plan->rx[q].rps_cpus);
	for (q = 0; plan->tx && q < plan->tx_queues; q++)
		cpuset_free(&plan->tx[q].xps_cpus);
	free(plan->rx);
	free(plan->tx);
	cpuset_free(&plan->cpus);
	*plan = (struct steer_plan){ .cpus = CPUSET_INIT };
}
