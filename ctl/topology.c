// SPDX-License-Identifier: GPL-2.0
/*
 * Read cpulists from sysfs. Errors are returned as -errno for the caller to
 * word; a file that is not a cpulist counts as -EINVAL.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "util.h"

const char *topo_root(void)
{
	const char *root = getenv("NICTL_SYSFS");

	return root && *root ? root : "/sys";
}

const char *proc_root(void)
{
	const char *root = getenv("NICTL_PROCFS");

	return root && *root ? root : "/proc";
}

/* Read the first line of the file at @rel (relative to the sysfs root). */
static int read_line(const char *rel, char **line)
{
	char path[4096];
	size_t size = 0;
	FILE *f;
	int err = 0;

	*line = NULL;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", topo_root(), rel) >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (getline(line, &size, f) < 0) {
		err = ferror(f) ? -EIO : 0;	/* an empty file is an empty line */
		free(*line);
		*line = NULL;
	}
	fclose(f);
	return err;
}

int topo_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f || !fgets(buf, len, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (!f)
		return -errno;
	fclose(f);
	return 0;
}

/* Add the cpulist in the file at @fmt (relative to the sysfs root) to @out. */
static __printf(2, 3) int read_cpulist(struct cpuset *out, const char *fmt, ...)
{
	char rel[256], *line;
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(rel, sizeof(rel), fmt, ap);
	va_end(ap);
	err = read_line(rel, &line);
	if (err || !line)
		return err;
	if (!strcmp(line + strspn(line, " "), "(null)\n"))
		err = 0;	/* nohz_full ("  (null)") when the boot set none */
	else
		err = cpuset_parse(out, line);
	free(line);
	return err;
}

int topo_online_cpus(struct cpuset *out)
{
	return read_cpulist(out, "devices/system/cpu/online");
}

/* The CPUs of NUMA node @node, online or not; -ENOENT for no such node. */
/* The CPUs the machine has, online or not. */
int topo_present_cpus(struct cpuset *out)
{
	return read_cpulist(out, "devices/system/cpu/present");
}

int topo_node_cpus(int node, struct cpuset *out)
{
	return read_cpulist(out, "devices/system/node/node%d/cpulist", node);
}

/* The online NUMA nodes, as a set of node numbers. */
int topo_online_nodes(struct cpuset *out)
{
	return read_cpulist(out, "devices/system/node/online");
}

/* The online node CPU @cpu belongs to, or -1 when none lists it. */
int topo_cpu_node(int cpu)
{
	struct cpuset nodes = CPUSET_INIT, cpus = CPUSET_INIT;
	int node, found = -1;

	if (topo_online_nodes(&nodes))
		return -1;
	cpuset_for_each(node, &nodes) {
		if (!topo_node_cpus(node, &cpus) && cpuset_has(&cpus, cpu))
			found = node;
		cpuset_free(&cpus);
		if (found >= 0)
			break;
	}
	cpuset_free(&nodes);
	return found;
}

/*
 * The distance from node @from to node @to, as the firmware reports it (10
 * to itself): nodeN/distance lists it to every online node, in the order of
 * their numbers. -ENOENT when either node is not online.
 */
int topo_node_distance(int from, int to, unsigned int *distance)
{
	struct cpuset nodes = CPUSET_INIT;
	char rel[64], *line, *p, *end;
	int node, err;

	err = topo_online_nodes(&nodes);
	if (!err && (!cpuset_has(&nodes, from) || !cpuset_has(&nodes, to)))
		err = -ENOENT;
	snprintf(rel, sizeof(rel), "devices/system/node/node%d/distance", from);
	if (!err)
		err = read_line(rel, &line);
	if (err) {
		cpuset_free(&nodes);
		return err;
	}
	err = -EINVAL;
	p = line;
	cpuset_for_each(node, &nodes) {
		errno = 0;
		*distance = p ? strtoul(p, &end, 10) : 0;
		if (!p || end == p || errno)
			break;
		if (node == to) {
			err = 0;
			break;
		}
		p = end;
	}
	free(line);
	cpuset_free(&nodes);
	return err;
}

/*
 * The CPUs the administrator reserved with isolcpus= or nohz_full=. Kernels
 * without CONFIG_NO_HZ_FULL have no nohz_full file: that is an empty set.
 */
int topo_isolated_cpus(struct cpuset *out)
{
	int err;

	err = read_cpulist(out, "devices/system/cpu/isolated");
	if (err && err != -ENOENT)
		return err;
	err = read_cpulist(out, "devices/system/cpu/nohz_full");
	return err == -ENOENT ? 0 : err;
}

/*
 * The CPUs of isolated cgroup v2 cpuset partitions, which container runtimes
 * reserve for pinned workloads (cpuset.cpus.isolated, kernels 6.7 and later;
 * none on older ones).
 */
int topo_reserved_cpus(struct cpuset *out)
{
	int err = read_cpulist(out, "fs/cgroup/cpuset.cpus.isolated");

	return err == -ENOENT ? 0 : err;
}

/*
 * Add the SMT siblings of @cpu (its physical core, @cpu among them) to @out.
 * A CPU without topology (never the case for an online CPU on the kernels
 * nictl supports) is a core of its own: nothing is added.
 */
int topo_cpu_siblings(int cpu, struct cpuset *out)
{
	int err = read_cpulist(out, "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);

	return err == -ENOENT ? 0 : err;
}

/*
 * Count the physical cores @cpus spans: CPUs whose thread_siblings_list
 * overlap are one core.
 */
int topo_count_cores(const struct cpuset *cpus, unsigned int *cores)
{
	struct cpuset seen = CPUSET_INIT;
	int cpu, err = 0;

	*cores = 0;
	cpuset_for_each(cpu, cpus) {
		if (cpuset_has(&seen, cpu))
			continue;
		(*cores)++;
		err = topo_cpu_siblings(cpu, &seen);
		if (err)
			break;
	}
	cpuset_free(&seen);
	return err;
}
