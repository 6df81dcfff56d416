// SPDX-License-Identifier: GPL-2.0
/*
 * The generic-netlink family: policies, op table and DEV_GET (accounting:
 * stats_genl.c). Initial namespace only (netnsok false): IRQ affinity is
 * host-wide. Requests may name a device in another namespace (netns.c).
 */
#include <linux/jhash.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>

#include "nictl.h"
#include "stats.h"

#define NICTL_DEV_POLICY							\
	[NICTL_A_IFINDEX] = NLA_POLICY_MIN(NLA_U32, 1),				\
	[NICTL_A_IFNAME] = { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },	\
	[NICTL_A_NETNS_FD] = { .type = NLA_U32 },				\
	[NICTL_A_NETNS_ID] = NLA_POLICY_MIN(NLA_S32, 0)

static const struct nla_policy nictl_dev_policy[NICTL_A_NETNS_ID + 1] = {
	NICTL_DEV_POLICY,
};

static const struct nla_policy nictl_stats_set_policy[NICTL_A_STATS_ENABLED + 1] = {
	[NICTL_A_STATS_ENABLED] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* A CPU no bitmap can name is out of range, as the bitmap's own length is. */
static const struct nla_policy nictl_queue_cpu_policy[NICTL_A_QUEUE_CPU_MAX + 1] = {
	[NICTL_A_QUEUE_CPU_QUEUE] = { .type = NLA_U32 },
	[NICTL_A_QUEUE_CPU_CPU] = NLA_POLICY_MAX(NLA_U32, NICTL_CPUMASK_MAX_BYTES * BITS_PER_BYTE - 1),
};

static const struct nla_policy nictl_bind_policy[NICTL_A_NETNS_ID + 1] = {
	NICTL_DEV_POLICY,
	[NICTL_A_CPUS] = { .type = NLA_BINARY, .len = NICTL_CPUMASK_MAX_BYTES },
	[NICTL_A_FLAGS] = NLA_POLICY_MASK(NLA_U32, NICTL_BIND_F_ALL),
	[NICTL_A_QUEUE_CPU] = NLA_POLICY_NESTED(nictl_queue_cpu_policy),
};

static int nictl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = NULL;
	struct nictl_stack *stack;
	int err;

	rtnl_lock();
	stack = nictl_request_stack(info);
	err = PTR_ERR_OR_ZERO(stack);
	if (!err)
		err = nictl_stack_discover(stack, true);
	if (!err) {
		msg = nictl_stack_reply_new(stack);
		err = msg ? nictl_stack_reply(msg, info, stack) : -ENOMEM;
		nictl_stack_release(stack);
	}
	nictl_stack_free(stack);
	rtnl_unlock();
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* What identifies a device's queue IRQs, to tell whether they changed. */
static u32 nictl_dev_irqs_hash(const struct nictl_dev *dev)
{
	u32 hash = dev->n_irqs;
	unsigned int i;

	for (i = 0; i < dev->n_irqs; i++)
		hash = jhash_2words(dev->irqs[i].irq, dev->irqs[i].queue, hash);
	return hash;
}

/*
 * A read: it moves nothing, drops no claim, holds rtnl per message. cb->args:
 * [0] the ifindex to resume at (before 6.6, compat.h's cursor), so devices
 * coming or going between parts shift nothing; [1] the first unsent IRQ of
 * a device too large for one message; [2] the hash of its IRQs then; [3]
 * how often a device's IRQs changed between its parts (ethtool -L), which
 * resumes at the wrong IRQ. cb->seq counts both changes, so NLM_F_DUMP_INTR
 * marks the messages from then on.
 */
static int nictl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long ifindex = cb->args[0];
	unsigned int next = 0;
	struct net_device *netdev;
	struct genl_info info;
	struct nictl_dev dev;
	bool done = true;
	struct net *net;
	u32 hash = 0;
	int err = 0;

	net = nictl_dump_net(cb, &info);
	if (IS_ERR(net))
		return PTR_ERR(net);
	rtnl_lock();
	for_each_netdev_dump(net, netdev, ifindex) {
		if (!netdev->dev.parent)
			continue;
		err = nictl_dev_look(netdev, &dev, false);
		if (err)
			break;
		hash = nictl_dev_irqs_hash(&dev);
		/* Only the device the last part ended in continues. */
		next = ifindex == cb->args[0] ? cb->args[1] : 0;
		if (next && hash != cb->args[2])
			cb->args[3]++;
		cb->seq = net->dev_base_seq + cb->args[3];
		err = nictl_dev_fill(skb, &dev, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				     NLM_F_MULTI, NICTL_CMD_DEV_GET, cb, &next);
		done = next >= dev.n_irqs;
		nictl_dev_release(&dev);
		if (err || !done)
			break;
	}
	rtnl_unlock();
	put_net(net);
	cb->args[0] = ifindex;
	cb->args[1] = netdev && !done ? next : 0;
	cb->args[2] = hash;
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

/* Commands naming a device look it up in the namespace the request names. */
static int nictl_dev_get_netns_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nictl_netns_doit(nictl_dev_get_doit, skb, info);
}

