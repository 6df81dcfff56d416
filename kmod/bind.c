// SPDX-License-Identifier: GPL-2.0
/*
 * BIND and RESTORE, one path: find the queue IRQs, plan, validate, apply all or none, record
 * the binding, tell the listeners, reply. Lock order: rtnl -> instance lock (6.15+:
 * ops-locked drivers change queues under it, perhaps without rtnl; a holder's nested) ->
 * cpus_read_lock (ops-locked drivers set XPS, which takes it, under theirs) -> bindings lock
 * (first affinity write to the binding's commit or drop).
 */
#include <linux/cpu.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>

#include "nictl.h"

static unsigned int nictl_plan_count(const struct nictl_dev *dev)
{
	unsigned int i, n = 0;

	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].plan_cpu >= 0)
			n++;
	return n;
}

/* The changes that carry out the plan, in the order of the device's IRQs. */
static void nictl_plan_fill(const struct nictl_dev *dev, struct nictl_change *changes)
{
	unsigned int i, n = 0;

	for (i = 0; i < dev->n_irqs; i++) {
		if (dev->irqs[i].plan_cpu < 0)
			continue;
		changes[n].irq = dev->irqs[i].irq;
		changes[n].name = dev->irqs[i].name;
		cpumask_set_cpu(dev->irqs[i].plan_cpu, changes[n].target);
		n++;
	}
}

static int nictl_bind_plan(struct nictl_stack *stack, const struct nictl_request *req)
{
	const struct nictl_dev *dev;
	unsigned int i;

	for (i = 0; i < stack->n; i++) {
		dev = &stack->dev[i];
		if (dev->n_irqs)
			continue;
		NL_SET_ERR_MSG_FMT(req->extack, "%s%s%s has no queue IRQs%s",
				   stack->upper ? stack->upper->name : "", stack->upper ? ": " : "",
				   dev->netdev->name,
				   dev->netdev->flags & IFF_UP ? "" : " (it is down)");
		return -ENOENT;
	}
	if (stack->upper && !req->has_cpus) {
		NL_SET_ERR_MSG_FMT(req->extack,
				   "%s is stacked on %u devices: give a CPU set, or place each by name",
				   stack->upper->name, stack->n);
		return -EOPNOTSUPP;
	}
	if (stack->upper)
		return nictl_place_stack(stack, req);
	if (req->has_cpus)
		return nictl_place_on_set(&stack->dev[0], req->cpus, req->flags, 0, req->cpus_attr,
					  req->extack);
	return nictl_place_explicit(&stack->dev[0], req);
}

/* 1 if each IRQ the plan moves is bound here to its CPU, affinity intact (virtio_net rewrites). */
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
 * Every IRQ the plan moves must be the device's: not shared (unless allowed), not held by
 * another device's binding (unless taken over). A claim on an IRQ that no longer serves its
 * holder is stale and goes, except in a dry run. @serves: from nictl_stack_owners().
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
 * Per member, whether the holders of its IRQs still serve them (nictl_dev_claims()). That takes
 * their instance locks: before cpus_read_lock, for every IRQ, as which move is planned under it.
 * Context: rtnl and @stack's instance locks held.
 */
static int nictl_stack_owners(struct nictl_stack *stack)
{
	unsigned int i;

	for (i = 0; i < stack->n; i++) {
		stack->serves[i] = nictl_dev_claims(&stack->dev[i], stack->netdev, stack->n);
		if (IS_ERR(stack->serves[i])) {
			int err = PTR_ERR(stack->serves[i]);

			stack->serves[i] = NULL;
			return err;
		}
	}
	return 0;
}

/* Keep its sticky binding, or drop the old one: any refusal (a twin, sticky_max) came before. */
static void nictl_bind_keep(const struct nictl_dev *dev, struct nictl_sticky **sticky)
{
	if (*sticky)
		nictl_sticky_commit(*sticky, dev->netdev);
	else
		nictl_sticky_drop(dev->netdev);
	*sticky = NULL;
}

