// SPDX-License-Identifier: GPL-2.0
/* XPS maps that follow the queue IRQs, written into a fake sysfs. */
#include "ctl_fakesys.h"

#include <linux/nictl.h>

#include "kselftest_harness.h"

#include "daemon/xps.h"

static char *read_file(const struct fakesys *f, const char *rel)
{
	static char buf[64];
	char path[256];
	FILE *file;

	snprintf(path, sizeof(path), "%s/%s", f->root, rel);
	buf[0] = '\0';
	file = fopen(path, "r");
	if (file) {
		if (!fgets(buf, sizeof(buf), file))
			buf[0] = '\0';
		fclose(file);
	}
	return buf;
}

#define Q(q, k)	{ .queue = (q), .kind = NICTL_QUEUE_KIND_##k }

TEST(each_tx_queue_follows_its_irq)
{
	/*
	 * virtio_net: rx and tx IRQs per queue; e1000e-style combined ones work
	 * alike, and so does one IRQ that serves tx queues 2 and 3 (ice).
	 */
	struct irq_queue served[][2] = {
		{ Q(0, RX) }, { Q(0, TX) }, { Q(1, RX) }, { Q(1, COMBINED) }, { Q(2, TX), Q(3, TX) },
	};
	struct nictl_irq irqs[] = {
		{ .queue = 0, .kind = NICTL_QUEUE_KIND_RX, .irq = 40, .target_cpu = 4 },
		{ .queue = 0, .kind = NICTL_QUEUE_KIND_TX, .irq = 41, .target_cpu = 4 },
		{ .queue = 1, .kind = NICTL_QUEUE_KIND_RX, .irq = 42, .target_cpu = 6 },
		{ .queue = 1, .kind = NICTL_QUEUE_KIND_COMBINED, .irq = 43, .target_cpu = 6 },
		{ .queue = 2, .kind = NICTL_QUEUE_KIND_TX, .irq = 44, .target_cpu = 9 },
	};
	struct nictl_dev dev = { .ifname = "vnode1", .tx_queues = 4, .irqs = irqs, .nr_irqs = 5 };
	struct fakesys f;
	unsigned int i;

	for (i = 0; i < dev.nr_irqs; i++) {
		irqs[i].queues = served[i];
		irqs[i].nr_queues = i == 4 ? 2 : 1;
	}
	fakesys_create(&f);
	for (i = 0; i < 4; i++)
		fakesys_write(&f, "0\n", "class/net/vnode1/queues/tx-%u/xps_cpus", i);
	EXPECT_EQ(0, xps_apply(&dev));
	EXPECT_STREQ("10", read_file(&f, "class/net/vnode1/queues/tx-0/xps_cpus"));
	EXPECT_STREQ("40", read_file(&f, "class/net/vnode1/queues/tx-1/xps_cpus"));
	EXPECT_STREQ("200", read_file(&f, "class/net/vnode1/queues/tx-2/xps_cpus"));
	EXPECT_STREQ("200", read_file(&f, "class/net/vnode1/queues/tx-3/xps_cpus"));

	/* A queue that cannot be set fails the rule. */
	dev.tx_queues = 5;
	served[4][1].queue = 4;
	EXPECT_EQ(-1, xps_apply(&dev));
	fakesys_destroy(&f);
}

TEST_HARNESS_MAIN
