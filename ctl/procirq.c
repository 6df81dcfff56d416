// SPDX-License-Identifier: GPL-2.0
/* One reader of /proc/irq/N's CPU lists for every part of nictlctl. */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "procirq.h"
#include "topology.h"

/*
 * How often an empty smp_affinity_list is read before it counts. The kernel
 * never keeps an IRQ's affinity empty, but while a change waits for the
 * IRQ's next interrupt (x86 MSI without interrupt remapping) the file shows
 * desc->pending_mask, read without the descriptor's lock: the move
 * (irq_move_masked_irq()) clears the pending flag and then that mask, and a
 * write (irq_set_affinity_locked()) sets the flag and then copies the mask,
 * so a read between the two prints an empty line. Whoever holds the lock
 * finishes within microseconds, but a vCPU can be held in between for a
 * while: the reads wait 1, 2, 4 and 8 ms between them.
 */
#define PROCIRQ_TRIES	5

static int read_line(const char *path, char *line, size_t len)
{
	FILE *f = fopen(path, "r");
	int err;

	if (!f)
		return -errno;
	err = fgets(line, len, f) ? 0 : -EIO;
	fclose(f);
	return err;
}

static bool blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

int procirq_cpus(unsigned int irq, const char *file, struct cpuset *out)
{
	/* Not the effective list: it is empty until the IRQ is started. */
	bool never_empty = !strcmp(file, "smp_affinity_list");
	char path[4096], line[4096];
	unsigned int tries = 0;
	int err;

	snprintf(path, sizeof(path), "%s/irq/%u/%s", proc_root(), irq, file);
	for (;;) {
		err = read_line(path, line, sizeof(line));
		if (err || !never_empty || !blank(line))
			break;
		if (++tries == PROCIRQ_TRIES)
			return -EAGAIN;
		nanosleep(&(struct timespec){ 0, 1000000L << (tries - 1) }, NULL);
	}
	return err ?: cpuset_parse(out, line);
}
