// SPDX-License-Identifier: GPL-2.0
/*
 * The steering transaction of steer/txn.h. Values are written in one fixed
 * order: the host-wide RFS table size (only when it grows), then per rx
 * queue rps_flow_cnt and rps_cpus, then per tx queue xps_cpus, each only
 * when its part is asked for. The old values are kept in that order, in
 * memory for a rollback and under /run/nictl for `restore`: the first
 * value nictl replaced of each, from before nictl.
 *
 * $NICTL_FAULT_STEER_WRITE=k makes the k-th write of a commit fail with
 * EIO without writing, so a test can prove the rollback from every step.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fault.h"
#include "report.h"
#include "steer/mask.h"
#include "steer/state.h"
#include "steer/txn.h"
#include "topology.h"

/* The queue values of one rx queue, in the order they are written, with their parts. */
static const struct {
	const char *file;
	unsigned int part;
} rx_files[] = {
	{ "rps_flow_cnt", STEER_RFS },
	{ "rps_cpus", STEER_RPS },
};

/* Whether any of @cpus is left once the isolated CPUs are taken out. */
static int check_cpus(const struct cpuset *cpus)
{
	struct cpuset left = CPUSET_INIT, isolated = CPUSET_INIT;
	char *list;
	int err;

	err = topo_isolated_cpus(&isolated) ?: cpuset_or(&left, cpus);
	if (err) {
		ctl_msg("cannot read the isolated CPUs from sysfs: %s", strerror(-err));
	} else {
		cpuset_andnot(&left, &isolated);
		if (cpuset_empty(&left)) {
			list = cpuset_format(cpus);
			ctl_msg("every CPU of %s is isolated (isolcpus/nohz_full): none is "
				"left to steer to; give --cpus or --exclude that leave one",
				list ?: "the set");
			free(list);
			err = -ENOSPC;
		}
	}
	cpuset_free(&left);
	cpuset_free(&isolated);
	return err ? -1 : 0;
}

/* Remember the value @name of the device, and check it can be written back. */
static int remember(struct steer_txn *t, const char *name)
{
	char path[4096], *value;
	int err;

	err = knob_read(t->ifname, name, &value);
	if (!err) {
		err = knobs_add(&t->old, name, value);
		free(value);
	}
	if (!err)
		err = knob_writable(t->ifname, name);
	if (!err)
		return 0;
	knob_path(path, sizeof(path), t->ifname, name);
	if (err == -EROFS || err == -EACCES || err == -EPERM)
		ctl_msg("cannot write %s: %s; steering needs sysfs writable", path, strerror(-err));
	else
		ctl_msg("cannot read %s: %s", path, strerror(-err));
	return -1;
}

static int remember_rx(struct steer_txn *t)
{
	char name[KNOB_NAME_LEN], path[4096];
	unsigned int q, f;
	char *value;

	if (!(t->parts & (STEER_RPS | STEER_RFS)))
		return 0;
	if (!t->rx_queues || knob_read(t->ifname, "rx-0/rps_cpus", &value)) {
		knob_path(path, sizeof(path), t->ifname, "rx-0/rps_cpus");
		ctl_msg("RPS is not available on %s: no %s (a kernel without CONFIG_RPS, or a "
			"device without rx queues); bind without --steer", t->ifname, path);
		return -1;
	}
	free(value);
	for (q = 0; q < t->rx_queues; q++) {
		for (f = 0; f < ARRAY_SIZE(rx_files); f++) {
			if (!(t->parts & rx_files[f].part))
				continue;
			snprintf(name, sizeof(name), "rx-%u/%s", q, rx_files[f].file);
			if (remember(t, name))
				return -1;
		}
	}
	return 0;
}

/* A device with one tx queue has no XPS maps: the kernel says ENOENT. */
static int remember_tx(struct steer_txn *t)
{
	char name[KNOB_NAME_LEN];
	unsigned int q;
	char *value = NULL;

	t->xps = (t->parts & STEER_XPS) && t->tx_queues &&
		 knob_read(t->ifname, "tx-0/xps_cpus", &value) != -ENOENT;
	if (t->xps && value)
		free(value);
	for (q = 0; t->xps && q < t->tx_queues; q++) {
		snprintf(name, sizeof(name), "tx-%u/xps_cpus", q);
		if (remember(t, name))
			return -1;
	}
	return 0;
}

static int remember_flow_entries(struct steer_txn *t)
{
	int err = flow_entries_read(&t->flow_entries);

	if (err) {
		ctl_msg("cannot read " FLOW_ENTRIES_NAME ": %s", strerror(-err));
		return -1;
	}
	err = (t->parts & STEER_RFS) && t->flow_entries < STEER_FLOW_ENTRIES ?
	      flow_entries_writable() : 0;
	if (err) {
		ctl_msg("cannot raise " FLOW_ENTRIES_NAME " to %u: %s; steering needs /proc/sys "
			"writable", STEER_FLOW_ENTRIES, strerror(-err));
		return -1;
	}
	return 0;
}

