// SPDX-License-Identifier: GPL-2.0
/*
 * The steered bind: choose the CPUs, check and remember every steering
 * value the asked parts will replace and that the kernel has the NAPI
 * settings asked for, bind, set those (napi/config.h), move the NAPI
 * threads where their IRQs went (napi/place.h), plan from where the IRQs
 * went and write the plan. When a setting, a thread or the steering fails
 * after the bind, the steering values written go back (txn.c), and the
 * settings, threads and IRQs to what they had before nictl, by `restore`'s
 * means (the module's RESTORE for the IRQs): a device bound before
 * does not get its earlier binding back (a queue placement sent instead
 * would replace a CPU-set sticky request; the module keeps no earlier one).
 */
#include <linux/nictl.h>

#include "napi/config.h"
#include "napi/place.h"
#include "report.h"
#include "steer/bind.h"
#include "steer/input.h"
#include "steer/txn.h"

void steer_unbind(struct ctl_nl *nl, const struct nictl_dev *dev)
{
	struct dev_ref ref = { .ifindex = dev->ifindex, .name = dev->ifname };
	struct dev_list restored;

	napi_put_back(dev->ifindex);
	if (!dev_exchange(nl, dev_request(nl, NICTL_CMD_RESTORE, &ref), "bind", dev->ifname,
			  &restored))
		dev_list_free(&restored);
}

/* After the bind of @s: plan and, unless a dry run, write the plan of @t. */
static int steer_after(const struct nictl_dev *dev, bool dry_run, const struct steer_txn *t,
		       struct steered *s)
{
	char why[512] = "";
	int err;

	err = steer_plan_dev(&s->result.devs[0], &s->choice.cpus, t->flow_entries, &s->plan);
	if (!err && !dry_run)
		err = steer_commit(t, &s->plan, why, sizeof(why));
	if (err && why[0])
		ctl_msg("cannot steer %s: %s; put back every steering value written and the "
			"IRQs' affinities from before nictl", dev->ifname, why);
	return err;
}

/*
 * After the bind: the NAPI settings, the NAPI threads following the IRQs,
 * then the steering @parts; on a failure of any everything goes back.
 */
static int bind_after(struct ctl_nl *nl, const struct nictl_dev *dev,
		      const struct bind_policy *policy, unsigned int parts,
		      const struct steer_txn *t, struct steered *s)
{
	bool dry_run = policy->dry_run;
	int err = 0;

	if (!dry_run)
		err = napi_apply(&s->result.devs[0], &s->choice.cpus, &policy->napi);
	if (!err && parts)
		err = steer_after(dev, dry_run, t, s);
	if (err && !dry_run)
		steer_unbind(nl, dev);
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
	err = err ?: napi_config_check(dev, &policy->napi) ?:
	      policy_send(nl, dev, policy, &s->choice, &s->result) ?:
	      bind_after(nl, dev, policy, parts, &txn, s);
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
