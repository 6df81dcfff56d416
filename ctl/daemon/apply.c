// SPDX-License-Identifier: GPL-2.0
/*
 * One device at a time: find its rule, bind it by the rule's policy with the
 * steering it asks for through steer_bind() (the code `nictlctl bind
 * --steer` runs: one transaction), log every IRQ that moved with its old
 * and new CPUs and the steering set, and remember the IRQs for irqbalance.
 * A rule may name a device stacked on the one at hand (a bond it is a port
 * of): the bind is then the stacked device's, of every port at once.
 * While the module is away, devices are found and bound through sysfs and
 * /proc/irq (direct/): the IRQs alone, of the initial namespace's devices.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "daemon/apply.h"
#include "conf/rules.h"
#include "direct/apply.h"
#include "direct/bind.h"
#include "direct/discover.h"
#include "log.h"
#include "napi/place.h"
#include "netns.h"
#include "procirq.h"
#include "report.h"
#include "stacked.h"
#include "steer/bind.h"
#include "steer/print.h"

/* The module is away: devices are found and bound without it. */
static bool direct(const struct keeper *k)
{
	return k->nl.family < 0;
}

static struct owned *find_owned(const struct keeper *k, dev_key key)
{
	unsigned int i;

	for (i = 0; i < k->nr_owned; i++)
		if (k->owned[i].key == key)
			return &k->owned[i];
	return NULL;
}

bool keeper_owns(const struct keeper *k, dev_key key)
{
	return find_owned(k, key);
}

/* Stop counting @key's IRQs as nictl's (the device is gone or unruled). */
void keeper_forget(struct keeper *k, dev_key key)
{
	struct owned *o = find_owned(k, key);

	if (!o)
		return;
	irq_set_free(&o->irqs);
	bal_placement_free(&o->placed);
	*o = k->owned[--k->nr_owned];
}

/* The entry of @key, added with no IRQs when it has none; NULL when out of memory. */
static struct owned *owned_entry(struct keeper *k, dev_key key)
{
	struct owned *o = find_owned(k, key), *grown;

