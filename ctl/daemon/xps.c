// SPDX-License-Identifier: GPL-2.0
/*
 * Point each transmit queue's XPS map at the CPU its IRQ was placed on, so
 * a packet sent on that CPU uses that queue and its completions come back
 * where it was sent: the pairing vendor scripts make with `-x`. The sysfs
 * root is topo_root(), which host unit tests point at a fake tree.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/nictl.h>

#include "daemon/xps.h"
#include "log.h"
#include "topology.h"

/* A CPU mask for one CPU as sysfs bitmaps are written: 32-bit hex groups. */
int xps_mask(unsigned int cpu, char *buf, size_t len)
{
	size_t n;
	unsigned int i;

	n = snprintf(buf, len, "%x", 1U << (cpu % 32));
	for (i = 0; i < cpu / 32 && n < len; i++)
		n += snprintf(buf + n, len - n, ",00000000");
	return n < len ? 0 : -ENAMETOOLONG;
}

/* The CPU of the IRQ that serves transmit queue @q, -1 if none was placed. */
static int tx_queue_cpu(const struct nictl_dev *dev, unsigned int q)
{
	const struct irq_queue *served;
	unsigned int i, k;

	for (i = 0; i < dev->nr_irqs; i++) {
		for (k = 0; k < dev->irqs[i].nr_queues; k++) {
			served = &dev->irqs[i].queues[k];
			if (served->queue == q && served->kind != NICTL_QUEUE_KIND_RX)
				return dev->irqs[i].target_cpu;
		}
	}
	return -1;
}

static int write_xps(const char *ifname, unsigned int q, unsigned int cpu)
{
	char path[4096], mask[2400];
	FILE *f;
	int err;

	err = xps_mask(cpu, mask, sizeof(mask));
	if (err)
		return err;
	snprintf(path, sizeof(path), "%s/class/net/%s/queues/tx-%u/xps_cpus", topo_root(),
		 ifname, q);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	/* sysfs takes the value in one write; fclose() flushes it. */
	err = fputs(mask, f) < 0 ? -EIO : 0;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * Write the XPS map of every transmit queue of @dev, a bind reply that
 * carries each IRQ's target CPU, and log the result. 0, or -1 after logging
 * the queue that could not be set.
 */
int xps_apply(const struct nictl_dev *dev)
{
	char line[1024];
	size_t n = 0;
	unsigned int q;
	int cpu, err;

	line[0] = '\0';
	for (q = 0; q < dev->tx_queues; q++) {
		cpu = tx_queue_cpu(dev, q);
		if (cpu < 0)
			continue;
		err = write_xps(dev->ifname, q, cpu);
		if (err) {
			log_err("%s: cannot set the XPS map of tx-%u to CPU %d: %s", dev->ifname, q,
				cpu, strerror(-err));
			return -1;
		}
		if (n < sizeof(line))
			n += snprintf(line + n, sizeof(line) - n, "%stx-%u -> CPU %d",
				      n ? ", " : "", q, cpu);
	}
	if (n)
		log_info("%s: xps %s", dev->ifname, line);
	return 0;
}
