// SPDX-License-Identifier: GPL-2.0
/*
 * Host-side tests of the helpers in lib/ (`make -C selftests unit`): the
 * messages the raw client builds and the replies, acks and extacks it
 * parses, checked byte for byte on synthetic buffers, plus the parsers of
 * cpulists and /proc/interrupts. No module needed.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <linux/genetlink.h>

#include "kselftest_harness.h"

#include "cpus.h"
#include "irqs.h"
#include "main.h"
#include "netdev.h"
#include "nictl.h"
#include "run.h"
#include "stats.h"
#include "sys.h"
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

/* Start a reply of @cmd in @buf with sequence @seq. */
static struct nlmsghdr *reply_start(void *buf, uint32_t seq, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = 30;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_flags = NLM_F_MULTI;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = NICTL_FAMILY_VERSION;
	return nlh;
}

/* Histogram buckets 0 to @n - 1 as the module puts them, with @low_ns of bucket 1. */
static void put_hist(struct nlmsghdr *nlh, const uint64_t *hist, unsigned int n,
		     uint32_t low_ns)
{
	struct nlattr *nest;
	unsigned int b;

	for (b = 0; b < n; b++) {
		nest = mnl_attr_nest_start(nlh, NICTL_A_SOFTIRQ_HIST);
		mnl_attr_put_u32(nlh, NICTL_A_HIST_BUCKET_LOW_NS, b ? low_ns << (b - 1) : 0);
		if (b < NICTL_HIST_BUCKETS - 1)
			mnl_attr_put_u32(nlh, NICTL_A_HIST_BUCKET_HIGH_NS, low_ns << b);
		mnl_attr_put_u64(nlh, NICTL_A_HIST_BUCKET_COUNT, hist[b]);
		mnl_attr_nest_end(nlh, nest);
	}
}

/* One vector of a STATS_GET message: @count runs of 3 us (bucket 2: 2-4 us). */
static void put_softirq(struct nlmsghdr *nlh, uint32_t vec, uint64_t count)
{
	uint64_t hist[NICTL_HIST_BUCKETS] = { [2] = count };
	struct nlattr *nest = mnl_attr_nest_start(nlh, NICTL_A_SOFTIRQ);

	mnl_attr_put_u32(nlh, NICTL_A_SOFTIRQ_VEC, vec);
	mnl_attr_put_u64(nlh, NICTL_A_SOFTIRQ_COUNT, count);
	mnl_attr_put_u64(nlh, NICTL_A_SOFTIRQ_TIME_NS, count * 3000);
	mnl_attr_put_u64(nlh, NICTL_A_SOFTIRQ_MAX_NS, count ? 3000 : 0);
	put_hist(nlh, hist, NICTL_HIST_BUCKETS, 1000);
	mnl_attr_nest_end(nlh, nest);
}

/* One poll kind of a STATS_GET message: @polls polls of 2 packets and 1 us, none busy. */
static void put_poll(struct nlmsghdr *nlh, uint32_t kind, uint64_t polls)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, NICTL_A_POLL);

	mnl_attr_put_u32(nlh, NICTL_A_POLL_KIND, kind);
	mnl_attr_put_u64(nlh, NICTL_A_POLL_POLLS, polls);
	mnl_attr_put_u64(nlh, NICTL_A_POLL_PACKETS, polls * 2);
	mnl_attr_put_u64(nlh, NICTL_A_POLL_TIME_NS, polls * 1000);
	mnl_attr_put_u64(nlh, NICTL_A_POLL_UNTIMED, 0);
	mnl_attr_put_u64(nlh, NICTL_A_POLL_BUSY_POLLS, 0);
	mnl_attr_put_u64(nlh, NICTL_A_POLL_BUSY_NS, 0);
	mnl_attr_nest_end(nlh, nest);
}

static void put_napi_time(struct nlmsghdr *nlh, uint32_t id, uint64_t time_ns)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, NICTL_A_NAPI);

	mnl_attr_put_u32(nlh, NICTL_A_NAPI_ID, id);
	mnl_attr_put_u64(nlh, NICTL_A_NAPI_TIME_NS, time_ns);
	mnl_attr_put_u64(nlh, NICTL_A_NAPI_BUSY_NS, 0);
	mnl_attr_nest_end(nlh, nest);
}

