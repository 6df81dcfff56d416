// SPDX-License-Identifier: GPL-2.0
/*
 * bind and restore without the module. What the module holds in its
 * binding (the affinities to put back, each IRQ's target) is kept under
 * /run/nictl instead (direct/apply.c); what it alone can do is refused
 * here with the reason: --sticky (it re-applies in the kernel), a stacked
 * device's members as one transaction, another namespace's devices.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "direct/apply.h"
#include "direct/bind.h"
#include "direct/discover.h"
#include "direct/place.h"
#include "fault.h"
#include "netns.h"
#include "nl.h"
#include "report.h"
#include "rundir.h"

/* The one device @ref names, found and checked as a bind or restore can take it. */
static int find_one(const struct dev_ref *ref, const char *cmd, struct dev_list *found)
{
	char then[128];

	if (ctl_netns_selected()) {
		ctl_nl_module_absent("Without it, nictlctl reaches this network namespace only");
		return -1;
	}
	if (direct_discover_said(ref, found))
		return -1;
	if (found->stacked) {
		snprintf(then, sizeof(then), "Without it, %s each device beneath %s on its own",
			 cmd, found->stacked);
		ctl_nl_module_absent(then);
	} else if (!found->devs[0].nr_irqs) {
		ctl_msg("%s has no queue IRQs%s", found->devs[0].ifname,
			found->devs[0].flags & NICTL_DEV_F_UP ? "" : " (it is down)");
	} else {
		return 0;
	}
	dev_list_free(found);
	return -1;
}

/* What only the module can do, refused before anything is read. */
static int refuse_module_only(const struct bind_policy *policy)
{
	if (policy->sticky)
		ctl_nl_module_absent("--sticky needs it: the module keeps the binding and "
				     "applies it again when the device comes back");
	else if (policy->take_over)
		ctl_nl_module_absent("--take-over needs it: only the module knows which "
				     "device's binding holds an IRQ");
	return policy->sticky || policy->take_over ? -1 : 0;
}

static int check_shared(const struct nictl_dev *dev, const struct bind_policy *policy)
{
	unsigned int i;

	for (i = 0; !policy->allow_shared && i < dev->nr_irqs; i++) {
		if (!(dev->irqs[i].flags & NICTL_IRQ_F_SHARED))
			continue;
		ctl_msg("IRQ %u (%.16s) is shared with another handler; --allow-shared moves it "
			"for all of them", dev->irqs[i].irq, dev->irqs[i].name ?: "?");
		return -1;
	}
	return 0;
}

/* @ref's device again, as the writes left it, with what bind or restore keeps. */
static int describe_after(const struct dev_ref *ref, struct dev_list *result)
{
	if (direct_discover_said(ref, result))
		return -1;
	direct_saved_annotate(&result->devs[0]);
	return 0;
}

static int apply_and_keep(const struct nictl_dev *dev, struct direct_write *w, unsigned int n)
{
	char why[320];
	int err;

	err = direct_apply(w, n, why, sizeof(why));
	if (err) {
		ctl_msg("bind of %s failed, every earlier write rolled back: %s", dev->ifname, why);
		return -1;
	}
	err = direct_saved_keep(dev, w, n);
	if (err) {
		direct_undo(w, n);
		ctl_msg("cannot keep %s's affinities for restore under /run/nictl (%s): the bind "
			"is rolled back", dev->ifname, strerror(-err));
		return -1;
	}
	return 0;
}

/* The CPU set of @policy for @dev, and a write per queue IRQ: 0 or -1 (said). */
static int plan(const struct nictl_dev *dev, const struct bind_policy *policy,
		struct cpu_choice *choice, struct direct_write **w, unsigned int *n)
{
	if (check_shared(dev, policy) || policy_choose(dev, policy, choice))
		return -1;
	if (direct_place(dev, &choice->cpus, w, n)) {
		ctl_msg("out of memory");
		return -1;
	}
	return 0;
}

