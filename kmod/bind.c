// SPDX-License-Identifier: GPL-2.0
/*
 * BIND and RESTORE. Both run the same path: look the device up and find
 * its queue IRQs, decide the target of every IRQ, validate all of them,
 * apply all or none, record the binding, tell the event listeners who
 * changed what, and reply with the resulting map.
 * Lock order: rtnl -> the device's instance lock (6.15+: an ops-locked
 * driver changes its queues under it, perhaps without rtnl; a holder's
 * nested) -> cpus_read_lock -> bindings lock (from the first affinity
 * write to the binding's commit or drop). The instance lock ranks above
 * cpus_read_lock: ops-locked drivers set XPS, which takes it, under theirs.
 */
#include <linux/cpu.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "nictl.h"

/* The changes that carry out the plan, in the order of the device's IRQs. */
static struct nictl_change *nictl_plan_changes(const struct nictl_dev *dev, unsigned int *np)
{
	struct nictl_change *changes;
	unsigned int i, n = 0;

	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].plan_cpu >= 0)
			n++;
	changes = nictl_changes_alloc(n);
	if (!changes)
		return NULL;
	for (i = 0, n = 0; i < dev->n_irqs; i++) {
		if (dev->irqs[i].plan_cpu < 0)
			continue;
		changes[n].irq = dev->irqs[i].irq;
		changes[n].name = dev->irqs[i].name;
		cpumask_set_cpu(dev->irqs[i].plan_cpu, changes[n].target);
		n++;
	}
	*np = n;
	return changes;
}

static int nictl_bind_plan(struct nictl_dev *dev, const struct nictl_request *req)
{
	if (!dev->n_irqs) {
		NL_SET_ERR_MSG_FMT(req->extack, "%s has no queue IRQs%s", dev->netdev->name,
				   dev->netdev->flags & IFF_UP ? "" : " (it is down)");
		return -ENOENT;
	}
	if (req->has_cpus)
		return nictl_place_on_set(dev, req->cpus, req->flags, req->cpus_attr, req->extack);
	return nictl_place_explicit(dev, req);
}

/*
 * Is the plan what the device has: every IRQ it moves held by the device's
 * binding with that target, and with that affinity? Then a sticky binding
 * has nothing to do. A driver that rewrote its affinities on a queue change
 * (virtio_net does) is not left so.
 */
static int nictl_plan_in_force(const struct nictl_dev *dev)
{
	const struct nictl_qirq *q;
	cpumask_var_t affinity;
	bool in_force = true;
	unsigned int i;

	if (!alloc_cpumask_var(&affinity, GFP_KERNEL))
		return -ENOMEM;
	for (i = 0; in_force && i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		if (q->plan_cpu < 0)
			continue;
		in_force = q->bound && q->target_cpu == q->plan_cpu &&
			   !nictl_irq_masks(q->irq, affinity, NULL, NULL) &&
			   cpumask_equal(affinity, cpumask_of(q->plan_cpu));
	}
	free_cpumask_var(affinity);
	return in_force;
}

/*
 * Every IRQ the plan moves must be the device's to move: not shared with
 * another handler (unless allowed) and not held by another device's binding
 * (unless taken over). A claim on an IRQ that no longer serves its holder
 * (its driver freed it; the number may serve this device now) is stale and
 * goes, except in a dry run, which changes nothing. @serves: from
 * nictl_bind_owners().
 */
static int nictl_bind_check_irqs(const struct nictl_dev *dev, const s8 *serves, u32 flags,
				 struct netlink_ext_ack *extack)
{
	const struct nictl_qirq *q;
	struct net_device *owner;
	unsigned int i;

