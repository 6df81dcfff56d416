// SPDX-License-Identifier: GPL-2.0
/*
 * The table and JSON formats documented in ctl/show.c. Integration tests
 * and users' scripts parse them: any change here is a change of interface.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"

#include "show.h"

FIXTURE(devs) {
	struct nictl_irq irqs[3];
	struct nictl_dev devs[2];
	struct dev_list list;
	char *text;
	size_t size;
	FILE *f;
};

static void set_cpus(struct cpuset *s, const char *list)
{
	if (cpuset_parse(s, list))
		abort();
}

/*
 * vnode1: up, bound and sticky, three IRQs, the last serving queues 1 to 3
 * and held by another device's binding; eth0: down, no IRQs, nothing known.
 */
FIXTURE_SETUP(devs)
{
	static struct irq_queue served[][3] = {
		{ { 0, NICTL_QUEUE_KIND_COMBINED } },
		{ { 1, NICTL_QUEUE_KIND_RX } },
		{ { 1, 7 }, { 2, NICTL_QUEUE_KIND_RX }, { 3, NICTL_QUEUE_KIND_RX } },
	};
	struct nictl_irq *irq = self->irqs;
	unsigned int i;

	memset(self->irqs, 0, sizeof(self->irqs));
	irq[0] = (struct nictl_irq){
		.queue = 0, .kind = NICTL_QUEUE_KIND_COMBINED, .irq = 45, .name = "virtio0-input.0",
		.node = 1, .flags = NICTL_IRQ_F_BOUND | NICTL_IRQ_F_PENDING, .target_cpu = 4,
	};
	set_cpus(&irq[0].affinity, "4-5,7");
	set_cpus(&irq[0].effective, "4");
	irq[1] = (struct nictl_irq){
		.queue = 1, .kind = NICTL_QUEUE_KIND_RX, .irq = 146, .name = "q\"1",
		.node = -1, .flags = NICTL_IRQ_F_MANAGED, .target_cpu = -1,
	};
	irq[2] = (struct nictl_irq){
		.queue = 1, .kind = 7, .irq = 147, .name = NULL, .node = 0,
		.flags = NICTL_IRQ_F_MANAGED | NICTL_IRQ_F_BOUND, .target_cpu = 12,
	};
	set_cpus(&irq[2].affinity, "0-15");
	set_cpus(&irq[2].effective, "12");
	for (i = 0; i < 3; i++) {
		irq[i].queues = served[i];
		irq[i].nr_queues = i == 2 ? 3 : 1;
		irq[i].group = i;
	}
	/* Drifted once: a move, not a fight, however recent. */
	irq[0].drifts = 1;
	irq[0].drift_ns = 1;
	irq[2].owner_ifindex = 999999;
	irq[2].flags |= NICTL_IRQ_F_SHARED;
	self->devs[0] = (struct nictl_dev){
		.ifindex = 3, .ifname = "vnode1", .driver = "virtio_net", .bus_addr = "0000:00:04.0",
		.numa_node = 1, .rx_queues = 2, .tx_queues = 2,
		.flags = NICTL_DEV_F_UP | NICTL_DEV_F_BOUND | NICTL_DEV_F_STICKY,
		.sticky_id = "pci:0000:00:04.0", .source = NICTL_IRQ_SOURCE_NAPI,
		.irqs = self->irqs, .nr_irqs = 3,
	};
	self->devs[1] = (struct nictl_dev){
		.ifindex = 12, .ifname = "eth0", .numa_node = -1, .source = NICTL_IRQ_SOURCE_NONE,
	};
	self->list = (struct dev_list){ self->devs, 2, NULL, 0 };
	self->text = NULL;
	self->f = open_memstream(&self->text, &self->size);
	ASSERT_NE(NULL, self->f);
}

FIXTURE_TEARDOWN(devs)
{
	unsigned int i;

	for (i = 0; i < 3; i++) {
		cpuset_free(&self->irqs[i].affinity);
		cpuset_free(&self->irqs[i].effective);
	}
	free(self->text);
}