	if (o)
		return o;
	grown = realloc(k->owned, (k->nr_owned + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	k->owned = grown;
	o = &k->owned[k->nr_owned++];
	*o = (struct owned){ .key = key };
	return o;
}

/* Remember the IRQs of the bound device @dev; -ENOMEM. */
static int own(struct keeper *k, const struct nictl_dev *dev)
{
	struct irq_set irqs = IRQ_SET_INIT;
	struct owned *o = NULL;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < dev->nr_irqs; i++)
		err = irq_set_add(&irqs, dev->irqs[i].irq);
	if (!err)
		o = owned_entry(k, dev_key_of(dev));
	if (!o) {
		irq_set_free(&irqs);
		return -ENOMEM;
	}
	irq_set_free(&o->irqs);
	o->irqs = irqs;
	return 0;
}

static bool same_cpus(const struct cpuset *a, const struct cpuset *b)
{
	int x = -1, y = -1;

	do {
		x = cpuset_next(a, x);
		y = cpuset_next(b, y);
	} while (x == y && x >= 0);
	return x == y;
}

/* Append "IRQ n OLD -> NEW" for each IRQ of @after whose affinity changed. */
static unsigned int describe_moves(FILE *f, const struct nictl_dev *before,
				   const struct nictl_dev *after)
{
	const struct nictl_irq *old;
	unsigned int i, moved = 0;
	char *from, *to;

	for (i = 0; i < after->nr_irqs; i++) {
		old = dev_find_irq(before, after->irqs[i].irq);
		if (old && same_cpus(&old->affinity, &after->irqs[i].affinity))
			continue;
		from = old ? cpuset_format(&old->affinity) : NULL;
		to = cpuset_format(&after->irqs[i].affinity);
		fprintf(f, "%sIRQ %u %s -> %s", moved++ ? ", " : "", after->irqs[i].irq,
			from ?: "?", to ?: "?");
		free(from);
		free(to);
	}
	return moved;
}

/* The steering @s set, in one line; it is written again at every apply. */
static void log_steering(const struct rule *rule, const struct steered *s)
{
	char *text = NULL;
	size_t len = 0;
	int err = -1;
	FILE *f;

	if (!s->parts)
		return;
	f = open_memstream(&text, &len);
	if (f) {
		err = steer_describe(f, &s->plan, s->parts, s->xps);
		err = fclose(f) ?: err;
	}
	if (err)
		ctl_msg("out of memory");
	else
		log_info("%s: rule %s: steering: %s", s->result.devs[0].ifname, rule->name, text);
	free(text);
}

/* Log the IRQs of @after that moved; @how says where the rule put them. */
static void log_result(const struct rule *rule, const struct nictl_dev *before,
		       const struct nictl_dev *after, const char *how)
{
	char *moves = NULL;
	size_t len = 0;
	unsigned int moved = 0;
	FILE *f = open_memstream(&moves, &len);

	if (f) {
		moved = describe_moves(f, before, after);
		fclose(f);
	}
	if (moved)
		log_info("%s: rule %s: %s (%s)", after->ifname, rule->name, moves, how);
	else
		log_msg(LOG_DEBUG, "%s: rule %s: already in place", after->ifname, rule->name);
	free(moves);
}

/* A failed apply: the rule still governs @key (its next drift must be answered). */
static enum apply_result not_applied(struct keeper *k, const struct rule *rule,
				     const char *what, dev_key key)
{
	log_err("%s: rule %s (%s:%u) not applied", what, rule->name, rule->file, rule->line);
	/* Or one failed bind of a new device would leave it unkept for good. */
	if (!owned_entry(k, key))
		ctl_msg("out of memory");
	return APPLY_FAILED;
}

/* The bound devices of @s, logged and remembered as nictl's. */
static enum apply_result applied(struct keeper *k, const struct rule *rule,
				 const struct dev_list *before, const struct steered *s)
{
	char how[512], *cpus = cpuset_format(&s->choice.cpus);
	unsigned int i;
	int err = 0;

	snprintf(how, sizeof(how), "CPUs %s: %s", cpus ?: "?", s->choice.why);
	free(cpus);
	for (i = 0; i < s->result.nr && i < before->nr; i++) {
		log_result(rule, &before->devs[i], &s->result.devs[i], how);
		err = err ?: own(k, &s->result.devs[i]);
	}
	log_steering(rule, s);
	if (err)
		ctl_msg("out of memory");
	return err ? APPLY_FAILED : APPLY_DONE;
}

static enum apply_result get_devs(struct keeper *k, const struct dev_ref *ref,
				  struct dev_list *list);

/*
 * A rule that matched stacked device @upper, above @dev: one bind of it
 * moves the IRQs of every physical device beneath it, or none. Steering
 * is per device (RPS and XPS masks of its own queues): asked of a
 * stacked rule, it is not done, and the log says so at every apply.
 */
static enum apply_result apply_stacked(struct keeper *k, const struct rule *rule,
				       const char *upper, const struct nictl_dev *dev)
{
	struct dev_ref ref = { .name = upper };
	struct dev_list found;
	enum apply_result r;
	struct steered s;
	unsigned int i;

	r = get_devs(k, &ref, &found);
	if (r != APPLY_DONE)
		return r == APPLY_NONE ? APPLY_WAIT : r;
	for (i = 0; i < found.nr && r == APPLY_DONE; i++)
		if (!found.devs[i].nr_irqs)
			r = APPLY_WAIT;
	if (r == APPLY_DONE) {
		if (rule->steer)
			log_warn("%s: rule %s: no steering for a stacked device: give each "
				 "device beneath it a rule of its own to steer it", upper,
				 rule->name);
		if (stacked_bind(&k->nl, &found, &rule->policy, &s))
			r = not_applied(k, rule, upper, dev_key_of(dev));
		else
			r = applied(k, rule, &found, &s);
		steered_free(&s);
	}
	dev_list_free(&found);
	return r;
}

/*
 * A balanced device is bound again where the last balance put its queues
 * (after a drift, a reload), not where the rule alone would: the next
 * balance decides from fresh measurements whether that still holds.
 */
static enum apply_result apply_placed(struct keeper *k, const struct rule *rule,
				      const struct nictl_dev *dev,
				      const struct bal_placement *placed)
{
	struct dev_list result;

	if (bal_bind_placement(&k->nl, dev, &rule->policy, placed, &result))
		return not_applied(k, rule, dev->ifname, dev_key_of(dev));
	log_result(rule, dev, &result.devs[0], "where the last balance put them");
	if (own(k, &result.devs[0]))
		ctl_msg("out of memory");
	dev_list_free(&result);
	return APPLY_DONE;
}

/*
 * Keep @pl (taken over) as where a balance put @key's queues; the entry
 * exists, since only devices nictl keeps are balanced.
 */
void keeper_placed(struct keeper *k, dev_key key, struct bal_placement *pl)
{
	struct owned *o = find_owned(k, key);

	if (!o) {
		bal_placement_free(pl);
		return;
	}
	bal_placement_free(&o->placed);
	o->placed = *pl;
	memset(pl, 0, sizeof(*pl));
}

/* Forget every balanced placement: the rules changed. */
void keeper_unplace(struct keeper *k)
{
	unsigned int i;

	for (i = 0; i < k->nr_owned; i++)
		bal_placement_free(&k->owned[i].placed);
}

/*
 * Without the module: @dev's IRQs through /proc/irq by the rule's policy.
 * What needs the module is said at every apply, like a stacked rule's
 * steering: a stacked device's ports as one, steering.
 */
static enum apply_result apply_direct(struct keeper *k, const struct rule *rule,
				      const struct nictl_dev *dev, const char *upper)
{
	const struct dev_list before = { (struct nictl_dev *)dev, 1, NULL, 0 };
	struct steered s = { 0 };
	enum apply_result r;

	if (upper) {
		log_err("%s: rule %s: the devices beneath %s are bound as one by module nictl "
			"only", dev->ifname, rule->name, upper);
		return not_applied(k, rule, upper, dev_key_of(dev));
	}
	if (!dev->nr_irqs)
		return APPLY_WAIT;
	if (rule->steer)
		log_warn("%s: rule %s: no steering without module nictl: its IRQs only",
			 dev->ifname, rule->name);
	if (direct_bind_dev(dev, &rule->policy, &s.choice, &s.result) ||
	    napi_follow_direct(&s.result, &s.choice.cpus, &rule->policy.napi))
		r = not_applied(k, rule, dev->ifname, dev_key_of(dev));
	else
		r = applied(k, rule, &before, &s);
	steered_free(&s);
	return r;
}

/* Apply the rule that matches @dev, as DEV_GET (or sysfs) describes it now. */
static enum apply_result apply_dev(struct keeper *k, const struct nictl_dev *dev)
{
	const struct dev_list before = { (struct nictl_dev *)dev, 1, NULL, 0 };
	const struct rule *rule;
	enum apply_result r;
	struct steered s;
	struct owned *o;
	char *upper;

