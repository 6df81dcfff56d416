// SPDX-License-Identifier: GPL-2.0
/* The module's spreading of IRQ groups over a CPU set, in userspace. */
#include <errno.h>
#include <stdlib.h>

#include "direct/place.h"
#include "topology.h"

/* How many of @cpu's SMT siblings in @set come before it: 0 for a core's first. */
static unsigned int smt_rank(int cpu, const struct cpuset *set)
{
	struct cpuset siblings = CPUSET_INIT;
	unsigned int rank = 0;
	int sib;

	if (topo_cpu_siblings(cpu, &siblings))
		return 0;	/* no topology: every CPU its own core */
	cpuset_for_each(sib, &siblings)
		rank += sib < cpu && cpuset_has(set, sib);
	cpuset_free(&siblings);
	return rank;
}

int direct_place(const struct nictl_dev *dev, const struct cpuset *cpus, struct direct_write **w,
		 unsigned int *n)
{
	unsigned int ncpus = cpuset_weight(cpus), rank, k = 0, i;
	int cpu, *order;
	int err = 0;

	*w = NULL;
	*n = 0;
	if (!ncpus)
		return -EINVAL;
	order = calloc(ncpus, sizeof(*order));
	*w = calloc(dev->nr_irqs ?: 1, sizeof(**w));
	if (!order || !*w) {
		free(order);
		return -ENOMEM;
	}
	for (rank = 0; k < ncpus; rank++)
		cpuset_for_each(cpu, cpus)
			if (smt_rank(cpu, cpus) == rank)
				order[k++] = cpu;
	for (i = 0; !err && i < dev->nr_irqs; i++) {
		(*w)[i] = (struct direct_write){ .irq = dev->irqs[i].irq,
						 .name = dev->irqs[i].name };
		(*n)++;
		err = cpuset_add(&(*w)[i].target, order[dev->irqs[i].group % ncpus]);
	}
	free(order);
	return err;
}
