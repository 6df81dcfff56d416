/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `nictlctl doctor`: what one observation of the machine holds (a sample,
 * read by sample.c and ethtool.c), what two of them mean (findings, from the
 * pure rules.c), and printing and fixing them. A sample holds plain numbers
 * and CPU sets only, so host unit tests build any machine by hand.
 */
#ifndef NICTLCTL_DOCTOR_H
#define NICTLCTL_DOCTOR_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "cpuset.h"
#include "nl.h"

struct doc_cpu {
	unsigned int cpu;
	int node;			/* -1 when unknown */
	int core;			/* lowest CPU of its SMT siblings */
	uint64_t net_rx_ns;		/* NET_RX time since the counters started */
	bool softnet;			/* softnet_stat has a row for it */
	uint32_t squeeze;		/* softnet time_squeeze */
	uint32_t dropped;		/* softnet dropped: backlog full */
};

struct doc_irq {
	unsigned int irq;
	unsigned int queue;		/* the lowest it serves */
	int cpu;			/* the CPU it interrupts (effective), -1 unknown */
	struct cpuset affinity;
	unsigned int drifts;		/* times moved off nictl's target */
	bool banned;			/* the running irqbalance bans it */
};

/* One NAPI instance: its packets so far and where it was polled. */
struct doc_napi {
	int queue;			/* -1 when unknown */
	uint64_t packets;
	uint64_t busy_ns;		/* time tasks busy-polled it */
	struct cpuset cpus;
};

/* A NIC counter of dropped packets, by its ethtool or sysfs name. */
struct doc_counter {
	char *name;
	uint64_t value;
};

struct doc_dev {
	unsigned int ifindex;
	char *ifname;
	int node;			/* -1 when unknown */
	unsigned int rx_queues;
	struct doc_irq *irqs;
	unsigned int nr_irqs;
	struct doc_napi *napis;
	unsigned int nr_napis;
	struct doc_counter *drops;
	unsigned int nr_drops;
	unsigned int channels;		/* ethtool -l: combined (else rx) now, 0 unknown */
	unsigned int max_channels;	/* and their maximum */
	unsigned int ring;		/* ethtool -g: rx ring now, 0 unknown */
	unsigned int ring_max;
	bool rps;			/* some rx queue has rps_cpus */
	int rps_far_queue;		/* an rx queue whose RPS reaches another node, or -1 */
	struct cpuset rps_far;		/* those CPUs */
	bool bound;			/* nictl bound it and can restore it */
	char *governor;			/* daemon rule name, "sticky", or NULL */
	bool threaded;			/* threaded NAPI (/sys/class/net/DEV/threaded) */
	/* A NAPI thread that may run off its IRQ's node (napi/threads.h), pid 0 for none: */
	unsigned int thread_far_pid;
	char *thread_far_name;
	unsigned int thread_far_irq;
	int thread_far_cpu;		/* the CPU that IRQ interrupts */
	struct cpuset thread_far;	/* the CPUs of other nodes the thread may run on */
};

struct doc_sample {
	uint64_t now_ns;		/* CLOCK_MONOTONIC */
	bool stats_on;			/* the module's softirq accounting */
	struct doc_cpu *cpus;		/* online CPUs, ascending */
	unsigned int nr_cpus;
	struct cpuset isolated;		/* isolcpus= and nohz_full= */
	struct cpuset reserved;		/* cgroup v2 isolated partitions */
	struct cpuset banned;		/* irqbalance's banned CPUs (daemon/banned.h), unless
					 * the configuration says banned-cpus = ignore */
	char *banned_why;		/* where each comes from; NULL when none is */
	pid_t irqbalance;		/* 0 when none runs */
	bool bans_known;		/* its ban list could be read */
	unsigned int budget;		/* net.core.netdev_budget, 0 unknown */
	unsigned int budget_usecs;
	unsigned int max_backlog;
	bool busy_poll;			/* net.core.busy_poll or busy_read non-zero */
	bool rules_read;		/* a daemon configuration was read */
	char *module_why;		/* module nictl is not loaded: why, and the fix */
	char *module_fix;
	struct doc_dev *devs;
	unsigned int nr_devs;
};

enum doc_severity {
	DOC_INFO,
	DOC_WARNING,
	DOC_ERROR,
};

#define DOC_MAX_FACTS	8

/* One number (or CPU list, when str) seen; JSON carries it as a field. */
struct doc_fact {
	const char *key;
	long long num;
	char *str;
};

struct doc_finding {
	const char *id;			/* stable: scripts match on it */
	enum doc_severity severity;
	char *dev;			/* NULL: the host */
	char *text;			/* what is wrong, with the numbers */
	char *fix;			/* the command that fixes it, or NULL */
	bool bind_fix;			/* --fix applies it: bind --numa-local --steer */
	bool fixed;			/* --fix did */
	struct doc_fact facts[DOC_MAX_FACTS];
	unsigned int nr_facts;
};

struct doc_findings {
	struct doc_finding *f;
	unsigned int nr;
	uint64_t span_ns;
};

/* sample.c */
struct doc_read_args {
	char **devs;			/* the names asked for; none: every device */
	unsigned int nr_devs;
	const char *conf;		/* the daemon's configuration file */
};

/* @nl NULL: module nictl is not loaded; read from sysfs and /proc (direct/). */
int doc_sample_read(struct ctl_nl *nl, const struct doc_read_args *a, struct doc_sample *s);
void doc_sample_free(struct doc_sample *s);
const struct doc_dev *doc_sample_dev(const struct doc_sample *s, unsigned int ifindex);

/* ethtool.c */
int doc_ethtool_read(struct doc_dev *d);
bool doc_is_drop_counter(const char *name);

/* rules.c */
int doc_rules(const struct doc_sample *prev, const struct doc_sample *cur,
	      struct doc_findings *out);
/* The CPUs a bind fix keeps off: reserved and banned for other work. */
int doc_avoid_cpus(const struct doc_sample *s, struct cpuset *out);
void doc_findings_free(struct doc_findings *fs);
const char *doc_severity_name(enum doc_severity sev);
unsigned int doc_problems(const struct doc_findings *fs);

/* print.c */
int doc_print_text(FILE *f, const struct doc_findings *fs);
int doc_print_json(FILE *f, const struct doc_findings *fs);

/* fix.c */
int doc_fix(struct ctl_nl *nl, struct doc_findings *fs, const struct cpuset *avoid);

#endif /* NICTLCTL_DOCTOR_H */
