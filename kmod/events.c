// SPDX-License-Identifier: GPL-2.0
/*
 * %NICTL_CMD_EVENT notifications to the "events" group, and to "audit" where the kernel can keep
 * it to CAP_NET_ADMIN. A sender holds nictl_events_mutex from taking its sequence number to the
 * multicast, so sequence order is delivery order, with or without rtnl (the drift check has none);
 * nothing is built while nobody listens. All see the requester's port id (as genl_notify()); only
 * "audit" sees its pid and uid, and events of devices whose namespace hides them from init_net's
 * users. Each group numbers its own events: a gap means events lost, never withheld.
 */
#include <linux/cred.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <net/genetlink.h>

#include "nictl.h"

/* Taken last: inside rtnl, cpus_read_lock, the bindings and snapshot locks. */
static DEFINE_MUTEX(nictl_events_mutex);
/* Off until the family is registered and again before it goes. */
static bool nictl_events_on;
/* The last sequence number of each group; under nictl_events_mutex. */
static u64 nictl_events_seq, nictl_audit_seq;

/**
 * struct nictl_event_msg - an event being built
 * @skb: the message, as the events group gets it
 * @hdr: its genetlink header
 * @affinity: scratch mask for nictl_put_irq()
 * @effective: scratch mask for nictl_put_irq()
 * @seq_off: offset in @skb of the value of %NICTL_A_EVENT_SEQ
 * @events_seq: its number in the events group, 0 for none
 * @audit_seq: its number in the audit group, 0 for none
 * @who: the audit group's copy adds @pid and @uid
 * @pid: the requester's tgid in the initial PID namespace
 * @uid: its uid in the initial user namespace
 */
struct nictl_event_msg {
	struct sk_buff *skb;
	void *hdr;
	cpumask_var_t affinity;
	cpumask_var_t effective;
	unsigned int seq_off;
	u64 events_seq;
	u64 audit_seq;
	bool who;
	u32 pid;
	u32 uid;
};

#ifdef NICTL_HAVE_MCAST_CAP
static bool nictl_audit_listening(void)
{
	return genl_has_listeners(&nictl_family, &init_net, NICTL_MCGRP_AUDIT_ID);
}

static void nictl_event_number(const struct nictl_event_msg *ev, struct sk_buff *skb, u64 seq)
{
	memcpy(skb->data + ev->seq_off, &seq, sizeof(seq));
}

/* The audit group's copy: its own number, and who asked if ev->who. */
static struct sk_buff *nictl_audit_msg(const struct nictl_event_msg *ev)
{
	struct sk_buff *skb;

	/* The room for PID and UID was reserved with the event's. */
	skb = skb_copy(ev->skb, GFP_KERNEL);
	if (!skb)
		return NULL;
	nictl_event_number(ev, skb, ev->audit_seq);
	if (ev->who && (nla_put_u32(skb, NICTL_A_PID, ev->pid) ||
			nla_put_u32(skb, NICTL_A_UID, ev->uid))) {
		nlmsg_free(skb);
		return NULL;
	}
	nlmsg_end(skb, nlmsg_hdr(skb));
	return skb;
}

/* A copy that cannot be made shows as a gap in the audit group's sequence. */
static void nictl_event_audit(const struct nictl_event_msg *ev)
{
	struct sk_buff *skb;

	if (!ev->audit_seq)
		return;
	skb = nictl_audit_msg(ev);
	if (skb)
		genlmsg_multicast(&nictl_family, skb, 0, NICTL_MCGRP_AUDIT_ID, GFP_KERNEL);
}
#else
/* No group that only CAP_NET_ADMIN may join: no event names a process. */
static bool nictl_audit_listening(void)
{
	return false;
}

static void nictl_event_audit(const struct nictl_event_msg *ev)
{
}
#endif /* NICTL_HAVE_MCAST_CAP */

/**
 * nictl_events_enable() - allow or stop sending events
 * @on: true once the family is registered, false before it is unregistered
 *
 * The lock waits out a sender in progress: none sends once @on false returns.
 */
