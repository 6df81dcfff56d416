/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Steering that contradicts where a device's queue IRQs are, for `show` to
 * warn about: RPS or XPS onto CPUs of another node than the queue's IRQ,
 * and RFS counts without the host-wide table RFS needs. Pure: the caller
 * reads sysfs (steer/now.c), so host unit tests feed it any machine.
 */
#ifndef NICTLCTL_STEER_CHECK_H
#define NICTLCTL_STEER_CHECK_H

#include <stdbool.h>

#include "cpuset.h"
#include "steer/plan.h"

/* One queue's steering as sysfs has it now. */
struct steer_queue {
	int irq_cpu;		/* the CPU its IRQ interrupts, -1 when unknown */
	struct cpuset cpus;	/* rps_cpus or xps_cpus */
	unsigned int flow_cnt;	/* rps_flow_cnt, rx queues only */
};

/* A device's steering as sysfs has it now. */
struct steer_now {
	unsigned int rx_queues;
	unsigned int tx_queues;
	bool rps;			/* rx queues have rps_cpus (CONFIG_RPS) */
	bool xps;			/* tx queues have xps_cpus (more than one) */
	unsigned int flow_entries;	/* net.core.rps_sock_flow_entries */
	struct steer_queue *rx;
	struct steer_queue *tx;
};

enum steer_warning_kind {
	STEER_WARN_RPS_NODE,	/* rps_cpus on another node than the rx IRQ's CPU */
	STEER_WARN_XPS_NODE,	/* xps_cpus on another node than the tx IRQ's CPU */
	STEER_WARN_RFS_TABLE,	/* rps_flow_cnt while the host has no RFS table */
};

struct steer_warning {
	enum steer_warning_kind kind;
	unsigned int queue;
	int irq_cpu;
	int node;		/* of irq_cpu */
	struct cpuset far;	/* the CPUs of the queue's set on other nodes */
	unsigned int flow_cnt;
};

struct steer_warnings {
	struct steer_warning *w;
	unsigned int nr;
};

int steer_check(const struct steer_now *now, const struct steer_cpu *topo, unsigned int nr_topo,
		struct steer_warnings *out);
void steer_warnings_free(struct steer_warnings *ws);
const char *steer_warning_name(enum steer_warning_kind kind);
char *steer_warning_text(const struct steer_warning *w);

#endif /* NICTLCTL_STEER_CHECK_H */
