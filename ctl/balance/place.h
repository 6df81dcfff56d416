/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Placement from measured load: where each group of queue IRQs should run so
 * that no CPU carries more NET_RX work than it must. A pure function of its
 * input (no I/O, no clock, no randomness): the same problem gives the same
 * plan, which is what lets the daemon tell a real improvement from a
 * reshuffle. `nictlctl balance` and the daemon's `balance = yes` measure
 * the loads; this only decides.
 *
 * The unit placed is a group: the IRQs linked by the queues they serve (the
 * rx and tx IRQ of a queue pair), which the kernel moves as one. Loads are
 * nanoseconds of NET_RX softirq time over one measurement window.
 */
#ifndef NICTLCTL_BALANCE_PLACE_H
#define NICTLCTL_BALANCE_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#include "cpuset.h"

struct bal_group {
	uint64_t load;			/* NET_RX ns its NAPIs took in the window */
	int cpu;			/* where its IRQs run now; -1 when unknown */
	const struct cpuset *allowed;	/* the CPUs its device's policy allows */
	bool exclusive;			/* its policy wants a physical core per group
					 * when there are enough (no --allow-siblings) */
	bool pinned;			/* moved recently: stays on @cpu if allowed there */
};

/*
 * @groups come in the caller's order (by device, then group), which is also
 * the order ties are broken in. @base is the NET_RX time of each CPU that
 * no group of the problem accounts for (other devices, the RPS backlog): it
 * stays where it is. @core maps each CPU to its physical core (the lowest
 * CPU number among its SMT siblings), -1 for a CPU that is offline: such a
 * CPU is never chosen, whatever @allowed says. CPU numbers run from 0 to
 * @nr_cpus - 1.
 *
 * @min_gain: a move (or a swap of two groups) is made only when it lowers
 * the hotter of the two CPUs it touches by at least this much, and a fresh
 * placement replaces one derived from the current placement only when its
 * hottest CPU is lower by at least this much: gains smaller than the
 * measurement's noise are not worth an IRQ move.
 */
struct bal_problem {
	const struct bal_group *groups;
	unsigned int nr_groups;
	const uint64_t *base;
	const int *core;
	unsigned int nr_cpus;
	uint64_t min_gain;
};

/*
 * A plan. @cpu: the CPU of each group. @load_before and @load_after: each
 * CPU's load (base plus its groups) now and in the plan; a group whose
 * @cpu was -1 adds to no CPU before. @hot_before, @hot_after: the hottest
 * CPU (the lowest-numbered of equals), -1 when no CPU is online. @moves:
 * groups whose CPU changes. @off_policy: some group now runs where its
 * policy does not allow (or nowhere known, or shares a core the plan
 * gives it alone): the plan must be applied whatever its gain. @alone:
 * per group, whether it has a physical core to itself in the plan. @shared:
 * some group that wanted a core to itself (exclusive) could not get one,
 * because its CPUs have fewer cores than the groups that compete for them,
 * or because their policies (and pins) leave no way to give each its own.
 * Groups compete when the CPUs their policies allow share a core, pinned
 * or not.
 */
struct bal_plan {
	int *cpu;
	bool *alone;
	uint64_t *load_before;
	uint64_t *load_after;
	int hot_before;
	int hot_after;
	unsigned int moves;
	bool off_policy;
	bool shared;
};

/*
 * Plan @p into @plan, which the caller frees with bal_plan_free(). Returns 0,
 * -EINVAL when a group has no CPU it may use (or @core names no CPU), or
 * -ENOMEM; on an error @plan is left empty, with nothing to free.
 */
int bal_place(const struct bal_problem *p, struct bal_plan *plan);
void bal_plan_free(struct bal_plan *plan);

#endif /* NICTLCTL_BALANCE_PLACE_H */