	rule = rules_find_dev(&k->conf, dev, &upper);
	if (!rule) {
		keeper_forget(k, dev_key_of(dev));
		return APPLY_NONE;
	}
	if (direct(k)) {
		r = apply_direct(k, rule, dev, upper);
		free(upper);
		return r;
	}
	o = find_owned(k, dev_key_of(dev));
	if (rule->balance && o && o->placed.nr && dev->nr_irqs) {
		if (bal_placement_fits(&o->placed, dev)) {
			free(upper);
			return apply_placed(k, rule, dev, &o->placed);
		}
		log_info("%s: rule %s: its queues changed: bound by the rule until the next "
			 "balance", dev->ifname, rule->name);
		bal_placement_free(&o->placed);
	}
	if (upper) {
		r = apply_stacked(k, rule, upper, dev);
		free(upper);
		return r;
	}
	if (!dev->nr_irqs)
		return APPLY_WAIT;
	if (steer_bind(&k->nl, dev, &rule->policy, rule->steer, &s))
		r = not_applied(k, rule, dev->ifname, dev_key_of(dev));
	else
		r = applied(k, rule, &before, &s);
	steered_free(&s);
	return r;
}

/*
 * A DEV_GET of @ref (NULL: dump) into @list, where a stacked device gives
 * the devices beneath it; the apply result of a failure.
 */
static enum apply_result get_devs(struct keeper *k, const struct dev_ref *ref,
				  struct dev_list *list)
{
	struct ctl_nl_error e = { .err = -ENOMEM };
	struct nl_msg *msg;
	int err;

