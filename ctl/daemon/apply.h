/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keeping the configuration applied: the rule of each device, bound through
 * the module and logged old -> new, XPS along, and irqbalance told which
 * IRQs are nictl's. The daemon decides when; this decides what.
 */
#ifndef NICTLCTL_APPLY_H
#define NICTLCTL_APPLY_H

#include <stdbool.h>

#include "balance/balance.h"
#include "conf/conf.h"
#include "conf/devkey.h"
#include "daemon/irqbalance.h"
#include "nl.h"

/* A device a rule governs, and the IRQs bound on it (none while the rule failed). */
struct owned {
	dev_key key;
	struct irq_set irqs;
	struct bal_placement placed;	/* where the last balance put its queues, if any */
};

struct keeper {
	/* requests; nl.family < 0 while the module is away: then sysfs and /proc/irq */
	struct ctl_nl nl;
	struct conf conf;
	struct owned *owned;
	unsigned int nr_owned;
	struct irqbalance ib;
};

enum apply_result {
	APPLY_DONE,	/* the device's rule is in force */
	APPLY_NONE,	/* no rule matches the device, or it is gone */
	APPLY_WAIT,	/* the device has no queue IRQs yet */
	APPLY_FAILED,	/* logged */
	APPLY_GONE,	/* the module went away */
};

enum apply_result keeper_apply(struct keeper *k, dev_key key);
int keeper_apply_all(struct keeper *k, unsigned int *failed);
bool keeper_owns(const struct keeper *k, dev_key key);
void keeper_forget(struct keeper *k, dev_key key);
int keeper_irqbalance(struct keeper *k);

/* A device kept without the module whose IRQs moved: @what says which, how. */
typedef void (*keeper_drift_fn)(void *arg, const struct nictl_dev *dev, const char *what);
/*
 * Without the module, nothing reports a write to /proc/irq: look at every
 * IRQ the daemon bound, and call @fn for each device with one off its CPU.
 */
void keeper_check_direct(struct keeper *k, keeper_drift_fn fn, void *arg);
/*
 * With the module or without: call @fn for each device kept whose NAPI
 * threads are not all on their IRQs' CPUs (daemon/threads.c).
 */
void keeper_check_threads(struct keeper *k, keeper_drift_fn fn, void *arg);
/* Put back what binds without the module replaced on the devices kept (the module came). */
void keeper_release_direct(struct keeper *k);
void keeper_placed(struct keeper *k, dev_key key, struct bal_placement *pl);
void keeper_unplace(struct keeper *k);
int keeper_balanced(struct keeper *k, struct bal_set *set);
void keeper_free(struct keeper *k);

#endif /* NICTLCTL_APPLY_H */
