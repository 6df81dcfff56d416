// SPDX-License-Identifier: GPL-2.0
/*
 * Noticing changes: netdevice notifier events, and a periodic check for what
 * raises none: queue changes (ethtool -L) and drift of the IRQs nictl bound
 * (irqbalance, /proc writes, the driver re-applying its affinity). The check
 * runs only while someone listens or a sticky binding is kept, and compares
 * without rtnl: bound IRQs' names and affinities under the bindings lock,
 * queue counts under the snapshots lock. It takes rtnl only to discover a
 * device that changed, at most %NICTL_RECHECK_MAX per period, so a listener
 * (any user may be one) costs no rtnl while nothing changes.
 */
#include <linux/moduleparam.h>
#include <linux/rtnetlink.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>

#include "nictl.h"

/* Shorter periods would keep a CPU busy for little gain. */
#define NICTL_WATCH_MIN_MS	10

static unsigned int nictl_watch_period_ms = 1000;

static void nictl_watch_run(struct work_struct *work);
static DECLARE_DELAYED_WORK(nictl_watch_work, nictl_watch_run);

/* Serializes starting and stopping the work with period changes. */
static DEFINE_MUTEX(nictl_watch_lock);
static bool nictl_watch_running;

/* The devices DEV_GET describes, in every network namespace. */
static bool nictl_watch_covers(const struct net_device *netdev)
{
	return netdev->dev.parent;
}

static enum nictl_event nictl_watch_event_type(unsigned long event)
{
	switch (event) {
	case NETDEV_REGISTER:
		return NICTL_EVENT_REGISTERED;
	case NETDEV_UNREGISTER:
		return NICTL_EVENT_UNREGISTERED;
	case NETDEV_UP:
		return NICTL_EVENT_UP;
	case NETDEV_DOWN:
		return NICTL_EVENT_DOWN;
	case NETDEV_CHANGENAME:
		return NICTL_EVENT_RENAMED;
	default:
		return NICTL_EVENT_UNSPEC;
	}
}

#ifdef NICTL_HAVE_GENL_BIND
/* Far longer than genl takes from asking nictl_watch_join() to adding the socket. */
#define NICTL_WATCH_JOIN_NS	NSEC_PER_SEC

/* Until then (ktime_get_ns()), notifier events discover as if heard. */
static u64 nictl_watch_join_end_ns;

static void nictl_watch_open_join_window(void)
{
	WRITE_ONCE(nictl_watch_join_end_ns, ktime_get_ns() + NICTL_WATCH_JOIN_NS);
}

static bool nictl_watch_heard(const struct net_device *netdev)
{
	return nictl_events_listening() || ktime_get_ns() < READ_ONCE(nictl_watch_join_end_ns) ||
	       nictl_sticky_any() || nictl_binding_find(netdev);
}
#endif

/*
 * Whether a notifier event must discover @netdev: someone hears it or has
 * just joined, or nictl keeps a binding or sticky binding that follows the
 * device's IRQs. Otherwise the snapshot of a device going away is dropped,
 * and any other's marked stale for the next listener's join to look at.
 * Without genl's join callback (before 6.7) nothing marks that moment:
 * every event discovers, so that the snapshots are always current.
 */
static bool nictl_watch_must_look(struct net_device *netdev, enum nictl_event type)
{
#ifdef NICTL_HAVE_GENL_BIND
	if (type == NICTL_EVENT_UNREGISTERED) {
		if (nictl_watch_heard(netdev))
			return true;
		nictl_snapshot_drop(netdev);
		return false;
	}
	/* Marked, then asked: a joiner sees the mark, or this sees the joiner. */
	nictl_snapshot_unheard(netdev);
	smp_mb();
	return nictl_watch_heard(netdev);
#else
	return true;
#endif
}