	*list = (struct dev_list){ NULL, 0, NULL, 0 };
	if (direct(k)) {
		err = direct_discover(ref, list);
		if (err && err != -ENODEV)
			log_err("daemon: cannot read the devices from sysfs: %s", strerror(-err));
		return !err ? APPLY_DONE : err == -ENODEV ? APPLY_NONE : APPLY_FAILED;
	}
	msg = dev_request(&k->nl, NICTL_CMD_DEV_GET, ref);
	if (msg)
		ctl_nl_transact(&k->nl, msg, dev_collect, list, &e);
	if (!e.err && ref && !list->nr)
		e.err = -EPROTO;
	if (!e.err)
		return APPLY_DONE;
	dev_list_free(list);
	/* The controller answers -ENOENT for a family id that is no more. */
	if (e.err == -ENOENT)
		return APPLY_GONE;
	if (e.err == -ENODEV)
		return APPLY_NONE;
	ctl_nl_report("daemon: device query", NULL, &e);
	return APPLY_FAILED;
}

/* Apply the configuration to device @key; its requests name its namespace. */
enum apply_result keeper_apply(struct keeper *k, dev_key key)
{
	struct dev_ref ref = { .ifindex = dev_key_ifindex(key) };
	struct dev_list list;
	enum apply_result r;