	for (i = 0; i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		if (q->plan_cpu < 0)
			continue;
		if (q->shared && !(flags & NICTL_BIND_F_ALLOW_SHARED)) {
			NL_SET_ERR_MSG_FMT(extack, "IRQ %u (%.16s) is shared with another handler",
					   q->irq, q->name);
			return -EBUSY;
		}
		owner = nictl_binding_owner(q->irq);
		if (!owner || owner == dev->netdev)
			continue;
		if (!serves[i] && !(flags & NICTL_BIND_F_DRY_RUN))
			nictl_binding_forget_irq(owner, q->irq);
		if (!serves[i] || (flags & NICTL_BIND_F_TAKE_OVER))
			continue;
		NL_SET_ERR_MSG_FMT(extack, "IRQ %u (%.16s) is bound by %s; restore it or take over",
				   q->irq, q->name, owner->name);
		return -EBUSY;
	}
	return 0;
}

/*
 * For each IRQ that another device's binding holds, whether that device
 * still serves it (1) or not (0), in a new array (kvfree it). Finding out
 * takes that device's locks, so it is done before cpus_read_lock, for every
 * such IRQ: the plan that tells which of them move needs the online CPUs.
 * Context: rtnl and @dev's instance lock held.
 */
static int nictl_bind_owners(const struct nictl_dev *dev, s8 **servesp)
{
	struct net_device *owner;
	unsigned int i;
	s8 *serves;
	int ret;

	serves = kvcalloc(max(dev->n_irqs, 1U), sizeof(*serves), GFP_KERNEL);
	if (!serves)
		return -ENOMEM;
	for (i = 0; i < dev->n_irqs; i++) {
		owner = nictl_binding_owner(dev->irqs[i].irq);
		if (!owner || owner == dev->netdev)
			continue;
		nictl_netdev_lock_nested(owner);
		ret = nictl_dev_serves(owner, dev->irqs[i].irq);
		netdev_unlock(owner);
		if (ret < 0) {
			kvfree(serves);
			return ret;
		}
		serves[i] = ret;
	}
	*servesp = serves;
	return 0;
}

/*
 * A request keeps its sticky binding or, without %NICTL_BIND_F_STICKY,
 * drops the one the device had: the last bind says what the device should
 * have. What a bind could not keep (no identity, a twin, sticky_max) was
 * refused before any write.
 */
static void nictl_bind_keep(const struct nictl_dev *dev, struct nictl_sticky **sticky)
{
	if (*sticky)
		nictl_sticky_commit(*sticky, dev->netdev);
	else
		nictl_sticky_drop(dev->netdev);
	*sticky = NULL;
}

/*
 * Under rtnl, the instance lock and cpus_read_lock: from the plan to the
 * events. @replay is NULL for a request, and the identity of the sticky
 * binding for the module's own apply of one, which changes nothing when
 * the plan is in force already.
 */
static int nictl_bind_locked(struct nictl_dev *dev, const s8 *serves,
			     const struct nictl_request *req, const char *replay)
{
	bool dry_run = req->flags & NICTL_BIND_F_DRY_RUN;
	bool keep = !replay && !dry_run;
	struct nictl_change *changes = NULL;
	struct nictl_sticky *sticky = NULL;
	struct nictl_binding *b = NULL;
	unsigned int i, n = 0;
	int err;

	err = nictl_bind_plan(dev, req) ?:
	      nictl_bind_check_irqs(dev, serves, req->flags, req->extack);
	if (!err && replay) {
		err = nictl_plan_in_force(dev);
		if (err > 0)
			return 0;
	}
	if (err)
		return err;
	if (keep && (req->flags & NICTL_BIND_F_STICKY)) {
		sticky = nictl_sticky_prepare(dev->netdev, req);
		if (IS_ERR(sticky))
			return PTR_ERR(sticky);
	}
	err = -ENOMEM;
	changes = nictl_plan_changes(dev, &n);
	if (!changes)
		goto out;
	if (!dry_run) {
		b = nictl_binding_prepare(dev, changes);
		if (!b)
			goto out;
	}
	nictl_bindings_lock();
	err = nictl_apply(changes, n, dry_run, req->extack);
	if (!err && !dry_run) {
		nictl_sticky_originals(dev->netdev, changes, n);
		nictl_binding_commit(b, changes);
		b = NULL;
	}
	nictl_bindings_unlock();
	if (err)
		goto out;
	if (keep)
		nictl_bind_keep(dev, &sticky);
	if (!dry_run)
		nictl_sticky_learn(dev);
	nictl_binding_annotate(dev);
	dev->sticky_id = replay ?: nictl_sticky_of(dev->netdev);
	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].plan_cpu >= 0)
			dev->irqs[i].target_cpu = dev->irqs[i].plan_cpu;
	if (replay)
		nictl_event_affinity(NICTL_EVENT_STICKY_APPLIED, dev, changes, n, 0);
	else if (!dry_run)
		nictl_event_affinity(NICTL_EVENT_BOUND, dev, changes, n, req->portid);