/*
 * The STATS_GET message of @cpu: @runs NET_RX runs, none of NET_TX, each
 * with a device NAPI poll (NAPI 8193's) and one backlog poll every other.
 */
static struct nlmsghdr *cpu_stats_msg(void *buf, uint32_t seq, uint32_t cpu, uint64_t runs)
{
	struct nlmsghdr *nlh = reply_start(buf, seq, NICTL_CMD_STATS_GET);

	mnl_attr_put_u32(nlh, NICTL_A_CPU, cpu);
	mnl_attr_put_u8(nlh, NICTL_A_STATS_ENABLED, 1);
	mnl_attr_put_u64(nlh, NICTL_A_STATS_START_NS, 1000000);
	mnl_attr_put_u64(nlh, NICTL_A_STATS_NOW_NS, 2000000000);
	mnl_attr_put_u64(nlh, NICTL_A_NAPI_UNATTRIBUTED, 0);
	put_softirq(nlh, NICTL_SOFTIRQ_NET_RX, runs);
	put_softirq(nlh, NICTL_SOFTIRQ_NET_TX, 0);
	put_poll(nlh, NICTL_POLL_DEVICE, runs);
	put_poll(nlh, NICTL_POLL_BACKLOG, runs / 2);
	if (runs)
		put_napi_time(nlh, 8193, runs * 1000);
	return nlh;
}

/* A dump of one message per possible CPU of this machine, CPU n with n runs. */
static size_t stats_dump(char *buf, uint32_t seq)
{
	struct nlmsghdr *nlh;
	struct cpus possible;
	size_t len = 0;
	int cpu;

	if (read_cpus("/sys/devices/system/cpu/possible", &possible))
		return 0;
	for_each_cpu(cpu, &possible) {
		nlh = cpu_stats_msg(buf + len, seq, cpu, cpu);
		len += MNL_ALIGN(nlh->nlmsg_len);
	}
	nlh = mnl_nlmsg_put_header(buf + len);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_seq = seq;
	*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = 0;
	return len + nlh->nlmsg_len;
}

TEST(stats_dump_parses_and_holds)
{
	char *buf = malloc(NICTL_MAX_CPUS * 4096);
	struct nictl_stats *st = malloc(sizeof(*st)), *later = malloc(sizeof(*later));
	const struct nictl_softirq *rx;
	struct nl_result res = { 0 };
	unsigned int i;
	size_t len;

	ASSERT_TRUE(buf && st && later);
	len = stats_dump(buf, 7);
	ASSERT_LT(0U, len);
	st->n = 0;
	ASSERT_EQ(0, nl_parse_buf(buf, len, 7, nictl_stats_cb, st, &res));
	ASSERT_LE(1U, st->n);
	EXPECT_EQ(1U, st->cpu[0].enabled);
	EXPECT_EQ(2000000000U, st->cpu[0].now_ns);
	rx = &st->cpu[st->n - 1].vec[NICTL_SOFTIRQ_NET_RX];
	EXPECT_EQ(st->cpu[st->n - 1].cpu, rx->count);
	EXPECT_EQ(rx->count, rx->hist[2]);
	EXPECT_EQ(rx->count, st->cpu[st->n - 1].poll[NICTL_POLL_DEVICE].polls);
	EXPECT_EQ(rx->count / 2, st->cpu[st->n - 1].poll[NICTL_POLL_BACKLOG].polls);
	EXPECT_EQ(!!rx->count, st->cpu[st->n - 1].n_napi_times);
	EXPECT_TRUE(stats_consistent(st));
	EXPECT_TRUE(stats_enabled_is(st, true));
	EXPECT_EQ(!stats_runs(st, NICTL_SOFTIRQ_NET_RX), stats_zero(st));

	/* The same counters later; then one that went back. */
	*later = *st;
	for (i = 0; i < later->n; i++)
		later->cpu[i].now_ns++;
	EXPECT_TRUE(stats_frozen(st, later));
	EXPECT_TRUE(stats_advanced(st, later));
	later->cpu[0].vec[NICTL_SOFTIRQ_NET_TX].hist[3]++;
	EXPECT_FALSE(stats_frozen(st, later));
	EXPECT_FALSE(stats_advanced(later, st));
	later->cpu[0].vec[NICTL_SOFTIRQ_NET_TX].hist[3]--;
	later->cpu[0].poll[NICTL_POLL_BACKLOG].untimed++;
	EXPECT_FALSE(stats_frozen(st, later));
	EXPECT_FALSE(stats_advanced(later, st));
	free(buf);
	free(st);
	free(later);
}

