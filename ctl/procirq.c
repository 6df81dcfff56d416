// SPDX-License-Identifier: GPL-2.0
/* One reader of /proc/irq/N's CPU lists for every part of nictlctl. */
#include <errno.h>
#include <stdio.h>

#include "procirq.h"
#include "topology.h"

int procirq_cpus(unsigned int irq, const char *file, struct cpuset *out)
{
	char path[4096], line[4096];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/irq/%u/%s", proc_root(), irq, file);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	err = fgets(line, sizeof(line), f) ? cpuset_parse(out, line) : -EIO;
	fclose(f);
	return err;
}
