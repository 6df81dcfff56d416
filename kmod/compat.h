/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel differences are bridged. The sources are
 * written against the newest API; Kbuild greps the target kernel's headers
 * and defines NICTL_HAVE_* for what is there, and this file fills the gaps
 * on older kernels. It is force-included into every source file.
 */
#ifndef _NICTL_COMPAT_H
#define _NICTL_COMPAT_H

#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

#ifndef NICTL_HAVE_EXTACK_FMT
/*
 * Formatted extack messages came in 6.2 with a buffer inside the extack.
 * Before that, the message must outlive the op until the ack is built, so
 * it goes to one module buffer whose last byte always stays NUL: concurrent
 * failing requests may mix their texts, but never read past the buffer.
 */
#define NICTL_EXTACK_LEN	80
extern char nictl_extack_buf[NICTL_EXTACK_LEN];

#define NL_SET_ERR_MSG_FMT(extack, fmt, args...) do {				\
	struct netlink_ext_ack *__nictl_ea = (extack);				\
										\
	if (__nictl_ea) {							\
		snprintf(nictl_extack_buf, NICTL_EXTACK_LEN - 1, fmt, ##args);	\
		__nictl_ea->_msg = nictl_extack_buf;				\
	}									\
} while (0)

/* Its own local name: one shadowing the macro above would read itself. */
#define NL_SET_ERR_MSG_ATTR_FMT(extack, attr, fmt, args...) do {		\
	struct netlink_ext_ack *__nictl_attr_ea = (extack);			\
										\
	NL_SET_ERR_MSG_FMT(__nictl_attr_ea, fmt, ##args);			\
	NL_SET_BAD_ATTR(__nictl_attr_ea, attr);					\
} while (0)
#endif /* NICTL_HAVE_EXTACK_FMT */

#ifdef NICTL_HAVE_GENL_INFO_DUMP
/* A dump's request as a genl_info, for code shared with do ops. */
static inline void nictl_dump_info(struct netlink_callback *cb, struct genl_info *info)
{
	*info = *genl_info_dump(cb);
}
#else
/* Before 6.7 a dump keeps only its parsed attributes; the rest is in @cb. */
static inline void nictl_dump_info(struct netlink_callback *cb, struct genl_info *info)
{
	memset(info, 0, sizeof(*info));
	info->snd_seq = cb->nlh->nlmsg_seq;
	info->snd_portid = NETLINK_CB(cb->skb).portid;
	info->attrs = genl_dumpit_info(cb)->attrs;
	info->extack = cb->extack;
}
#endif /* NICTL_HAVE_GENL_INFO_DUMP */

#ifndef NICTL_HAVE_NETDEV_DUMP
/*
 * 6.6 added the devices' xarray by ifindex, which dumps resume from. Before
 * it, the device with the smallest ifindex from *@ifindex on is found by a
 * walk of the list (under rtnl): one walk per device a dump sends.
 */
static inline struct net_device *nictl_netdev_from(struct net *net, unsigned long *ifindex)
{
	struct net_device *dev, *found = NULL;

	for_each_netdev(net, dev)
		if (dev->ifindex >= *ifindex && (!found || dev->ifindex < found->ifindex))
			found = dev;
	if (found)
		*ifindex = found->ifindex;
	return found;
}

#define for_each_netdev_dump(net, d, ifindex)					\
	for (; ((d) = nictl_netdev_from((net), &(ifindex))); (ifindex)++)
#endif /* NICTL_HAVE_NETDEV_DUMP */

#ifdef NICTL_HAVE_NAPI_IRQ
#include <net/netdev_rx_queue.h>

/* 6.8+: drivers may link each queue to its NAPI and the NAPI to its IRQ. */
static inline struct napi_struct *nictl_queue_napi(struct net_device *dev, unsigned int queue,
						   bool rx)
{
	return rx ? __netif_get_rx_queue(dev, queue)->napi : netdev_get_tx_queue(dev, queue)->napi;
}

static inline int nictl_queue_napi_irq(struct net_device *dev, unsigned int queue, bool rx)
{
	struct napi_struct *napi = nictl_queue_napi(dev, queue, rx);

	return napi ? napi->irq : -1;
}

static inline int nictl_rx_queue_napi_id(struct net_device *dev, unsigned int queue)
{
	struct napi_struct *napi = nictl_queue_napi(dev, queue, true);

	return napi ? napi->napi_id : -1;
}
#else
/* Before 6.8 the kernel does not know which IRQ or NAPI serves a queue. */
static inline int nictl_queue_napi_irq(struct net_device *dev, unsigned int queue, bool rx)
{
	return -1;
}

static inline int nictl_rx_queue_napi_id(struct net_device *dev, unsigned int queue)
{
	return -1;
}
#endif /* NICTL_HAVE_NAPI_IRQ */

/*
 * ---- Kernels newer than 6.12 (port to 7.2): MSI descriptor lock ----
 */
#ifndef NICTL_HAVE_MSI_DESCS_GUARD
#include <linux/cleanup.h>
#include <linux/msi.h>

/*
 * msi_lock_descs()/msi_unlock_descs() gave way to a guard; the same guard,
 * made of the older pair, where the kernel has only those.
 */
DEFINE_LOCK_GUARD_1(msi_descs_lock, struct device, msi_lock_descs(_T->lock),
		    msi_unlock_descs(_T->lock));
#endif /* NICTL_HAVE_MSI_DESCS_GUARD */

/*
 * ---- Kernels newer than 6.12 (port to 7.2): the netdev instance lock ----
 *
 * From 6.15 every driver's NAPI -> IRQ link (netif_napi_set_irq()) is written
 * under the device's instance lock, and so are the queue -> NAPI links
 * (netif_queue_set_napi()) of an "ops locked" driver (one with the queue or
 * shaper API, or request_ops_lock), whose ndos and ethtool ops, ethtool -L
 * among them, run under that lock, perhaps without rtnl. So nictl holds
 * rtnl, then the instance lock while it works on a device, as netdev-genl
 * does. Before, rtnl covered all of it: then there is nothing to take.
 */
#if __has_include(<net/netdev_lock.h>)
#include <net/netdev_lock.h>
#endif

#ifndef NICTL_HAVE_NETDEV_LOCK
static inline void netdev_lock(struct net_device *dev)
{
}

static inline void netdev_unlock(struct net_device *dev)
{
}
#endif /* NICTL_HAVE_NETDEV_LOCK */

#ifndef NICTL_HAVE_NETDEV_OPS_LOCK
/* No driver's ops run under an instance lock. */
static inline bool netdev_need_ops_lock(const struct net_device *dev)
{
	return false;
}
#endif /* NICTL_HAVE_NETDEV_OPS_LOCK */

#ifdef NICTL_HAVE_NETDEV_LOCK
/*
 * A second device's instance lock while one is held. Under rtnl any order
 * is safe (the kernel's netdev_lock_cmp_fn() says so, for the drivers that
 * set it); lockdep, which sees one class, must be told that they nest.
 */
static inline void nictl_netdev_lock_nested(struct net_device *dev)
{
	mutex_lock_nested(&dev->lock, SINGLE_DEPTH_NESTING);
}
#else
static inline void nictl_netdev_lock_nested(struct net_device *dev)
{
}
#endif /* NICTL_HAVE_NETDEV_LOCK */

#endif /* _NICTL_COMPAT_H */
