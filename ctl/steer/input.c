// SPDX-License-Identifier: GPL-2.0
/*
 * Feed the planner: the CPU each queue's IRQ went to, from the bind's
 * reply; the node and core of every online CPU and the isolated CPUs, from
 * sysfs (topology.c, so host unit tests can fake them too).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "steer/input.h"
#include "topology.h"

/* The node and core of CPUs 0..@nr-1, -1 for those sysfs does not place. */
static int read_topo(struct steer_cpu *topo, unsigned int nr)
{
	struct cpuset nodes = CPUSET_INIT, cpus = CPUSET_INIT;
	unsigned int c;
	int node, cpu, err;

	for (c = 0; c < nr; c++)
		topo[c] = (struct steer_cpu){ .node = -1, .core = c };
	err = topo_online_nodes(&nodes);
	cpuset_for_each(node, &nodes) {
		if (err)
			break;
		err = topo_node_cpus(node, &cpus);
		cpuset_for_each(cpu, &cpus)
			if ((unsigned int)cpu < nr)
				topo[cpu].node = node;
		cpuset_free(&cpus);
	}
	for (c = 0; c < nr && !err; c++) {
		err = topo_cpu_siblings(c, &cpus);
		if (!err && !cpuset_empty(&cpus))
			topo[c].core = cpuset_next(&cpus, -1);
		cpuset_free(&cpus);
	}
	cpuset_free(&nodes);
	return err;
}

/*
 * The node and core of every online CPU, as an array indexed by CPU number
 * into @topo (to free) with its length in @nr. 0 or -errno.
 */
int steer_topo_read(struct steer_cpu **topo, unsigned int *nr)
{
	struct cpuset online = CPUSET_INIT;
	int cpu, err;

	*topo = NULL;
	*nr = 0;
	err = topo_online_cpus(&online);
	cpuset_for_each(cpu, &online)
		*nr = cpu + 1;
	cpuset_free(&online);
	if (err)
		return err;
	*topo = calloc(*nr ?: 1, sizeof(**topo));
	if (!*topo)
		return -ENOMEM;
	err = read_topo(*topo, *nr);
	if (err) {
		free(*topo);
		*topo = NULL;
		*nr = 0;
	}
	return err;
}

/* Each queue's IRQ CPU in the reply @bound, rx or tx. */
static int *queue_cpus(const struct nictl_dev *bound, unsigned int n, bool rx)
{
	int *cpus = calloc(n ?: 1, sizeof(*cpus));
	unsigned int q;

	for (q = 0; cpus && q < n; q++)
		cpus[q] = dev_queue_cpu(bound, q, rx);
	return cpus;
}

/*
 * Plan the steering of @bound, the bind's reply, over @cpus, the bind's
 * CPUs, with @flow_entries the RFS table size now. 0, or -1 after saying
 * why; @plan is to be freed with steer_plan_free() either way.
 */
int steer_plan_dev(const struct nictl_dev *bound, const struct cpuset *cpus,
		   unsigned int flow_entries, struct steer_plan *plan)
{
	struct cpuset isolated = CPUSET_INIT;
	struct steer_input in = {
		.rx_queues = bound->rx_queues,
		.tx_queues = bound->tx_queues,
		.cpus = cpus,
		.isolated = &isolated,
		.flow_entries = flow_entries,
	};
	struct steer_cpu *topo = NULL;
	int *rx_cpu = NULL, *tx_cpu = NULL;
	int err;

	*plan = (struct steer_plan){ .cpus = CPUSET_INIT };
	err = topo_isolated_cpus(&isolated) ?: steer_topo_read(&topo, &in.nr_topo);
	if (!err) {
		rx_cpu = queue_cpus(bound, in.rx_queues, true);
		tx_cpu = queue_cpus(bound, in.tx_queues, false);
		err = !rx_cpu || !tx_cpu ? -ENOMEM : 0;
	}
	in.topo = topo;
	in.rx_cpu = rx_cpu;
	in.tx_cpu = tx_cpu;
	if (!err)
		err = steer_plan_make(&in, plan);
	if (err)
		ctl_msg("cannot plan the steering of %s: %s", bound->ifname, strerror(-err));
	free(rx_cpu);
	free(tx_cpu);
	free(topo);
	cpuset_free(&isolated);
	return err ? -1 : 0;
}