/* run_dir_lock(), or -1 after saying why not. */
static int lock_kept(const char *ifname)
{
	int fd = run_dir_lock();

	if (fd < 0)
		ctl_msg("%s: cannot lock %s against another nictlctl: %s", ifname, run_dir(),
			strerror(-fd));
	return fd;
}

/* Tries of a bind whose device changes under its writes, before it gives up. */
#define DIRECT_BIND_TRIES	3

static int restore_dev(const struct nictl_dev *dev);

/*
 * Is @dev as a bind left it: every queue IRQ it can move kept with a
 * target, and on it? Not when its driver changed it under the writes:
 * ethtool -L meanwhile adds IRQs and re-sets the others' affinities.
 */
static bool as_bound(const struct nictl_dev *dev)
{
	const struct nictl_irq *irq;
	unsigned int i;

	for (i = 0; i < dev->nr_irqs; i++) {
		irq = &dev->irqs[i];
		if (irq->flags & NICTL_IRQ_F_MANAGED)
			continue;
		if (irq->target_cpu < 0 || dev_irq_off_target(irq))
			return false;
	}
	return true;
}

/* Try @try of a bind of @dev, as found: 0, 1 when it changed under the writes, -1 (said). */
static int bind_once(const struct nictl_dev *dev, const struct bind_policy *policy,
		     unsigned int try, struct cpu_choice *choice, struct dev_list *result)
{
	const struct dev_ref ref = { .ifindex = dev->ifindex };
	struct direct_write *w = NULL;
	unsigned int n = 0;
	int err;

	cpu_choice_free(choice);
	err = plan(dev, policy, choice, &w, &n) ?: apply_and_keep(dev, w, n);
	/* $NICTL_FAULT_DIRECT_RESET=n: as ethtool -L re-sets them, for the first n tries. */
	if (!err && n && try < fault_at(DIRECT_RESET_FAULT_ENV))
		direct_undo(w, 1);
	err = err ?: describe_after(&ref, result);
	direct_writes_free(w, n);
	if (err)
		return -1;
	return as_bound(&result->devs[0]) ? 0 : 1;
}

int direct_bind_dev(const struct nictl_dev *dev, const struct bind_policy *policy,
		    struct cpu_choice *choice, struct dev_list *result)
{
	struct dev_list again = { NULL, 0, NULL, 0 };
	unsigned int tries = 0;
	int err, lock;

	*result = (struct dev_list){ NULL, 0, NULL, 0 };
	lock = lock_kept(dev->ifname);
	if (lock < 0)
		return -1;
	/* Each try plans from the device as the last one found it. */
	for (;;) {
		err = bind_once(again.nr ? &again.devs[0] : dev, policy, tries, choice, result);
		if (err != 1 || ++tries == DIRECT_BIND_TRIES)
			break;
		dev_list_free(&again);
		if (dev_list_take(&again, result)) {
			ctl_msg("out of memory");
			err = -1;
			break;
		}
	}
	dev_list_free(&again);
	if (err == 1) {
		ctl_msg("%s changed while it was bound, %u times (its driver re-set its IRQs: "
			"ethtool -L or a reset meanwhile?): put back as before nictl; bind again",
			dev->ifname, DIRECT_BIND_TRIES);
		dev_list_free(result);
	}
	run_dir_unlock(lock);
	if (err == 1)
		restore_dev(dev);
	return err ? -1 : 0;
}

/* --dry-run: @found's device with the target each IRQ would get, in @result. */
static int plan_only(struct dev_list *found, const struct bind_policy *policy,
		     struct cpu_choice *choice, struct dev_list *result)
{
	struct nictl_dev *dev = &found->devs[0];
	struct direct_write *w = NULL;
	unsigned int n = 0, i;
	int err;

	err = plan(dev, policy, choice, &w, &n);
	for (i = 0; !err && i < n; i++)
		dev->irqs[i].target_cpu = cpuset_next(&w[i].target, -1);
	direct_writes_free(w, n);
	if (!err && dev_list_take(result, found))
		err = -1;
	return err;
}

int direct_plan_dev(const struct nictl_dev *dev, const struct bind_policy *policy,
		    struct cpu_choice *choice, struct dev_list *result)
{
	const struct dev_ref ref = { .ifindex = dev->ifindex };
	struct dev_list found;
	int err;

