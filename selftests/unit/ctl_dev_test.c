// SPDX-License-Identifier: GPL-2.0
/*
 * Parsing DEV_GET-shaped replies, built here with libnl the way the module
 * sends them, and building device requests.
 */
#include <errno.h>
#include <stdlib.h>

#include "kselftest_harness.h"

#include "ctl_capture.h"
#include "dev.h"
#include "report.h"
#include "util.h"

#define FAMILY	0x20

FIXTURE(reply) {
	struct nl_msg *msg;
	struct dev_list list;
};

FIXTURE_SETUP(reply)
{
	self->msg = nlmsg_alloc();
	ASSERT_NE(NULL, self->msg);
	ASSERT_NE(NULL, genlmsg_put(self->msg, 0, 0, FAMILY, 0, 0, NICTL_CMD_DEV_GET,
				    NICTL_FAMILY_VERSION));
	self->list = (struct dev_list){ NULL, 0, NULL, 0 };
}

FIXTURE_TEARDOWN(reply)
{
	nlmsg_free(self->msg);
	dev_list_free(&self->list);
}

static void put_dev(struct nl_msg *msg)
{
	if (nla_put_u32(msg, NICTL_A_IFINDEX, 3) ||
	    nla_put_string(msg, NICTL_A_IFNAME, "vnode1") ||
	    nla_put_string(msg, NICTL_A_DRIVER, "virtio_net") ||
	    nla_put_s32(msg, NICTL_A_NUMA_NODE, -1) ||
	    nla_put_u32(msg, NICTL_A_RX_QUEUES, 2) ||
	    nla_put_u32(msg, NICTL_A_TX_QUEUES, 2) ||
	    nla_put_u32(msg, NICTL_A_DEV_FLAGS, NICTL_DEV_F_UP) ||
	    nla_put_u32(msg, NICTL_A_SOURCE, NICTL_IRQ_SOURCE_NAPI) ||
	    /* from a newer module: must be ignored */
	    nla_put_u32(msg, NICTL_A_MAX + 5, 7))
		abort();
}

/* A complete IRQ nest: queue @queue, CPUs 4-5 allowed, 4 effective. */
static void put_full_irq(struct nl_msg *msg, unsigned int queue, unsigned int kind)
{
	static const uint8_t affinity[] = { 0x30, 0x00 }, effective[] = { 0x10 };
	struct nlattr *nest = nla_nest_start(msg, NICTL_A_IRQ);

	if (!nest ||
	    nla_put_u32(msg, NICTL_A_IRQ_NUM, 45 + queue) ||
	    nla_put_string(msg, NICTL_A_IRQ_NAME, "virtio0-input.0") ||
	    nla_put_u32(msg, NICTL_A_IRQ_QUEUE, queue) ||
	    nla_put_u32(msg, NICTL_A_IRQ_KIND, kind) ||
	    nla_put(msg, NICTL_A_IRQ_AFFINITY, sizeof(affinity), affinity) ||
	    nla_put(msg, NICTL_A_IRQ_EFFECTIVE, sizeof(effective), effective) ||
	    nla_put_u32(msg, NICTL_A_IRQ_FLAGS, NICTL_IRQ_F_BOUND) ||
	    nla_put_s32(msg, NICTL_A_IRQ_NODE, 0) ||
	    nla_put_u32(msg, NICTL_A_IRQ_TARGET_CPU, 4))
		abort();
	nla_nest_end(msg, nest);
}

/* An IRQ nest with only the attributes nictlctl requires. */
static void put_bare_irq(struct nl_msg *msg, unsigned int queue, unsigned int kind)
{
	struct nlattr *nest = nla_nest_start(msg, NICTL_A_IRQ);

	if (!nest ||
	    nla_put_u32(msg, NICTL_A_IRQ_NUM, 60 + queue) ||
	    nla_put_u32(msg, NICTL_A_IRQ_QUEUE, queue) ||
	    nla_put_u32(msg, NICTL_A_IRQ_KIND, kind))
		abort();
	nla_nest_end(msg, nest);
}

static int collect(FIXTURE_DATA(reply) *self)
{
	return dev_collect(nlmsg_hdr(self->msg), &self->list);
}