static int nictl_bind_netns_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nictl_netns_doit(nictl_bind_doit, skb, info);
}

static int nictl_restore_netns_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nictl_netns_doit(nictl_restore_doit, skb, info);
}

static int nictl_napi_get_netns_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nictl_netns_doit(nictl_napi_get_doit, skb, info);
}

static const struct genl_ops nictl_ops[] = {
	{
		.cmd = NICTL_CMD_DEV_GET,
		.doit = nictl_dev_get_netns_doit,
		.dumpit = nictl_dev_get_dumpit,
		NICTL_GENL_DUMP_COMPAT
		.policy = nictl_dev_policy,
		.maxattr = ARRAY_SIZE(nictl_dev_policy) - 1,
	},
	{
		.cmd = NICTL_CMD_BIND,
		.doit = nictl_bind_netns_doit,
		.policy = nictl_bind_policy,
		.maxattr = ARRAY_SIZE(nictl_bind_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NICTL_CMD_RESTORE,
		.doit = nictl_restore_netns_doit,
		.policy = nictl_dev_policy,
		.maxattr = ARRAY_SIZE(nictl_dev_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	/* Ops without a policy accept no attribute at all. */
	{
		.cmd = NICTL_CMD_STATS_GET,
		.start = nictl_stats_get_start,		/* the compat check's too */
		.dumpit = nictl_stats_get_dumpit,
	},
	{
		.cmd = NICTL_CMD_STATS_SET,
		.doit = nictl_stats_set_doit,
		.policy = nictl_stats_set_policy,
		.maxattr = ARRAY_SIZE(nictl_stats_set_policy) - 1,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NICTL_CMD_STATS_RESET,
		.doit = nictl_stats_reset_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = NICTL_CMD_NAPI_GET,
		.doit = nictl_napi_get_netns_doit,
		.dumpit = nictl_napi_get_dumpit,
		NICTL_GENL_DUMP_COMPAT
		.policy = nictl_dev_policy,
		.maxattr = ARRAY_SIZE(nictl_dev_policy) - 1,
	},
};

/* Caller does not hold rtnl. */
int nictl_genl_register(void)
{
#ifndef NICTL_HAVE_MCAST_CAP
	/* A group any user could join would tell anyone who asked. */
	pr_notice("no \"%s\" group: this kernel cannot keep a group to CAP_NET_ADMIN\n",
		  NICTL_MCGRP_AUDIT);
#endif
	/* family.c is below every op; the op table, above them all, is here. */
	nictl_family.ops = nictl_ops;
	nictl_family.n_ops = ARRAY_SIZE(nictl_ops);
#ifdef NICTL_HAVE_GENL_BIND
	nictl_family.bind = nictl_watch_join;
#endif
	return genl_register_family(&nictl_family);
}

void nictl_genl_unregister(void)
{
	genl_unregister_family(&nictl_family);
}
