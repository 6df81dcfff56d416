// SPDX-License-Identifier: GPL-2.0
/*
 * The devices a balance acts on. A stacked device (a bond) stands for the
 * physical devices beneath it: queue numbers, and so an explicit placement,
 * are per physical device. Each device keeps the policy that governs it and
 * the CPUs that policy offers it, found as bind finds them, so a balance
 * never places a queue where a bind by the same policy could not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "balance/balance.h"
#include "conf/devkey.h"
#include "report.h"

static bool has_dev(const struct bal_set *set, const struct nictl_dev *dev)
{
	unsigned int i;

	for (i = 0; i < set->devs.nr; i++)
		if (dev_key_of(&set->devs.devs[i]) == dev_key_of(dev))
			return true;
	return false;
}

/* Room for one more device in every per-device array; -ENOMEM. */
static int grow(struct bal_set *set)
{
	unsigned int n = set->devs.nr + 1;
	struct nictl_dev *devs;
	const struct bind_policy **policy;
	struct cpuset *allowed;

	devs = realloc(set->devs.devs, n * sizeof(*devs));
	if (devs)
		set->devs.devs = devs;
	policy = realloc(set->policy, n * sizeof(*policy));
	if (policy)
		set->policy = policy;
	allowed = realloc(set->allowed, n * sizeof(*allowed));
	if (allowed)
		set->allowed = allowed;
	return devs && policy && allowed ? 0 : -ENOMEM;
}

/* Take @dev (moved out of its list) with the CPUs @policy offers it; -1 when reported. */
static int add_dev(struct bal_set *set, struct nictl_dev *dev, const struct bind_policy *policy)
{
	struct cpu_choice choice;
	unsigned int i = set->devs.nr;

	if (!dev->nr_irqs) {
		ctl_msg("balance: %s has no queue IRQs (is it down?)", dev->ifname);
		return -1;
	}
	if (policy_cpus(dev, policy, &choice))
		return -1;
	if (grow(set)) {
		cpu_choice_free(&choice);
		ctl_msg("out of memory");
		return -1;
	}
	set->devs.devs[i] = *dev;
	memset(dev, 0, sizeof(*dev));
	set->policy[i] = policy;
	set->allowed[i] = choice.cpus;
	free(choice.why);
	set->devs.nr++;
	return 0;
}

/*
 * Add the physical devices of @found (one device, or those beneath a stacked
 * one), governed by @policy, which must outlive the set. A device already
 * in the set stays with its first policy. The devices are moved out of
 * @found, which the caller still frees. 0, or -1 after printing why.
 */
int bal_set_add(struct bal_set *set, struct dev_list *found, const struct bind_policy *policy)
{
	unsigned int i;

	for (i = 0; i < found->nr; i++) {
		if (has_dev(set, &found->devs[i]))
			continue;
		if (add_dev(set, &found->devs[i], policy))
			return -1;
	}
	return 0;
}

/*
 * Describe every device again (after a measurement window, for where its
 * IRQs are now), each in its own namespace. 0, or -1 after printing why: a
 * device that went away or changed its queue IRQs cannot be balanced on
 * what was measured before.
 */
int bal_set_refresh(struct ctl_nl *nl, struct bal_set *set)
{
	struct nictl_dev *old;
	struct dev_list now;
	unsigned int i;

	for (i = 0; i < set->devs.nr; i++) {
		old = &set->devs.devs[i];
		if (dev_exchange(nl, dev_request_of(nl, NICTL_CMD_DEV_GET, old), "balance",
				 old->ifname, &now))
			return -1;
		if (now.nr != 1 || now.devs[0].nr_irqs != old->nr_irqs ||
		    dev_group_count(&now.devs[0]) != dev_group_count(old)) {
			ctl_msg("balance: %s changed its queue IRQs while its load was measured; "
				"run balance again", old->ifname);
			dev_list_free(&now);
			return -1;
		}
		dev_list_swap_dev(&set->devs, i, &now);
		dev_list_free(&now);
	}
	return 0;
}

void bal_set_free(struct bal_set *set)
{
	unsigned int i;

	for (i = 0; i < set->devs.nr; i++)
		cpuset_free(&set->allowed[i]);
	dev_list_free(&set->devs);
	free(set->policy);
	free(set->allowed);
	free(set->slots);
	free(set->groups);
	free(set->base);
	free(set->core);
	memset(set, 0, sizeof(*set));
}