TEST_F(reply, full_device)
{
	const struct nictl_dev *dev;
	const struct nictl_irq *irq;
	char *list;

	put_dev(self->msg);
	put_full_irq(self->msg, 0, NICTL_QUEUE_KIND_COMBINED);
	put_bare_irq(self->msg, 1, NICTL_QUEUE_KIND_RX);
	ASSERT_EQ(0, collect(self));
	ASSERT_EQ(1, self->list.nr);
	dev = &self->list.devs[0];
	EXPECT_EQ(3, dev->ifindex);
	EXPECT_STREQ("vnode1", dev->ifname);
	EXPECT_STREQ("virtio_net", dev->driver);
	EXPECT_EQ(NULL, dev->bus_addr);
	EXPECT_EQ(-1, dev->numa_node);
	EXPECT_EQ(2, dev->rx_queues);
	EXPECT_EQ(2, dev->tx_queues);
	EXPECT_EQ(NICTL_DEV_F_UP, dev->flags);
	EXPECT_EQ(NICTL_IRQ_SOURCE_NAPI, dev->source);
	ASSERT_EQ(2, dev->nr_irqs);

	irq = &dev->irqs[0];
	EXPECT_EQ(45, irq->irq);
	EXPECT_EQ(0, irq->queue);
	EXPECT_EQ(NICTL_QUEUE_KIND_COMBINED, irq->kind);
	EXPECT_STREQ("virtio0-input.0", irq->name);
	list = cpuset_format(&irq->affinity);
	EXPECT_STREQ("4-5", list);
	free(list);
	list = cpuset_format(&irq->effective);
	EXPECT_STREQ("4", list);
	free(list);
	EXPECT_EQ(NICTL_IRQ_F_BOUND, irq->flags);
	EXPECT_EQ(0, irq->node);
	EXPECT_EQ(4, irq->target_cpu);

	irq = &dev->irqs[1];
	EXPECT_EQ(61, irq->irq);
	EXPECT_EQ(NICTL_QUEUE_KIND_RX, irq->kind);
	EXPECT_EQ(NULL, irq->name);
	EXPECT_TRUE(cpuset_empty(&irq->affinity));
	EXPECT_EQ(-1, irq->node);
	EXPECT_EQ(-1, irq->target_cpu);
	EXPECT_EQ(0, irq->flags);
}

TEST_F(reply, devices_accumulate)
{
	put_dev(self->msg);
	ASSERT_EQ(0, collect(self));
	ASSERT_EQ(0, collect(self));
	ASSERT_EQ(2, self->list.nr);
	EXPECT_EQ(0, self->list.devs[1].nr_irqs);
	EXPECT_EQ(NULL, self->list.devs[1].irqs);
}

TEST_F(reply, queue_count_is_distinct_queues)
{
	put_dev(self->msg);
	put_bare_irq(self->msg, 0, NICTL_QUEUE_KIND_RX);
	put_bare_irq(self->msg, 0, NICTL_QUEUE_KIND_TX);
	put_bare_irq(self->msg, 1, NICTL_QUEUE_KIND_RX);
	put_bare_irq(self->msg, 1, NICTL_QUEUE_KIND_TX);
	put_bare_irq(self->msg, 2, NICTL_QUEUE_KIND_COMBINED);
	ASSERT_EQ(0, collect(self));
	EXPECT_EQ(5, self->list.devs[0].nr_irqs);
	EXPECT_EQ(3, dev_queue_count(&self->list.devs[0]));
}

TEST_F(reply, missing_ifname_is_malformed)
{
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IFINDEX, 3));
	EXPECT_EQ(-EPROTO, collect(self));
	EXPECT_EQ(1, self->list.nr);	/* still freed by dev_list_free() */
}

TEST_F(reply, short_integer_is_malformed)
{
	ASSERT_EQ(0, nla_put_u16(self->msg, NICTL_A_IFINDEX, 3));
	ASSERT_EQ(0, nla_put_string(self->msg, NICTL_A_IFNAME, "vnode1"));
	EXPECT_EQ(-EPROTO, collect(self));
}

TEST_F(reply, unterminated_string_is_malformed)
{
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IFINDEX, 3));
	ASSERT_EQ(0, nla_put(self->msg, NICTL_A_IFNAME, 4, "eth0"));
	EXPECT_EQ(-EPROTO, collect(self));
}

TEST_F(reply, irq_without_number_is_malformed)
{
	struct nlattr *nest;

	put_dev(self->msg);
	put_full_irq(self->msg, 0, NICTL_QUEUE_KIND_RX);
	nest = nla_nest_start(self->msg, NICTL_A_IRQ);
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_QUEUE, 1));
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_KIND, NICTL_QUEUE_KIND_RX));
	nla_nest_end(self->msg, nest);
	EXPECT_EQ(-EPROTO, collect(self));
}

TEST_F(reply, oversized_bitmap_is_malformed)
{
	static uint8_t big[NICTL_CPUMASK_MAX_BYTES + 1];
	struct nlattr *nest;

	put_dev(self->msg);
	nest = nla_nest_start(self->msg, NICTL_A_IRQ);
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_NUM, 1));
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_QUEUE, 0));
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_KIND, NICTL_QUEUE_KIND_RX));
	ASSERT_EQ(0, nla_put(self->msg, NICTL_A_IRQ_AFFINITY, sizeof(big), big));
	nla_nest_end(self->msg, nest);
	EXPECT_EQ(-EPROTO, collect(self));
}

