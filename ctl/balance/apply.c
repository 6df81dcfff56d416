// SPDX-License-Identifier: GPL-2.0
/*
 * Applying a plan: one BIND per device with an explicit placement, each
 * queue group on its CPU, so the kernel moves each device's IRQs all or
 * nothing, under the device's policy (NUMA-strict, SMT-exclusive where the
 * plan gave every group a core, take-over, shared). Devices are separate
 * transactions in the kernel, so a failure on one puts back the devices
 * before it here: as nictl held them (the same placement again) or, when
 * nictl held none, restored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "balance/balance.h"
#include "report.h"

/*
 * The flags of @policy for @dev's BIND, SMT exclusivity aside (the plan
 * decides it): a sticky binding keeps being one, with the new placement.
 */
static uint32_t dev_flags(const struct bind_policy *policy, const struct nictl_dev *dev)
{
	uint32_t flags = policy_flags(policy) & ~(NICTL_BIND_F_SMT_EXCLUSIVE | NICTL_BIND_F_DRY_RUN);

	if (dev->flags & NICTL_DEV_F_STICKY)
		flags |= NICTL_BIND_F_STICKY;
	return flags;
}

/* SMT-exclusive too when the plan gave each of device @i's groups a core. */
static uint32_t plan_flags(const struct bal_set *set, const struct bal_plan *plan, unsigned int i)
{
	uint32_t flags = dev_flags(set->policy[i], &set->devs.devs[i]);
	bool alone = true;
	unsigned int g;

	for (g = 0; g < set->nr_groups; g++)
		if (set->slots[g].dev == i)
			alone &= plan->alone[g];
	if (!set->policy[i]->allow_siblings && alone)
		flags |= NICTL_BIND_F_SMT_EXCLUSIVE;
	return flags;
}

void bal_placement_free(struct bal_placement *pl)
{
	free(pl->queue);
	free(pl->cpu);
	memset(pl, 0, sizeof(*pl));
}

/* Device @i's groups, each named by its lowest queue, on @cpu[group index]; -ENOMEM. */
int bal_placement_of(const struct bal_set *set, const int *cpu, unsigned int i,
		     struct bal_placement *pl)
{
	unsigned int g, n = 0;

	for (g = 0; g < set->nr_groups; g++)
		n += set->slots[g].dev == i;
	pl->queue = calloc(n ?: 1, sizeof(*pl->queue));
	pl->cpu = calloc(n ?: 1, sizeof(*pl->cpu));
	pl->nr = 0;
	if (!pl->queue || !pl->cpu) {
		bal_placement_free(pl);
		return -ENOMEM;
	}
	for (g = 0; g < set->nr_groups; g++) {
		if (set->slots[g].dev != i)
			continue;
		pl->queue[pl->nr] = set->slots[g].queue;
		pl->cpu[pl->nr++] = cpu[g];
	}
	return 0;
}

/*
 * Whether @pl still fits @dev: the same groups, named by the same queues,
 * so that binding it places every queue IRQ the device has now.
 */
bool bal_placement_fits(const struct bal_placement *pl, const struct nictl_dev *dev)
{
	unsigned int i, k;

	if (pl->nr != dev_group_count(dev))
		return false;
	for (i = 0; i < pl->nr; i++) {
		for (k = 0; k < dev->nr_irqs; k++)
			if (dev->irqs[k].queue == pl->queue[i])
				break;
		if (k == dev->nr_irqs)
			return false;
	}
	return true;
}

