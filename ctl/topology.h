/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU topology as sysfs shows it. The sysfs root is $NICTL_SYSFS when set
 * (host unit tests point it at a fake tree), /sys otherwise.
 */
#ifndef NICTLCTL_TOPOLOGY_H
#define NICTLCTL_TOPOLOGY_H

#include "cpuset.h"

const char *topo_root(void);
/* The procfs root: $NICTL_PROCFS when set (host unit tests' fake tree), /proc otherwise. */
const char *proc_root(void);
/*
 * The first line of the file at @path, without its newline, in @buf ("" for
 * an empty or unreadable file): 0, or -errno when it cannot be opened.
 */
int topo_first_line(const char *path, char *buf, size_t len);
int topo_online_cpus(struct cpuset *out);
int topo_present_cpus(struct cpuset *out);
int topo_node_cpus(int node, struct cpuset *out);
int topo_online_nodes(struct cpuset *out);
int topo_node_distance(int from, int to, unsigned int *distance);
int topo_cpu_node(int cpu);
int topo_isolated_cpus(struct cpuset *out);
int topo_reserved_cpus(struct cpuset *out);
int topo_cpu_siblings(int cpu, struct cpuset *out);
int topo_count_cores(const struct cpuset *cpus, unsigned int *cores);

#endif /* NICTLCTL_TOPOLOGY_H */
