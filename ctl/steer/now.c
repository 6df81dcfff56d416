// SPDX-License-Identifier: GPL-2.0
/*
 * Read what a device's queues steer to now, through steer/knob.c, and the
 * CPU each queue's IRQ interrupts, from DEV_GET's reply.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "steer/knob.h"
#include "steer/mask.h"
#include "steer/now.h"

/*
 * Where the IRQ of a queue interrupts (dev_irq_cpu(): the CPU bind --steer
 * plans by), -1 when it has no IRQ.
 */
static int irq_cpu(const struct nictl_dev *dev, unsigned int q, bool rx)
{
	const struct nictl_irq *irq = dev_queue_irq(dev, q, rx);

	return irq ? dev_irq_cpu(irq) : -1;
}

/*
 * A file the kernel does not have (no CONFIG_RPS, one tx queue), or one
 * gone since DEV_GET (the device went, `ethtool -L` took queues away):
 * the values of its kind are shown as none.
 */
static int gone(int err, bool *has)
{
	if (err != -ENOENT && err != -ENODEV)
		return err;
	*has = false;
	return 0;
}

/* Whether queue 0's @file exists, in @has. */
static int has_file(const char *ifname, const char *file, bool *has)
{
	char *value = NULL;
	int err = knob_read(ifname, file, &value);

	*has = true;
	free(value);
	return gone(err, has);
}

static int read_mask(const char *ifname, const char *name, struct cpuset *cpus)
{
	char *value = NULL;
	int err = knob_read(ifname, name, &value);

	err = err ?: steer_mask_parse(value, cpus);
	free(value);
	return err;
}

static int read_count(const char *ifname, const char *name, unsigned int *count)
{
	char *value = NULL, *end;
	int err = knob_read(ifname, name, &value);

	if (!err) {
		errno = 0;
		*count = strtoul(value, &end, 10);
		if (end == value || *end || errno)
			err = -EINVAL;
	}
	free(value);
	return err;
}

/* Queue @q's values; @name gets the one that failed. */
static int read_queue(const char *ifname, struct steer_now *now, unsigned int q, bool rx,
		      char *name, size_t len)
{
	struct steer_queue *sq = rx ? &now->rx[q] : &now->tx[q];
	int err;

	snprintf(name, len, rx ? "rx-%u/rps_cpus" : "tx-%u/xps_cpus", q);
	err = read_mask(ifname, name, &sq->cpus);
	if (err || !rx)
		return err;
	snprintf(name, len, "rx-%u/rps_flow_cnt", q);
	return read_count(ifname, name, &sq->flow_cnt);
}

static int read_queues(const struct nictl_dev *dev, struct steer_now *now, char *name,
		       size_t len)
{
	unsigned int q;
	int err;

	snprintf(name, len, "rx-0/rps_cpus");
	err = has_file(dev->ifname, name, &now->rps);
	for (q = 0; !err && now->rps && q < now->rx_queues; q++)
		err = gone(read_queue(dev->ifname, now, q, true, name, len), &now->rps);
	if (!err && now->tx_queues) {
		snprintf(name, len, "tx-0/xps_cpus");
		err = has_file(dev->ifname, name, &now->xps);
	}
	for (q = 0; !err && now->xps && q < now->tx_queues; q++)
		err = gone(read_queue(dev->ifname, now, q, false, name, len), &now->xps);
	return err;
}

/*
 * The steering of @dev, from DEV_GET, into @now. A device without the files
 * (no CONFIG_RPS, one tx queue, or not in this network namespace's sysfs)
 * has rps or xps false. 0, or -1 after saying what could not be read; free
 * @now either way.
 */
int steer_now_read(const struct nictl_dev *dev, struct steer_now *now)
{
	char name[KNOB_NAME_LEN], path[4096];
	unsigned int q;
	int err;

	*now = (struct steer_now){ .rx_queues = dev->rx_queues, .tx_queues = dev->tx_queues };
	now->rx = calloc(now->rx_queues ?: 1, sizeof(*now->rx));
	now->tx = calloc(now->tx_queues ?: 1, sizeof(*now->tx));
	if (!now->rx || !now->tx) {
		ctl_msg("out of memory");
		return -1;
	}
	for (q = 0; q < now->rx_queues; q++)
		now->rx[q].irq_cpu = irq_cpu(dev, q, true);
	for (q = 0; q < now->tx_queues; q++)
		now->tx[q].irq_cpu = irq_cpu(dev, q, false);
	err = flow_entries_read(&now->flow_entries);
	if (err) {
		ctl_msg("cannot read " FLOW_ENTRIES_NAME ": %s", strerror(-err));
		return -1;
	}
	err = read_queues(dev, now, name, sizeof(name));
	if (err) {
		knob_path(path, sizeof(path), dev->ifname, name);
		ctl_msg("cannot read %s: %s", path, strerror(-err));
		return -1;
	}
	return 0;
}

void steer_now_free(struct steer_now *now)
{
	unsigned int q;

	for (q = 0; now->rx && q < now->rx_queues; q++)
		cpuset_free(&now->rx[q].cpus);
	for (q = 0; now->tx && q < now->tx_queues; q++)
		cpuset_free(&now->tx[q].cpus);
	free(now->rx);
	free(now->tx);
	now->rx = now->tx = NULL;
}
