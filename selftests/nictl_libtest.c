// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side tests of the helpers in lib/ (`make -C selftests unit`): the
 * messages the raw client builds and the replies, acks and extacks it
 * parses, checked byte for byte on synthetic buffers, plus the parsers of
 * cpulists and /proc/interrupts. No module needed.
 */
#include <string.h>

#include <linux/genetlink.h>

#include "kselftest_harness.h"

#include "cpus.h"
#include "irqs.h"
#include "netdev.h"
#include "nictl.h"
#include "verify.h"

TEST(cpulist_round_trip)
{
	struct cpus s;
	char list[CPUS_LIST_LEN];

	ASSERT_EQ(0, cpus_parse(&s, "0-3,6,8-9\n"));
	EXPECT_EQ(7U, cpus_count(&s));
	EXPECT_EQ(2U, cpus_nbytes(&s));
	cpus_format(&s, list, sizeof(list));
	EXPECT_STREQ("0-3,6,8-9", list);
	ASSERT_EQ(0, cpus_parse(&s, ""));
	EXPECT_EQ(0U, cpus_nbytes(&s));
	EXPECT_EQ(-1, cpus_first(&s));
	cpus_format(&s, list, sizeof(list));
	EXPECT_STREQ("", list);
	ASSERT_EQ(0, cpus_parse(&s, "4096"));
	EXPECT_EQ(513U, cpus_nbytes(&s));
}

TEST(cpulist_rejects_garbage)
{
	struct cpus s;

	EXPECT_EQ(-EINVAL, cpus_parse(&s, "3-1"));
	EXPECT_EQ(-EINVAL, cpus_parse(&s, "1,,2"));
	EXPECT_EQ(-EINVAL, cpus_parse(&s, "1,"));
	EXPECT_EQ(-EINVAL, cpus_parse(&s, "x"));
	EXPECT_EQ(-EINVAL, cpus_parse(&s, "8192"));
	EXPECT_EQ(-EINVAL, cpus_from_bytes(&s, "", NICTL_CPUMASK_MAX_BYTES + 1));
}

static int count_attrs(const struct nlattr *attr, void *data)
{
	unsigned int *seen = data;

	*seen |= 1U << mnl_attr_get_type(attr);
	return MNL_CB_OK;
}

TEST(bind_request_layout)
{
	const struct nictl_place place[] = { { 1, 7 }, { 0, 5 } };
	struct nl_client c = { .family = 0x1234, .seq = 41 };
	struct nictl_bind_args args = {
		.ifname = "vnode1",
		.flags = NICTL_BIND_F_DRY_RUN,
		.n_place = 2,
		.place = place,
	};
	char buf[NL_REQ_SIZE];
	const struct genlmsghdr *genl;
	const struct nlattr *attr, *inner;
	struct nlmsghdr *nlh;
	unsigned int seen = 0, nests = 0;
	struct cpus cpus;

	nlh = nictl_bind_msg(&c, buf, &args);
	EXPECT_EQ(0x1234, nlh->nlmsg_type);
	EXPECT_EQ(NLM_F_REQUEST | NLM_F_ACK, nlh->nlmsg_flags);
	EXPECT_EQ(42U, nlh->nlmsg_seq);
	genl = mnl_nlmsg_get_payload(nlh);
	EXPECT_EQ(NICTL_CMD_BIND, genl->cmd);
	EXPECT_EQ(NICTL_FAMILY_VERSION, genl->version);
	EXPECT_EQ(0, genl->reserved);
	mnl_attr_for_each(attr, nlh, sizeof(*genl)) {
		switch (mnl_attr_get_type(attr)) {
		case NICTL_A_IFNAME:
			EXPECT_STREQ("vnode1", mnl_attr_get_str(attr));
			EXPECT_EQ(7, mnl_attr_get_payload_len(attr));
			break;
		case NICTL_A_FLAGS:
			EXPECT_EQ((uint32_t)NICTL_BIND_F_DRY_RUN, mnl_attr_get_u32(attr));
			break;
		case NICTL_A_QUEUE_CPU:
			seen = 0;
			mnl_attr_parse_nested(attr, count_attrs, &seen);
			EXPECT_EQ((1U << NICTL_A_QUEUE_CPU_QUEUE) | (1U << NICTL_A_QUEUE_CPU_CPU), seen);
			mnl_attr_for_each_nested(inner, attr)
				EXPECT_EQ(mnl_attr_get_type(inner) == NICTL_A_QUEUE_CPU_QUEUE ?
					  place[nests].queue : place[nests].cpu,
					  mnl_attr_get_u32(inner));
			nests++;
			break;
		default:
			EXPECT_TRUE(false) TH_LOG("attribute %u", mnl_attr_get_type(attr));
		}
	}
	EXPECT_EQ(2U, nests);

	/* A CPU set travels in as few bytes as carry it. */
	cpus_zero(&cpus);
	cpus_set(&cpus, 9);
	args.cpus = &cpus;
	args.n_place = 0;
	nlh = nictl_bind_msg(&c, buf, &args);
	seen = 0;
	mnl_attr_for_each(attr, nlh, sizeof(*genl)) {
		if (mnl_attr_get_type(attr) != NICTL_A_CPUS)
			continue;
		seen++;
		EXPECT_EQ(2, mnl_attr_get_payload_len(attr));
		EXPECT_EQ(0x02, ((const uint8_t *)mnl_attr_get_payload(attr))[1]);
	}
	EXPECT_EQ(1U, seen);
}