/* BIND of @dev with @pl, an explicit placement. */
static struct nl_msg *place_request(const struct ctl_nl *nl, const struct nictl_dev *dev,
				    uint32_t flags, const struct bal_placement *pl)
{
	struct nl_msg *msg = dev_request_of(nl, NICTL_CMD_BIND, dev);
	struct nlattr *nest;
	unsigned int i;

	if (!msg || nla_put_u32(msg, NICTL_A_FLAGS, flags))
		goto fail;
	for (i = 0; i < pl->nr; i++) {
		nest = nla_nest_start(msg, NICTL_A_QUEUE_CPU | NLA_F_NESTED);
		if (!nest || nla_put_u32(msg, NICTL_A_QUEUE_CPU_QUEUE, pl->queue[i]) ||
		    nla_put_u32(msg, NICTL_A_QUEUE_CPU_CPU, pl->cpu[i]))
			goto fail;
		nla_nest_end(msg, nest);
	}
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

/* Send the BIND; the reply (one device) into @result. 0, or -1 after printing why. */
static int send_placement(struct ctl_nl *nl, const struct nictl_dev *dev, uint32_t flags,
			  const struct bal_placement *pl, struct dev_list *result)
{
	return dev_exchange(nl, place_request(nl, dev, flags, pl), "balance", dev->ifname,
			    result);
}

/*
 * Bind @dev again as a balance placed it (the daemon's answer to a drift
 * or a reload), under @policy; the reply into @result. 0, or -1 after
 * printing why.
 */
int bal_bind_placement(struct ctl_nl *nl, const struct nictl_dev *dev,
		       const struct bind_policy *policy, const struct bal_placement *pl,
		       struct dev_list *result)
{
	return send_placement(nl, dev, dev_flags(policy, dev), pl, result);
}

/*
 * Whether device @i must be bound for the plan: a group moves, or an IRQ
 * may run on more than one CPU or away from its group's (nictl never bound
 * it, or something moved it).
 */
static bool needs_bind(const struct bal_set *set, const struct bal_plan *plan, unsigned int i)
{
	const struct nictl_dev *dev = &set->devs.devs[i];
	const struct nictl_irq *irq;
	unsigned int g, k;

	for (g = 0; g < set->nr_groups; g++) {
		if (set->slots[g].dev != i)
			continue;
		for (k = 0; k < dev->nr_irqs; k++) {
			irq = &dev->irqs[k];
			if (irq->group == set->slots[g].group &&
			    !cpuset_is_only(&irq->affinity, plan->cpu[g]))
				return true;
		}
	}
	return false;
}

/* Whether the plan changes anything: what bal_apply() would bind. */
bool bal_plan_changes(const struct bal_set *set, const struct bal_plan *plan)
{
	unsigned int i;

	for (i = 0; i < set->devs.nr; i++)
		if (needs_bind(set, plan, i))
			return true;
	return false;
}

/*
 * Why the plan is not worth applying, or NULL when it is: it changes
 * nothing, or its hottest CPU is less than @threshold_pct percent cooler
 * than the hottest now while every queue runs where its policy allows.
 */
const char *bal_verdict(const struct bal_set *set, const struct bal_plan *plan,
			unsigned int threshold_pct)
{
	if (!bal_plan_changes(set, plan))
		return "already balanced: nothing to move";
	if (!plan->off_policy && bal_gain_pct(set, plan) < threshold_pct)
		return "the gain is under the threshold: nothing moved";
	return NULL;
}

/* Put device @i back as it was before bal_apply() bound it; 0 or -1 (reported). */
static int put_back(struct ctl_nl *nl, const struct bal_set *set, const struct bal_plan *plan,
		    unsigned int i)
{
	const struct nictl_dev *dev = &set->devs.devs[i];
	struct bal_placement pl;
	struct dev_list back;
	unsigned int g;
	int *was, err;

	if (!(dev->flags & NICTL_DEV_F_BOUND)) {
		err = dev_exchange(nl, dev_request_of(nl, NICTL_CMD_RESTORE, dev), "balance",
				   dev->ifname, &back);
		dev_list_free(&back);
		return err;
	}
	was = malloc(set->nr_groups * sizeof(*was));
	if (!was) {
		ctl_msg("out of memory");
		return -1;
	}
	for (g = 0; g < set->nr_groups; g++)
		was[g] = set->groups[g].cpu >= 0 ? set->groups[g].cpu : plan->cpu[g];
	err = bal_placement_of(set, was, i, &pl);
	if (err) {
		free(was);
		ctl_msg("out of memory");
		return -1;
	}
	/* What was may break the policy (the balance moved it because it did): no node check. */
	err = send_placement(nl, dev, dev_flags(set->policy[i], dev) & ~NICTL_BIND_F_NUMA_STRICT,
			     &pl, &back);
	dev_list_free(&back);
	bal_placement_free(&pl);
	free(was);
	return err;
}

/* Bind device @i as the plan places it; its reply appended to @result. */
static int apply_dev(struct ctl_nl *nl, const struct bal_set *set, const struct bal_plan *plan,
		     unsigned int i, struct dev_list *result)
{
	struct bal_placement pl;
	struct dev_list one;
	int err;

	if (bal_placement_of(set, plan->cpu, i, &pl)) {
		ctl_msg("out of memory");
		return -1;
	}
	err = send_placement(nl, &set->devs.devs[i], plan_flags(set, plan, i), &pl, &one);
	bal_placement_free(&pl);
	if (!err && dev_list_take(result, &one)) {
		ctl_msg("out of memory");
		err = -1;
	}
	dev_list_free(&one);
	return err;
}

/*
 * Bind every device the plan changes, and collect the kernel's replies in
 * @result (the caller frees it). On a failure, the devices bound before
 * are put back and -1 returned, after printing why.
 */
int bal_apply(struct ctl_nl *nl, const struct bal_set *set, const struct bal_plan *plan,
	      struct dev_list *result)
{
	unsigned int i, k;
	int err = 0;

	*result = (struct dev_list){ NULL, 0, NULL, 0 };
	for (i = 0; !err && i < set->devs.nr; i++)
		if (needs_bind(set, plan, i))
			err = apply_dev(nl, set, plan, i, result);
	/* Device i - 1 failed, and was left as it was by the kernel. */
	for (k = 0; err && k + 1 < i; k++) {
		if (!needs_bind(set, plan, k))
			continue;
		if (put_back(nl, set, plan, k))
			ctl_msg("balance: %s could not be put back; see `nictlctl show %s`",
				set->devs.devs[k].ifname, set->devs.devs[k].ifname);
		else
			ctl_msg("balance: %s put back as it was", set->devs.devs[k].ifname);
	}
	if (err)
		dev_list_free(result);
	return err;
}