/**
 * struct nictl_member_txn - one device's part of a bind
 * @sticky: the sticky binding it will keep, or NULL
 * @b: the binding it will have, or NULL
 * @first: its first change in the request's changes
 * @n: its changes
 */
struct nictl_member_txn {
	struct nictl_sticky *sticky;
	struct nictl_binding *b;
	unsigned int first;
	unsigned int n;
};

/* A member's sticky binding: its part of the set (--numa-local: its node's). */
static struct nictl_sticky *nictl_member_sticky(const struct nictl_stack *stack,
						const struct nictl_dev *dev,
						const struct nictl_request *req,
						unsigned int *added)
{
	struct nictl_sticky *sticky;
	struct nictl_request own = *req;
	int err;

	if (!stack->upper)
		return nictl_sticky_prepare(dev->netdev, req, added);
	if (!alloc_cpumask_var(&own.cpus, GFP_KERNEL))
		return ERR_PTR(-ENOMEM);
	err = nictl_member_cpus(stack, dev, req, own.cpus);
	sticky = err ? ERR_PTR(err) : nictl_sticky_prepare(dev->netdev, &own, added);
	free_cpumask_var(own.cpus);
	return sticky;
}

/* What can fail, before the first write: sticky bindings, bindings, changes. */
static int nictl_bind_prepare(const struct nictl_stack *stack, const struct nictl_request *req,
			      bool keep, struct nictl_member_txn *txn,
			      struct nictl_change **changesp, unsigned int *np)
{
	bool dry_run = req->flags & NICTL_BIND_F_DRY_RUN;
	unsigned int i, n = 0, added = 0;
	struct nictl_change *changes;

	for (i = 0; i < stack->n; i++) {
		if (keep && (req->flags & NICTL_BIND_F_STICKY)) {
			txn[i].sticky = nictl_member_sticky(stack, &stack->dev[i], req, &added);
			if (IS_ERR(txn[i].sticky)) {
				int err = PTR_ERR(txn[i].sticky);

				txn[i].sticky = NULL;
				return err;
			}
		}
		txn[i].first = n;
		txn[i].n = nictl_plan_count(&stack->dev[i]);
		n += txn[i].n;
	}
	changes = nictl_changes_alloc(n);
	if (!changes)
		return -ENOMEM;
	*changesp = changes;
	*np = n;
	for (i = 0; i < stack->n; i++) {
		nictl_plan_fill(&stack->dev[i], changes + txn[i].first);
		if (dry_run)
			continue;
		txn[i].b = nictl_binding_prepare(&stack->dev[i], changes + txn[i].first);
		if (!txn[i].b)
			return -ENOMEM;
	}
	return 0;
}

/* After the writes: each device's sticky binding, annotations and event. */
static void nictl_bind_done(struct nictl_stack *stack, const struct nictl_request *req,
			    const char *replay, struct nictl_member_txn *txn,
			    const struct nictl_change *changes)
{
	bool dry_run = req->flags & NICTL_BIND_F_DRY_RUN;
	struct nictl_dev *dev;
	unsigned int i, k;

	for (i = 0; i < stack->n; i++) {
		dev = &stack->dev[i];
		if (!replay && !dry_run)
			nictl_bind_keep(dev, &txn[i].sticky);
		if (!dry_run)
			nictl_sticky_learn(dev);
		nictl_binding_annotate(dev);
		dev->sticky_id = replay ?: nictl_sticky_of(dev->netdev);
		for (k = 0; k < dev->n_irqs; k++)
			if (dev->irqs[k].plan_cpu >= 0)
				dev->irqs[k].target_cpu = dev->irqs[k].plan_cpu;
		if (replay)
			nictl_event_affinity(NICTL_EVENT_STICKY_APPLIED, dev,
					     changes + txn[i].first, txn[i].n, 0);
		else if (!dry_run)
			nictl_event_affinity(NICTL_EVENT_BOUND, dev, changes + txn[i].first,
					     txn[i].n, req->portid);
	}
}