/* Each broken invariant of one CPU's vector is caught. */
TEST(stats_invariants_catch_each_break)
{
	struct nictl_stats *st = malloc(sizeof(*st));
	struct nictl_softirq *rx;
	char buf[NL_REQ_SIZE];
	struct cpus possible;

	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, read_cpus("/sys/devices/system/cpu/possible", &possible));
	/* Only a machine with CPU 0 alone makes a one-message dump whole. */
	st->n = 0;
	ASSERT_EQ(0, nictl_stats_cb(cpu_stats_msg(buf, 1, 0, 4), st));
	rx = &st->cpu[0].vec[NICTL_SOFTIRQ_NET_RX];
	EXPECT_EQ(cpus_count(&possible) == 1, stats_consistent(st));
	for (st->n = 1; st->n < cpus_count(&possible); st->n++) {
		st->cpu[st->n] = st->cpu[0];
		st->cpu[st->n].cpu = cpus_next(&possible, st->cpu[st->n - 1].cpu);
	}
	ASSERT_TRUE(stats_consistent(st));

	rx->hist[1]++;			/* the histogram outgrows the count */
	EXPECT_FALSE(stats_consistent(st));
	rx->hist[1]--;
	rx->max_ns = 1999;		/* below bucket 2, the highest in use */
	EXPECT_FALSE(stats_consistent(st));
	rx->max_ns = 4000;		/* past it */
	EXPECT_FALSE(stats_consistent(st));
	rx->max_ns = 3000;
	rx->time_ns = 4 * 2000 - 1;	/* less than four runs of 2 us */
	EXPECT_FALSE(stats_consistent(st));
	rx->time_ns = 12000;
	st->cpu[0].now_ns = st->cpu[0].start_ns + 11999;	/* more than the time passed */
	EXPECT_FALSE(stats_consistent(st));
	st->cpu[0].now_ns = 2000000000;
	st->cpu[1 % st->n].start_ns += st->n > 1;	/* two clocks in one dump */
	EXPECT_EQ(st->n == 1, stats_consistent(st));
	st->cpu[1 % st->n].start_ns = st->cpu[0].start_ns;
	st->cpu[0].present &= ~ATTR_BIT(NICTL_A_NAPI_UNATTRIBUTED);
	EXPECT_FALSE(stats_consistent(st));
	st->cpu[0].present |= ATTR_BIT(NICTL_A_NAPI_UNATTRIBUTED);
	ASSERT_TRUE(stats_consistent(st));

	/* The polls took more than NET_RX did: 4 + 2 us of 12. */
	st->cpu[0].poll[NICTL_POLL_BACKLOG].time_ns = 8001;
	EXPECT_FALSE(stats_consistent(st));
	st->cpu[0].poll[NICTL_POLL_BACKLOG].time_ns = 2000;
	st->cpu[0].poll[NICTL_POLL_DEVICE].untimed = 5;	/* more untimed than polls */
	EXPECT_FALSE(stats_consistent(st));
	st->cpu[0].poll[NICTL_POLL_DEVICE].untimed = 0;
	st->cpu[0].poll[NICTL_POLL_DEVICE].present &= ~ATTR_BIT(NICTL_A_POLL_UNTIMED);
	EXPECT_FALSE(stats_consistent(st));
	st->cpu[0].poll[NICTL_POLL_DEVICE].present |= ATTR_BIT(NICTL_A_POLL_UNTIMED);
	st->cpu[0].poll[NICTL_POLL_DEVICE].busy_polls = 5;	/* more busy polls than polls */
	EXPECT_FALSE(stats_consistent(st));
	st->cpu[0].poll[NICTL_POLL_DEVICE].busy_polls = 0;
	st->cpu[0].poll[NICTL_POLL_DEVICE].present &= ~ATTR_BIT(NICTL_A_POLL_BUSY_NS);
	EXPECT_FALSE(stats_consistent(st));
	st->cpu[0].poll[NICTL_POLL_DEVICE].present |= ATTR_BIT(NICTL_A_POLL_BUSY_NS);
	st->cpu[0].napi_time[st->cpu[0].n_napi_times++] = st->cpu[0].napi_time[0];
	EXPECT_FALSE(stats_consistent(st));	/* a NAPI twice */
	st->cpu[0].napi_time[1].id = 0;
	EXPECT_FALSE(stats_consistent(st));	/* a NAPI without an id */
	st->cpu[0].napi_time[1].id = 8194;
	EXPECT_TRUE(stats_consistent(st));
	free(st);
}