void nictl_events_enable(bool on)
{
	mutex_lock(&nictl_events_mutex);
	WRITE_ONCE(nictl_events_on, on);
	mutex_unlock(&nictl_events_mutex);
}

static bool nictl_events_group_listening(void)
{
	return genl_has_listeners(&nictl_family, &init_net, NICTL_MCGRP_EVENTS_ID);
}

/**
 * nictl_events_listening() - is any socket in the events or audit group?
 *
 * Return: true when events are on and someone listens; a hint: senders ask again under the lock.
 */
bool nictl_events_listening(void)
{
	return READ_ONCE(nictl_events_on) &&
	       (nictl_events_group_listening() || nictl_audit_listening());
}

static void nictl_event_free(struct nictl_event_msg *ev)
{
	nlmsg_free(ev->skb);
	free_cpumask_var(ev->affinity);
	free_cpumask_var(ev->effective);
}

/*
 * Start an event about @dev with room for @extra bytes of its own; on success the events lock
 * is held until nictl_event_finish(). Each group that will get it (someone listens and may see
 * what it names: @elsewhere, something outside the initial namespace, is for audit alone) takes
 * a sequence number at once, so a failed allocation shows as a gap.
 */
static int nictl_event_start(struct nictl_event_msg *ev, enum nictl_event type,
			     const struct nictl_dev *dev, size_t extra, bool elsewhere)
{
	struct nlattr *seq;
	int err = -ENOENT;

	mutex_lock(&nictl_events_mutex);
	memset(ev, 0, sizeof(*ev));
	if (!READ_ONCE(nictl_events_on))
		goto unlock;
	if (!elsewhere && nictl_events_group_listening())
		ev->events_seq = ++nictl_events_seq;
	if (nictl_audit_listening())
		ev->audit_seq = ++nictl_audit_seq;
	if (!ev->events_seq && !ev->audit_seq)
		goto unlock;
	err = -ENOMEM;
	ev->skb = genlmsg_new(nla_total_size(sizeof(u32)) +		/* EVENT */
			      nla_total_size_64bit(sizeof(u64)) * 2 +	/* SEQ TIME_NS */
			      nictl_dev_attrs_size(dev) + extra, GFP_KERNEL);
	if (!ev->skb || !alloc_cpumask_var(&ev->affinity, GFP_KERNEL) ||
	    !alloc_cpumask_var(&ev->effective, GFP_KERNEL))
		goto free;
	err = -EMSGSIZE;
	ev->hdr = genlmsg_put(ev->skb, 0, 0, &nictl_family, 0, NICTL_CMD_EVENT);
	if (!ev->hdr || nla_put_u32(ev->skb, NICTL_A_EVENT, type))
		goto free;
	/* Numbered per group as it is sent. */
	seq = nla_reserve_64bit(ev->skb, NICTL_A_EVENT_SEQ, sizeof(u64), NICTL_A_PAD);
	if (!seq)
		goto free;
	ev->seq_off = (unsigned char *)nla_data(seq) - ev->skb->data;
	if (nla_put_u64_64bit(ev->skb, NICTL_A_EVENT_TIME_NS, ktime_get_ns(), NICTL_A_PAD) ||
	    nictl_put_dev_attrs(ev->skb, dev))
		goto free;
	return 0;

free:
	nictl_event_free(ev);
unlock:
	mutex_unlock(&nictl_events_mutex);
	return err;
}

static int nictl_event_begin(struct nictl_event_msg *ev, enum nictl_event type,
			     const struct nictl_dev *dev, size_t extra)
{
	return nictl_event_start(ev, type, dev, extra, !net_eq(dev_net(dev->netdev), &init_net));
}

/* Send the event, or drop it when adding to it failed (@err); unlock. */
static void nictl_event_finish(struct nictl_event_msg *ev, int err)
{
	/* The sizes are computed from the same device: not fitting is a bug. */
	if (!WARN_ON_ONCE(err)) {
		genlmsg_end(ev->skb, ev->hdr);
		nictl_event_audit(ev);
		/* A full socket's listener sees ENOBUFS and a sequence gap. */
		if (ev->events_seq) {
			nictl_event_number(ev, ev->skb, ev->events_seq);
			genlmsg_multicast(&nictl_family, ev->skb, 0, NICTL_MCGRP_EVENTS_ID,
					  GFP_KERNEL);
			ev->skb = NULL;
		}
	}
	nictl_event_free(ev);
	mutex_unlock(&nictl_events_mutex);
}

