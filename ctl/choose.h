/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which CPUs a bind offers the kernel: the user's choice of source, minus
 * --exclude and the CPUs banned for other work, and, unless the user listed
 * the CPUs, kept off the CPUs that should not take interrupts when others
 * remain.
 */
#ifndef NICTLCTL_CHOOSE_H
#define NICTLCTL_CHOOSE_H

#include "cpuset.h"

enum cpu_source {
	CPUS_ONLINE,	/* every online CPU */
	CPUS_NODE,	/* the online CPUs of one NUMA node */
	CPUS_GIVEN,	/* exactly the CPUs the user listed */
};

struct cpu_request {
	enum cpu_source source;
	int node;		/* CPUS_NODE */
	bool nearest;		/* CPUS_NODE without online CPUs: the nearest that have some */
	struct cpuset given;	/* CPUS_GIVEN */
	struct cpuset exclude;
	const char *exclude_name;	/* as the user wrote it, for messages; NULL: --exclude */
	const struct cpuset *banned;	/* kept off even a given list; not owned, NULL: none */
};

struct cpu_choice {
	struct cpuset cpus;
	char *why;	/* how the set came about, for the user */
};

int cpus_choose(const struct cpu_request *req, struct cpu_choice *choice);
void cpu_choice_free(struct cpu_choice *choice);
int cpus_check_cores(const struct cpu_choice *choice, const char *dev, unsigned int queues,
		     unsigned int groups);

#endif /* NICTLCTL_CHOOSE_H */