/*
 * Under rtnl, the instance locks and cpus_read_lock: plan and check every device, then one
 * nictl_apply() for all (a failure on the last device puts the first back), commit, events.
 * @replay: NULL for a request, else the sticky binding's id (one device; no-op if in force).
 */
static int nictl_bind_locked(struct nictl_stack *stack, const struct nictl_request *req,
			     const char *replay)
{
	bool dry_run = req->flags & NICTL_BIND_F_DRY_RUN;
	struct nictl_change *changes = NULL;
	struct nictl_member_txn *txn;
	unsigned int i, n = 0;
	int err;

	err = nictl_bind_plan(stack, req);
	for (i = 0; !err && i < stack->n; i++)
		err = nictl_bind_check_irqs(&stack->dev[i], stack->serves[i], req->flags,
					    req->extack);
	if (!err && replay) {
		err = nictl_plan_in_force(&stack->dev[0]);
		if (err > 0)
			return 0;
	}
	if (err)
		return err;
	txn = kcalloc(stack->n, sizeof(*txn), GFP_KERNEL);
	if (!txn)
		return -ENOMEM;
	err = nictl_bind_prepare(stack, req, !replay && !dry_run, txn, &changes, &n);
	if (err)
		goto out;
	nictl_bindings_lock();
	err = nictl_apply(changes, n, dry_run, req->extack);
	for (i = 0; !err && !dry_run && i < stack->n; i++) {
		nictl_sticky_originals(stack->netdev[i], changes + txn[i].first, txn[i].n);
		nictl_binding_commit(txn[i].b, changes + txn[i].first);
		txn[i].b = NULL;
	}
	nictl_bindings_unlock();
	if (!err)
		nictl_bind_done(stack, req, replay, txn, changes);
out:
	for (i = 0; i < stack->n; i++) {
		nictl_sticky_discard(txn[i].sticky);
		nictl_binding_discard(txn[i].b);
	}
	kfree(txn);
	nictl_changes_free(changes, n);
	return err;
}

/*
 * Under rtnl: the devices, locked and discovered, then @act (takes cpus_read_lock), the core's
 * record of the new affinities, the reply (its room taken before @act writes anything).
 */
static int nictl_stack_do(struct genl_info *info, const struct nictl_request *req,
			  int (*act)(struct genl_info *info, const struct nictl_request *req,
				     struct nictl_stack *stack),
			  struct sk_buff **msg)
{
	struct nictl_stack *stack;
	unsigned int i;
	int err;

	stack = nictl_request_stack(info);
	if (IS_ERR(stack))
		return PTR_ERR(stack);
	nictl_stack_lock(stack);
	err = nictl_stack_discover(stack, false);
	if (!err) {
		*msg = nictl_stack_reply_new(stack);
		err = *msg ? act(info, req, stack) : -ENOMEM;
		for (i = 0; !err && i < stack->n; i++)
			nictl_apply_settle(stack->netdev[i]);
		if (!err)
			err = WARN_ON_ONCE(nictl_stack_reply(*msg, info, stack)) ? -EMSGSIZE : 0;
		nictl_stack_release(stack);
	}
	nictl_stack_unlock(stack);
	nictl_stack_free(stack);
	if (err) {
		nlmsg_free(*msg);
		*msg = NULL;
	}
	return err;
}

static int nictl_bind_act(struct genl_info *info, const struct nictl_request *req,
			  struct nictl_stack *stack)
{
	int err;

	err = nictl_stack_owners(stack);
	if (!err) {
		cpus_read_lock();
		err = nictl_bind_locked(stack, req, NULL);
		cpus_read_unlock();
	}
	return err;
}

int nictl_bind_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nictl_request req;
	struct sk_buff *msg = NULL;
	int err;

	err = nictl_request_parse(info, &req);
	if (!err) {
		rtnl_lock();
		err = nictl_stack_do(info, &req, nictl_bind_act, &msg);
		rtnl_unlock();
	}
	nictl_request_free(&req);
	return err ?: genlmsg_reply(msg, info);
}

