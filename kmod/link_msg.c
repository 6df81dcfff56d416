// SPDX-License-Identifier: GPL-2.0
/* Stacking in messages: %NICTL_A_UPPER, the %NICTL_A_LINK of events, a stacked device itself. */
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>

#include "nictl.h"

/* The rtnl link kind, or NULL (also when too long for nictl_link_size()). */
static const char *nictl_link_kind(const struct net_device *netdev)
{
	const char *kind = netdev->rtnl_link_ops ? netdev->rtnl_link_ops->kind : NULL;

	return kind && strlen(kind) < IFNAMSIZ ? kind : NULL;
}

size_t nictl_link_size(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) + nla_total_size(IFNAMSIZ) * 2;
}

/* A %NICTL_A_UPPER or %NICTL_A_LINK nest naming a stacked device; -EMSGSIZE adds nothing. */
int nictl_put_link(struct sk_buff *skb, int attr, const struct net_device *netdev)
{
	const char *kind = nictl_link_kind(netdev);
	struct nlattr *nest;

	nest = nla_nest_start(skb, attr);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICTL_A_LINK_IFINDEX, netdev->ifindex) ||
	    nla_put_string(skb, NICTL_A_LINK_IFNAME, netdev->name) ||
	    (kind && nla_put_string(skb, NICTL_A_LINK_KIND, kind))) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The uppers a message names: each once, at most NICTL_UPPERS_MAX, all in @net. */
struct nictl_uppers {
	const struct net *net;
	unsigned int n;
	struct net_device *netdev[NICTL_UPPERS_MAX];
};

static int nictl_uppers_visit(struct net_device *upper, struct netdev_nested_priv *priv)
{
	struct nictl_uppers *uppers = priv->data;
	unsigned int i;

	/*
	 * As sysfs links uppers: a macvlan created in a container on this NIC is the
	 * container's to name, not this namespace's readers'.
	 */
	if (!net_eq(dev_net(upper), uppers->net))
		return 0;
	for (i = 0; i < uppers->n; i++)
		if (uppers->netdev[i] == upper)
			return 0;
	uppers->netdev[uppers->n++] = upper;
	return uppers->n == NICTL_UPPERS_MAX;
}

size_t nictl_uppers_size(void)
{
	return NICTL_UPPERS_MAX * nictl_link_size();
}

/**
 * nictl_put_uppers() - one %NICTL_A_UPPER nest per device stacked on this one
 * @skb: the message
 * @netdev: the device
 *
 * Under RCU, as a drift event is sent without rtnl; a direct upper before those stacked on it;
 * only those in @netdev's namespace.
 *
 * Return: 0 or -EMSGSIZE.
 */
int nictl_put_uppers(struct sk_buff *skb, struct net_device *netdev)
{
	struct nictl_uppers uppers = { .net = dev_net(netdev) };
	struct netdev_nested_priv priv = { .data = &uppers };
	unsigned int i;
	int err = 0;

	rcu_read_lock();
	netdev_walk_all_upper_dev_rcu(netdev, nictl_uppers_visit, &priv);
	for (i = 0; !err && i < uppers.n; i++)
		err = nictl_put_link(skb, NICTL_A_UPPER, uppers.netdev[i]);
	rcu_read_unlock();
	return err;
}

/* A stacked device's own attributes; its members go in %NICTL_A_LOWER nests. */
int nictl_put_stacked_attrs(struct sk_buff *skb, struct net_device *upper)
{
	const char *kind = nictl_link_kind(upper);
	u32 flags = NICTL_DEV_F_STACKED | (upper->flags & IFF_UP ? NICTL_DEV_F_UP : 0);

	if (nla_put_u32(skb, NICTL_A_IFINDEX, upper->ifindex) ||
	    nla_put_string(skb, NICTL_A_IFNAME, upper->name) ||
	    nla_put_u32(skb, NICTL_A_DEV_FLAGS, flags) ||
	    (kind && nla_put_string(skb, NICTL_A_KIND, kind)))
		return -EMSGSIZE;
	return nictl_put_uppers(skb, upper);
}