out:
	nictl_sticky_discard(sticky);
	nictl_binding_discard(b);
	nictl_changes_free(changes, n);
	return err;
}

/* Under rtnl: the device, its instance lock and IRQs, then cpus_read_lock for the rest. */
static int nictl_bind_dev(struct genl_info *info, const struct nictl_request *req,
			  struct sk_buff **msg)
{
	struct net_device *netdev;
	struct nictl_dev dev;
	s8 *serves = NULL;
	int err;

	netdev = nictl_netdev_lookup(info);
	if (IS_ERR(netdev))
		return PTR_ERR(netdev);
	netdev_lock(netdev);
	err = nictl_dev_discover(netdev, &dev);
	if (!err) {
		err = nictl_bind_owners(&dev, &serves);
		if (!err) {
			cpus_read_lock();
			err = nictl_bind_locked(&dev, serves, req, NULL);
			if (!err) {
				*msg = nictl_dev_reply(info, &dev);
				err = PTR_ERR_OR_ZERO(*msg);
			}
			cpus_read_unlock();
			kvfree(serves);
		}
		nictl_dev_release(&dev);
	}
	netdev_unlock(netdev);
	return err;
}

/**
 * nictl_bind_doit() - %NICTL_CMD_BIND
 * @skb: the request
 * @info: its parsed form
 *
 * Return: 0 after the reply was sent, or an errno with extack set.
 */
int nictl_bind_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nictl_request req;
	struct sk_buff *msg = NULL;
	int err;

	err = nictl_request_parse(info, &req);
	if (!err) {
		rtnl_lock();
		err = nictl_bind_dev(info, &req, &msg);
		rtnl_unlock();
	}
	nictl_request_free(&req);
	return err ?: genlmsg_reply(msg, info);
}

/*
 * A sticky binding was not applied: the kernel log says so whether or not
 * anyone listens, rate-limited as a flapping device would repeat it.
 */
static void nictl_replay_failed(const struct nictl_dev *dev, int err,
				const struct netlink_ext_ack *extack)
{
	const char *why = extack->_msg ?: "";

	pr_notice_ratelimited("%s: sticky binding %s not applied (%d): %s\n",
			      dev->netdev->name, dev->sticky_id, err, why);
	nictl_event_sticky_failed(dev, err, why);
}

/**
 * nictl_bind_replay() - apply a sticky binding to its device
 * @netdev: the device
 * @req: the kept request, with an extack to fill
 * @id: the identity it is kept under
 * @twin: another device that holds it (then it is refused), or NULL
 *
 * Changes nothing when the binding is in force, and nothing while the
 * device is down without queue IRQs: drivers that request them at open
 * have not yet. Else applies it as a bind would, all or nothing, and sends
 * %NICTL_EVENT_STICKY_APPLIED, or %NICTL_EVENT_STICKY_FAILED.
 *
 * Context: rtnl and the device's instance lock held.
 */
