/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a PCI function's queue IRQs are, for the benchmarks that take them
 * off their CPUs and watch them come back. A queue IRQ is one of the
 * function's msi_irqs whose action ends in a queue name: virtio's "input.Q"
 * and "output.Q", the Intel drivers' "TxRx-Q", "rx-Q" and "tx-Q". It is
 * known by that name (its key), since a reload may give the IRQs and the
 * device other numbers. A placement's text form, which the benchmarks'
 * shell halves pass around, is "input.0=4,output.0=4,input.1=6,..." in key
 * order ("-": no queue IRQ).
 */
#ifndef NICTL_BENCH_PLACEMENT_H
#define NICTL_BENCH_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>

#define PLACEMENT_MAX	64

struct queue_place {
	char key[32];		/* "input.0" */
	unsigned int irq;	/* 0 in a parsed placement */
	char cpus[64];		/* smp_affinity_list */
};

struct placement {
	struct queue_place q[PLACEMENT_MAX];
	unsigned int nr;
};

/* The first line of @path, without its newline; false when there is none. */
bool read_line(const char *path, char *buf, size_t len);
/* The key at the end of IRQ action name @action, NULL if it names no queue. */
const char *queue_key(const char *action);
/* The queue IRQs of PCI function @bdf now, none while it has no driver. */
void placement_read(const char *bdf, struct placement *p);
/* The text form @arg into @p; exits with a message if it is malformed. */
void placement_parse(const char *arg, struct placement *p);
const struct queue_place *placement_find(const struct placement *p, const char *key);
/* The same keys on the same CPUs. */
bool placement_equal(const struct placement *a, const struct placement *b);
/* The text form and a newline, on stdout. */
void placement_print(const struct placement *p);

#endif /* NICTL_BENCH_PLACEMENT_H */
