/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPUs kept free of IRQs for latency-critical work. Container runtimes (the
 * irq-load-balancing annotation of CRI-O, the Node Tuning Operator) and
 * tuning tools announce them to irqbalance, by rewriting its banned CPU list
 * in its environment file and /proc/irq/default_smp_affinity, then
 * restarting it; the daemon reads the same sources so that it never binds a
 * queue IRQ where irqbalance would not put one.
 */
#ifndef NICTLCTL_BANNED_H
#define NICTLCTL_BANNED_H

#include <stdbool.h>
#include <stdio.h>

#include "cpuset.h"

/* irqbalance's environment files, Debian's and Red Hat's: each that exists is read. */
#define BANNED_ENV_DEBIAN	"/etc/default/irqbalance"
#define BANNED_ENV_REDHAT	"/etc/sysconfig/irqbalance"

/* What one environment file bans; an unset or empty variable bans nothing. */
struct banned_env {
	struct cpuset list;	/* IRQBALANCE_BANNED_CPULIST */
	struct cpuset mask;	/* IRQBALANCE_BANNED_CPUS, a hex mask */
	char *list_text;	/* the values as written, for the log; NULL when unset */
	char *mask_text;
};

int banned_parse_mask(const char *text, struct cpuset *out);
int banned_parse_env(FILE *f, struct banned_env *env, char *err, size_t errlen);
void banned_env_free(struct banned_env *env);

struct banned {
	const char *paths[2];	/* the environment files read; NULL-padded */
	struct cpuset cpus;	/* the CPUs banned now */
	char *why;		/* where each came from, for the log */
	char *error;		/* why the last read failed, NULL when it did not */
	int inotify_fd;		/* on the files' folders, -1 without */
	long long next_read_ms;	/* procfs sends no inotify events: read it this often */
};

#define BANNED_READ_PERIOD_MS	1000

void banned_init(struct banned *b);
int banned_start(struct banned *b, const char *file, bool watch);
int banned_refresh(struct banned *b, long long now_ms, bool *news);
int banned_timeout(const struct banned *b, long long now_ms);
void banned_drain(struct banned *b);
void banned_free(struct banned *b);

#endif /* NICTLCTL_BANNED_H */