	*result = (struct dev_list){ NULL, 0, NULL, 0 };
	if (direct_discover_said(&ref, &found))
		return -1;
	err = plan_only(&found, policy, choice, result);
	dev_list_free(&found);
	return err;
}

int direct_bind(const struct dev_ref *ref, const struct bind_policy *policy,
		struct cpu_choice *choice, struct dev_list *result)
{
	struct dev_list found;
	int err;

	*result = (struct dev_list){ NULL, 0, NULL, 0 };
	if (refuse_module_only(policy) || find_one(ref, "bind", &found))
		return -1;
	if (policy->dry_run)
		err = plan_only(&found, policy, choice, result);
	else
		err = direct_bind_dev(&found.devs[0], policy, choice, result);
	if (!err)
		ctl_nl_module_absent(policy->dry_run ? "Planned as a bind through /proc/irq would "
				     "apply it" : "Bound through /proc/irq: not atomic against "
				     "other writers, and not kept across a driver reload");
	dev_list_free(&found);
	return err;
}

/* The writes that put back what was kept, for the IRQs @dev still has. */
static int restore_writes(const struct nictl_dev *dev, struct direct_write *kept,
			  unsigned int n_kept, struct direct_write **w, unsigned int *n)
{
	unsigned int i, k;

	*n = 0;
	*w = calloc(n_kept ?: 1, sizeof(**w));
	if (!*w)
		return -ENOMEM;
	for (i = 0; i < dev->nr_irqs; i++) {
		for (k = 0; k < n_kept && kept[k].irq != dev->irqs[i].irq; k++)
			;
		if (k == n_kept || cpuset_empty(&kept[k].saved))
			continue;
		(*w)[*n] = (struct direct_write){ .irq = kept[k].irq, .name = dev->irqs[i].name };
		if (cpuset_or(&(*w)[(*n)++].target, &kept[k].saved))
			return -ENOMEM;
	}
	return 0;
}

/* Put back what was kept for @dev: 0, 1 when nothing was, or -1 after one line. */
static int restore_dev(const struct nictl_dev *dev)
{
	struct direct_write *kept = NULL, *w = NULL;
	unsigned int n_kept = 0, n = 0;
	char why[320];
	int err, lock;

	lock = lock_kept(dev->ifname);
	if (lock < 0)
		return -1;
	err = direct_saved_load(dev->ifindex, &kept, &n_kept);
	if (!err && !n_kept) {
		run_dir_unlock(lock);
		return 1;
	}
	if (!err && restore_writes(dev, kept, n_kept, &w, &n))
		err = -ENOMEM;
	if (err) {
		ctl_msg("cannot restore %s: %s", dev->ifname, strerror(-err));
	} else if (direct_apply(w, n, why, sizeof(why))) {
		ctl_msg("restore of %s failed, every earlier write rolled back: %s", dev->ifname,
			why);
		err = -1;
	} else {
		direct_saved_remove(dev->ifindex);
	}
	run_dir_unlock(lock);
	direct_writes_free(w, n);
	direct_writes_free(kept, n_kept);
	return err ? -1 : 0;
}

int direct_restore_dev(const struct nictl_dev *dev)
{
	return restore_dev(dev) < 0 ? -1 : 0;
}

int direct_restore(const struct dev_ref *ref, struct dev_list *result)
{
	struct dev_list found;
	char why[320];
	int err;

	*result = (struct dev_list){ NULL, 0, NULL, 0 };
	if (find_one(ref, "restore", &found))
		return -1;
	err = restore_dev(&found.devs[0]);
	if (err == 1) {
		snprintf(why, sizeof(why), "Without it, nictl has not bound %s (nothing kept for "
			 "it under /run/nictl)", found.devs[0].ifname);
		ctl_nl_module_absent(why);
	} else if (!err) {
		ctl_nl_module_absent("Restored through /proc/irq");
		err = describe_after(ref, result);
	}
	dev_list_free(&found);
	return err ? -1 : 0;
}
