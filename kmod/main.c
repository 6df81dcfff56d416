// SPDX-License-Identifier: GPL-2.0
/* nictl: place a NIC's queue IRQs at once, NUMA- and SMT-aware; account NET_RX/TX softirq time. */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>

#include "nictl.h"
#include "stats.h"

/*
 * Listeners hear of each event first; then a device going away takes its binding (its IRQs are
 * freed), dropped under the bindings lock so the drift check sees registered devices; its sticky
 * binding stays. One moving to another namespace stays NETREG_REGISTERED, binding and all.
 */
static bool nictl_notifier_leaving;

static int nictl_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *netdev = netdev_notifier_info_to_dev(ptr);
	struct netdev_notifier_changeupper_info *link = ptr;

	/*
	 * Unregistering replays DOWN and UNREGISTER for every device, the DOWN without a real
	 * one's ops lock (6.15+). Nobody listens by then; UNREGISTER still drops the state.
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
	 * The check (which sends events) stops first, then events, so none reaches a family on
	 * its way out. No op runs once the family is gone, nor the notifier once unregistered.
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