/**
 * nictl_event_dev() - a device (un)registered, went up or down, or was renamed
 * @type: the event
 * @dev: the device
 * @old_name: for %NICTL_EVENT_RENAMED, the name before, or NULL if unknown
 */
void nictl_event_dev(enum nictl_event type, const struct nictl_dev *dev, const char *old_name)
{
	struct nictl_event_msg ev;
	int err = 0;

	if (nictl_event_begin(&ev, type, dev, old_name ? nla_total_size(IFNAMSIZ) : 0))
		return;
	if (old_name)
		err = nla_put_string(ev.skb, NICTL_A_OLD_IFNAME, old_name);
	nictl_event_finish(&ev, err);
}

static size_t nictl_old_irq_size(void)
{
	return nla_total_size(0) + nla_total_size(sizeof(u32)) * 3;	/* NUM QUEUE KIND */
}

static int nictl_put_old_irq(struct sk_buff *skb, const struct nictl_queue_id *id)
{
	struct nlattr *nest = nla_nest_start(skb, NICTL_A_OLD_IRQ);

	if (!nest || nla_put_u32(skb, NICTL_A_IRQ_NUM, id->irq) ||
	    nla_put_u32(skb, NICTL_A_IRQ_QUEUE, id->queue) ||
	    nla_put_u32(skb, NICTL_A_IRQ_KIND, id->kind))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/**
 * nictl_event_queues() - a device's queue counts or queue IRQs changed
 * @dev: the device as it is now
 * @old: what was seen before
 */
void nictl_event_queues(const struct nictl_dev *dev, const struct nictl_queue_set *old)
{
	struct nlattr *nest;
	struct nictl_event_msg ev;
	unsigned int i;
	int err;

	if (nictl_event_begin(&ev, NICTL_EVENT_QUEUES_CHANGED, dev,
			      nla_total_size(sizeof(u32)) * 2 +
			      old->n_kept * nictl_old_irq_size() + nictl_irqs_size(dev)))
		return;
	err = nla_put_u32(ev.skb, NICTL_A_OLD_RX_QUEUES, old->rx) ||
	      nla_put_u32(ev.skb, NICTL_A_OLD_TX_QUEUES, old->tx) ? -EMSGSIZE : 0;
	for (i = 0; !err && i < old->n_kept; i++)
		err = nictl_put_old_irq(ev.skb, &old->irqs[i]);
	for (i = 0; !err && i < dev->n_irqs; i++) {
		nest = nictl_put_irq(ev.skb, dev, &dev->irqs[i], ev.affinity, ev.effective);
		if (!nest)
			err = -EMSGSIZE;
		else
			nla_nest_end(ev.skb, nest);
	}
	nictl_event_finish(&ev, err);
}

/**
 * nictl_event_drift() - a bound IRQ no longer has the affinity nictl set
 * @dev: its device, as its binding keeps it
 * @q: the IRQ, as its binding keeps it
 * @expected: the affinity nictl set
 *
 * Context: the bindings lock held, no rtnl: @dev and @q are copies; nothing else read needs it.
 */
void nictl_event_drift(const struct nictl_dev *dev, const struct nictl_qirq *q,
		       const struct cpumask *expected)
{
	struct nlattr *nest;
	struct nictl_event_msg ev;
	int err = -EMSGSIZE;

	if (nictl_event_begin(&ev, NICTL_EVENT_DRIFT, dev,
			      nictl_irq_nest_size(q) + nictl_nla_cpumask_size()))
		return;
	nest = nictl_put_irq(ev.skb, dev, q, ev.affinity, ev.effective);
	if (nest && !nictl_nla_put_cpumask(ev.skb, NICTL_A_IRQ_EXPECTED, expected)) {
		nla_nest_end(ev.skb, nest);
		err = 0;
	}
	nictl_event_finish(&ev, err);
}

/* One IRQ of a bind or restore: as it is now, and the mask it had before. */
static int nictl_put_changed_irq(struct nictl_event_msg *ev, const struct nictl_dev *dev,
				 const struct nictl_change *change)
{
	const struct nictl_qirq *q = nictl_dev_irq(dev, change->irq);
	struct nlattr *nest;

	/* Every change was made from the device's IRQs. */
	if (!q)
		return -ENOENT;
	nest = nictl_put_irq(ev->skb, dev, q, ev->affinity, ev->effective);
	if (!nest || nictl_nla_put_cpumask(ev->skb, NICTL_A_IRQ_OLD_AFFINITY, change->saved))
		return -EMSGSIZE;
	nla_nest_end(ev->skb, nest);
	return 0;
}

/**
 * nictl_event_affinity() - a bind, restore or sticky binding moved IRQs
 * @type: %NICTL_EVENT_BOUND, %NICTL_EVENT_RESTORED or %NICTL_EVENT_STICKY_APPLIED
 * @dev: the device, annotated with the binding as it is now
 * @changes: the changes just applied, with the masks they replaced
 * @n: how many
 * @portid: the request's netlink port id (unused for a sticky binding)
 *
 * Context: the requesting process (current asked), or the notifier or check for a sticky one.
 */
void nictl_event_affinity(enum nictl_event type, const struct nictl_dev *dev,
			  const struct nictl_change *changes, unsigned int n, u32 portid)
{
	bool who = type != NICTL_EVENT_STICKY_APPLIED;
	struct nictl_event_msg ev;
	unsigned int i;
	int err = 0;

	/* PORTID, and PID and UID of the audit copy. */
	if (nictl_event_begin(&ev, type, dev, nla_total_size(sizeof(u32)) * 3 +
			      nictl_irqs_size(dev) + n * nictl_nla_cpumask_size()))
		return;
	if (who) {
		ev.who = true;
		ev.pid = task_tgid_nr(current);
		ev.uid = from_kuid_munged(&init_user_ns, current_uid());
		err = nla_put_u32(ev.skb, NICTL_A_PORTID, portid) ? -EMSGSIZE : 0;
	}
	for (i = 0; !err && i < n; i++)
		err = nictl_put_changed_irq(&ev, dev, &changes[i]);
	nictl_event_finish(&ev, err);
}

/**
 * nictl_event_sticky_failed() - a sticky binding could not be applied
 * @dev: the device, left as it was, with the binding's identity
 * @err: the negative errno
 * @why: the message a bind would have replied with, or ""
 */
void nictl_event_sticky_failed(const struct nictl_dev *dev, int err, const char *why)
{
	struct nictl_event_msg ev;

	if (nictl_event_begin(&ev, NICTL_EVENT_STICKY_FAILED, dev,
			      nla_total_size(sizeof(u32)) + nla_total_size(strlen(why) + 1)))
		return;
	err = nla_put_u32(ev.skb, NICTL_A_ERRNO, -err) ||
	      nla_put_string(ev.skb, NICTL_A_MESSAGE, why) ? -EMSGSIZE : 0;
	nictl_event_finish(&ev, err);
}

/**
 * nictl_event_link() - a device was stacked on @dev, or left it
 * @type: %NICTL_EVENT_LINKED or %NICTL_EVENT_UNLINKED
 * @dev: the physical device, without its IRQs (nictl_dev_init())
 * @upper: the stacked device; in another namespace than @dev's, the event is for audit alone
 */
void nictl_event_link(enum nictl_event type, const struct nictl_dev *dev,
		      const struct net_device *upper)
{
	const struct net *net = dev_net(dev->netdev);
	struct nictl_event_msg ev;

	if (nictl_event_start(&ev, type, dev, nictl_link_size(),
			      !net_eq(net, &init_net) || !net_eq(dev_net(upper), net)))
		return;
	nictl_event_finish(&ev, nictl_put_link(ev.skb, NICTL_A_LINK, upper));
}
