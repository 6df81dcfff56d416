// SPDX-License-Identifier: GPL-2.0
/*
 * Devices in other network namespaces: a request may name one by the requester's fd or by
 * init_net's id for it, which messages about its devices carry. A request finds its namespace
 * before taking rtnl; net_rwsem is taken last, around walks that take nothing else.
 */
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>

#include "nictl.h"

/* Referenced. 5.10 does not export get_net_ns_by_id(): search the list. */
static struct net *nictl_net_by_id(s32 id)
{
	struct net *net, *found = NULL;

	down_read(&net_rwsem);
	for_each_net(net) {
		if (peernet2id(&init_net, net) == id) {
			/* NULL when it is on its way out: as good as gone. */
			found = maybe_get_net(net);
			break;
		}
	}
	up_read(&net_rwsem);
	return found;
}

static struct net *nictl_net_by_fd(const struct nlattr *attr, struct netlink_ext_ack *extack)
{
	u32 fd = nla_get_u32(attr);
	struct net *net;

	/* An fd past INT_MAX is no fd: get_net_ns_by_fd() takes an int. */
	net = fd > INT_MAX ? ERR_PTR(-EBADF) : get_net_ns_by_fd(fd);
	if (PTR_ERR_OR_ZERO(net) == -EBADF)
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "fd %u is not open", fd);
	else if (IS_ERR(net))
		NL_SET_ERR_MSG_ATTR_FMT(extack, attr, "fd %u is not a network namespace", fd);
	return net;
}

/**
 * nictl_request_net() - the network namespace a request looks devices up in
 * @skb: the request (a dump's cb->skb), whose sender's capabilities count
 * @info: its parsed form: %NICTL_A_NETNS_FD, %NICTL_A_NETNS_ID or neither
 *
 * Naming a namespace needs CAP_NET_ADMIN in the initial user namespace, for every command: a
 * device elsewhere belongs to a container, whose users must not learn of it or touch it from here.
 *
 * Context: the requester's process (the fd is its own); rtnl not held.
 * Return: the namespace, referenced (put_net() it; init_net if none is named), or
 * ERR_PTR(-EINVAL: both attributes, or an fd that is no namespace; -EBADF: fd not open;
 * -ENOENT: unknown id; -EPERM), extack set.
 */
struct net *nictl_request_net(struct sk_buff *skb, const struct genl_info *info)
{
	struct nlattr *fd = info->attrs[NICTL_A_NETNS_FD];
	struct nlattr *id = info->attrs[NICTL_A_NETNS_ID];
	struct net *net;

	if (!fd && !id)
		return get_net(&init_net);
	if (fd && id) {
		NL_SET_ERR_MSG_ATTR(info->extack, id,
				    "netns-id and netns-fd both name a namespace: give one");
		return ERR_PTR(-EINVAL);
	}
	if (!netlink_capable(skb, CAP_NET_ADMIN)) {
		NL_SET_ERR_MSG_ATTR(info->extack, fd ?: id,
				    "another network namespace needs CAP_NET_ADMIN");
		return ERR_PTR(-EPERM);
	}
	if (fd)
		return nictl_net_by_fd(fd, info->extack);
	net = nictl_net_by_id(nla_get_s32(id));
	if (!net) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, id, "no network namespace has id %d",
					nla_get_s32(id));
		return ERR_PTR(-ENOENT);
	}
	return net;
}

/**
 * nictl_netns_doit() - run a command's doit in the namespace it names
 * @doit: the command's doit; finds the namespace in @info->user_ptr[0]
 * @skb: the request
 * @info: its parsed form
 *
 * Holds the namespace, so its end cannot move its devices to init_net while the op looks.
 *
 * Return: @doit's return, or nictl_request_net()'s error.
 */
int nictl_netns_doit(int (*doit)(struct sk_buff *skb, struct genl_info *info),
		     struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = nictl_request_net(skb, info);
	int err;

	if (IS_ERR(net))
		return PTR_ERR(net);
	info->user_ptr[0] = net;
	err = doit(skb, info);
	put_net(net);
	return err;
}

/**
 * nictl_nets_get() - every network namespace, each referenced
 * @n: set to the number of namespaces returned
 *
 * For walks that take other locks per namespace, which may not nest in
 * net_rwsem. Namespaces on their way out are left out.
 *
 * Return: the array, for nictl_nets_put(); NULL (*@n 0) if out of memory.
 */
