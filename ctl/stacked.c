// SPDX-License-Identifier: GPL-2.0
/*
 * Binding a stacked device. The CPUs offered are the union of what the
 * policy gives each physical device beneath it: with --numa-local each
 * one's own node, and the module keeps each device on the part of the set
 * on its node (a bond across two sockets keeps each port local). The NAPI
 * settings asked for and the NAPI threads of every device beneath follow
 * in the same step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "napi/config.h"
#include "napi/place.h"
#include "report.h"
#include "stacked.h"

/* "vnode0: <why>; vnode1: <why>", the reasons behind each part of the set. */
static int add_why(struct cpu_choice *all, const char *dev, const char *why)
{
	size_t len = all->why ? strlen(all->why) : 0;
	char *grown;

	grown = realloc(all->why, len + strlen(dev) + strlen(why) + 5);
	if (!grown)
		return -1;
	sprintf(grown + len, "%s%s: %s", len ? "; " : "", dev, why);
	all->why = grown;
	return 0;
}

/* The union of the CPUs @policy gives each device of @found; 0 or -1 (reported). */
static int choose_all(const struct dev_list *found, const struct bind_policy *policy,
		      struct cpu_choice *all)
{
	struct cpu_choice one;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < found->nr; i++) {
		err = policy_choose(&found->devs[i], policy, &one);
		if (err)
			break;
		if (cpuset_or(&all->cpus, &one.cpus) ||
		    add_why(all, found->devs[i].ifname, one.why ?: "")) {
			ctl_msg("out of memory");
			err = -1;
		}
		cpu_choice_free(&one);
	}
	return err;
}

/*
 * Bind the stacked device @found describes, by @policy: one BIND of it,
 * which the module applies to every device beneath it or to none. 0, or
 * -1 after printing why. @s is to be freed with steered_free() either way.
 */
int stacked_bind(struct ctl_nl *nl, const struct dev_list *found,
		 const struct bind_policy *policy, struct steered *s)
{
	struct nictl_dev upper = { .ifindex = found->stacked_ifindex, .ifname = found->stacked };
	unsigned int i;
	int err;

	*s = (struct steered){ .choice = { CPUSET_INIT, NULL }, .plan.cpus = CPUSET_INIT };
	err = choose_all(found, policy, &s->choice);
	for (i = 0; !err && i < found->nr; i++)
		err = napi_config_check(&found->devs[i], &policy->napi);
	err = err ?: policy_send(nl, &upper, policy, &s->choice, &s->result);
	if (err || policy->dry_run)
		return err;
	for (i = 0; !err && i < s->result.nr; i++)
		err = napi_apply(&s->result.devs[i], &s->choice.cpus, &policy->napi);
	if (!err)
		return 0;
	/* A member's setting or thread failed: every member as before nictl. */
	for (i = 0; i < s->result.nr; i++)
		napi_put_back(s->result.devs[i].ifindex);
	steer_unbind(nl, &upper);
	return -1;
}
