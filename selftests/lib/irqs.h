/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own view of IRQs: /proc/interrupts for names and
 * /proc/irq/N/ for affinities. Tests judge nictl against these, never
 * against its replies alone.
 */
#ifndef NICTL_TEST_IRQS_H
#define NICTL_TEST_IRQS_H

#include <stdbool.h>
#include <stdio.h>

#include "cpus.h"

#define PROC_IRQS_MAX	512
#define IRQ_NAME_LEN	64
#define IRQ_TAIL_LEN	192

/* One numbered line of /proc/interrupts. */
struct proc_irq {
	unsigned int irq;
	/* Everything after the per-CPU counts: chip, hwirq, action names. */
	char tail[IRQ_TAIL_LEN];
	/* The last word of the line: the (last) action name, "" without one. */
	char label[IRQ_NAME_LEN];
	/* Its interrupts so far, on all CPUs together. */
	unsigned long long count;
};

struct proc_irqs {
	unsigned int n;
	struct proc_irq irq[PROC_IRQS_MAX];
};

int proc_interrupts_parse(FILE *f, struct proc_irqs *out);
int proc_interrupts(struct proc_irqs *out);
const struct proc_irq *proc_irqs_find(const struct proc_irqs *p, unsigned int irq);
/* Whether @name is one of the words after the counts (an action name). */
bool proc_irq_has_name(const struct proc_irq *p, const char *name);
/* The CPUs /proc/interrupts counts interrupts of @irq on: 0 or -errno. */
int irq_fired_on(unsigned int irq, struct cpus *on);

/* How often @irq fired so far, on all CPUs together: 0 or -errno. */
int irq_count(unsigned int irq, unsigned long long *count);

/* /proc/irq/N/smp_affinity_list and effective_affinity_list. */
int irq_affinity(unsigned int irq, struct cpus *mask, struct cpus *effective);
int irq_set_affinity(unsigned int irq, const struct cpus *mask);
/* /proc/irq/N/affinity_hint as read (a hex mask, "0"s without a hint). */
int irq_affinity_hint(unsigned int irq, char *buf, size_t len);

/* The affinity mask of every IRQ that has an action. */
struct irq_snapshot {
	unsigned int n;
	struct {
		unsigned int irq;
		char label[IRQ_NAME_LEN];
		char list[IRQ_NAME_LEN];	/* smp_affinity_list as read */
	} e[PROC_IRQS_MAX];
};

int irq_snapshot_take(struct irq_snapshot *s);
/*
 * Compare the current state with @before, printing every difference: the
 * number of IRQs whose mask changed or that went away, or -errno.
 */
int irq_snapshot_changes(const struct irq_snapshot *before);
/*
 * Write back every mask that differs from @s, on IRQs that still carry the
 * same action: 0 or the first -errno.
 */
int irq_snapshot_restore(const struct irq_snapshot *s);

#endif /* NICTL_TEST_IRQS_H */