TEST(malformed_stats_are_refused)
{
	uint64_t hist[NICTL_HIST_BUCKETS] = { 0 };
	struct nictl_stats *st = malloc(sizeof(*st));
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	ASSERT_NE(NULL, st);
	/* A vector twice. */
	nlh = cpu_stats_msg(buf, 1, 0, 1);
	put_softirq(nlh, NICTL_SOFTIRQ_NET_RX, 1);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	/* A vector nest that does not say which, and a short histogram. */
	nlh = cpu_stats_msg(buf, 1, 0, 1);
	nest = mnl_attr_nest_start(nlh, NICTL_A_SOFTIRQ);
	mnl_attr_put_u64(nlh, NICTL_A_SOFTIRQ_COUNT, 1);
	mnl_attr_nest_end(nlh, nest);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	nlh = reply_start(buf, 1, NICTL_CMD_STATS_GET);
	nest = mnl_attr_nest_start(nlh, NICTL_A_SOFTIRQ);
	mnl_attr_put_u32(nlh, NICTL_A_SOFTIRQ_VEC, NICTL_SOFTIRQ_NET_TX);
	put_hist(nlh, hist, NICTL_HIST_BUCKETS - 1, 1000);
	mnl_attr_nest_end(nlh, nest);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	/* Every bucket, but of other bounds than the uapi says. */
	nlh = cpu_stats_msg(buf, 1, 0, 1);
	nest = mnl_attr_nest_start(nlh, NICTL_A_SOFTIRQ);
	mnl_attr_put_u32(nlh, NICTL_A_SOFTIRQ_VEC, NICTL_SOFTIRQ_NET_TX);
	put_hist(nlh, hist, NICTL_HIST_BUCKETS, 500);
	mnl_attr_nest_end(nlh, nest);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	/* A poll kind twice; one that does not say which; a NAPI with its polls. */
	nlh = cpu_stats_msg(buf, 1, 0, 1);
	put_poll(nlh, NICTL_POLL_DEVICE, 1);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	nlh = cpu_stats_msg(buf, 1, 0, 1);
	nest = mnl_attr_nest_start(nlh, NICTL_A_POLL);
	mnl_attr_put_u64(nlh, NICTL_A_POLL_POLLS, 1);
	mnl_attr_nest_end(nlh, nest);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	nlh = cpu_stats_msg(buf, 1, 0, 1);
	nest = mnl_attr_nest_start(nlh, NICTL_A_NAPI);
	mnl_attr_put_u32(nlh, NICTL_A_NAPI_ID, 8194);
	mnl_attr_put_u64(nlh, NICTL_A_NAPI_POLLS, 1);
	mnl_attr_nest_end(nlh, nest);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	/* A u64 in four bytes; a message of another command. */
	nlh = reply_start(buf, 1, NICTL_CMD_STATS_GET);
	mnl_attr_put_u32(nlh, NICTL_A_STATS_NOW_NS, 5);
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(nlh, st));
	st->n = 0;
	EXPECT_EQ(-EPROTO, nictl_stats_cb(reply_start(buf, 1, NICTL_CMD_DEV_GET), st));
	free(st);
}

/* A NAPI_GET reply of vnode1: NAPIs 8193 and 8194 on queues 0 and 1, polled on CPU 1. */
static struct nlmsghdr *napi_reply(void *buf, uint64_t polls)
{
	struct nlmsghdr *nlh = reply_start(buf, 1, NICTL_CMD_NAPI_GET);
	int nr_cpu_ids = sys_nr_cpu_ids();
	struct nlattr *nest;
	uint8_t cpus[NICTL_CPUMASK_MAX_BYTES] = { polls ? 0x02 : 0 };
	uint32_t q;