/* Logged whether or not anyone listens; rate-limited for flapping devices. */
static void nictl_replay_failed(const struct nictl_dev *dev, int err,
				const struct netlink_ext_ack *extack)
{
	const char *why = extack->_msg ?: "";

	pr_notice_ratelimited("%s: sticky binding %s not applied (%d): %s\n",
			      dev->netdev->name, dev->sticky_id, err, why);
	nictl_event_sticky_failed(dev, err, why);
}

/*
 * Apply sticky binding @id (@req) to its device, refused if @twin holds it. A no-op when in
 * force, or while the device is down without queue IRQs (not requested yet); else all or
 * nothing as a bind, then %NICTL_EVENT_STICKY_APPLIED or _FAILED. rtnl, instance lock held.
 */
static void nictl_bind_replay(struct net_device *netdev, const struct nictl_request *req,
			      const char *id, const struct net_device *twin)
{
	struct nictl_stack *stack = nictl_stack_one(netdev);
	struct nictl_dev *dev;
	int err;

	err = stack ? nictl_stack_discover(stack, false) : -ENOMEM;
	if (err) {
		pr_notice_ratelimited("%s: sticky binding %s not applied (%d)\n",
				      netdev->name, id, err);
		nictl_stack_free(stack);
		return;
	}
	dev = &stack->dev[0];
	dev->sticky_id = id;
	if (twin) {
		NL_SET_ERR_MSG_FMT(req->extack, "%s has this sticky binding", twin->name);
		err = -EEXIST;
	} else if (dev->n_irqs || (netdev->flags & IFF_UP)) {
		err = nictl_stack_owners(stack);
		if (!err) {
			cpus_read_lock();
			err = nictl_bind_locked(stack, req, id);
			cpus_read_unlock();
		}
		if (!err)
			nictl_apply_settle(netdev);
	}
	if (err) {
		/* Undo any pre-set: the driver's placement stays whole. */
		cpus_read_lock();
		nictl_sticky_undo_preset(netdev);
		cpus_read_unlock();
		nictl_replay_failed(dev, err, req->extack);
	}
	nictl_stack_release(stack);
	nictl_stack_free(stack);
}

/**
 * nictl_bind_sticky() - apply a device's sticky binding if it is not in force
 * @netdev: the device, whose queue IRQs may have appeared or changed
 *
 * Context: rtnl and the device's instance lock held (the notifier or the periodic check).
 */
void nictl_bind_sticky(struct net_device *netdev)
{
	struct netlink_ext_ack extack = {};
	const struct net_device *twin;
	struct nictl_request *req;
	const char *id;

	req = nictl_sticky_request(netdev, &id, &twin);
	if (!req)
		return;
	req->extack = &extack;
	nictl_bind_replay(netdev, req, id, twin);
	req->extack = NULL;
}

/*
 * 1 when a restore has something to do on one device: @b's changes, or only a sticky binding to
 * drop (nictl_restore_done()); 0 when not, or an errno.
 */
static int nictl_restore_member(struct nictl_dev *dev, struct nictl_binding *b,
				struct nictl_change **changes, unsigned int *n,
				struct netlink_ext_ack *extack)
{
	int err;

	if (!b)
		return !!nictl_sticky_of(dev->netdev);
	err = nictl_binding_restore_changes(b, dev, changes, n);
	/* igb and e1000e free their IRQs at down and request the same ones at up. */
	if (err == -ENOENT && !(dev->netdev->flags & IFF_UP))
		NL_SET_ERR_MSG_FMT(extack, "%s is down and its driver freed its IRQs: bring it up to restore it",
				   dev->netdev->name);
	else if (err == -ENOENT)
		NL_SET_ERR_MSG_FMT(extack, "no IRQ that nictl bound on %s exists now",
				   dev->netdev->name);
	return err ?: 1;
}