TEST_F(devs, table)
{
	ASSERT_EQ(0, show_table(self->f, &self->list));
	fclose(self->f);
	EXPECT_STREQ(
		"vnode1 (ifindex 3): driver virtio_net, bus 0000:00:04.0, node 1, "
		"queues rx 2 tx 2, up, bound, sticky as pci:0000:00:04.0, irqs from napi\n"
		"  QUEUE  KIND      IRQ  NAME             CPUS   EFFECTIVE  NODE  TARGET  FLAGS\n"
		"  0      combined  45   virtio0-input.0  4-5,7  4          1     4       "
		"bound,pending,off-target,drifts:1\n"
		"  1      rx        146  q\"1              -      -          ?     -       managed\n"
		"  1-3    unknown   147  -                0-15   12         0     12      "
		"managed,bound,shared,off-target,held:ifindex-999999\n"
		"\n"
		"eth0 (ifindex 12): driver -, bus -, node ?, queues rx 0 tx 0, down, not bound, "
		"irqs from none\n"
		"  no queue IRQs; is the device down?\n",
		self->text);
}

/* Moved off its target twice, the last time a second ago: someone fights nictl. */
TEST_F(devs, recent_drifts_are_fighting)
{
	struct timespec now;

	ASSERT_EQ(0, clock_gettime(CLOCK_MONOTONIC, &now));
	self->irqs[0].drifts = 3;
	self->irqs[0].drift_ns = (uint64_t)(now.tv_sec - 1) * 1000000000ULL;
	self->list.nr = 1;
	ASSERT_EQ(0, show_table(self->f, &self->list));
	fflush(self->f);
	EXPECT_NE(NULL, strstr(self->text, "bound,pending,off-target,drifts:3,fighting\n")) TH_LOG("%s",
											 self->text);
	/* One drift is a move, not a fight. */
	self->irqs[0].drifts = 1;
	rewind(self->f);
	ASSERT_EQ(0, show_table(self->f, &self->list));
	fclose(self->f);
	EXPECT_NE(NULL, strstr(self->text, "bound,pending,off-target,drifts:1\n")) TH_LOG("%s", self->text);
}

/*
 * The window, at a given moment rather than the host's: however long the
 * host has been up (a drift long ago needs an uptime longer than that).
 */
TEST_F(devs, drifts_long_ago_are_not_fighting)
{
	const uint64_t now = 1000ULL * 1000000000ULL;
	struct nictl_irq irq = { .drifts = 3, .drift_ns = now - 301ULL * 1000000000ULL };

	EXPECT_FALSE(show_irq_fighting(&irq, now));
	irq.drift_ns = now - 299ULL * 1000000000ULL;
	EXPECT_TRUE(show_irq_fighting(&irq, now));
	irq.drifts = 1;
	EXPECT_FALSE(show_irq_fighting(&irq, now));
}

/* On its target CPU alone, a bound IRQ is not off target, pending or not. */
TEST_F(devs, on_target_is_not_flagged)
{
	cpuset_free(&self->irqs[0].affinity);
	set_cpus(&self->irqs[0].affinity, "4");
	self->list.nr = 1;
	ASSERT_EQ(0, show_table(self->f, &self->list));
	fclose(self->f);
	EXPECT_NE(NULL, strstr(self->text,
			       "  4     4          1     4       bound,pending,drifts:1\n"))
		TH_LOG("%s", self->text);
}

TEST_F(devs, table_of_an_up_device_without_irqs)
{
	self->devs[1].flags = NICTL_DEV_F_UP;
	self->devs[1].source = 9;
	self->list.devs = &self->devs[1];
	self->list.nr = 1;
	ASSERT_EQ(0, show_table(self->f, &self->list));
	fclose(self->f);
	EXPECT_STREQ("eth0 (ifindex 12): driver -, bus -, node ?, queues rx 0 tx 0, up, "
		     "not bound, irqs from unknown\n"
		     "  no queue IRQs\n", self->text);
}

/*
 * gve's IRQ names never say a queue (docs/irq-names.md): an up gve without
 * NAPI links has no queue IRQs, and show says why rather than nothing.
 */
