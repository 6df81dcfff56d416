// SPDX-License-Identifier: GPL-2.0
/*
 * A request naming a stacked device (bond, team, bridge, VLAN, macvlan) acts on the physical
 * devices beneath it, each once, in ifindex order: their instance locks are taken in one order.
 */
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "nictl.h"

static bool nictl_is_stacked(const struct net_device *netdev)
{
	return !netdev->dev.parent && !list_empty(&netdev->adj_list.lower);
}

/* The members found, and the first leaf without a bus device. */
struct nictl_stack_walk {
	struct nictl_stack *stack;
	struct net_device *orphan;
	bool full;
};

static int nictl_stack_visit(struct net_device *lower, struct netdev_nested_priv *priv)
{
	struct nictl_stack_walk *walk = priv->data;
	struct nictl_stack *stack = walk->stack;
	unsigned int i;

	if (!lower->dev.parent) {
		/* A stacked device is walked through; a leaf has no IRQs. */
		if (list_empty(&lower->adj_list.lower) && !walk->orphan)
			walk->orphan = lower;
		return 0;
	}
	/* Reached again through another upper? Not by ifindex: members of two namespaces share. */
	for (i = 0; i < stack->n; i++)
		if (stack->netdev[i] == lower)
			return 0;
	for (i = 0; i < stack->n && stack->netdev[i]->ifindex <= lower->ifindex; i++)
		;
	if (stack->n == NICTL_STACK_MAX) {
		walk->full = true;
		return 1;
	}
	memmove(&stack->netdev[i + 1], &stack->netdev[i], (stack->n - i) * sizeof(*stack->netdev));
	stack->netdev[i] = lower;
	stack->n++;
	return 0;
}

/* @netdev alone, as the one member of a request; NULL when out of memory. */
struct nictl_stack *nictl_stack_one(struct net_device *netdev)
{
	struct nictl_stack *stack = kvzalloc(sizeof(*stack), GFP_KERNEL);

	if (stack) {
		stack->netdev[0] = netdev;
		stack->n = 1;
	}
	return stack;
}

/* Every leaf beneath @upper must be physical: half a bond (one with a veth port) is not bound. */
static struct nictl_stack *nictl_stack_find(struct net_device *upper,
					    struct netlink_ext_ack *extack)
{
	struct nictl_stack_walk walk = {};
	struct netdev_nested_priv priv = { .data = &walk };
	struct nictl_stack *stack;

	ASSERT_RTNL();
	stack = kvzalloc(sizeof(*stack), GFP_KERNEL);
	if (!stack)
		return ERR_PTR(-ENOMEM);
	stack->upper = upper;
	walk.stack = stack;
	netdev_walk_all_lower_dev(upper, nictl_stack_visit, &priv);
	if (walk.full) {
		NL_SET_ERR_MSG_FMT(extack, "%s has more than %u physical devices beneath it",
				   upper->name, NICTL_STACK_MAX);
		kvfree(stack);
		return ERR_PTR(-E2BIG);
	}
	if (walk.orphan) {
		NL_SET_ERR_MSG_FMT(extack, "%s is on %s, which has no bus device and no queue IRQs",
				   upper->name, walk.orphan->name);
		kvfree(stack);
		return ERR_PTR(-EOPNOTSUPP);
	}
	return stack;
}

/**
 * nictl_stack_of() - the devices a request naming @netdev acts on
 * @netdev: the device
 * @extack: where to say what is wrong, or NULL
 *
 * Context: rtnl held, and kept until nictl_stack_free().
 * Return: @netdev alone, or the members of the stacked device it is; ERR_PTR(-EOPNOTSUPP) for
 * a leaf beneath without a bus device, -E2BIG for over %NICTL_STACK_MAX members, or -ENOMEM.
 */
struct nictl_stack *nictl_stack_of(struct net_device *netdev, struct netlink_ext_ack *extack)
{
	if (nictl_is_stacked(netdev))
		return nictl_stack_find(netdev, extack);
	return nictl_stack_one(netdev) ?: ERR_PTR(-ENOMEM);
}

/**
 * nictl_request_stack() - the devices a request names
 * @info: the request
 *
 * Context: rtnl held, and kept until nictl_stack_free().
 * Return: the device alone, or the members of the stacked device it names; ERR_PTR, extack set.
 */
struct nictl_stack *nictl_request_stack(const struct genl_info *info)
{
	struct net_device *netdev = nictl_netdev_lookup(info);

	return IS_ERR(netdev) ? ERR_CAST(netdev) : nictl_stack_of(netdev, info->extack);
}

/*
 * Held while a request holds its members' instance locks. Lockdep sees one class for all of
 * them: under this nest_lock they count as one held lock, not as a recursion, and 64 members
 * do not overflow its 48 held-lock slots. Every taker holds rtnl, so the mutex adds no wait.
 */
static DEFINE_MUTEX(nictl_stack_mutex);

/* Takes every member's instance lock, in ifindex order. Caller holds rtnl. */
void nictl_stack_lock(struct nictl_stack *stack)
{
	unsigned int i;

	mutex_lock(&nictl_stack_mutex);
	for (i = 0; i < stack->n; i++)
		nictl_netdev_lock_nest(stack->netdev[i], &nictl_stack_mutex);
}

void nictl_stack_unlock(struct nictl_stack *stack)
{
	unsigned int i = stack->n;

	while (i--)
		netdev_unlock(stack->netdev[i]);
	mutex_unlock(&nictl_stack_mutex);
}

/**
 * nictl_stack_discover() - find every member's queue IRQs
 * @stack: the members; @stack->dev is filled in
 * @look: as DEV_GET, without the instance locks (nictl_dev_look()); else with them held
 *
 * Return: 0 or a discovery error; on error nothing needs releasing.
 */
int nictl_stack_discover(struct nictl_stack *stack, bool look)
{
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < stack->n; i++) {
		err = look ? nictl_dev_look(stack->netdev[i], &stack->dev[i], false) :
			     nictl_dev_discover(stack->netdev[i], &stack->dev[i]);
		if (!err)
			stack->discovered = i + 1;
	}
	if (err)
		nictl_stack_release(stack);
	return err;
}

void nictl_stack_release(struct nictl_stack *stack)
{
	while (stack->discovered)
		nictl_dev_release(&stack->dev[--stack->discovered]);
}

/* After nictl_stack_release(); @stack may be an ERR_PTR or NULL. */
void nictl_stack_free(struct nictl_stack *stack)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(stack))
		return;
	for (i = 0; i < stack->n; i++)
		kvfree(stack->serves[i]);
	kvfree(stack);
}