/**
 * nictl_watch_netdev() - react to a netdevice notifier event
 * @netdev: the device
 * @event: NETDEV_*
 *
 * Sends the device's event, then compares its queues with the snapshot:
 * drivers that request IRQs at open change them at UP and DOWN, and some
 * re-request them on a reset that shows only as NETDEV_CHANGE. Pre-sets the
 * vectors by the sticky binding before IRQs are requested (REGISTER,
 * PRE_UP); applies it where they may have appeared (REGISTER, UP, CHANGE).
 * An event nobody hears (nictl_watch_heard()) only marks the snapshot stale.
 *
 * Context: the notifier, under rtnl. On 6.15+ the core holds an ops-locked
 * device's instance lock around REGISTER, UP, DOWN, CHANGE and CHANGENAME,
 * not UNREGISTER (Documentation/networking/netdevices.rst) nor the DOWN
 * replayed when a notifier unregisters (the caller skips that one), and
 * never another device's.
 */
void nictl_watch_netdev(struct net_device *netdev, unsigned long event)
{
	enum nictl_event type = nictl_watch_event_type(event);
	struct nictl_dev dev;
	int err;

	if (!nictl_watch_covers(netdev))
		return;
	if (event == NETDEV_PRE_UP) {
		nictl_sticky_preset(netdev);
		return;
	}
	if (type == NICTL_EVENT_UNSPEC && event != NETDEV_CHANGE)
		return;
	if (event == NETDEV_REGISTER)
		nictl_sticky_preset(netdev);
	else if (!nictl_watch_must_look(netdev, type))
		return;
	if (event == NETDEV_UNREGISTER)
		netdev_lock(netdev);
	else
		netdev_lock_ops_to_full(netdev);
	err = nictl_dev_discover(netdev, &dev);
	if (!err) {
		if (type != NICTL_EVENT_UNSPEC)
			nictl_event_dev(type, &dev, type == NICTL_EVENT_RENAMED ?
					nictl_snapshot_name(netdev) : NULL);
		if (type != NICTL_EVENT_UNREGISTERED)
			nictl_snapshot_update(&dev);
		nictl_dev_release(&dev);
	}
	if (type == NICTL_EVENT_UNREGISTERED)
		nictl_snapshot_drop(netdev);
	else if (type != NICTL_EVENT_DOWN && type != NICTL_EVENT_RENAMED)
		nictl_bind_sticky(netdev);
	if (event == NETDEV_UNREGISTER)
		netdev_unlock(netdev);
	else
		netdev_unlock_full_to_ops(netdev);
}

/**
 * nictl_watch_link() - a device was stacked on another, or left it
 * @lower: the device beneath
 * @upper: the device stacked on it
 * @linking: stacked (true) or left (false)
 *
 * The event goes to every physical device beneath @upper through @lower: a
 * VLAN on a bond joins the uppers of each of the bond's ports.
 *
 * Context: the notifier, under rtnl.
 */
void nictl_watch_link(struct net_device *lower, struct net_device *upper, bool linking)
{
	enum nictl_event type = linking ? NICTL_EVENT_LINKED : NICTL_EVENT_UNLINKED;
	struct nictl_stack *stack;
	struct nictl_dev dev;
	unsigned int i;

	if (!nictl_events_listening())
		return;
	stack = nictl_stack_of(lower, NULL);
	if (IS_ERR(stack))
		return;
	for (i = 0; i < stack->n; i++) {
		if (!nictl_watch_covers(stack->netdev[i]))
			continue;
		nictl_dev_init(stack->netdev[i], &dev);
		dev.sticky_id = nictl_sticky_of(stack->netdev[i]);
		nictl_event_link(type, &dev, upper);
	}
	nictl_stack_free(stack);
}

/* Discover a device for its snapshot, binding, drifts to confirm and sticky binding. */
static void nictl_watch_look(struct net_device *netdev)
{
	struct nictl_dev dev;
	int err;

	if (!nictl_watch_covers(netdev))
		return;
	err = nictl_dev_look(netdev, &dev, true);
	if (err)
		return;
	nictl_snapshot_update(&dev);
	nictl_dev_release(&dev);
	netdev_lock(netdev);
	nictl_binding_confirm(netdev);
	nictl_bind_sticky(netdev);
	netdev_unlock(netdev);
}

#ifdef NICTL_HAVE_GENL_BIND
/**
 * nictl_watch_join() - a socket joins one of the family's groups
 * @group: the group, as an index into the family's
 *
 * genl asks before it adds the socket. The devices whose events nobody
 * heard are looked at again (their queue changes are sent to whoever
 * listens already), so the new listener's events compare with the devices
 * as they are now; for a second after, the notifier discovers as if the
 * socket were in the group already. A join takes rtnl, and looks, only
 * when a device changed unheard, which only an administrator or a driver
 * causes.
 *
 * Context: process; genl holds its cb_lock for reading, which it takes
 * before rtnl for every op too.
 * Return: 0, the join goes ahead.
 */
