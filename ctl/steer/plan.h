/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steering plan of `bind --steer`: from where the bind put a device's
 * queue IRQs and the CPUs it offered, the RPS, RFS and XPS values of every
 * queue. Pure: the caller reads sysfs, so host unit tests feed it any
 * machine they like.
 */
#ifndef NICTLCTL_STEER_PLAN_H
#define NICTLCTL_STEER_PLAN_H

#include <stddef.h>

#include "cpuset.h"

/* The host-wide RFS table nictl asks for; the kernel's guidance for a server. */
#define STEER_FLOW_ENTRIES	32768

/* What the planner knows of one CPU. */
struct steer_cpu {
	int node;	/* -1 when unknown */
	int core;	/* the lowest CPU of its physical core: itself without SMT */
};

struct steer_input {
	unsigned int rx_queues;
	unsigned int tx_queues;
	const int *rx_cpu;		/* per rx queue, the CPU of its IRQ; -1: not placed */
	const int *tx_cpu;		/* per tx queue, the same */
	const struct cpuset *cpus;	/* the CPUs the bind offered */
	const struct cpuset *isolated;	/* isolcpus/nohz_full: never steered to */
	const struct steer_cpu *topo;	/* indexed by CPU number */
	unsigned int nr_topo;		/* CPUs @topo describes; others: no node, own core */
	unsigned int flow_entries;	/* net.core.rps_sock_flow_entries now */
};

enum rps_case {
	RPS_SPREAD,		/* fewer rx queues than cores on the IRQ's node */
	RPS_OFF_QUEUES,		/* a queue per core already: RPS would only add IPIs */
	RPS_OFF_NO_IRQ,		/* the queue's IRQ was placed nowhere: no node */
	RPS_OFF_NO_CPU,		/* no steering CPU on the IRQ's node */
};

struct steer_rxq {
	int irq_cpu;
	int node;			/* of irq_cpu */
	unsigned int cores;		/* of the steering CPUs on that node */
	enum rps_case rps_case;
	struct cpuset rps_cpus;		/* empty when RPS is off */
	unsigned int flow_cnt;		/* rps_flow_cnt */
};

struct steer_txq {
	int irq_cpu;
	struct cpuset xps_cpus;
};

struct steer_plan {
	struct cpuset cpus;		/* the bind's CPUs but the isolated ones */
	unsigned int flow_entries_before;
	unsigned int flow_entries;	/* never below flow_entries_before */
	unsigned int rx_queues;
	unsigned int tx_queues;
	struct steer_rxq *rx;
	struct steer_txq *tx;
};

int steer_plan_make(const struct steer_input *in, struct steer_plan *plan);
void steer_plan_free(struct steer_plan *plan);
const char *steer_rps_case_name(enum rps_case c);
void steer_rps_why(const struct steer_plan *plan, unsigned int q, char *buf, size_t len);

#endif /* NICTLCTL_STEER_PLAN_H */