TEST_F(reply, impossible_target_cpu_is_malformed)
{
	struct nlattr *nest;

	put_dev(self->msg);
	nest = nla_nest_start(self->msg, NICTL_A_IRQ);
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_NUM, 1));
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_QUEUE, 0));
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_KIND, NICTL_QUEUE_KIND_RX));
	ASSERT_EQ(0, nla_put_u32(self->msg, NICTL_A_IRQ_TARGET_CPU, CPUSET_MAX_CPUS));
	nla_nest_end(self->msg, nest);
	EXPECT_EQ(-EPROTO, collect(self));
}

/* dev_ref_parse() with what it printed; returns its result. */
static int parse_ref(const char *arg, struct dev_ref *ref, char **err)
{
	struct capture cap;
	int ret;

	capture_begin(&cap, stderr);
	ret = dev_ref_parse("show", arg, ref);
	*err = capture_end(&cap);
	return ret;
}

TEST(dev_ref_name_or_ifindex)
{
	struct dev_ref ref;
	char *err;

	ASSERT_EQ(0, parse_ref("eth0", &ref, &err));
	EXPECT_EQ(0, ref.ifindex);
	EXPECT_STREQ("eth0", ref.name);
	EXPECT_STREQ("", err);
	free(err);

	ASSERT_EQ(0, parse_ref("17", &ref, &err));
	EXPECT_EQ(17, ref.ifindex);
	EXPECT_STREQ("17", ref.name);	/* kept for messages */
	free(err);

	ASSERT_EQ(0, parse_ref("abcdefghijklmno", &ref, &err));	/* IFNAMSIZ - 1 */
	EXPECT_EQ(0, ref.ifindex);
	free(err);

	ASSERT_EQ(0, parse_ref("4294967295", &ref, &err));
	EXPECT_EQ(4294967295u, ref.ifindex);
	free(err);
}

TEST(dev_ref_rejects_impossible_devices)
{
	static const char *const bad[] = { "", "0", "4294967296", "abcdefghijklmnop" };
	struct dev_ref ref;
	unsigned int i;
	char *err;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(EXIT_USAGE, parse_ref(bad[i], &ref, &err)) TH_LOG("case %u", i);
		EXPECT_EQ(0, strncmp("nictlctl: show: invalid device '", err, 32));
		EXPECT_NE(NULL, strstr(err, "; see: nictlctl show --help\n"));
		free(err);
	}
}

/* The attributes of request @msg, indexed by type. */
static void request_attrs(struct nl_msg *msg, struct nlattr **tb)
{
	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, NICTL_A_MAX, NULL))
		abort();
}

TEST(requests_name_the_device)
{
	struct ctl_nl nl = { .sk = NULL, .family = FAMILY };
	struct dev_ref by_index = { 7, "7" }, by_name = { 0, "eth0" };
	struct nlattr *tb[NICTL_A_MAX + 1];
	struct genlmsghdr *gnlh;
	struct nl_msg *msg;

	msg = dev_request(&nl, NICTL_CMD_RESTORE, &by_index);
	ASSERT_NE(NULL, msg);
	EXPECT_EQ(FAMILY, nlmsg_hdr(msg)->nlmsg_type);
	EXPECT_EQ(0, nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP);
	gnlh = nlmsg_data(nlmsg_hdr(msg));
	EXPECT_EQ(NICTL_CMD_RESTORE, gnlh->cmd);
	EXPECT_EQ(NICTL_FAMILY_VERSION, gnlh->version);
	request_attrs(msg, tb);
	ASSERT_NE(NULL, tb[NICTL_A_IFINDEX]);
	EXPECT_EQ(7, nla_get_u32(tb[NICTL_A_IFINDEX]));
	EXPECT_EQ(NULL, tb[NICTL_A_IFNAME]);
	nlmsg_free(msg);

	msg = dev_request(&nl, NICTL_CMD_DEV_GET, &by_name);
	ASSERT_NE(NULL, msg);
	request_attrs(msg, tb);
	EXPECT_EQ(NULL, tb[NICTL_A_IFINDEX]);
	ASSERT_NE(NULL, tb[NICTL_A_IFNAME]);
	EXPECT_STREQ("eth0", nla_get_string(tb[NICTL_A_IFNAME]));
	nlmsg_free(msg);

	msg = dev_request(&nl, NICTL_CMD_DEV_GET, NULL);
	ASSERT_NE(NULL, msg);
	EXPECT_EQ(NLM_F_DUMP, nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP);
	request_attrs(msg, tb);
	EXPECT_EQ(NULL, tb[NICTL_A_IFINDEX]);
	EXPECT_EQ(NULL, tb[NICTL_A_IFNAME]);
	nlmsg_free(msg);
}

TEST_HARNESS_MAIN
