// SPDX-License-Identifier: GPL-2.0
/*
 * Where a device polls its NAPIs in kernel threads, the polls run outside
 * NET_RX, where the module's probes have no start to time them from. The
 * kernel's scheduler already times each thread: the first field of
 * /proc/PID/schedstat is its time on a CPU, in ns. A NAPI thread does
 * nothing but poll its NAPI, so that is its queue's poll time, and a bind
 * puts it on its IRQ's CPU (napi/place.h), where it then runs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "napi/threads.h"
#include "report.h"
#include "stats/stats.h"
#include "topology.h"

/* @pid's time on a CPU since it started: 0, or -ENOENT when it ended. */
static int thread_ns(unsigned int pid, uint64_t *ns)
{
	char path[256];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/%u/schedstat", proc_root(), pid);
	f = fopen(path, "re");
	if (!f)
		return -ENOENT;
	n = fscanf(f, "%" SCNu64, ns);
	fclose(f);
	return n == 1 ? 0 : -ENOENT;
}

static struct stats_napi *find(struct stats_sample *s, unsigned int ifindex, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < s->nr_napis; i++)
		if (s->napis[i].id == id && s->napis[i].ifindex == ifindex)
			return &s->napis[i];
	return NULL;
}

/* Give @s's NAPIs of @dev the threads that poll them; 0 or -ENOMEM. */
static int read_dev(struct stats_sample *s, const struct nictl_dev *dev)
{
	struct napi_threads threads;
	struct stats_napi *napi;
	unsigned int i;
	int err;

	err = napi_threads_of(dev, &threads);
	for (i = 0; !err && i < threads.n; i++) {
		napi = find(s, dev->ifindex, threads.t[i].napi_id);
		if (!napi || thread_ns(threads.t[i].pid, &napi->thread_ns))
			continue;
		napi->thread_pid = threads.t[i].pid;
		err = cpuset_or(&napi->thread_cpus, &threads.t[i].cpus);
	}
	napi_threads_release(&threads);
	return err;
}

int stats_read_threads(struct stats_sample *s)
{
	unsigned int i;

	for (i = 0; i < s->dev.nr; i++) {
		/* Another namespace's NAPIs are not this one's netdev-genl's to name. */
		if (s->dev.devs[i].other_netns)
			continue;
		if (read_dev(s, &s->dev.devs[i])) {
			ctl_msg("out of memory");
			return -1;
		}
	}
	return 0;
}