TEST_F(devs, table_of_a_device_whose_names_tell_no_queue)
{
	self->devs[1].flags = NICTL_DEV_F_UP;
	self->devs[1].driver = "gve";
	self->list.devs = &self->devs[1];
	self->list.nr = 1;
	ASSERT_EQ(0, show_table(self->f, &self->list));
	fclose(self->f);
	EXPECT_STREQ("eth0 (ifindex 12): driver gve, bus -, node ?, queues rx 0 tx 0, up, "
		     "not bound, irqs from none\n"
		     "  no queue IRQs: gve names no IRQ after a queue, and the kernel links no "
		     "queue to one\n", self->text);
}

/* Down, the likelier reason is that it is down. */
TEST_F(devs, table_of_a_down_device_whose_names_tell_no_queue)
{
	self->devs[1].driver = "mana";
	self->list.devs = &self->devs[1];
	self->list.nr = 1;
	ASSERT_EQ(0, show_table(self->f, &self->list));
	fclose(self->f);
	EXPECT_STREQ("eth0 (ifindex 12): driver mana, bus -, node ?, queues rx 0 tx 0, down, "
		     "not bound, irqs from none\n"
		     "  no queue IRQs; is the device down?\n", self->text);
}

TEST_F(devs, json)
{
	ASSERT_EQ(0, show_json(self->f, &self->list));
	fclose(self->f);
	EXPECT_STREQ(
		"[{\"ifname\":\"vnode1\",\"ifindex\":3,\"driver\":\"virtio_net\","
		"\"bus_addr\":\"0000:00:04.0\",\"numa_node\":1,\"rx_queues\":2,\"tx_queues\":2,"
		"\"up\":true,\"bound\":true,\"sticky_id\":\"pci:0000:00:04.0\",\"source\":\"napi\","
		"\"via\":\"module\",\"uppers\":[],\"irqs\":["
		"{\"queue\":0,\"kind\":\"combined\","
		"\"queues\":[{\"queue\":0,\"kind\":\"combined\"}],\"group\":0,"
		"\"irq\":45,\"name\":\"virtio0-input.0\","
		"\"affinity\":[4,5,7],\"affinity_list\":\"4-5,7\",\"effective\":[4],"
		"\"effective_list\":\"4\",\"node\":1,\"managed\":false,\"bound\":true,"
		"\"pending\":true,\"shared\":false,\"off_target\":true,\"owner_ifindex\":null,"
		"\"drifts\":1,"
		"\"fighting\":false,\"target_cpu\":4},"
		"{\"queue\":1,\"kind\":\"rx\",\"queues\":[{\"queue\":1,\"kind\":\"rx\"}],"
		"\"group\":1,\"irq\":146,\"name\":\"q\\\"1\","
		"\"affinity\":[],\"affinity_list\":\"\",\"effective\":[],"
		"\"effective_list\":\"\",\"node\":-1,\"managed\":true,\"bound\":false,"
		"\"pending\":false,\"shared\":false,\"off_target\":false,\"owner_ifindex\":null,"
		"\"drifts\":0,"
		"\"fighting\":false,\"target_cpu\":null},"
		"{\"queue\":1,\"kind\":\"unknown\",\"queues\":[{\"queue\":1,\"kind\":\"unknown\"},"
		"{\"queue\":2,\"kind\":\"rx\"},{\"queue\":3,\"kind\":\"rx\"}],\"group\":2,"
		"\"irq\":147,\"name\":null,"
		"\"affinity\":[0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15],\"affinity_list\":\"0-15\","
		"\"effective\":[12],\"effective_list\":\"12\",\"node\":0,\"managed\":true,"
		"\"bound\":true,\"pending\":false,\"shared\":true,\"off_target\":true,"
		"\"owner_ifindex\":999999,"
		"\"drifts\":0,\"fighting\":false,\"target_cpu\":12}]},"
		"{\"ifname\":\"eth0\",\"ifindex\":12,\"driver\":null,\"bus_addr\":null,"
		"\"numa_node\":-1,\"rx_queues\":0,\"tx_queues\":0,\"up\":false,\"bound\":false,"
		"\"sticky_id\":null,\"source\":\"none\",\"via\":\"module\",\"uppers\":[],\"irqs\":[]}]\n",
		self->text);
}

TEST_F(devs, json_of_nothing)
{
	self->list.nr = 0;
	ASSERT_EQ(0, show_json(self->f, &self->list));
	fclose(self->f);
	EXPECT_STREQ("[]\n", self->text);
}

TEST_HARNESS_MAIN