/*
 * Before the bind: check that @dev can be steered over @cpus, the bind's,
 * and read every value the steering @parts will write. 0, or -1 after
 * printing the one line that says why not; @t is to be freed either way.
 */
int steer_prepare(const struct nictl_dev *dev, const struct cpuset *cpus, unsigned int parts,
		  struct steer_txn *t)
{
	*t = (struct steer_txn){
		.ifindex = dev->ifindex,
		.ifname = dev->ifname,
		.rx_queues = dev->rx_queues,
		.tx_queues = dev->tx_queues,
		.parts = parts,
	};
	if (check_cpus(cpus) || remember_rx(t) || remember_tx(t) || remember_flow_entries(t))
		return -1;
	return 0;
}

void steer_txn_free(struct steer_txn *t)
{
	knobs_free(&t->old);
}

/* The planned value of the queue value @name ("rx-0/rps_cpus") into @buf. */
static int planned_value(const struct steer_plan *plan, const char *name, char *buf, size_t len)
{
	char dir[3], file[16];
	unsigned int q;

	if (sscanf(name, "%2[rtx]-%u/%15s", dir, &q, file) != 3)
		return -EINVAL;
	if (!strcmp(dir, "tx") && q < plan->tx_queues && !strcmp(file, "xps_cpus"))
		return steer_mask_format(&plan->tx[q].xps_cpus, buf, len);
	if (strcmp(dir, "rx") || q >= plan->rx_queues)
		return -EINVAL;
	if (!strcmp(file, "rps_cpus"))
		return steer_mask_format(&plan->rx[q].rps_cpus, buf, len);
	if (strcmp(file, "rps_flow_cnt"))
		return -EINVAL;
	return snprintf(buf, len, "%u", plan->rx[q].flow_cnt) < (int)len ? 0 : -ENAMETOOLONG;
}

/*
 * Write the plan, the k-th write failing under fault injection. On a
 * failure, @failed names what failed and @tried counts the queue values
 * written or tried, the failed one included.
 */
static int write_plan(const struct steer_txn *t, const struct steer_plan *plan, bool raise,
		      unsigned int *tried, const char **failed)
{
	unsigned int fault = fault_at(STEER_FAULT_ENV), n = 0;
	char value[STEER_MASK_LEN];
	int err = 0;

	*tried = 0;
	*failed = FLOW_ENTRIES_NAME;
	if (raise)
		err = ++n == fault ? -EIO : flow_entries_write(plan->flow_entries);
	while (!err && *tried < t->old.nr) {
		*failed = t->old.knobs[*tried].name;
		err = planned_value(plan, *failed, value, sizeof(value));
		(*tried)++;
		if (!err)
			err = ++n == fault ? -EIO : knob_write(t->ifname, *failed, value);
	}
	return err;
}

/*
 * Keep the old values for `restore`: those of the device its file does
 * not hold yet; the RFS table size when this bind raises it and nictl holds
 * no earlier size. Says in @saved and @flow_saved which files it made, for
 * a rollback to remove.
 */
static int keep_old(const struct steer_txn *t, bool raise, bool *saved, bool *flow_saved)
{
	unsigned int before, raised;
	int err;

	*flow_saved = false;
	err = state_keep(t->ifindex, t->ifname, &t->old, saved);
	if (!err && raise && state_flow_load(&before, &raised) == -ENOENT) {
		err = state_flow_save(t->flow_entries, STEER_FLOW_ENTRIES);
		*flow_saved = !err;
	}
	return err;
}

static void forget_old(const struct steer_txn *t, bool saved, bool flow_saved)
{
	if (flow_saved)
		state_flow_remove();
	if (saved)
		state_remove(t->ifindex);
}

/*
 * After the bind: write @plan, made for @t. On a failure put back every
 * value written, say in @why what failed, and return -1: the caller puts
 * back the IRQs and prints @why.
 */
int steer_commit(const struct steer_txn *t, const struct steer_plan *plan, char *why, size_t len)
{
	bool raise = (t->parts & STEER_RFS) && plan->flow_entries > t->flow_entries;
	const char *failed, *unput = NULL;
	bool saved, flow_saved;
	unsigned int tried;
	int err, undo_err = 0;

	err = keep_old(t, raise, &saved, &flow_saved);
	if (err) {
		forget_old(t, saved, flow_saved);
		snprintf(why, len, "cannot keep the old values under /run/nictl: %s",
			 strerror(-err));
		return -1;
	}
	err = write_plan(t, plan, raise, &tried, &failed);
	if (!err)
		return 0;
	undo_err = knobs_put_back(t->ifname, &t->old, tried, &unput);
	if (raise && flow_entries_put_back(t->flow_entries, plan->flow_entries) < 0 && !undo_err) {
		undo_err = -EIO;
		unput = FLOW_ENTRIES_NAME;
	}
	forget_old(t, saved, flow_saved);
	if (undo_err)
		snprintf(why, len, "writing %s: %s; could not put back %s: %s", failed,
			 strerror(-err), unput, strerror(-undo_err));
	else
		snprintf(why, len, "writing %s: %s", failed, strerror(-err));
	return -1;
}
