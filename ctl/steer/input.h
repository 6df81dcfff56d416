/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steering plan of a bound device, from the bind's reply and sysfs; the
 * CPUs' nodes and cores, which show's checks need too.
 */
#ifndef NICTLCTL_STEER_INPUT_H
#define NICTLCTL_STEER_INPUT_H

#include "dev.h"
#include "steer/plan.h"

int steer_topo_read(struct steer_cpu **topo, unsigned int *nr);
int steer_plan_dev(const struct nictl_dev *bound, const struct cpuset *cpus,
		   unsigned int flow_entries, struct steer_plan *plan);

#endif /* NICTLCTL_STEER_INPUT_H */