TEST(dump_request_asks_for_no_ack)
{
	struct nl_client c = { .family = 30 };
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh = nictl_msg(&c, buf, NICTL_CMD_DEV_GET, NLM_F_DUMP);

	EXPECT_EQ(NLM_F_REQUEST | NLM_F_DUMP, nlh->nlmsg_flags);
}

/*
 * The kernel's answer to @req: an NLMSG_ERROR that echoes @req unless
 * @capped, then the extack TLVs.
 */
static size_t error_msg(void *buf, const struct nlmsghdr *req, int error, bool capped,
			const char *msg, uint32_t offs)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsgerr *e;
	size_t echo = capped ? sizeof(*req) : req->nlmsg_len;

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_flags = (capped ? NLM_F_CAPPED : 0) | (msg ? NLM_F_ACK_TLVS : 0);
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(e->error) + echo);
	e->error = error;
	memcpy(&e->msg, req, echo);
	if (msg) {
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, msg);
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, offs);
	}
	return nlh->nlmsg_len;
}

TEST(error_with_extack)
{
	struct nl_client c = { .family = 30 };
	char req_buf[NL_REQ_SIZE], buf[NL_REQ_SIZE * 2];
	struct nlmsghdr *req = nictl_msg(&c, req_buf, NICTL_CMD_DEV_GET, 0);
	struct nl_result res;
	bool capped;
	size_t len;

	mnl_attr_put_strz(req, NICTL_A_IFNAME, "a-rather-long-name");
	for (capped = false; ; capped = true) {
		memset(&res, 0, sizeof(res));
		len = error_msg(buf, req, -EINVAL, capped, "CPU 9 does not exist", 20);
		EXPECT_EQ(-EINVAL, nl_parse_buf(buf, len, req->nlmsg_seq, NULL, NULL, &res));
		EXPECT_EQ(EINVAL, res.err);
		EXPECT_STREQ("CPU 9 does not exist", res.msg);
		EXPECT_TRUE(res.has_offs);
		EXPECT_EQ(20U, res.offs);
		if (capped)
			break;
	}
	memset(&res, 0, sizeof(res));
	len = error_msg(buf, req, -ENODEV, false, NULL, 0);
	EXPECT_EQ(-ENODEV, nl_parse_buf(buf, len, req->nlmsg_seq, NULL, NULL, &res));
	EXPECT_STREQ("", res.msg);
	EXPECT_FALSE(res.has_offs);
	/* Someone else's answer is a protocol error, not ours. */
	EXPECT_EQ(-EPROTO, nl_parse_buf(buf, len, req->nlmsg_seq + 1, NULL, NULL, &res));
}

/* A DEV_GET reply for "vnode1" with one IRQ on CPUs 4-5, effective 4. */
static struct nlmsghdr *dev_reply(void *buf, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;
	struct nlattr *nest;
	uint8_t aff = 0x30, eff = 0x10;

	nlh->nlmsg_type = 30;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = NICTL_CMD_DEV_GET;
	genl->version = NICTL_FAMILY_VERSION;
	mnl_attr_put_u32(nlh, NICTL_A_IFINDEX, 3);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	mnl_attr_put_u32(nlh, NICTL_A_NUMA_NODE, (uint32_t)-1);
	nest = mnl_attr_nest_start(nlh, NICTL_A_IRQ);
	mnl_attr_put_u32(nlh, NICTL_A_IRQ_NUM, 45);
	mnl_attr_put_strz(nlh, NICTL_A_IRQ_NAME, "virtio1-input.0");
	mnl_attr_put(nlh, NICTL_A_IRQ_AFFINITY, 1, &aff);
	mnl_attr_put(nlh, NICTL_A_IRQ_EFFECTIVE, 1, &eff);
	mnl_attr_nest_end(nlh, nest);
	return nlh;
}