	mnl_attr_put_u32(nlh, NICTL_A_IFINDEX, 3);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	for (q = 0; q < 2; q++) {
		nest = mnl_attr_nest_start(nlh, NICTL_A_NAPI);
		mnl_attr_put_u32(nlh, NICTL_A_NAPI_ID, 8193 + q);
		mnl_attr_put_u32(nlh, NICTL_A_NAPI_QUEUE, q);
		mnl_attr_put_u64(nlh, NICTL_A_NAPI_POLLS, polls);
		mnl_attr_put_u64(nlh, NICTL_A_NAPI_PACKETS, polls * 3);
		mnl_attr_put(nlh, NICTL_A_NAPI_CPUS, (nr_cpu_ids + 7) / 8, cpus);
		mnl_attr_put_u64(nlh, NICTL_A_NAPI_TIME_NS, polls * 1000);
		mnl_attr_put_u64(nlh, NICTL_A_NAPI_BUSY_NS, 0);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh;
}

TEST(napi_reply_parses_and_holds)
{
	struct nictl_napis *n = malloc(sizeof(*n)), *later = malloc(sizeof(*later));
	char buf[NL_REQ_SIZE];

	ASSERT_TRUE(n && later && sys_nr_cpu_ids() > 1);
	ASSERT_EQ(0, nictl_napis_cb(napi_reply(buf, 0), n));
	EXPECT_EQ(NICTL_CMD_NAPI_GET, n->cmd);
	ASSERT_EQ(2U, n->n);
	EXPECT_EQ(8194U, napis_queue(n, 1)->id);
	EXPECT_TRUE(napis_consistent(n, "vnode1", 2));
	EXPECT_FALSE(napis_consistent(n, "vnode1", 1));
	EXPECT_FALSE(napis_consistent(n, "vnode0", 2));
	EXPECT_TRUE(napis_zero(n));

	ASSERT_EQ(0, nictl_napis_cb(napi_reply(buf, 5), later));
	EXPECT_TRUE(napis_consistent(later, "vnode1", 2));
	EXPECT_EQ(30U, napis_packets(later));
	EXPECT_TRUE(napis_advanced(n, later));
	EXPECT_FALSE(napis_frozen(n, later));
	EXPECT_FALSE(napis_advanced(later, n));
	EXPECT_FALSE(napis_zero(later));
	/* Polled, but on no CPU; more work than a poll may do. */
	cpus_zero(&later->napi[0].cpus);
	EXPECT_FALSE(napis_consistent(later, "vnode1", 2));
	later->napi[0] = later->napi[1];
	later->napi[0].id = 8193;
	later->napi[0].queue = 0;
	later->napi[0].packets = 5 * NAPI_POLL_WEIGHT + 1;
	EXPECT_FALSE(napis_consistent(later, "vnode1", 2));
	free(n);
	free(later);
}

TEST(histogram_bounds)
{
	EXPECT_EQ(0U, hist_lower_ns(0));
	EXPECT_EQ(1000U, hist_upper_ns(0));
	EXPECT_EQ(1000U, hist_lower_ns(1));
	EXPECT_EQ(512000U, hist_lower_ns(10));
	EXPECT_EQ(1024000U, hist_upper_ns(10));
	EXPECT_EQ(16384000U, hist_lower_ns(NICTL_HIST_BUCKETS - 1));
	EXPECT_EQ(UINT64_MAX, hist_upper_ns(NICTL_HIST_BUCKETS - 1));
	EXPECT_TRUE(counts_agree("packets", 1000, 1019));
	EXPECT_FALSE(counts_agree("packets", 1000, 1030));
	EXPECT_TRUE(counts_agree("packets", 3, 5));
	EXPECT_FALSE(counts_agree("packets", 2, 5));
	EXPECT_TRUE(share_at_least("runs", 9, 10, 90));
	EXPECT_FALSE(share_at_least("runs", 8, 10, 90));
	EXPECT_FALSE(share_at_least("runs", 0, 0, 90));
}

static const char prom_good[] =
	"# HELP nictl_up 1 when up.\n"
	"# TYPE nictl_up gauge\n"
	"nictl_up 1\n"
	"\n"
	"# TYPE nictl_runs_total counter\n"
	"nictl_runs_total{cpu=\"0\",vec=\"net_rx\"} 12 1700000000000\n"
	"nictl_runs_total{cpu=\"1\",dev=\"a\\\"b\\\\c\\n\"} 3\n"
	"# TYPE nictl_seconds histogram\n"
	"nictl_seconds_bucket{le=\"1e-06\"} 0\n"
	"nictl_seconds_bucket{le=\"+Inf\"} 2\n"
	"nictl_seconds_sum 0.000004500\n"
	"nictl_seconds_count 2\n";

TEST(prometheus_grammar)
{
	static const char *const bad[] = {
		"nictl_up 1\n",					/* no # TYPE */
		"# TYPE a gauge\na{x=\"1} 1\n",			/* unterminated value */
		"# TYPE a gauge\na{x=1} 1\n",				/* unquoted value */
		"# TYPE a gauge\na{x=\"\\q\"} 1\n",			/* unknown escape */
		"# TYPE a gauge\na\n",				/* no value */
		"# TYPE a gauge\na one\n",				/* not a number */
		"# TYPE a gauge\na 1 2 3\n",				/* 3: no timestamp */
		"# TYPE a gauge\n# TYPE a gauge\na 1\n",		/* typed twice */
		"# TYPE a gauge\n# TYPE b gauge\nb 1\na 2\n",	/* a family split */
		"# TYPE a gauge\na_sum 1\n",				/* _sum of a gauge */
		"# TYPE a gauges\na 1\n",				/* no such type */
		"# TYPE 1a gauge\n1a 1\n",				/* bad name */
		"# TYPE a gauge\na 1",					/* no newline */
		"",							/* nothing */
	};
	unsigned int i;

	EXPECT_TRUE(prom_text_ok(prom_good));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_FALSE(prom_text_ok(bad[i])) TH_LOG("accepted bad text %u", i);
	}
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
	EXPECT_EQ(13ULL, p->irq[2].count);
	EXPECT_EQ(50ULL, p->irq[0].count);
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

/* The debug kernel's scale reaches every test's timeout, this one's too. */
TEST(timeouts_follow_the_scale)
{
	int before = _metadata->timeout;

	ASSERT_EQ(0, unsetenv("NICTL_TIMEOUT_SCALE"));
	EXPECT_EQ(1U, timeout_scale());
	ASSERT_EQ(0, setenv("NICTL_TIMEOUT_SCALE", "3", 1));
	EXPECT_EQ(3U, timeout_scale());
	scale_test_timeouts();
	EXPECT_EQ(before * 3, _metadata->timeout);
	/* Nonsense means no scaling, not a test that never times out. */
	ASSERT_EQ(0, setenv("NICTL_TIMEOUT_SCALE", "0", 1));
	EXPECT_EQ(1U, timeout_scale());
	ASSERT_EQ(0, setenv("NICTL_TIMEOUT_SCALE", "101", 1));
	EXPECT_EQ(1U, timeout_scale());
	ASSERT_EQ(0, setenv("NICTL_TIMEOUT_SCALE", "ten", 1));
	EXPECT_EQ(1U, timeout_scale());
}

/*
 * Output still buffered when a test forks is written once: a plain fork()
 * would leave a copy in the child, which exit() writes a second time.
 */
TEST(fork_flushed_prints_once)
{
	char path[] = "/tmp/nictl-libtest-XXXXXX", buf[16] = "";
	int fd = mkstemp(path), saved, status;
	pid_t pid;

	ASSERT_LE(0, fd);
	unlink(path);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	ASSERT_LE(0, saved);
	ASSERT_EQ(STDOUT_FILENO, dup2(fd, STDOUT_FILENO));
	printf("once");
	pid = fork_flushed();
	if (!pid)
		exit(0);
	fflush(stdout);
	ASSERT_EQ(STDOUT_FILENO, dup2(saved, STDOUT_FILENO));
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_LT(0, pread(fd, buf, sizeof(buf) - 1, 0));
	EXPECT_STREQ("once", buf);
	close(saved);
	close(fd);
}

NICTL_TEST_MAIN
