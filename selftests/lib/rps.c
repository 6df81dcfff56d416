// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rps.h"
#include "sys.h"

/* softnet_stat's fields (0-based): received_rps, then the CPU number (5.10+). */
#define SOFTNET_RPS	9
#define SOFTNET_CPU	12

static int rps_path(char *path, size_t len, const char *ifname, unsigned int queue)
{
	return pathf(path, len, "/sys/class/net/%s/queues/rx-%u/rps_cpus", ifname, queue);
}

int rps_cpus_get(const char *ifname, unsigned int queue, char *mask, size_t len)
{
	char path[128];

	return rps_path(path, sizeof(path), ifname, queue) ?: read_str(path, mask, len);
}

int rps_cpus_set(const char *ifname, unsigned int queue, const char *mask)
{
	char path[128];
	int ret = rps_path(path, sizeof(path), ifname, queue) ?: write_str(path, mask);

	if (ret)
		fprintf(stderr, "# rps_cpus of %s rx-%u = %s: %s\n", ifname, queue, mask,
			strerror(-ret));
	return ret;
}

/* One row: its fields, at least up to the CPU number; -EPROTO otherwise. */
static int softnet_row(const char *line, unsigned long *fields, unsigned int max)
{
	unsigned int n = 0;
	char *end;

	while (n < max) {
		fields[n] = strtoul(line, &end, 16);
		if (end == line)
			break;
		line = end;
		n++;
	}
	return n > SOFTNET_CPU ? 0 : -EPROTO;
}

int softnet_received_rps(uint64_t *ipis, unsigned int n)
{
	unsigned long fields[SOFTNET_CPU + 1];
	FILE *f = fopen("/proc/net/softnet_stat", "re");
	char line[512];
	int ret = 0;

	if (!f)
		return -errno;
	memset(ipis, 0, n * sizeof(*ipis));
	while (!ret && fgets(line, sizeof(line), f)) {
		ret = softnet_row(line, fields, SOFTNET_CPU + 1);
		if (!ret && fields[SOFTNET_CPU] < n)
			ipis[fields[SOFTNET_CPU]] = fields[SOFTNET_RPS];
	}
	fclose(f);
	if (ret)
		fprintf(stderr, "# /proc/net/softnet_stat: a row without received_rps or CPU\n");
	return ret;
}

bool backlog_threaded(void)
{
	DIR *proc = opendir("/proc");
	char path[64], comm[32];
	struct dirent *d;
	bool found = false;

	while (proc && !found && (d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9' ||
		    pathf(path, sizeof(path), "/proc/%s/comm", d->d_name))
			continue;
		found = !read_str(path, comm, sizeof(comm)) &&
			!strncmp(comm, "backlog_napi/", strlen("backlog_napi/"));
	}
	if (proc)
		closedir(proc);
	return found;
}