static void ack_after(struct nlmsghdr *reply, const struct nlmsghdr *req)
{
	char *next = (char *)reply + reply->nlmsg_len;

	error_msg(next, req, 0, true, NULL, 0);
}

TEST(reply_then_ack)
{
	struct nl_client c = { .family = 30 };
	char req_buf[NL_REQ_SIZE], buf[NL_REQ_SIZE];
	struct nlmsghdr *req = nictl_msg(&c, req_buf, NICTL_CMD_DEV_GET, 0);
	struct nlmsghdr *reply = dev_reply(buf, req->nlmsg_seq);
	struct nictl_dev dev;
	struct nl_result res = { 0 };
	size_t len;

	ack_after(reply, req);
	len = reply->nlmsg_len + MNL_ALIGN(((struct nlmsghdr *)(buf + reply->nlmsg_len))->nlmsg_len);
	ASSERT_EQ(0, nl_parse_buf(buf, len, req->nlmsg_seq, nictl_dev_cb, &dev, &res));
	EXPECT_EQ(3U, dev.ifindex);
	EXPECT_STREQ("vnode1", dev.ifname);
	EXPECT_EQ(-1, dev.numa_node);
	ASSERT_EQ(1U, dev.n_irqs);
	EXPECT_EQ(45U, dev.irqs[0].num);
	EXPECT_STREQ("virtio1-input.0", dev.irqs[0].name);
	EXPECT_EQ(2U, cpus_count(&dev.irqs[0].affinity));
	EXPECT_EQ(4, cpus_first(&dev.irqs[0].effective));
	EXPECT_EQ(1U, dev.irqs[0].effective_len);
	EXPECT_FALSE(dev.irqs[0].present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU));
	/* Without the ack the transaction is not over yet. */
	EXPECT_EQ(1, nl_parse_buf(buf, reply->nlmsg_len, req->nlmsg_seq, nictl_dev_cb, &dev,
				  &res));
}

/* A dump that splits a device over two messages, then one more device. */
TEST(dump_appends_continued_device)
{
	struct nl_client c = { .family = 30 };
	char req_buf[NL_REQ_SIZE], buf[NL_REQ_SIZE * 2];
	struct nlmsghdr *req = nictl_msg(&c, req_buf, NICTL_CMD_DEV_GET, NLM_F_DUMP);
	struct nictl_devs *devs = malloc(sizeof(*devs));
	struct nl_result res = { 0 };
	struct nlmsghdr *nlh;
	size_t len = 0;

	ASSERT_NE(NULL, devs);
	devs->n = 0;
	dev_reply(buf, req->nlmsg_seq);
	len += MNL_ALIGN(((struct nlmsghdr *)buf)->nlmsg_len);
	dev_reply(buf + len, req->nlmsg_seq);
	len += MNL_ALIGN(((struct nlmsghdr *)(buf + len))->nlmsg_len);
	nlh = dev_reply(buf + len, req->nlmsg_seq);
	/* Rewrite the ifindex of the third message: another device. */
	*(uint32_t *)mnl_attr_get_payload(mnl_nlmsg_get_payload_offset(nlh,
			sizeof(struct genlmsghdr))) = 4;
	len += MNL_ALIGN(nlh->nlmsg_len);
	nlh = mnl_nlmsg_put_header(buf + len);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_seq = req->nlmsg_seq;
	*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = 0;
	len += nlh->nlmsg_len;

	ASSERT_EQ(0, nl_parse_buf(buf, len, req->nlmsg_seq, nictl_devs_cb, devs, &res));
	ASSERT_EQ(2U, devs->n);
	EXPECT_EQ(3U, devs->dev[0].ifindex);
	EXPECT_EQ(2U, devs->dev[0].n_irqs);
	EXPECT_EQ(4U, devs->dev[1].ifindex);
	EXPECT_EQ(1U, devs->dev[1].n_irqs);
	free(devs);
}

