/* SPDX-License-Identifier: GPL-2.0 */
/* The one bridge over kernel differences, force-included; Kbuild's NICTL_HAVE_* say what exists. */
#ifndef _NICTL_COMPAT_H
#define _NICTL_COMPAT_H

#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <net/genetlink.h>

#ifndef NICTL_HAVE_EXTACK_FMT
/*
 * Formatted extack messages came in 6.2. Before, the message must outlive the op until the ack
 * is built: each goes to the next buffer of a ring (compat.c) whose last byte stays NUL, so only
 * %NICTL_EXTACK_BUFS failures between a message and its ack could reuse it, none reads past one.
 */
#define NICTL_EXTACK_LEN	80
#define NICTL_EXTACK_BUFS	64
char *nictl_extack_buf(void);

#define NL_SET_ERR_MSG_FMT(extack, fmt, args...) do {				\
	struct netlink_ext_ack *__nictl_ea = (extack);				\
	char *__nictl_buf;							\
										\
	if (__nictl_ea) {							\
		__nictl_buf = nictl_extack_buf();				\
		snprintf(__nictl_buf, NICTL_EXTACK_LEN - 1, fmt, ##args);	\
		__nictl_ea->_msg = __nictl_buf;					\
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
 * Before 6.6 (no xarray by ifindex) a dump walks the netns's ifindex hash under rtnl, as
 * rtnetlink's did. The cursor holds the bucket in its upper 32 bits and the ifindex to resume
 * from in the lower, so ++ steps past the device just sent, and each step reads one bucket.
 */
static inline struct net_device *nictl_netdev_from(struct net *net, unsigned long *cursor)
{
	unsigned long h = *cursor >> 32, from = *cursor & U32_MAX;
	struct net_device *dev, *found = NULL;

	for (; h < NETDEV_HASHENTRIES; h++, from = 0) {
		hlist_for_each_entry(dev, &net->dev_index_head[h], index_hlist)
			if (dev->ifindex >= from && (!found || dev->ifindex < found->ifindex))
				found = dev;
		if (found) {
			*cursor = h << 32 | found->ifindex;
			return found;
		}
	}
	return NULL;
}

#define for_each_netdev_dump(net, d, cursor)					\
	for (; ((d) = nictl_netdev_from((net), &(cursor))); (cursor)++)
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

/* ---- Kernels before 6.1, down to 5.10 (Debian bullseye's 5.10.0-32) ---- */

#ifndef NICTL_HAVE_ATTR_MISS
/* NLMSGERR_ATTR_MISS_TYPE came in 6.0; callers' messages name it too. */
#define NL_SET_ERR_ATTR_MISS(extack, nest, type)	do { } while (0)
#endif

#ifndef NICTL_HAVE_REQ_ATTR_CHECK
/* Came with NL_SET_ERR_ATTR_MISS, so there is nothing to name either. */
#define GENL_REQ_ATTR_CHECK(info, attr)	(!(info)->attrs[attr])
#define NL_REQ_ATTR_CHECK(extack, nest, tb, type)	(!(tb)[type])
#endif

#ifdef NICTL_HAVE_RESV_START_OP
#define NICTL_GENL_FAMILY_COMPAT
#define NICTL_GENL_DUMP_COMPAT

/* For a dump with a start of its own, which calls this one first. */
static inline int nictl_genl_dump_start(struct netlink_callback *cb)
{
	return 0;
}
#else
/* Before 6.1 ops without a policy took any attribute: add 6.1's reject-all one and header check. */
int nictl_genl_pre_doit(const struct genl_ops *ops, struct sk_buff *skb, struct genl_info *info);
int nictl_genl_dump_start(struct netlink_callback *cb);

#define NICTL_GENL_FAMILY_COMPAT						\
	.policy = (const struct nla_policy[]){ { .type = NLA_REJECT },		\
					       { .type = NLA_REJECT } },		\
	.maxattr = 1,								\
	.pre_doit = nictl_genl_pre_doit,
#define NICTL_GENL_DUMP_COMPAT	.start = nictl_genl_dump_start,
#endif /* NICTL_HAVE_RESV_START_OP */

#if !defined(NICTL_HAVE_MCAST_CAP) && defined(NICTL_HAVE_MCAST_UNS_ADMIN)
/*
 * The first form of the multicast group check (6.7-rc5, in stable and Debian's 5.10.223):
 * genl_bind() refuses a GENL_UNS_ADMIN_PERM group to a socket without CAP_NET_ADMIN in its
 * netns's user namespace, as later kernels do for GENL_MCAST_CAP_NET_ADMIN.
 */
#define GENL_MCAST_CAP_NET_ADMIN	GENL_UNS_ADMIN_PERM
#define NICTL_HAVE_MCAST_CAP
#endif

#ifdef NICTL_HAVE_MSI_DESC_ITER
/* Whether a device ever enabled MSI: only then has it descriptor storage. */
static inline bool nictl_has_msi_descs(struct device *dev)
{
	return dev->msi.data;
}

/* The descriptor's MSI-X table entry (0 for MSI). */
#define nictl_msi_desc_index(desc)	((desc)->msi_index)

#define nictl_msi_descs_guard(dev)	guard(msi_descs_lock)(dev)

#define nictl_for_each_msi_desc(desc, dev)	msi_for_each_desc((desc), (dev), MSI_DESC_ASSOCIATED)
#else
/*
 * Before 6.1 MSI descriptors are a list without a lock, changed by the driver at probe and remove,
 * around netdev registration, or under rtnl (ethtool -L): callers hold rtnl, the netdev registered.
 */
#include <linux/msi.h>

static inline bool nictl_has_msi_descs(struct device *dev)
{
	return !list_empty(dev_to_msi_list(dev));
}

/* The descriptor after @desc (the first for NULL) whose IRQs exist. */
static inline struct msi_desc *nictl_msi_next(struct device *dev, struct msi_desc *desc)
{
	struct list_head *head = dev_to_msi_list(dev);

	desc = desc ? list_next_entry(desc, list) : list_first_entry(head, struct msi_desc, list);
	for (; !list_entry_is_head(desc, head, list); desc = list_next_entry(desc, list))
		if (desc->irq)
			return desc;
	return NULL;
}

#define nictl_msi_desc_index(desc)	((desc)->msi_attrib.entry_nr)

/* Nothing to lock: rtnl covers the list. */
#define nictl_msi_descs_guard(dev)	do { } while (0)

#define nictl_for_each_msi_desc(desc, dev)					\
	for ((desc) = nictl_msi_next((dev), NULL); (desc);			\
	     (desc) = nictl_msi_next((dev), (desc)))
#endif /* NICTL_HAVE_MSI_DESC_ITER */

#include <linux/interrupt.h>

#ifdef NICTL_HAVE_IRQ_SET_AFFINITY
static inline int nictl_irq_set_affinity(unsigned int irq, const struct cpumask *mask)
{
	return irq_set_affinity(irq, mask);
}
#else
/* Exported since 5.14; before, an inline over the unexported __irq_set_affinity(): compat_irq.c. */
int nictl_irq_set_affinity(unsigned int irq, const struct cpumask *mask);
#endif

/* ---- end of kernels before 6.1 ---- */

/* ---- Kernels newer than 6.12 (port to 7.2): MSI descriptor lock ---- */
#if !defined(NICTL_HAVE_MSI_DESCS_GUARD) && defined(NICTL_HAVE_MSI_DESC_ITER)
#include <linux/cleanup.h>
#include <linux/msi.h>

/* msi_lock_descs()/msi_unlock_descs() gave way to a guard; before 6.1 there is neither. */
DEFINE_LOCK_GUARD_1(msi_descs_lock, struct device, msi_lock_descs(_T->lock),
		    msi_unlock_descs(_T->lock));
#endif /* !NICTL_HAVE_MSI_DESCS_GUARD && NICTL_HAVE_MSI_DESC_ITER */

/*
 * ---- Kernels newer than 6.12 (port to 7.2): persistent NAPI config ----
 * From 6.13 a NAPI re-added after a reset or channel change gets its old id back from napi_config.
 */
#ifdef NICTL_HAVE_NAPI_CONFIG
static inline unsigned int nictl_napi_configs(const struct net_device *dev)
{
	return dev->napi_config ? dev->num_napi_configs : 0;
}

static inline unsigned int nictl_napi_config_id(const struct net_device *dev, unsigned int i)
{
	return READ_ONCE(dev->napi_config[i].napi_id);
}
#else
static inline unsigned int nictl_napi_configs(const struct net_device *dev)
{
	return 0;
}

static inline unsigned int nictl_napi_config_id(const struct net_device *dev, unsigned int i)
{
	return 0;
}
#endif /* NICTL_HAVE_NAPI_CONFIG */

/*
 * ---- Kernels newer than 6.12 (port to 7.2): the netdev instance lock ----
 * From 6.15 NAPI links and an ops-locked driver's ethtool ops are under the instance lock, perhaps
 * without rtnl: nictl takes rtnl, then the instance lock, as netdev-genl does (docs/design.md).
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

#ifndef NICTL_HAVE_NETDEV_LOCK_OPS_TO_FULL
/* The lock the core holds around an ops-locked device's events, else nictl's. */
static inline void netdev_lock_ops_to_full(struct net_device *dev)
{
	if (!netdev_need_ops_lock(dev))
		netdev_lock(dev);
}

static inline void netdev_unlock_full_to_ops(struct net_device *dev)
{
	if (!netdev_need_ops_lock(dev))
		netdev_unlock(dev);
}
#endif /* NICTL_HAVE_NETDEV_LOCK_OPS_TO_FULL */

#ifdef NICTL_HAVE_NETDEV_LOCK
/* Under rtnl any order is safe (netdev_lock_cmp_fn()), but lockdep must be told they nest. */
static inline void nictl_netdev_lock_nested(struct net_device *dev)
{
	mutex_lock_nested(&dev->lock, SINGLE_DEPTH_NESTING);
}

/* One of several instance locks taken together under @nest. */
#define nictl_netdev_lock_nest(dev, nest)	mutex_lock_nest_lock(&(dev)->lock, (nest))
#else
static inline void nictl_netdev_lock_nested(struct net_device *dev)
{
}

static inline void nictl_netdev_lock_nest(struct net_device *dev, struct mutex *nest)
{
}
#endif /* NICTL_HAVE_NETDEV_LOCK */

#endif /* _NICTL_COMPAT_H */
