/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nictl: a device's queue IRQs, one entry per IRQ. IRQs and queues do not map one to one (ice,
 * mlx5), so nictl_qirqs_merge() groups the IRQs that queues link, transitively, and a bind
 * places a group on one CPU (docs/design.md, The IRQ is the unit). Builds in the kernel and in
 * userspace (selftests/unit/ compiles qirq.c as is); only the include block differs.
 */
#ifndef _NICTL_QIRQ_H
#define _NICTL_QIRQ_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#endif

#include <linux/nictl.h>

/* Long enough for every driver's vector name ("mlx5_comp63@pci:0000:..."). */
#define NICTL_IRQ_NAME_LEN	64

/**
 * struct nictl_qref - one queue an IRQ serves
 * @queue: queue index
 * @kind: &enum nictl_queue_kind: rx, tx, or combined (the pair @queue)
 */
struct nictl_qref {
	unsigned int queue;
	unsigned int kind;
};

/**
 * struct nictl_qirq - one queue IRQ of a device
 * @irq: Linux IRQ number
 * @queue: the lowest queue it serves
 * @kind: &enum nictl_queue_kind: rx or tx if it serves only that, else combined
 * @group: placement group, numbered in the order of the IRQs
 * @first_ref: its first queue in the device's &struct nictl_qref array; the rest follow in order
 * @n_refs: how many queues it serves
 * @managed: the kernel manages the affinity
 * @shared: more than one handler is registered on the IRQ
 * @bound: nictl set the affinity and holds the one to restore
 * @owner_ifindex: the other device whose binding holds the IRQ, or 0
 * @drifts: times the IRQ was found moved away from where nictl put it
 * @drift_ns: CLOCK_MONOTONIC time of the last of them, 0 if none
 * @target_cpu: where nictl placed it, or -1
 * @plan_cpu: where the bind being prepared puts it, or -1 to leave it
 * @name: name of the IRQ's (first) action when it was found
 */
struct nictl_qirq {
	unsigned int irq;
	unsigned int queue;
	unsigned int kind;
	unsigned int group;
	unsigned int first_ref;
	unsigned int n_refs;
	bool managed;
	bool shared;
	bool bound;
	unsigned int owner_ifindex;
	unsigned int drifts;
	unsigned long long drift_ns;
	int target_cpu;
	int plan_cpu;
	char name[NICTL_IRQ_NAME_LEN];
};

/**
 * nictl_qirqs_drop_contested() - forget the queues that names cannot tell
 * @irqs: @n entries found by IRQ name, one per (IRQ, queue, kind); the
 *	kept ones end up first, sorted by queue, kind, IRQ
 * @n: entries in @irqs
 *
 * One IRQ serves a direction of a queue. If several IRQs' names claim one, a driver's buffer cut
 * the numbers short (bnxt_en before 6.12: 17 characters, so on "enp94s0f0np0" the rx vectors of
 * queues 1 and 10-19 are all "enp94s0f0np0-rx-1") or the table misreads the names. All its entries
 * are dropped; the NAPI links, where the driver has them, fill the queue in. Pure, O(@n log @n).
 *
 * Return: the number of entries kept.
 */
unsigned int nictl_qirqs_drop_contested(struct nictl_qirq *irqs, unsigned int n);

/**
 * nictl_qirqs_merge() - list every IRQ once, with its queues and group
 * @irqs: @n entries as found, one per (IRQ, queue, kind); the distinct
 *	IRQs end up first, sorted by lowest queue, kind, IRQ number
 * @n: entries in @irqs
 * @refs: room for @n queue references; filled with every IRQ's queues
 * @scratch: room for @n unsigned long longs
 * @n_groups: set to the number of groups
 *
 * A duplicate entry counts once. Pure: no allocation or locking; O(@n log @n).
 *
 * Return: the number of distinct IRQs.
 */
unsigned int nictl_qirqs_merge(struct nictl_qirq *irqs, unsigned int n, struct nictl_qref *refs,
			       unsigned long long *scratch, unsigned int *n_groups);

/**
 * nictl_qirqs_group_of() - the group that serves a queue
 * @irqs: a device's IRQs, as nictl_qirqs_merge() left them
 * @n: how many
 * @refs: their queues
 * @queue: a queue index
 *
 * Return: the group, or -1 when no IRQ serves @queue.
 */
int nictl_qirqs_group_of(const struct nictl_qirq *irqs, unsigned int n,
			 const struct nictl_qref *refs, unsigned int queue);

/**
 * nictl_qirqs_plan_group() - plan a whole group onto one CPU
 * @irqs: a device's IRQs
 * @n: how many
 * @group: the group
 * @cpu: the CPU
 *
 * Return: 0, or -1 (nothing changed) when the group is planned elsewhere.
 */
int nictl_qirqs_plan_group(struct nictl_qirq *irqs, unsigned int n, unsigned int group, int cpu);

/**
 * nictl_qirqs_source() - how a device's queue IRQs were found
 * @named: entries found by IRQ name
 * @linked: entries added from the queues' NAPI links
 *
 * Return: the &enum nictl_irq_source that says so.
 */
enum nictl_irq_source nictl_qirqs_source(unsigned int named, unsigned int linked);

#endif /* _NICTL_QIRQ_H */