TEST(malformed_replies_are_refused)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct nictl_dev dev;
	const uint8_t byte = 1;

	nlh = dev_reply(buf, 1);
	mnl_attr_put(nlh, NICTL_A_RX_QUEUES, 1, &byte);
	EXPECT_EQ(-EPROTO, nictl_parse_dev(nlh, &dev));
	nlh = dev_reply(buf, 1);
	mnl_attr_put_u32(nlh, NICTL_A_IFINDEX, 4);
	EXPECT_EQ(-EPROTO, nictl_parse_dev(nlh, &dev));
	nlh = dev_reply(buf, 1);
	mnl_attr_put_u32(nlh, NICTL_A_FLAGS, 0);
	EXPECT_EQ(-EPROTO, nictl_parse_dev(nlh, &dev));
}

static const char interrupts[] =
	"            CPU0       CPU1       \n"
	"   0:         50          0   IO-APIC   2-edge      timer\n"
	"  24:          0          0  PCI-MSIX-0000:81:00.0   0-edge      virtio1-config\n"
	"  25:         10          3  PCI-MSIX-0000:81:00.0   1-edge      virtio1-input.0\n"
	"  26:          0          0  PCI-MSIX-0000:81:00.0   2-edge      virtio1-output.0\n"
	"  27:          1          0  PCI-MSIX-0000:81:00.0   3-edge      virtio1-input.1\n"
	"  28:          0          0  PCI-MSIX-0000:81:00.0   4-edge      virtio1-output.1\n"
	"  29:          0          0  PCI-MSIX-0000:00:03.0   1-edge      virtio10-input.0\n"
	"  30:          0          0   IO-APIC  11-fasteoi   uhci, ehci\n"
	"NMI:          0          0   Non-maskable interrupts\n";

TEST(proc_interrupts_queue_vectors)
{
	FILE *f = fmemopen((void *)interrupts, sizeof(interrupts) - 1, "r");
	struct proc_irqs *p = malloc(sizeof(*p));
	struct queue_irq q[8];
	unsigned int n;

	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, proc_interrupts_parse(f, p));
	fclose(f);
	ASSERT_EQ(8U, p->n);
	EXPECT_STREQ("virtio1-config", p->irq[1].label);
	EXPECT_STREQ("ehci", p->irq[7].label);
	EXPECT_TRUE(proc_irq_has_name(&p->irq[7], "uhci"));
	EXPECT_FALSE(proc_irq_has_name(&p->irq[7], "uhc"));
	ASSERT_EQ(0, proc_queue_irqs(p, "virtio1", q, 8, &n));
	ASSERT_EQ(4U, n);
	EXPECT_EQ(25U, q[0].irq);
	EXPECT_EQ((uint32_t)NICTL_QUEUE_KIND_RX, q[0].kind);
	EXPECT_EQ(26U, q[1].irq);
	EXPECT_EQ((uint32_t)NICTL_QUEUE_KIND_TX, q[1].kind);
	EXPECT_EQ(1U, q[3].queue);
	free(p);
}

TEST(queue_irq_names)
{
	uint32_t queue, kind;

	EXPECT_TRUE(queue_irq_name("e1k-rx-0", "e1k", &queue, &kind));
	EXPECT_EQ((uint32_t)NICTL_QUEUE_KIND_RX, kind);
	EXPECT_TRUE(queue_irq_name("eth0-TxRx-12", "eth0", &queue, &kind));
	EXPECT_EQ(12U, queue);
	EXPECT_EQ((uint32_t)NICTL_QUEUE_KIND_COMBINED, kind);
	EXPECT_FALSE(queue_irq_name("e1k", "e1k", &queue, &kind));
	EXPECT_FALSE(queue_irq_name("e1k-rx-", "e1k", &queue, &kind));
	EXPECT_FALSE(queue_irq_name("e1k-rx-0x", "e1k", &queue, &kind));
	EXPECT_FALSE(queue_irq_name("virtio1-config", "virtio1", &queue, &kind));
	EXPECT_FALSE(queue_irq_name("virtio10-input.0", "virtio1", &queue, &kind));
}

TEST(numbers_in_messages)
{
	EXPECT_TRUE(mentions_number("CPU 7 is offline", 7));
	EXPECT_TRUE(mentions_number("vnode1 has 2 queues, 1 core", 1));
	EXPECT_FALSE(mentions_number("CPU 17 is offline", 7));
	EXPECT_FALSE(mentions_number("CPU 4096 does not exist", 409));
}

TEST_HARNESS_MAIN
