/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces between the parts of the nictl module.
 *
 * Locking: ops run in parallel (parallel_ops, see family.c), each taking what
 * it needs. DEV_GET (do and every dump part), BIND and RESTORE take rtnl;
 * BIND and RESTORE then cpus_read_lock. The bindings (state.c) and device
 * snapshots (snapshot.c) each have a mutex: changes hold rtnl and the mutex,
 * readers either. The notifier runs under rtnl; the periodic check (watch.c)
 * reads under the mutexes and takes rtnl only for a device that changed, as
 * a socket joining a group does (under genl's cb_lock, as every op runs).
 * Order: rtnl -> cpus_read_lock -> bindings or snapshots mutex -> events
 * mutex. STATS_SET, STATS_RESET and the NAPI slots' readers take the stats
 * mutex (stats.c), NAPI_GET before rtnl. A request finds its netns (netns.c)
 * before any of these; net_rwsem is taken last, around walks of the netns
 * list that take nothing else. A dump keeps its state in its own cb->args.
 */
#ifndef _NICTL_NICTL_H
#define _NICTL_NICTL_H

#include <linux/cpumask.h>
#include <linux/netdevice.h>
#include <linux/netlink.h>
#include <linux/nictl.h>
#include <net/genetlink.h>

#include "qirq.h"

/**
 * struct nictl_dev - a device and its queue IRQs, as found under rtnl
 * @netdev: the device
 * @ifname: its name: @netdev's own under rtnl, a binding's copy without rtnl
 * @driver: driver of the parent device, or "" if none
 * @bus_addr: PCI address of the function, or NULL
 * @node: NUMA node, or NUMA_NO_NODE
 * @source: &enum nictl_irq_source
 * @bound: nictl holds affinities to restore for this device
 * @sticky_id: the identity of its sticky binding, or NULL; valid under rtnl
 * @n_irqs: entries in @irqs
 * @n_groups: placement groups among them (see qirq.h)
 * @irqs: queue IRQs, each once, sorted by their lowest queue, then kind
 * @refs: the queues each IRQ serves
 */
struct nictl_dev {
	struct net_device *netdev;
	const char *ifname;
	const char *driver;
	const char *bus_addr;
	int node;
	enum nictl_irq_source source;
	bool bound;
	const char *sticky_id;
	unsigned int n_irqs;
	unsigned int n_groups;
	struct nictl_qirq *irqs;
	struct nictl_qref *refs;
};

/* Members of a stacked device one request acts on, at most. */
#define NICTL_STACK_MAX		64

/**
 * struct nictl_stack - the devices one bind, restore or DEV_GET acts on: a
 *	device alone, or the physical devices beneath a stacked one
 * @upper: the stacked device, or NULL for a device alone
 * @n: entries in @netdev
 * @discovered: entries of @dev filled in
 * @netdev: the devices, in ifindex order
 * @dev: their queue IRQs
 * @serves: per device, from nictl_dev_claims(), or NULL
 */
struct nictl_stack {
	struct net_device *upper;
	unsigned int n;
	unsigned int discovered;
	struct net_device *netdev[NICTL_STACK_MAX];
	struct nictl_dev dev[NICTL_STACK_MAX];
	s8 *serves[NICTL_STACK_MAX];
};

/* stack.c */
struct nictl_stack *nictl_stack_one(struct net_device *netdev);
struct nictl_stack *nictl_stack_of(struct net_device *netdev, struct netlink_ext_ack *extack);
struct nictl_stack *nictl_request_stack(const struct genl_info *info);
void nictl_stack_lock(struct nictl_stack *stack);
void nictl_stack_unlock(struct nictl_stack *stack);
int nictl_stack_discover(struct nictl_stack *stack, bool look);
void nictl_stack_release(struct nictl_stack *stack);
void nictl_stack_free(struct nictl_stack *stack);

/* discover.c */
struct device *nictl_pci_function(const struct net_device *netdev);
unsigned int nictl_msi_vectors(struct device *pci, unsigned int *irqs, unsigned int max);
void nictl_dev_init(struct net_device *netdev, struct nictl_dev *dev);
int nictl_dev_scan(struct net_device *netdev, struct nictl_dev *dev);
void nictl_dev_release(struct nictl_dev *dev);
const struct nictl_qirq *nictl_dev_irq(const struct nictl_dev *dev, unsigned int irq);

/* irq.c */
struct irq_data;

struct irq_data *nictl_irq_lock(unsigned int irq, unsigned long *flags);
void nictl_irq_unlock(struct irq_data *d, unsigned long flags);
const struct cpumask *nictl_irq_affinity(struct irq_data *d, bool *pending);
bool nictl_irq_name(unsigned int irq, char *name, size_t len, bool *managed, bool *shared);
int nictl_irq_masks(unsigned int irq, struct cpumask *affinity, struct cpumask *effective,
		    bool *pending);
int nictl_irq_check_settable(unsigned int irq, const char *name, struct netlink_ext_ack *extack);

/* cpumask_nla.c */
int nictl_nla_put_cpumask(struct sk_buff *skb, int attrtype, const struct cpumask *mask);
int nictl_nla_get_cpumask(const struct nlattr *attr, struct cpumask *mask,
			  struct netlink_ext_ack *extack);
size_t nictl_nla_cpumask_size(void);

/* request.c */
/**
 * struct nictl_queue_place - one queue of an explicit placement
 * @queue: queue index
 * @cpu: the CPU for its IRQs
 * @entry: its %NICTL_A_QUEUE_CPU nest, for extack, NULL when a sticky
 *	binding replays it; @queue_attr and @cpu_attr likewise
 * @queue_attr: its %NICTL_A_QUEUE_CPU_QUEUE
 * @cpu_attr: its %NICTL_A_QUEUE_CPU_CPU
 */
struct nictl_queue_place {
	u32 queue;
	u32 cpu;
	const struct nlattr *entry;
	const struct nlattr *queue_attr;
	const struct nlattr *cpu_attr;
};

/**
 * struct nictl_request - what a bind asks for: a BIND request's, or the
 *	copy a sticky binding keeps
 * @flags: &enum nictl_bind_flags
 * @has_cpus: @cpus holds the CPU set; else @place is the placement
 * @cpus: the CPUs the queues may use
 * @cpus_attr: its attribute, for extack; NULL in a copy
 * @n_place: entries in @place
 * @place: an explicit placement, queue by queue, in request order
 * @extack: where to say what is wrong
 * @portid: the requester's netlink port id, 0 in a copy
 */
struct nictl_request {
	u32 flags;
	bool has_cpus;
	cpumask_var_t cpus;
	const struct nlattr *cpus_attr;
	unsigned int n_place;
	struct nictl_queue_place *place;
	struct netlink_ext_ack *extack;
	u32 portid;
};

int nictl_request_parse(const struct genl_info *info, struct nictl_request *req);
int nictl_request_copy(struct nictl_request *dst, const struct nictl_request *src);
void nictl_request_free(struct nictl_request *req);

/* place.c */
int nictl_check_cpu(unsigned int cpu, const struct nictl_dev *dev, bool numa_strict,
		    const struct nlattr *attr, struct netlink_ext_ack *extack);
int nictl_place_on_set(struct nictl_dev *dev, const struct cpumask *allowed, u32 flags,
		       unsigned int offset, const struct nlattr *attr,
		       struct netlink_ext_ack *extack);
int nictl_place_explicit(struct nictl_dev *dev, const struct nictl_request *req);
int nictl_member_cpus(const struct nictl_stack *stack, const struct nictl_dev *dev,
		      const struct nictl_request *req, struct cpumask *cpus);
int nictl_place_stack(struct nictl_stack *stack, const struct nictl_request *req);

/* apply.c */
/**
 * struct nictl_change - one affinity write of an all-or-nothing apply
 * @irq: the IRQ
 * @name: its name, for messages
 * @target: the mask to set
 * @saved: filled with the mask in force before the apply
 */
struct nictl_change {
	unsigned int irq;
	const char *name;
	cpumask_var_t target;
	cpumask_var_t saved;
};
struct nictl_change *nictl_changes_alloc(unsigned int n);
void nictl_changes_free(struct nictl_change *changes, unsigned int n);
int nictl_apply(struct nictl_change *changes, unsigned int n, bool dry_run,
		struct netlink_ext_ack *extack);
#ifdef NICTL_HAVE_AFFINITY_AUTO
void nictl_apply_settle(struct net_device *netdev);
bool nictl_apply_kept_by_core(const struct net_device *netdev);
bool nictl_apply_core_pending(struct net_device *netdev, unsigned int irq);
#else
static inline void nictl_apply_settle(struct net_device *netdev)
{
}

static inline bool nictl_apply_kept_by_core(const struct net_device *netdev)
{
	return false;
}

static inline bool nictl_apply_core_pending(struct net_device *netdev, unsigned int irq)
{
	return false;
}
#endif

/* Devices discovered again under rtnl in one period, at most. */
#define NICTL_RECHECK_MAX	16

/**
 * struct nictl_recheck - devices the periodic check discovers again under rtnl
 * @n: entries in @ifindex
 * @ifindex: the devices, each once
 */
struct nictl_recheck {
	unsigned int n;
	int ifindex[NICTL_RECHECK_MAX];
};

/* Add @ifindex to @recheck once; false when @recheck is full. */
static inline bool nictl_recheck_add(struct nictl_recheck *recheck, int ifindex)
{
	unsigned int i;

	for (i = 0; i < recheck->n; i++)
		if (recheck->ifindex[i] == ifindex)
			return true;
	if (recheck->n == NICTL_RECHECK_MAX)
		return false;
	recheck->ifindex[recheck->n++] = ifindex;
	return true;
}

/* watch.c */
void nictl_watch_netdev(struct net_device *netdev, unsigned long event);
void nictl_watch_link(struct net_device *lower, struct net_device *upper, bool linking);
#ifdef NICTL_HAVE_GENL_BIND
int nictl_watch_join(int group);
#endif
void nictl_watch_start(void);
void nictl_watch_stop(void);

/* state.c */
struct nictl_binding;
void nictl_bindings_lock(void);
void nictl_bindings_unlock(void);
struct nictl_binding *nictl_binding_find(const struct net_device *netdev);
void nictl_binding_annotate(struct nictl_dev *dev);
struct nictl_binding *nictl_binding_prepare(const struct nictl_dev *dev,
					    const struct nictl_change *changes);
void nictl_binding_commit(struct nictl_binding *b, const struct nictl_change *changes);
void nictl_binding_discard(struct nictl_binding *b);
int nictl_binding_restore_changes(struct nictl_binding *b, const struct nictl_dev *dev,
				  struct nictl_change **changes, unsigned int *n);
struct net_device *nictl_binding_owner(unsigned int irq);
void nictl_binding_forget_irq(const struct net_device *netdev, unsigned int irq);
void nictl_bindings_check(struct nictl_recheck *recheck, struct cpumask *found);
void nictl_binding_confirm(struct net_device *netdev);
void nictl_binding_drop(const struct net_device *netdev);
void nictl_bindings_drop_all(void);

/* link_msg.c */
size_t nictl_link_size(void);
int nictl_put_link(struct sk_buff *skb, int attr, const struct net_device *netdev);
size_t nictl_uppers_size(void);
int nictl_put_uppers(struct sk_buff *skb, struct net_device *netdev);
int nictl_put_stacked_attrs(struct sk_buff *skb, struct net_device *upper);

/* dev_msg.c */
size_t nictl_irq_nest_size(const struct nictl_qirq *q);
size_t nictl_irqs_size(const struct nictl_dev *dev);
size_t nictl_dev_attrs_size(const struct nictl_dev *dev);
size_t nictl_dev_msg_size(const struct nictl_dev *dev);
int nictl_put_dev_attrs(struct sk_buff *skb, const struct nictl_dev *dev);
struct nlattr *nictl_put_irq(struct sk_buff *skb, const struct nictl_dev *dev,
			     const struct nictl_qirq *q, struct cpumask *affinity,
			     struct cpumask *effective);
size_t nictl_lower_size(const struct nictl_dev *dev);
int nictl_put_lower(struct sk_buff *skb, const struct nictl_dev *dev);
int nictl_dev_fill(struct sk_buff *skb, const struct nictl_dev *dev, u32 portid, u32 seq,
		   int flags, u8 cmd, struct netlink_callback *cb, unsigned int *next_irq);
struct sk_buff *nictl_stack_reply_new(const struct nictl_stack *stack);
int nictl_stack_reply(struct sk_buff *msg, const struct genl_info *info,
		      const struct nictl_stack *stack);

/* family.c */
/* Index of the "events" and "audit" groups in the family's mcgrps[]. */
#define NICTL_MCGRP_EVENTS_ID	0
#define NICTL_MCGRP_AUDIT_ID	1
extern struct genl_family nictl_family;

/* netns.c */
struct net *nictl_request_net(struct sk_buff *skb, const struct genl_info *info);
struct net *nictl_dump_net(struct netlink_callback *cb, struct genl_info *info);
int nictl_netns_doit(int (*doit)(struct sk_buff *skb, struct genl_info *info),
		     struct sk_buff *skb, struct genl_info *info);
int nictl_put_netns_id(struct sk_buff *skb, const struct net_device *netdev);
size_t nictl_netns_id_size(void);
struct net **nictl_nets_get(unsigned int *n);
void nictl_nets_put(struct net **nets, unsigned int n);
struct net_device *nictl_netdev_lookup(const struct genl_info *info);

/* bind.c */
int nictl_bind_doit(struct sk_buff *skb, struct genl_info *info);
int nictl_restore_doit(struct sk_buff *skb, struct genl_info *info);
void nictl_bind_sticky(struct net_device *netdev);

/* genl.c */
int nictl_genl_register(void);
void nictl_genl_unregister(void);

/* events.c */
/**
 * struct nictl_queue_id - one queue IRQ as the module last saw it
 * @irq: Linux IRQ number
 * @queue: queue index
 * @kind: &enum nictl_queue_kind
 */
struct nictl_queue_id {
	u32 irq;
	u32 queue;
	u32 kind;
};

/**
 * struct nictl_queue_set - a device's queues as the module last saw them
 * @rx: active receive queues
 * @tx: active transmit queues
 * @n_irqs: queue IRQs, all of them
 * @tail_hash: hash of the queue IRQs beyond %NICTL_EVENT_OLD_IRQS_MAX
 * @n_kept: entries in @irqs, at most %NICTL_EVENT_OLD_IRQS_MAX
 * @irqs: the first queue IRQs, in the order of &struct nictl_dev
 */
struct nictl_queue_set {
	unsigned int rx;
	unsigned int tx;
	unsigned int n_irqs;
	u32 tail_hash;
	unsigned int n_kept;
	struct nictl_queue_id *irqs;
};

void nictl_events_enable(bool on);
bool nictl_events_listening(void);
void nictl_event_dev(enum nictl_event type, const struct nictl_dev *dev, const char *old_name);
void nictl_event_queues(const struct nictl_dev *dev, const struct nictl_queue_set *old);
void nictl_event_drift(const struct nictl_dev *dev, const struct nictl_qirq *q,
		       const struct cpumask *expected);
void nictl_event_affinity(enum nictl_event type, const struct nictl_dev *dev,
			  const struct nictl_change *changes, unsigned int n, u32 portid);
void nictl_event_sticky_failed(const struct nictl_dev *dev, int err, const char *why);
void nictl_event_link(enum nictl_event type, const struct nictl_dev *dev,
		      const struct net_device *upper);

/* snapshot.c */
const char *nictl_snapshot_name(const struct net_device *netdev);
void nictl_snapshot_update(const struct nictl_dev *dev);
#ifdef NICTL_HAVE_GENL_BIND
void nictl_snapshot_unheard(const struct net_device *netdev);
struct net_device **nictl_snapshots_stale(unsigned int *n);
bool nictl_snapshots_any_stale(void);
#endif
void nictl_snapshot_drop(const struct net_device *netdev);
void nictl_snapshots_drop_all(void);
bool nictl_snapshots_check(struct nictl_recheck *recheck);

/* claims.c */
int nictl_dev_discover(struct net_device *netdev, struct nictl_dev *dev);
s8 *nictl_dev_claims(const struct nictl_dev *dev, struct net_device *const *held,
		     unsigned int n_held);
int nictl_dev_look(struct net_device *netdev, struct nictl_dev *dev, bool forget_stale);

/* sticky.c */
/* "mac:" + 32 bytes as "xx:", or "pci:", a PCI address, "/port4294967295". */
#define NICTL_STICKY_ID_LEN	100

struct nictl_sticky;

int nictl_sticky_id(const struct net_device *netdev, char *buf, size_t len);
const char *nictl_sticky_of(const struct net_device *netdev);
struct nictl_sticky *nictl_sticky_prepare(const struct net_device *netdev,
					  const struct nictl_request *req, unsigned int *added);
void nictl_sticky_commit(struct nictl_sticky *s, const struct net_device *netdev);
void nictl_sticky_discard(struct nictl_sticky *s);
bool nictl_sticky_drop(const struct net_device *netdev);
void nictl_sticky_detach(const struct net_device *netdev);
void nictl_sticky_drop_all(void);
bool nictl_sticky_any(void);
struct nictl_request *nictl_sticky_request(const struct net_device *netdev, const char **id,
					   const struct net_device **twin);
void nictl_sticky_learn(const struct nictl_dev *dev);
void nictl_sticky_originals(const struct net_device *netdev, struct nictl_change *changes,
			    unsigned int n);
void nictl_sticky_preset(struct net_device *netdev);
void nictl_sticky_undo_preset(const struct net_device *netdev);

#endif /* _NICTL_NICTL_H */
