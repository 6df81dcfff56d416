// SPDX-License-Identifier: GPL-2.0
/*
 * The steered bind: choose the CPUs, check and remember every steering
 * value the asked parts will replace, bind, plan from where the IRQs went
 * and write the plan. When steering fails after the bind, the values
 * written go back (txn.c) and so do the IRQs, through the module's
 * RESTORE, to the affinities from before nictl: a device bound before
 * does not get its earlier binding back (a queue placement sent instead
 * would replace a CPU-set sticky request; the module keeps no earlier one).
 */
#include <linux/nictl.h>

#include "report.h"
#include "steer/bind.h"
#include "steer/input.h"
#include "steer/txn.h"

/* Give @dev's IRQs back what they had before nictl: its steering failed. */
static void unbind(struct ctl_nl *nl, const struct nictl_dev *dev)
{
	struct dev_ref ref = { .ifindex = dev->ifindex, .name = dev->ifname };
	struct dev_list restored;

	if (!dev_exchange(nl, dev_request(nl, NICTL_CMD_RESTORE, &ref), "bind", dev->ifname,
			  &restored))
		dev_list_free(&restored);
}

/* After the bind of @s: plan and, unless a dry run, write the plan of @t. */
static int steer_after(struct ctl_nl *nl, const struct nictl_dev *dev, bool dry_run,
		       const struct steer_txn *t, struct steered *s)
{
	char why[512] = "";
	int err;

	err = steer_plan_dev(&s->result.devs[0], &s->choice.cpus, t->flow_entries, &s->plan);
	if (!err && !dry_run)
		err = steer_commit(t, &s->plan, why, sizeof(why));
	if (err && !dry_run)
		unbind(nl, dev);
	if (err && why[0])
		ctl_msg("cannot steer %s: %s; put back every steering value written and the "
			"IRQs' affinities from before nictl", dev->ifname, why);
	return err;
}

/*
 * Bind @dev by @policy and set the steering @parts (&enum steer_part; 0:
 * the bind alone). 0, or -1 after printing why, with everything as it was
 * but a device bound before, whose IRQs are then as before nictl. @s is to
 * be freed with steered_free() either way.
 */
int steer_bind(struct ctl_nl *nl, const struct nictl_dev *dev, const struct bind_policy *policy,
	       unsigned int parts, struct steered *s)
{
	struct steer_txn txn = { .parts = 0 };
	int err;

	*s = (struct steered){ .choice = { CPUSET_INIT, NULL }, .plan.cpus = CPUSET_INIT,
			       .parts = parts };
	err = policy_choose(dev, policy, &s->choice);
	if (err)
		return err;
	if (parts)
		err = steer_prepare(dev, &s->choice.cpus, parts, &txn);
	err = err ?: policy_send(nl, dev, policy, &s->choice, &s->result);
	if (!err && parts)
		err = steer_after(nl, dev, policy->dry_run, &txn, s);
	s->xps = txn.xps;
	steer_txn_free(&txn);
	return err;
}

void steered_free(struct steered *s)
{
	steer_plan_free(&s->plan);
	dev_list_free(&s->result);
	cpu_choice_free(&s->choice);
}