/* The changes of every member, in one array for one all-or-nothing apply. */
static struct nictl_change *nictl_restore_join(struct nictl_change **each, const unsigned int *n,
					       unsigned int members, unsigned int *total)
{
	struct nictl_change *all;
	unsigned int i, k, t = 0;

	for (i = 0; i < members; i++)
		t += n[i];
	all = nictl_changes_alloc(t);
	if (!all)
		return NULL;
	for (i = 0, t = 0; i < members; i++) {
		for (k = 0; k < n[i]; k++, t++) {
			all[t].irq = each[i][k].irq;
			all[t].name = each[i][k].name;
			cpumask_copy(all[t].target, each[i][k].target);
		}
	}
	*total = t;
	return all;
}

/* After the writes: drop each sticky binding, undo pre-sets never applied, send the events. */
static void nictl_restore_done(struct nictl_stack *stack, struct nictl_binding **b,
			       struct nictl_change *all, const unsigned int *n, u32 portid)
{
	unsigned int i, first = 0;

	for (i = 0; i < stack->n; i++) {
		if (!b[i])
			nictl_sticky_undo_preset(stack->netdev[i]);
		nictl_sticky_drop(stack->netdev[i]);
		stack->dev[i].sticky_id = NULL;
		nictl_binding_annotate(&stack->dev[i]);
		if (!b[i])
			continue;
		nictl_event_affinity(NICTL_EVENT_RESTORED, &stack->dev[i], all + first, n[i],
				     portid);
		first += n[i];
	}
}

/* Under rtnl, the instance locks and cpus_read_lock: one apply for all, then drop bindings. */
static int nictl_restore_locked(struct genl_info *info, struct nictl_stack *stack)
{
	struct nictl_change **each, *all = NULL;
	struct nictl_binding **b;
	unsigned int *n, i, total = 0;
	int err = 0, found = 0, ret;

	each = kcalloc(stack->n, sizeof(*each), GFP_KERNEL);
	b = kcalloc(stack->n, sizeof(*b), GFP_KERNEL);
	n = kcalloc(stack->n, sizeof(*n), GFP_KERNEL);
	if (!each || !b || !n) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; !err && i < stack->n; i++) {
		b[i] = nictl_binding_find(stack->netdev[i]);
		ret = nictl_restore_member(&stack->dev[i], b[i], &each[i], &n[i], info->extack);
		if (ret < 0)
			err = ret;
		else
			found += ret;
	}
	if (!err && !found) {
		NL_SET_ERR_MSG_FMT(info->extack, "nictl has not bound %s",
				   stack->upper ? stack->upper->name : stack->netdev[0]->name);
		err = -ENODATA;
	}
	if (!err) {
		all = nictl_restore_join(each, n, stack->n, &total);
		err = all ? 0 : -ENOMEM;
	}
	if (!err) {
		nictl_bindings_lock();
		err = nictl_apply(all, total, false, info->extack);
		for (i = 0; !err && i < stack->n; i++)
			if (b[i])
				nictl_binding_drop(stack->netdev[i]);
		nictl_bindings_unlock();
	}
	if (!err)
		nictl_restore_done(stack, b, all, n, info->snd_portid);
out:
	for (i = 0; each && n && i < stack->n; i++)
		nictl_changes_free(each[i], n[i]);
	nictl_changes_free(all, total);
	kfree(each);
	kfree(b);
	kfree(n);
	return err;
}

static int nictl_restore_act(struct genl_info *info, const struct nictl_request *req,
			     struct nictl_stack *stack)
{
	int err;

	cpus_read_lock();
	err = nictl_restore_locked(info, stack);
	cpus_read_unlock();
	return err;
}

int nictl_restore_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = NULL;
	int err;

	rtnl_lock();
	err = nictl_stack_do(info, NULL, nictl_restore_act, &msg);
	rtnl_unlock();
	return err ?: genlmsg_reply(msg, info);
}
