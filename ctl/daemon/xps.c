// SPDX-License-Identifier: GPL-2.0
/*
 * Point each transmit queue's XPS map at the CPU its IRQ was placed on, so
 * a packet sent on that CPU uses that queue and its completions come back
 * where it was sent: the pairing vendor scripts make with `-x`. The sysfs
 * root is topo_root(), which host unit tests point at a fake tree.
 * `bind --steer` plans XPS over every CPU of the bind instead (steer/plan.c).
 */
#include <stdio.h>
#include <string.h>

#include "daemon/xps.h"
#include "log.h"
#include "steer/knob.h"
#include "steer/mask.h"

/* Point tx queue @q's XPS map at @cpu alone. */
static int write_xps(const char *ifname, unsigned int q, unsigned int cpu)
{
	struct cpuset one = CPUSET_INIT;
	char name[KNOB_NAME_LEN], mask[STEER_MASK_LEN];
	int err;

	err = cpuset_add(&one, cpu) ?: steer_mask_format(&one, mask, sizeof(mask));
	cpuset_free(&one);
	snprintf(name, sizeof(name), "tx-%u/xps_cpus", q);
	return err ?: knob_write(ifname, name, mask);
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
		cpu = dev_queue_cpu(dev, q, false);
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