int nictl_watch_join(int group)
{
	struct net_device **stale;
	unsigned int i, n;

	nictl_watch_open_join_window();
	/* Pairs with the notifier's, between its mark and its question. */
	smp_mb();
	if (!nictl_snapshots_any_stale())
		return 0;
	rtnl_lock();
	stale = nictl_snapshots_stale(&n);
	for (i = 0; i < n; i++)
		nictl_watch_look(stale[i]);
	rtnl_unlock();
	kfree(stale);
	/* Waiting for rtnl may have taken the second: the socket is not in the group yet. */
	nictl_watch_open_join_window();
	return 0;
}
#endif

static void nictl_watch_check(void)
{
	struct nictl_recheck recheck = {};
	struct net_device *netdev;
	unsigned int i, k, n_nets;
	cpumask_var_t found;
	struct net **nets;
	struct net *net;
	bool all;

	if (!alloc_cpumask_var(&found, GFP_KERNEL))
		return;
	nictl_bindings_check(&recheck, found);
	free_cpumask_var(found);
	all = nictl_snapshots_check(&recheck);
	if (!recheck.n && !all)
		return;
	nets = nictl_nets_get(&n_nets);
	rtnl_lock();
	for (k = 0; k < n_nets; k++) {
		net = nets[k];
		if (all) {
			for_each_netdev(net, netdev)
				nictl_watch_look(netdev);
		}
		/*
		 * An ifindex is per namespace: another namespace's device with
		 * the same one is looked at too, and found unchanged. One gone
		 * since was reported by its notifier events.
		 */
		for (i = 0; !all && i < recheck.n; i++) {
			netdev = __dev_get_by_index(net, recheck.ifindex[i]);
			if (netdev)
				nictl_watch_look(netdev);
		}
	}
	rtnl_unlock();
	nictl_nets_put(nets, n_nets);
}

static void nictl_watch_run(struct work_struct *work)
{
	unsigned int period = READ_ONCE(nictl_watch_period_ms);

	/* Sticky bindings need it even when nobody listens. */
	if (nictl_events_listening() || nictl_sticky_any())
		nictl_watch_check();
	if (period)
		schedule_delayed_work(&nictl_watch_work, msecs_to_jiffies(period));
}

static int nictl_watch_period_set(const char *val, const struct kernel_param *kp)
{
	unsigned int period;
	int err;

	err = kstrtouint(val, 0, &period);
	if (err)
		return err;
	if (period && period < NICTL_WATCH_MIN_MS)
		return -ERANGE;
	WRITE_ONCE(nictl_watch_period_ms, period);
	/* Start at once with the new period; a stopped check stays stopped. */
	mutex_lock(&nictl_watch_lock);
	if (nictl_watch_running)
		mod_delayed_work(system_wq, &nictl_watch_work, 0);
	mutex_unlock(&nictl_watch_lock);
	return 0;
}

static const struct kernel_param_ops nictl_watch_period_ops = {
	.set = nictl_watch_period_set,
	.get = param_get_uint,
};
module_param_cb(watch_period_ms, &nictl_watch_period_ops, &nictl_watch_period_ms, 0644);
MODULE_PARM_DESC(watch_period_ms,
		 "ms between checks for queue changes and affinity drift (0 = off, min 10)");

/* After the family is registered and events are on. */
void nictl_watch_start(void)
{
	mutex_lock(&nictl_watch_lock);
	nictl_watch_running = true;
	if (READ_ONCE(nictl_watch_period_ms))
		schedule_delayed_work(&nictl_watch_work, 0);
	mutex_unlock(&nictl_watch_lock);
}

/* The check does not run after this. Caller does not hold rtnl: the check takes it. */
void nictl_watch_stop(void)
{
	mutex_lock(&nictl_watch_lock);
	nictl_watch_running = false;
	mutex_unlock(&nictl_watch_lock);
	/* Waits for a running check and stops it re-arming itself. */
	cancel_delayed_work_sync(&nictl_watch_work);
}
