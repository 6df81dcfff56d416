// SPDX-License-Identifier: GPL-2.0
/*
 * Apply a bind policy to one device: turn the policy into CPUs (choose.c),
 * refuse early a set with too few cores for the device's queues, and send
 * the BIND that lets the kernel place every queue IRQ at once.
 */
#include <linux/nictl.h>

#include "policy.h"
#include "report.h"

void bind_policy_free(struct bind_policy *policy)
{
	cpuset_free(&policy->req.given);
	cpuset_free(&policy->req.exclude);
}

/* The BIND flags (&enum nictl_bind_flags) that say @policy. */
uint32_t policy_flags(const struct bind_policy *policy)
{
	uint32_t flags = 0;

	if (!policy->allow_siblings)
		flags |= NICTL_BIND_F_SMT_EXCLUSIVE;
	if (policy->numa_local)
		flags |= NICTL_BIND_F_NUMA_STRICT;
	if (policy->dry_run)
		flags |= NICTL_BIND_F_DRY_RUN;
	if (policy->take_over)
		flags |= NICTL_BIND_F_TAKE_OVER;
	if (policy->allow_shared)
		flags |= NICTL_BIND_F_ALLOW_SHARED;
	if (policy->sticky)
		flags |= NICTL_BIND_F_STICKY;
	return flags;
}

/* The BIND request for @dev: its ifindex, the CPU bitmap and the flags. */
static struct nl_msg *bind_request(const struct ctl_nl *nl, const struct nictl_dev *dev,
				   const struct bind_policy *policy, const struct cpuset *cpus)
{
	struct dev_ref ref = { .ifindex = dev->ifindex, .name = dev->ifname };
	size_t len = cpuset_bytes_len(cpus);
	uint32_t flags = policy_flags(policy);
	struct nl_msg *msg;
	struct nlattr *attr;

	msg = dev_request(nl, NICTL_CMD_BIND, &ref);
	if (!msg)
		return NULL;
	attr = nla_reserve(msg, NICTL_A_CPUS, len);
	if (!attr || nla_put_u32(msg, NICTL_A_FLAGS, flags)) {
		nlmsg_free(msg);
		return NULL;
	}
	cpuset_to_bytes(cpus, nla_data(attr), len);
	return msg;
}

/*
 * The CPUs @policy offers @dev, as DEV_GET just described it, into @choice
 * (the caller frees it). 0, or -1 after printing why, with nothing to free.
 */
int policy_cpus(const struct nictl_dev *dev, const struct bind_policy *policy,
		struct cpu_choice *choice)
{
	struct cpu_request req = policy->req;

	if (policy->numa_local) {
		if (dev->numa_node < 0) {
			ctl_msg("the NUMA node of %s is unknown; use --node N or --cpus LIST",
				dev->ifname);
			return -1;
		}
		req.node = dev->numa_node;
		req.nearest = true;
	}
	return cpus_choose(&req, choice);
}

/*
 * policy_cpus(), refused early when the set has too few cores for the
 * device's queues and the policy wants a core for each.
 */
int policy_choose(const struct nictl_dev *dev, const struct bind_policy *policy,
		  struct cpu_choice *choice)
{
	int err = policy_cpus(dev, policy, choice);

	if (err)
		return err;
	if (!policy->allow_siblings)
		err = cpus_check_cores(choice, dev->ifname, dev_queue_count(dev),
				       dev_group_count(dev));
	if (err)
		cpu_choice_free(choice);
	return err;
}

/*
 * Send the BIND that places @dev's queue IRQs on @choice's CPUs; @result
 * holds the kernel's reply (one device), for the caller to free. 0, or -1
 * after printing why, with nothing to free.
 */
int policy_send(struct ctl_nl *nl, const struct nictl_dev *dev, const struct bind_policy *policy,
		const struct cpu_choice *choice, struct dev_list *result)
{
	return dev_exchange(nl, bind_request(nl, dev, policy, &choice->cpus), "bind", dev->ifname,
			    result);
}