struct net **nictl_nets_get(unsigned int *n)
{
	struct net **nets = NULL;
	unsigned int max = 0;
	struct net *net;

	*n = 0;
	down_read(&net_rwsem);
	for_each_net(net)
		max++;
	nets = kmalloc_array(max, sizeof(*nets), GFP_KERNEL);
	if (nets) {
		for_each_net(net) {
			nets[*n] = maybe_get_net(net);
			if (nets[*n])
				(*n)++;
		}
	}
	up_read(&net_rwsem);
	return nets;
}

void nictl_nets_put(struct net **nets, unsigned int n)
{
	while (n)
		put_net(nets[--n]);
	kfree(nets);
}

/**
 * nictl_put_netns_id() - add %NICTL_A_NETNS_ID for a device outside init_net
 * @skb: the message
 * @netdev: the device
 *
 * Allocates the id if there is none (announced as RTM_NEWNSID), so a client can name the
 * namespace later. One on its way out has none; its devices move back to init_net.
 *
 * Context: may sleep; rtnl or the device's binding keeps it from moving.
 * Return: 0 or -EMSGSIZE.
 */
int nictl_put_netns_id(struct sk_buff *skb, const struct net_device *netdev)
{
	struct net *net = dev_net(netdev);
	int id;

	if (net_eq(net, &init_net))
		return 0;
	id = peernet2id_alloc(&init_net, net, GFP_KERNEL);
	if (id < 0)
		return 0;
	return nla_put_s32(skb, NICTL_A_NETNS_ID, id);
}

size_t nictl_netns_id_size(void)
{
	return nla_total_size(sizeof(s32));
}

/**
 * nictl_dump_net() - a dump's request, and the namespace it names
 * @cb: the dump
 * @info: filled with the request (nictl_dump_info()), the namespace in @info->user_ptr[0]
 *
 * Each part of a dump finds the namespace again: it keeps no reference between parts, and
 * continues in the requester's recvmsg(), where the fd is still the requester's.
 *
 * Return: as nictl_request_net().
 */
struct net *nictl_dump_net(struct netlink_callback *cb, struct genl_info *info)
{
	struct net *net;

	nictl_dump_info(cb, info);
	net = nictl_request_net(cb->skb, info);
	if (!IS_ERR(net))
		info->user_ptr[0] = net;
	return net;
}

/**
 * nictl_netdev_lookup() - the device a request names
 * @info: the request, with %NICTL_A_IFINDEX and/or %NICTL_A_IFNAME; the
 *	namespace in @info->user_ptr[0] (nictl_netns_doit(), nictl_dump_net())
 *
 * Context: rtnl held.
 * Return: the device, or ERR_PTR(-ENODEV / -EINVAL) with extack set.
 */
struct net_device *nictl_netdev_lookup(const struct genl_info *info)
{
	struct nlattr *ifindex = info->attrs[NICTL_A_IFINDEX];
	struct nlattr *ifname = info->attrs[NICTL_A_IFNAME];
	struct net *net = info->user_ptr[0];
	struct net_device *netdev;

	if (!ifindex && !ifname) {
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, NICTL_A_IFINDEX);
		NL_SET_ERR_MSG(info->extack, "a device is needed: ifindex or ifname");
		return ERR_PTR(-EINVAL);
	}
	if (ifindex) {
		netdev = __dev_get_by_index(net, nla_get_u32(ifindex));
		if (!netdev) {
			NL_SET_ERR_MSG_ATTR(info->extack, ifindex, "no device has this ifindex");
			return ERR_PTR(-ENODEV);
		}
		if (ifname && nla_strcmp(ifname, netdev->name)) {
			NL_SET_ERR_MSG_ATTR(info->extack, ifname,
					    "ifindex and ifname name different devices");
			return ERR_PTR(-EINVAL);
		}
		return netdev;
	}
	netdev = __dev_get_by_name(net, nla_data(ifname));
	if (!netdev) {
		NL_SET_ERR_MSG_ATTR_FMT(info->extack, ifname, "no such device: %s",
					(char *)nla_data(ifname));
		return ERR_PTR(-ENODEV);
	}
	return netdev;
}
