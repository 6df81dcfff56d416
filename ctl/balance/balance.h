/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Balancing queue IRQs by the NET_RX time each queue costs: which devices
 * and under which policy (set.c), the load measured between two samples of
 * the module's accounting (measure.c), the plan (place.c) and its apply,
 * one BIND with an explicit placement per device, every device or none
 * (apply.c), and what the user and the log are told (print.c). Used by
 * `nictlctl balance` and by the daemon's `balance = yes`.
 */
#ifndef NICTLCTL_BALANCE_H
#define NICTLCTL_BALANCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "balance/place.h"
#include "dev.h"
#include "nl.h"
#include "policy.h"
#include "stats/stats.h"

/* One placement group of one device of the set: what bal_group weighs. */
struct bal_slot {
	unsigned int dev;		/* index into the set's devices */
	unsigned int group;		/* the device's group number */
	unsigned int queue;		/* the lowest queue it serves: names it in a BIND */
};

/*
 * The physical devices to balance (a stacked device gives those beneath
 * it), each with the policy that governs it and the CPUs that policy
 * offers it, and, once measured, the problem for bal_place().
 */
struct bal_set {
	struct dev_list devs;
	const struct bind_policy **policy;	/* per device; not owned */
	struct cpuset *allowed;			/* per device */
	/* bal_measure() */
	struct bal_slot *slots;
	struct bal_group *groups;
	unsigned int nr_groups;
	uint64_t *base;
	int *core;
	unsigned int nr_cpus;
	uint64_t window_ns;
};

/* set.c */
int bal_set_add(struct bal_set *set, struct dev_list *found, const struct bind_policy *policy);
int bal_set_refresh(struct ctl_nl *nl, struct bal_set *set);
void bal_set_free(struct bal_set *set);

/*
 * measure.c: a sample is the CPU counters and the NAPI instances of every
 * device of a set, in set order; @napi_end[i] is one past device i's last.
 */
struct bal_sample {
	struct stats_sample s;
	unsigned int *napi_end;
	unsigned int nr_devs;
};

int bal_sample(struct ctl_nl *nl, const struct bal_set *set, struct bal_sample *b);
void bal_sample_free(struct bal_sample *b);
int bal_measure(struct bal_set *set, const struct bal_sample *t0, const struct bal_sample *t1,
		char *err, size_t errlen);
bool bal_cpu_relevant(const struct bal_set *set, unsigned int cpu);
void bal_problem_of(const struct bal_set *set, struct bal_problem *p);

/* apply.c: a device's groups, each named by its lowest queue, and their CPUs. */
struct bal_placement {
	unsigned int *queue;
	int *cpu;
	unsigned int nr;
};

int bal_placement_of(const struct bal_set *set, const int *cpu, unsigned int i,
		     struct bal_placement *pl);
bool bal_placement_fits(const struct bal_placement *pl, const struct nictl_dev *dev);
void bal_placement_free(struct bal_placement *pl);
int bal_bind_placement(struct ctl_nl *nl, const struct nictl_dev *dev,
		       const struct bind_policy *policy, const struct bal_placement *pl,
		       struct dev_list *result);
bool bal_plan_changes(const struct bal_set *set, const struct bal_plan *plan);
const char *bal_verdict(const struct bal_set *set, const struct bal_plan *plan,
			unsigned int threshold_pct);
int bal_apply(struct ctl_nl *nl, const struct bal_set *set, const struct bal_plan *plan,
	      struct dev_list *result);

/* print.c */
int bal_hottest(const struct bal_set *set, const uint64_t *load);
unsigned int bal_gain_pct(const struct bal_set *set, const struct bal_plan *plan);
void bal_print_table(FILE *f, const struct bal_set *set, const struct bal_plan *plan);
void bal_print_loads(FILE *f, const struct bal_set *set, const struct bal_plan *plan);
void bal_print_moves(FILE *f, const struct bal_set *set, const struct bal_plan *plan,
		     const char *sep);
int bal_print_json(FILE *f, const struct bal_set *set, const struct bal_plan *plan,
		   bool applied);

#endif /* NICTLCTL_BALANCE_H */