	/* Without the module, only the initial namespace's devices are reached. */
	if (direct(k) && dev_key_netns(key) >= 0)
		return APPLY_NONE;
	ctl_netns_select_id(dev_key_netns(key));
	r = get_devs(k, &ref, &list);
	if (r == APPLY_NONE)
		keeper_forget(k, key);
	if (r == APPLY_DONE) {
		r = apply_dev(k, &list.devs[0]);
		dev_list_free(&list);
	}
	ctl_netns_select_none();
	return r;
}

/*
 * Apply the configuration to every device, those of the named network
 * namespaces (/run/netns) that match-netns names too, counting the failures
 * in @failed. Devices without queue IRQs are reported and left for their up
 * event. Returns 0; -ENOENT when the module went away, -1 when the devices
 * could not be listed for another reason (reported).
 */
static int apply_listed(struct keeper *k, unsigned int *failed)
{
	struct dev_list list;
	enum apply_result r;
	unsigned int i;

	r = get_devs(k, NULL, &list);
	if (r != APPLY_DONE)
		return r == APPLY_GONE ? -ENOENT : -1;
	for (i = 0; i < list.nr; i++) {
		r = apply_dev(k, &list.devs[i]);
		if (r == APPLY_WAIT)
			log_info("%s: no queue IRQs yet (is it down?); the rule applies when they "
				 "appear", list.devs[i].ifname);
		*failed += r == APPLY_FAILED;
	}
	dev_list_free(&list);
	return 0;
}

struct apply_all {
	struct keeper *k;
	unsigned int *failed;
	int err;
};

/* The devices of namespace @name, when a rule may match them: 0, or 1 to stop. */
static int apply_netns(const char *name, void *arg)
{
	struct apply_all *a = arg;

	if (!rules_want_netns(&a->k->conf, name) || ctl_netns_select_name(name))
		return 0;
	a->err = apply_listed(a->k, a->failed);
	ctl_netns_select_none();
	return a->err == -ENOENT;
}

int keeper_apply_all(struct keeper *k, unsigned int *failed)
{
	struct apply_all a = { k, failed, 0 };

	*failed = 0;
	a.err = apply_listed(k, failed);
	if (a.err || direct(k))
		return a.err;
	ctl_netns_each(apply_netns, &a);
	return a.err == -ENOENT ? -ENOENT : 0;
}

/*
 * The devices nictl keeps whose rule says balance = yes, each with that
 * rule's policy, into @set. A device that is gone or has no queue IRQs is
 * left out (its events bring it back). 0; -ENOENT when the module went
 * away, -1 on another failure (reported).
 */
int keeper_balanced(struct keeper *k, struct bal_set *set)
{
	const struct rule *rule;
	struct dev_ref ref = { 0 };
	struct dev_list list;
	enum apply_result r;
	unsigned int i;
	char *upper;
	int err = 0;

	for (i = 0; !err && i < k->nr_owned; i++) {
		ref.ifindex = dev_key_ifindex(k->owned[i].key);
		ctl_netns_select_id(dev_key_netns(k->owned[i].key));
		r = get_devs(k, &ref, &list);
		ctl_netns_select_none();
		if (r == APPLY_GONE)
			return -ENOENT;
		if (r != APPLY_DONE)
			continue;
		rule = rules_find_dev(&k->conf, &list.devs[0], &upper);
		free(upper);
		if (rule && rule->balance && list.devs[0].nr_irqs)
			err = bal_set_add(set, &list, &rule->policy);
		dev_list_free(&list);
	}
	return err;
}

/*
 * "IRQ n TARGET -> NOW" for each IRQ @o holds that is off the CPU the bind
 * without the module kept for it; how many. Read from /run/nictl and
 * /proc/irq alone: this runs every second.
 */
static unsigned int describe_drift(FILE *f, const struct owned *o)
{
	struct direct_write *kept;
	unsigned int n, i, moved = 0;
	struct cpuset now;
	char *list;
	int cpu;

	if (direct_saved_load(dev_key_ifindex(o->key), &kept, &n))
		return 0;
	for (i = 0; i < n; i++) {
		cpu = cpuset_next(&kept[i].target, -1);
		now = (struct cpuset)CPUSET_INIT;
		/* An IRQ gone with its device: its link message brings the rule back. */
		if (irq_set_has(&o->irqs, kept[i].irq) &&
		    !procirq_cpus(kept[i].irq, "smp_affinity_list", &now) &&
		    !cpuset_is_only(&now, cpu)) {
			list = cpuset_format(&now);
			fprintf(f, "%sIRQ %u %d -> %s", moved++ ? ", " : "", kept[i].irq, cpu,
				list ?: "?");
			free(list);
		}
		cpuset_free(&now);
	}
	direct_writes_free(kept, n);
	return moved;
}

void keeper_check_direct(struct keeper *k, keeper_drift_fn fn, void *arg)
{
	struct dev_ref one = { 0 };
	struct dev_list list;
	unsigned int i, moved;
	char *what;
	size_t len;
	FILE *f;

	for (i = 0; direct(k) && i < k->nr_owned; i++) {
		if (!k->owned[i].irqs.nr || dev_key_netns(k->owned[i].key) >= 0)
			continue;
		what = NULL;
		moved = 0;
		f = open_memstream(&what, &len);
		if (f) {
			moved = describe_drift(f, &k->owned[i]);
			fclose(f);
		}
		/* The device as it is now, for the answer: only when something moved. */
		one.ifindex = dev_key_ifindex(k->owned[i].key);
		if (moved && !direct_discover(&one, &list)) {
			fn(arg, &list.devs[0], what);
			dev_list_free(&list);
		}
		free(what);
	}
}

void keeper_release_direct(struct keeper *k)
{
	struct dev_ref one = { 0 };
	struct dev_list list;
	unsigned int i;

	for (i = 0; i < k->nr_owned; i++) {
		one.ifindex = dev_key_ifindex(k->owned[i].key);
		if (dev_key_netns(k->owned[i].key) >= 0 || direct_discover(&one, &list))
			continue;
		direct_restore_dev(&list.devs[0]);
		dev_list_free(&list);
	}
}

/* Tell irqbalance, when the configuration says so, which IRQs are nictl's. */
int keeper_irqbalance(struct keeper *k)
{
	struct irq_set all = IRQ_SET_INIT;
	unsigned int i, j;
	int err = 0;

	if (!k->conf.irqbalance_ban)
		return 0;
	for (i = 0; !err && i < k->nr_owned; i++)
		for (j = 0; !err && j < k->owned[i].irqs.nr; j++)
			err = irq_set_add(&all, k->owned[i].irqs.irq[j]);
	if (!err)
		err = irqbalance_sync(&k->ib, &all);
	else
		ctl_msg("out of memory");
	irq_set_free(&all);
	return err;
}

void keeper_free(struct keeper *k)
{
	while (k->nr_owned)
		keeper_forget(k, k->owned[0].key);
	free(k->owned);
	k->owned = NULL;
	irqbalance_free(&k->ib);
	conf_free(&k->conf);
}
