// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/net/softnet_stat: one row of hex fields per online CPU. Fields 1-3
 * are the packets processed, the packets dropped because the backlog was
 * full and the times net_rx_action ran out of budget or time (time_squeeze);
 * field 10 (received_rps) the RPS IPIs that woke the CPU to process its
 * backlog (none with backlog threads, as on PREEMPT_RT). Since 5.10 field
 * 13 is the CPU's number; older kernels leave the reader to count online
 * CPUs, which breaks at the first offline one, so the number
 * is used whenever it is there. The procfs root is $NICTL_PROCFS when set
 * (host unit tests point it at a fake file), /proc otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats/stats.h"
#include "topology.h"

/* Fields up to and including the CPU number of 5.10+. */
#define SOFTNET_FIELDS		13
#define SOFTNET_CPU_FIELD	12
#define SOFTNET_RPS_FIELD	9

/* Split @line into at most @max hex fields; returns how many, -EINVAL on garbage. */
static int split_fields(const char *line, unsigned long *fields, int max)
{
	const char *p = line;
	unsigned long v;
	char *end;
	int n = 0;

	for (;;) {
		p += strspn(p, " \t\n");
		if (!*p)
			return n;
		if (!strchr("0123456789abcdefABCDEF", *p))
			return -EINVAL;
		errno = 0;
		v = strtoul(p, &end, 16);
		if (errno || (*end && !strchr(" \t\n", *end)))
			return -EINVAL;
		/* Fields past the CPU number (6.x kernels add some) are checked and dropped. */
		if (n < max)
			fields[n++] = v;
		p = end;
	}
}

/*
 * Fill the softnet rows of @s's CPUs from the file @f. Rows without a CPU
 * number belong to the online CPUs (@online; when empty, CPUs 0, 1, ...) in
 * order. Rows of CPUs the sample lacks are skipped. Returns 0 or -EINVAL for
 * a file that is not softnet_stat.
 */
int softnet_parse(FILE *f, const struct cpuset *online, struct stats_sample *s)
{
	unsigned long fields[SOFTNET_FIELDS];
	int n, cpu, next = -1, row = 0, err = 0;
	struct stats_cpu *c;
	char *line = NULL;
	size_t size = 0;

	while (getline(&line, &size, f) >= 0) {
		n = split_fields(line, fields, SOFTNET_FIELDS);
		if (n < 0 || (n > 0 && n < 3)) {
			err = -EINVAL;
			break;
		}
		if (!n)
			continue;
		/* The kernel prints them from 32-bit counters; wider means garbage. */
		if (fields[0] > UINT32_MAX || fields[1] > UINT32_MAX || fields[2] > UINT32_MAX ||
		    (n > SOFTNET_RPS_FIELD && fields[SOFTNET_RPS_FIELD] > UINT32_MAX)) {
			err = -EINVAL;
			break;
		}
		if (n > SOFTNET_CPU_FIELD) {
			cpu = fields[SOFTNET_CPU_FIELD] < CPUSET_MAX_CPUS ?
			      (int)fields[SOFTNET_CPU_FIELD] : -1;
		} else if (cpuset_empty(online)) {
			cpu = row;
		} else {
			cpu = next = cpuset_next(online, next);
		}
		row++;
		c = cpu < 0 ? NULL : stats_find_cpu(s, cpu);
		if (!c)
			continue;
		c->softnet.present = true;
		c->softnet.processed = fields[0];
		c->softnet.dropped = fields[1];
		c->softnet.time_squeeze = fields[2];
		c->softnet.has_rps = n > SOFTNET_RPS_FIELD;
		c->softnet.received_rps = c->softnet.has_rps ? fields[SOFTNET_RPS_FIELD] : 0;
	}
	if (!err && ferror(f))
		err = -EIO;
	free(line);
	return err;
}

/*
 * Read softnet_stat into @s. A missing file (procfs not mounted) leaves the
 * rows absent; any other failure prints the one line and returns -1.
 */
int softnet_read(struct stats_sample *s)
{
	char path[4096];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/net/softnet_stat", proc_root());
	f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		ctl_msg("cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	err = softnet_parse(f, &s->online, s);
	fclose(f);
	if (!err)
		return 0;
	ctl_msg("cannot read %s: %s", path,
		err == -EINVAL ? "not in the format of softnet_stat" : strerror(-err));
	return -1;
}
