// SPDX-License-Identifier: GPL-2.0
/*
 * A sample where module nictl is not loaded, from what procfs offers every
 * user: each CPU's NET_RX and NET_TX runs (/proc/softirqs, since boot) and
 * its time in softirqs of every vector (/proc/stat, in USER_HZ ticks:
 * sampled at the tick, unless the kernel accounts IRQ time), with
 * softnet_stat as always. Nothing times one vector's runs, measures a run,
 * or counts a NAPI poll without the module: the views say so.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "stats/stats.h"
#include "topology.h"

/* Each "CPUn" column of the header, as CPU numbers, into @cols; how many. */
static int header_cpus(const char *line, unsigned int *cols, int max)
{
	unsigned int cpu;
	int n = 0, used;

	while (n < max && sscanf(line, " CPU%u%n", &cpu, &used) == 1) {
		cols[n++] = cpu;
		line += used;
	}
	return n;
}

/* The NET_RX or NET_TX row of /proc/softirqs into the CPUs of @cols. */
static int vec_row(struct stats_sample *s, const char *line, const unsigned int *cols, int n)
{
	unsigned long long count;
	struct stats_cpu *c;
	int vec, i, used;

	if (!strncmp(line, "NET_RX:", 7))
		vec = NICTL_SOFTIRQ_NET_RX;
	else if (!strncmp(line, "NET_TX:", 7))
		vec = NICTL_SOFTIRQ_NET_TX;
	else
		return 0;
	line += 7;
	for (i = 0; i < n; i++, line += used) {
		if (sscanf(line, "%llu%n", &count, &used) != 1)
			return -EINVAL;
		c = stats_find_cpu(s, cols[i]);
		if (c)
			c->vec[vec].count = count;
	}
	return 0;
}

static int read_softirqs(struct stats_sample *s, const char *path)
{
	unsigned int cols[CPUSET_MAX_CPUS];
	char *line = NULL;
	size_t size = 0;
	int n, i, err = -EINVAL;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (getline(&line, &size, f) > 0) {
		n = header_cpus(line, cols, CPUSET_MAX_CPUS);
		for (i = 0, err = n ? 0 : -EINVAL; !err && i < n; i++)
			err = stats_add_cpu(s, cols[i]) ? 0 : -ENOMEM;
		while (!err && getline(&line, &size, f) > 0)
			err = vec_row(s, line + strspn(line, " "), cols, n);
	}
	free(line);
	fclose(f);
	return err;
}

/* The softirq column of each "cpuN" line of /proc/stat, as ns. */
static int read_stat(struct stats_sample *s, const char *path)
{
	unsigned long long softirq;
	long hz = sysconf(_SC_CLK_TCK);
	struct stats_cpu *c;
	char *line = NULL;
	unsigned int cpu;
	size_t size = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		if (sscanf(line, "cpu%u %*u %*u %*u %*u %*u %*u %llu", &cpu, &softirq) != 2)
			continue;
		c = stats_find_cpu(s, cpu);
		if (c) {
			c->has_softirq_ns = true;
			c->softirq_ns = softirq * (1000000000ULL / (hz > 0 ? hz : 100));
		}
	}
	free(line);
	fclose(f);
	return 0;
}

int stats_read_proc(struct stats_sample *s)
{
	char path[4096];
	struct timespec now;
	unsigned int i;
	int err;

	memset(s, 0, sizeof(*s));
	s->via_proc = true;
	snprintf(path, sizeof(path), "%s/softirqs", proc_root());
	err = read_softirqs(s, path);
	if (!err) {
		snprintf(path, sizeof(path), "%s/stat", proc_root());
		err = read_stat(s, path);
	}
	if (err) {
		ctl_msg("cannot read %s: %s", path,
			err == -EINVAL ? "not in the format the kernel writes" : strerror(-err));
		stats_sample_free(s);
		return -1;
	}
	/* Both files count since boot, suspended time included. */
	clock_gettime(CLOCK_BOOTTIME, &now);
	for (i = 0; i < s->nr_cpus; i++)
		s->cpus[i].now_ns = now.tv_sec * 1000000000ULL + now.tv_nsec;
	if (topo_online_cpus(&s->online))
		cpuset_free(&s->online);
	err = softnet_read(s);
	if (err)
		stats_sample_free(s);
	return err;
}