void nictl_bind_replay(struct net_device *netdev, const struct nictl_request *req,
		       const char *id, const struct net_device *twin)
{
	struct nictl_dev dev;
	s8 *serves = NULL;
	int err;

	err = nictl_dev_discover(netdev, &dev);
	if (err) {
		pr_notice_ratelimited("%s: sticky binding %s not applied (%d)\n",
				      netdev->name, id, err);
		return;
	}
	dev.sticky_id = id;
	if (twin) {
		NL_SET_ERR_MSG_FMT(req->extack, "%s has this sticky binding", twin->name);
		err = -EEXIST;
	} else if (dev.n_irqs || (netdev->flags & IFF_UP)) {
		err = nictl_bind_owners(&dev, &serves);
		if (!err) {
			cpus_read_lock();
			err = nictl_bind_locked(&dev, serves, req, id);
			cpus_read_unlock();
			kvfree(serves);
		}
	}
	if (err) {
		/* What a pre-set wrote goes back: the driver's placement stays whole. */
		cpus_read_lock();
		nictl_sticky_undo_preset(netdev);
		cpus_read_unlock();
		nictl_replay_failed(&dev, err, req->extack);
	}
	nictl_dev_release(&dev);
}

/* Under rtnl, the instance lock and cpus_read_lock: from the changes to the reply. */
static int nictl_restore_locked(struct genl_info *info, struct nictl_binding *b,
				struct nictl_dev *dev, struct sk_buff **msg)
{
	struct net_device *netdev = dev->netdev;
	struct nictl_change *changes = NULL;
	unsigned int n = 0;
	int err;

	err = nictl_binding_restore_changes(b, dev, &changes, &n);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_FMT(info->extack, "no IRQ that nictl bound on %s exists now",
				   netdev->name);
	if (!err) {
		nictl_bindings_lock();
		err = nictl_apply(changes, n, false, info->extack);
		if (!err)
			nictl_binding_drop(netdev);
		nictl_bindings_unlock();
	}
	if (!err) {
		nictl_sticky_drop(netdev);
		dev->sticky_id = NULL;
		nictl_binding_annotate(dev);
		nictl_event_affinity(NICTL_EVENT_RESTORED, dev, changes, n,
				     info->snd_portid);
		*msg = nictl_dev_reply(info, dev);
		err = PTR_ERR_OR_ZERO(*msg);
	}
	nictl_changes_free(changes, n);
	return err;
}

/*
 * Under rtnl: the device, its instance lock and IRQs, then cpus_read_lock
 * for the rest. A sticky binding alone (the device has not opened since a
 * reload, say) is dropped, what it pre-set put back, and the reply
 * describes the device.
 */
static int nictl_restore_dev(struct genl_info *info, struct sk_buff **msg)
{
	struct nictl_binding *b;
	struct net_device *netdev;
	struct nictl_dev dev;
	bool sticky;
	int err;

	netdev = nictl_netdev_lookup(info);
	if (IS_ERR(netdev))
		return PTR_ERR(netdev);
	b = nictl_binding_find(netdev);
	if (!b) {
		cpus_read_lock();
		nictl_sticky_undo_preset(netdev);
		cpus_read_unlock();
	}
	sticky = !b && nictl_sticky_drop(netdev);
	if (!b && !sticky) {
		NL_SET_ERR_MSG_FMT(info->extack, "nictl has not bound %s", netdev->name);
		return -ENODATA;
	}
	netdev_lock(netdev);
	err = nictl_dev_discover(netdev, &dev);
	if (!err && sticky) {
		*msg = nictl_dev_reply(info, &dev);
		err = PTR_ERR_OR_ZERO(*msg);
		nictl_dev_release(&dev);
	} else if (!err) {
		cpus_read_lock();
		err = nictl_restore_locked(info, b, &dev, msg);
		cpus_read_unlock();
		nictl_dev_release(&dev);
	}
	netdev_unlock(netdev);
	return err;
}
/**
 * nictl_restore_doit() - %NICTL_CMD_RESTORE
 * @skb: the request
 * @info: its parsed form
 *
 * Return: 0 after the reply was sent, or an errno with extack set.
 */
int nictl_restore_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = NULL;
	int err;

	rtnl_lock();
	err = nictl_restore_dev(info, &msg);
	rtnl_unlock();
	return err ?: genlmsg_reply(msg, info);
}
