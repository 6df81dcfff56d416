// SPDX-License-Identifier: GPL-2.0
/*
 * nictl: find every queue IRQ of a NIC and retarget them all at once, with
 * NUMA and SMT checks, and account per-CPU NET_RX/NET_TX softirq time, over
 * the generic-netlink family "nictl".
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "nictl.h"
#include "stats.h"

/*
 * Listeners hear of the event first, then a device that goes away takes
 * its binding with it: its IRQs are freed. Its sticky binding stays, for
 * the next device with its identity. Dropped under the bindings lock,
 * so the drift check, which holds only that lock, sees registered devices.
 * A device moving to another namespace is unregistered from this one while
 * it stays registered (NETREG_REGISTERED): its driver and IRQs stay, and so
 * does its binding, to be restored in its new namespace.
 */
static bool nictl_notifier_leaving;

static int nictl_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changeupper_info *link = ptr;

	/*
	 * Unregistering the notifier replays DOWN and UNREGISTER for every
	 * device, the DOWN without the ops lock a real one comes with (6.15+).
	 * Nobody listens by then; a device's end still takes its state with it.
	 */
	if (!READ_ONCE(nictl_notifier_leaving) || event == NETDEV_UNREGISTER)
		nictl_watch_netdev(netdev, event);
	if (event == NETDEV_CHANGEUPPER && !READ_ONCE(nictl_notifier_leaving))
		nictl_watch_link(netdev, link->upper_dev, link->linking);
	if (event == NETDEV_UNREGISTER && netdev->reg_state != NETREG_REGISTERED) {
		nictl_bindings_lock();
		nictl_binding_drop(netdev);
		nictl_bindings_unlock();
		nictl_sticky_detach(netdev);
	}
	return NOTIFY_DONE;
}

static struct notifier_block nictl_netdev_notifier = {
	.notifier_call = nictl_netdev_event,
};

static int __init nictl_init(void)
{
	int err;

	err = register_netdevice_notifier(&nictl_netdev_notifier);
	if (err)
		return err;
	err = nictl_stats_init();
	if (err)
		goto unregister_notifier;
	err = nictl_genl_register();
	if (err)
		goto stop_stats;
	nictl_events_enable(true);
	nictl_watch_start();
	pr_info("version %s loaded\n", NICTL_VERSION);
	return 0;

stop_stats:
	nictl_stats_exit();
unregister_notifier:
	WRITE_ONCE(nictl_notifier_leaving, true);
	unregister_netdevice_notifier(&nictl_netdev_notifier);
	return err;
}

static void __exit nictl_exit(void)
{
	/*
	 * The check stops first (it sends events), then events (so nothing
	 * reaches a family on its way out). No op can run after the family
	 * goes; the notifier cannot either after the next.
	 */
	nictl_watch_stop();
	nictl_events_enable(false);
	nictl_genl_unregister();
	nictl_stats_exit();
	WRITE_ONCE(nictl_notifier_leaving, true);
	unregister_netdevice_notifier(&nictl_netdev_notifier);
	rtnl_lock();
	nictl_bindings_drop_all();
	nictl_snapshots_drop_all();
	nictl_sticky_drop_all();
	rtnl_unlock();
}

module_init(nictl_init);
module_exit(nictl_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Atomic, NUMA- and SMT-aware NIC queue IRQ affinity");
MODULE_VERSION(NICTL_VERSION);
MODULE_ALIAS_GENL_FAMILY(NICTL_FAMILY_NAME);
