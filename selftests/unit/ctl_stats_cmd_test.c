// SPDX-License-Identifier: GPL-2.0
/*
 * The stats command end to end, against a fake nictl module, the way
 * ctl_commands_test.c runs the other commands: the test defines the libnl
 * calls through which nictlctl reaches the kernel, and clock_nanosleep(), so
 * that -i waits for nothing. The module answers STATS_GET with the fixed
 * samples of ctl_stats_sample.h in turn (the third one second after the
 * second, with nothing new), and rewrites the fake softnet_stat to match, as
 * if the kernel's counters had moved. sysfs says CPUs 0-2 are online.
 * With the samples made stacked (sample_stacked()), DEV_GET describes bond0
 * and its two devices, and a NAPI_GET by ifindex gets one device's NAPIs.
 */
#include "ctl_fakesys.h"

#include <errno.h>
#include <getopt.h>
#include <time.h>

#include "kselftest_harness.h"

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "commands.h"
#include "ctl_capture.h"
#include "ctl_fakenl.h"
#include "ctl_stats_sample.h"
#include "report.h"

#define FAMILY		0x42
#define NR_SAMPLES	3

/* The fake module: what it answers and what it was asked. */
static struct {
	struct stats_sample samples[NR_SAMPLES];
	unsigned int nr_dumps;			/* STATS_GET requests answered */
	const char *softnet_path;
	int error;				/* answer requests with this ... */
	uint8_t error_cmd;			/* ... of this command (0: all) */
	bool no_now;				/* leave NOW_NS out of STATS_GET */
	struct timespec sleeps[4];		/* clock_nanosleep() deadlines */
	unsigned int nr_sleeps;
} fk;

/* -i sleeps until a deadline; the test only notes it. */
int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req,
		    struct timespec *rem)
{
	(void)clock;
	(void)flags;
	(void)rem;
	if (fk.nr_sleeps < ARRAY_SIZE(fk.sleeps))
		fk.sleeps[fk.nr_sleeps++] = *req;
	return 0;
}

static struct nl_msg *new_reply(uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, 0, 0, FAMILY, 0, flags, cmd, NICTL_FAMILY_VERSION))
		abort();
	return msg;
}

static void deliver(enum nl_cb_type type, struct nl_msg *msg)
{
	fnl.cb[type](msg, fnl.cb_arg[type]);
	nlmsg_free(msg);
}

static void put_cpus(struct nl_msg *msg, int type, const struct cpuset *cpus)
{
	uint8_t bytes[2];

	cpuset_to_bytes(cpus, bytes, sizeof(bytes));
	if (nla_put(msg, type, sizeof(bytes), bytes))
		abort();
}

/* softnet_stat as 6.12 writes it, for the sample the module just reported. */
static void write_softnet(const struct stats_sample *s)
{
	FILE *f = fopen(fk.softnet_path, "w");
	unsigned int i;

	for (i = 0; f && i < s->nr_cpus; i++) {
		if (!s->cpus[i].softnet.present)
			continue;
		fprintf(f, "%08x %08x %08x 00000000 00000000 00000000 00000000 00000000 "
			"00000000 %08x 00000000 00000000 %08x 00000000 00000000\n",
			s->cpus[i].softnet.processed, s->cpus[i].softnet.dropped,
			s->cpus[i].softnet.time_squeeze, s->cpus[i].softnet.received_rps,
			s->cpus[i].cpu);
	}
	if (!f || fclose(f))
		abort();
}

/* A CPU's poll kinds and the time of each NAPI polled there. */
static void put_polls(struct nl_msg *msg, const struct stats_cpu *c)
{
	struct nlattr *nest;
	unsigned int k, i;

	for (k = 0; k < __NICTL_POLL_MAX; k++) {
		nest = nla_nest_start(msg, NICTL_A_POLL);
		if (!nest || nla_put_u32(msg, NICTL_A_POLL_KIND, k) ||
		    nla_put_u64(msg, NICTL_A_POLL_POLLS, c->poll[k].polls) ||
		    nla_put_u64(msg, NICTL_A_POLL_PACKETS, c->poll[k].packets) ||
		    nla_put_u64(msg, NICTL_A_POLL_TIME_NS, c->poll[k].time_ns) ||
		    nla_put_u64(msg, NICTL_A_POLL_UNTIMED, c->poll[k].untimed))
			abort();
		nla_nest_end(msg, nest);
	}
	for (i = 0; i < c->nr_napi_times; i++) {
		nest = nla_nest_start(msg, NICTL_A_NAPI);
		if (!nest || nla_put_u32(msg, NICTL_A_NAPI_ID, c->napi_times[i].id) ||
		    nla_put_u64(msg, NICTL_A_NAPI_TIME_NS, c->napi_times[i].time_ns))
			abort();
		nla_nest_end(msg, nest);
	}
}

/* A vector's histogram as the module puts it: bucket b of [2^(b-1), 2^b) us. */
static void put_hist(struct nl_msg *msg, const uint64_t *hist)
{
	struct nlattr *nest;
	unsigned int b;

	for (b = 0; b < NICTL_HIST_BUCKETS; b++) {
		nest = nla_nest_start(msg, NICTL_A_SOFTIRQ_HIST);
		if (!nest || nla_put_u32(msg, NICTL_A_HIST_BUCKET_LOW_NS, b ? 500U << b : 0) ||
		    (b < NICTL_HIST_BUCKETS - 1 &&
		     nla_put_u32(msg, NICTL_A_HIST_BUCKET_HIGH_NS, 1000U << b)) ||
		    nla_put_u64(msg, NICTL_A_HIST_BUCKET_COUNT, hist[b]))
			abort();
		nla_nest_end(msg, nest);
	}
}

/* One message per CPU, as the module dumps them, then the file the kernel keeps. */
static void send_stats(void)
{
	const struct stats_sample *s = &fk.samples[fk.nr_dumps++ % NR_SAMPLES];
	const struct stats_cpu *c;
	struct nlattr *nest;
	struct nl_msg *msg;
	unsigned int i, v;

	for (i = 0; i < s->nr_cpus; i++) {
		c = &s->cpus[i];
		msg = new_reply(NICTL_CMD_STATS_GET, NLM_F_MULTI);
		if (nla_put_u32(msg, NICTL_A_CPU, c->cpu) ||
		    nla_put_u8(msg, NICTL_A_STATS_ENABLED, s->enabled) ||
		    nla_put_u64(msg, NICTL_A_STATS_START_NS, c->start_ns) ||
		    (!fk.no_now && nla_put_u64(msg, NICTL_A_STATS_NOW_NS, c->now_ns)) ||
		    nla_put_u64(msg, NICTL_A_NAPI_UNATTRIBUTED, c->napi_unattributed))
			abort();
		for (v = 0; v < __NICTL_SOFTIRQ_MAX; v++) {
			nest = nla_nest_start(msg, NICTL_A_SOFTIRQ);
			if (!nest || nla_put_u32(msg, NICTL_A_SOFTIRQ_VEC, v) ||
			    nla_put_u64(msg, NICTL_A_SOFTIRQ_COUNT, c->vec[v].count) ||
			    nla_put_u64(msg, NICTL_A_SOFTIRQ_TIME_NS, c->vec[v].time_ns) ||
			    nla_put_u64(msg, NICTL_A_SOFTIRQ_MAX_NS, c->vec[v].max_ns))
				abort();
			put_hist(msg, c->vec[v].hist);
			nla_nest_end(msg, nest);
		}
		put_polls(msg, c);
		deliver(NL_CB_VALID, msg);
	}
	write_softnet(s);
}

static void put_dev(struct nl_msg *msg, const struct nictl_dev *dev)
{
	if (nla_put_u32(msg, NICTL_A_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, NICTL_A_IFNAME, dev->ifname))
		abort();
}

/* A NIC and its combined IRQs, in a DEV_GET reply or one of its NICTL_A_LOWER nests. */
static void put_nic(struct nl_msg *msg, const struct nictl_dev *dev)
{
	struct nlattr *nest;
	unsigned int i;

	put_dev(msg, dev);
	if (nla_put_u32(msg, NICTL_A_RX_QUEUES, dev->rx_queues) ||
	    nla_put_u32(msg, NICTL_A_TX_QUEUES, dev->tx_queues))
		abort();
	for (i = 0; i < dev->nr_irqs; i++) {
		nest = nla_nest_start(msg, NICTL_A_IRQ);
		if (!nest || nla_put_u32(msg, NICTL_A_IRQ_NUM, dev->irqs[i].irq) ||
		    nla_put_u32(msg, NICTL_A_IRQ_QUEUE, dev->irqs[i].queue) ||
		    nla_put_u32(msg, NICTL_A_IRQ_KIND, dev->irqs[i].kind))
			abort();
		put_cpus(msg, NICTL_A_IRQ_AFFINITY, &dev->irqs[i].affinity);
		nla_nest_end(msg, nest);
	}
}

/*
 * DEV_GET: vnode1 and its two combined IRQs on CPUs 0 and 1; or, from a
 * stacked sample, bond0 with a nest for each device beneath it.
 */
static void send_dev(void)
{
	const struct dev_list *list = &fk.samples[0].dev;
	struct nl_msg *msg = new_reply(NICTL_CMD_DEV_GET, 0);
	struct nlattr *nest;
	unsigned int i;

	if (!list->stacked) {
		put_nic(msg, &list->devs[0]);
		deliver(NL_CB_VALID, msg);
		return;
	}
	if (nla_put_u32(msg, NICTL_A_IFINDEX, list->stacked_ifindex) ||
	    nla_put_string(msg, NICTL_A_IFNAME, list->stacked) ||
	    nla_put_u32(msg, NICTL_A_DEV_FLAGS, NICTL_DEV_F_STACKED))
		abort();
	for (i = 0; i < list->nr; i++) {
		nest = nla_nest_start(msg, NICTL_A_LOWER);
		if (!nest)
			abort();
		put_nic(msg, &list->devs[i]);
		nla_nest_end(msg, nest);
	}
	deliver(NL_CB_VALID, msg);
}

/* The device a NAPI_GET names: by ifindex one of the sample's, else (by name) the first. */
static const struct nictl_dev *asked_dev(const struct stats_sample *s,
					 const struct nlmsghdr *req)
{
	struct nlattr *tb[NICTL_A_MAX + 1];
	unsigned int i;

	if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, NICTL_A_MAX, NULL))
		abort();
	for (i = 0; tb[NICTL_A_IFINDEX] && i < s->dev.nr; i++)
		if (s->dev.devs[i].ifindex == nla_get_u32(tb[NICTL_A_IFINDEX]))
			return &s->dev.devs[i];
	return &s->dev.devs[0];
}

/*
 * NAPI_GET, from the sample the last STATS_GET reported: the NAPIs of the
 * device @req names; a dump sends one NAPI per message, as the module does
 * for a device with many.
 */
static void send_napis(const struct nlmsghdr *req)
{
	const struct stats_sample *s = &fk.samples[(fk.nr_dumps - 1) % NR_SAMPLES];
	const struct nictl_dev *dev = asked_dev(s, req);
	struct nl_msg *msg = new_reply(NICTL_CMD_NAPI_GET, 0);
	unsigned int i, sent = 0;
	struct nlattr *nest;

	put_dev(msg, dev);
	for (i = 0; i < s->nr_napis; i++) {
		if (s->napis[i].ifindex != dev->ifindex)
			continue;
		if ((req->nlmsg_flags & NLM_F_DUMP) && sent++) {
			deliver(NL_CB_VALID, msg);
			msg = new_reply(NICTL_CMD_NAPI_GET, 0);
			put_dev(msg, dev);
		}
		nest = nla_nest_start(msg, NICTL_A_NAPI);
		if (!nest || nla_put_u32(msg, NICTL_A_NAPI_ID, s->napis[i].id) ||
		    nla_put_u32(msg, NICTL_A_NAPI_QUEUE, s->napis[i].queue) ||
		    nla_put_u64(msg, NICTL_A_NAPI_POLLS, s->napis[i].polls) ||
		    nla_put_u64(msg, NICTL_A_NAPI_PACKETS, s->napis[i].packets) ||
		    nla_put_u64(msg, NICTL_A_NAPI_TIME_NS, s->napis[i].time_ns))
			abort();
		put_cpus(msg, NICTL_A_NAPI_CPUS, &s->napis[i].cpus);
		nla_nest_end(msg, nest);
	}
	deliver(NL_CB_VALID, msg);
}

static void send_error(const struct nlmsghdr *req)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_ERROR, NLM_F_CAPPED);
	struct nlmsgerr err = { .error = fk.error, .msg = *req };

	if (!msg || nlmsg_append(msg, &err, sizeof(err), NLMSG_ALIGNTO))
		abort();
	fnl.err_cb(NULL, nlmsg_data(nlmsg_hdr(msg)), fnl.err_arg);
	nlmsg_free(msg);
}

/* The fake module at work: answer the last request. */
int nl_recvmsgs(struct nl_sock *sk, struct nl_cb *cb)
{
	const struct nlmsghdr *req = fnl.req[fnl.nr_req - 1];
	const struct genlmsghdr *gnlh = nlmsg_data(req);
	int zero = 0;
	struct nl_msg *done;

	(void)sk;
	(void)cb;
	if (fk.error && (!fk.error_cmd || fk.error_cmd == gnlh->cmd)) {
		send_error(req);
		return -NLE_FAILURE;
	}
	if (gnlh->cmd == NICTL_CMD_STATS_GET)
		send_stats();
	else if (gnlh->cmd == NICTL_CMD_DEV_GET)
		send_dev();
	else if (gnlh->cmd == NICTL_CMD_NAPI_GET)
		send_napis(req);
	if (req->nlmsg_flags & NLM_F_DUMP) {
		done = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
		if (!done || nlmsg_append(done, &zero, sizeof(zero), NLMSG_ALIGNTO))
			abort();
		deliver(NL_CB_FINISH, done);
	} else {
		deliver(NL_CB_ACK, nlmsg_alloc_simple(NLMSG_ERROR, 0));
	}
	return 0;
}

FIXTURE(stats) {
	struct fakesys fs;
	char softnet[128];
	char *out;
	char *err;
};

FIXTURE_SETUP(stats)
{
	unsigned int i;

	memset(&fk, 0, sizeof(fk));
	fnl_reset();
	fakesys_create(&self->fs);
	fakesys_write(&self->fs, "0-2\n", "devices/system/cpu/online");
	fakesys_write(&self->fs, "", "net/softnet_stat");
	setenv("NICTL_PROCFS", self->fs.root, 1);
	snprintf(self->softnet, sizeof(self->softnet), "%s/net/softnet_stat", self->fs.root);
	fk.softnet_path = self->softnet;
	fnl.family = FAMILY;
	for (i = 0; i < NR_SAMPLES; i++)
		sample_make(&fk.samples[i], i, true);
	self->out = NULL;
	self->err = NULL;
}

FIXTURE_TEARDOWN(stats)
{
	unsigned int i;

	fnl_reset();
	for (i = 0; i < NR_SAMPLES; i++)
		stats_sample_free(&fk.samples[i]);
	free(self->out);
	free(self->err);
	unsetenv("NICTL_PROCFS");
	fakesys_destroy(&self->fs);
}

/* Run cmd_stats on the NULL-terminated arguments, capturing what it prints. */
static int run(FIXTURE_DATA(stats) *self, ...)
{
	char *argv[16] = { "stats" };
	int argc = 1;
	va_list ap;

	va_start(ap, self);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	return capture_command(cmd_stats, argv, &self->out, &self->err);
}

static uint8_t req_cmd(unsigned int i)
{
	return ((struct genlmsghdr *)nlmsg_data(fnl.req[i]))->cmd;
}

static void req_attrs(unsigned int i, struct nlattr **tb)
{
	if (genlmsg_parse(fnl.req[i], 0, tb, NICTL_A_MAX, NULL))
		abort();
}

/*
 * The requests of one sample, from request @i: STATS_GET, DEV_GET, then
 * @napi_gets NAPI_GET dumps (one per device beneath a stacked one).
 */
static bool sample_requests(unsigned int i, unsigned int napi_gets)
{
	bool ok = i + 2 + napi_gets <= fnl.nr_req && req_cmd(i) == NICTL_CMD_STATS_GET &&
		  req_cmd(i + 1) == NICTL_CMD_DEV_GET;
	unsigned int n;

	for (n = i + 2; ok && n < i + 2 + napi_gets; n++)
		ok = req_cmd(n) == NICTL_CMD_NAPI_GET && (fnl.req[n]->nlmsg_flags & NLM_F_DUMP);
	if (ok)
		return true;
	fprintf(stderr, "# want STATS_GET, DEV_GET and %u NAPI_GET dumps from request %u of %u:",
		napi_gets, i, fnl.nr_req);
	for (n = i; n < fnl.nr_req; n++)
		fprintf(stderr, " cmd %u flags %#x", req_cmd(n), fnl.req[n]->nlmsg_flags);
	fputc('\n', stderr);
	return false;
}

/* Request @i names its device by @ifindex, or by @name when @ifindex is 0. */
static bool names_dev(unsigned int i, unsigned int ifindex, const char *name)
{
	struct nlattr *tb[NICTL_A_MAX + 1];
	bool ok;

	req_attrs(i, tb);
	ok = ifindex ? tb[NICTL_A_IFINDEX] && nla_get_u32(tb[NICTL_A_IFINDEX]) == ifindex :
		       tb[NICTL_A_IFNAME] && !strcmp(nla_get_string(tb[NICTL_A_IFNAME]), name);
	if (!ok)
		fprintf(stderr, "# request %u does not name %s (ifindex %u)\n", i, name, ifindex);
	return ok;
}

static unsigned int count_lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

TEST_F(stats, snapshot_of_every_cpu)
{
	fk.nr_dumps = 1;	/* answer with the later sample */
	ASSERT_EQ(EXIT_SUCCESS, run(self, NULL));
	ASSERT_EQ(1, fnl.nr_req);
	EXPECT_EQ(NICTL_CMD_STATS_GET, req_cmd(0));
	EXPECT_EQ(NLM_F_DUMP, fnl.req[0]->nlmsg_flags & NLM_F_DUMP);
	EXPECT_EQ(0, fk.nr_sleeps);
	EXPECT_STREQ("", self->err);
	EXPECT_STREQ(
		"softirqs since the counters started 101.0 s ago; accounting on\n"
		"  CPU  NET_RX%  RX_RUNS  RX/s   RX_AVG  RX_MAX  NET_TX%  TX/s  TX_MAX\n"
		"  0    2.4      11500    113.9  213us   2.00ms  0.0      1.0   12.0us\n"
		"  1    0.1      200      2.0    550us   4.00ms  0.0      0.0   -\n"
		"  2    0.0      0        0.0    -       -       0.0      0.0   -\n"
		"\n"
		"NET_RX time: NAPI% in device NAPIs, BACKLOG% in the RPS backlog, "
		"OTHER% the rest\n"
		"  CPU  NET_RX%  NAPI%  BACKLOG%  OTHER%  BKLOG_PKTS\n"
		"  0    2.4      1.5    0.0       0.9     0\n"
		"  1    0.1      0.0    0.0       0.0     4400\n"
		"  2    0.0      0.0    0.0       0.0     0\n"
		"hottest CPU: 0, NET_RX 2.4% of the time since the start\n",
		self->out);
}

TEST_F(stats, interval_with_device_and_softnet)
{
	unsigned int i;

	ASSERT_EQ(EXIT_SUCCESS, run(self, "vnode1", "-i", "0.5", NULL));
	ASSERT_EQ(6, fnl.nr_req);
	for (i = 0; i < 6; i += 3) {
		EXPECT_TRUE(sample_requests(i, 1));
		EXPECT_TRUE(names_dev(i + 2, 0, "vnode1"));
	}
	EXPECT_EQ(1, fk.nr_sleeps);
	EXPECT_STREQ("", self->err);
	/* The rates come from the module's clock, not from how long -i slept. */
	EXPECT_STREQ(
		"softirqs over 1.00 s; accounting on; MAX: longest run since the start, "
		"+ if reached in this interval\n"
		"  CPU  NET_RX%  RX/s    RX_AVG  RX_MAX   NET_TX%  TX/s  TX_MAX  PKTS/s  DROPS  "
		"SQUEEZE\n"
		"  0    45.0     1500.0  300us   2.00ms+  0.0      2.0   12.0us  9000.0  0      3\n"
		"  1    1.0      100.0   100us   4.00ms   0.0      0.0   -       100.0   0      0\n"
		"  2    0.0      0.0     -       -        0.0      0.0   -       0.0     0      0\n"
		SAMPLE_SPLIT_TABLE
		"\n"
		"vnode1 (ifindex 3): 2 NAPI instances, 10000.0 packets/s\n"
		"  QUEUE  NAPI_ID  PKTS/s  POLLS/s  SHARE%  IRQ_CPUS  NAPI_CPUS  THREAD_MS  BUSY_MS\n"
		"  0      8193     9100.0  300.0    91.0    0         0          -          -\n"
		"  1      8194     900.0   50.0     9.0     1         1-2*       -          -\n"
		"  * polled outside its IRQ affinity: queue 1 on CPU 2 (since the counters "
		"started: a moved IRQ, threaded NAPI or busy polling)\n"
		"hottest CPU: 0, NET_RX 45.0% of the interval; "
		"queue 0 takes 91% of vnode1's packets (even: 50%)\n",
		self->out);
}

/* bond0: one DEV_GET, then a NAPI_GET by ifindex for each device beneath it. */
TEST_F(stats, stacked_device_shows_the_napis_of_each_device_beneath_it)
{
	const char *queues;
	unsigned int i;

	for (i = 0; i < NR_SAMPLES; i++)
		sample_stacked(&fk.samples[i]);
	ASSERT_EQ(EXIT_SUCCESS, run(self, "bond0", "-i", "1", NULL));
	ASSERT_EQ(8, fnl.nr_req);
	for (i = 0; i < 8; i += 4) {
		EXPECT_TRUE(sample_requests(i, 2));
		EXPECT_TRUE(names_dev(i + 2, 2, "vnode0"));
		EXPECT_TRUE(names_dev(i + 3, 3, "vnode1"));
	}
	EXPECT_STREQ("", self->err);
	queues = strstr(self->out, "NET_RX time: ");
	ASSERT_NE(NULL, queues) TH_LOG("%s", self->out);
	EXPECT_STREQ(SAMPLE_STACKED_TABLE, queues);
}

/* A device beneath the bond that goes between DEV_GET and its NAPI_GET is named. */
TEST_F(stats, stacked_device_names_the_device_that_failed)
{
	unsigned int i;

	for (i = 0; i < NR_SAMPLES; i++)
		sample_stacked(&fk.samples[i]);
	fk.error = -ENODEV;
	fk.error_cmd = NICTL_CMD_NAPI_GET;
	EXPECT_EQ(EXIT_FAILURE, run(self, "bond0", NULL));
	EXPECT_STREQ("nictlctl: no such device: vnode0\n", self->err);
	EXPECT_STREQ("", self->out);
}

TEST_F(stats, count_intervals_as_json_lines_on_a_fixed_beat)
{
	long long gap;

	ASSERT_EQ(EXIT_SUCCESS, run(self, "-j", "--interval=2", "--count", "2", NULL));
	EXPECT_EQ(3, fnl.nr_req);
	ASSERT_EQ(2, fk.nr_sleeps);
	/* Deadlines, not naps: the second is the first plus exactly -i. */
	gap = (fk.sleeps[1].tv_sec - fk.sleeps[0].tv_sec) * 1000000000LL +
	      fk.sleeps[1].tv_nsec - fk.sleeps[0].tv_nsec;
	EXPECT_EQ(2000000000LL, gap);
	EXPECT_STREQ("", self->err);
	ASSERT_EQ(2, count_lines(self->out));
	EXPECT_EQ(0, strncmp(self->out, "{\"interval_ns\":1000000000,\"via\":\"module\",\"enabled\":true,"
			     "\"cpus\":[{\"cpu\":0,\"net_rx\":{\"count\":1500,", 96));
	/* The second interval saw nothing new; the max stays, not new. */
	EXPECT_NE(NULL, strstr(strchr(self->out, '\n'),
			       "{\"cpu\":0,\"net_rx\":{\"count\":0,\"time_ns\":0,"
			       "\"max_ns\":2000000,\"max_new\":false,"));
	EXPECT_NE(NULL, strstr(strchr(self->out, '\n'), "\"hottest_cpu\":null}\n"));
}

TEST_F(stats, table_intervals_are_separated_by_an_empty_line)
{
	ASSERT_EQ(EXIT_SUCCESS, run(self, "-i", "1s", "--count", "2", NULL));
	EXPECT_NE(NULL, strstr(self->out, "hottest CPU: 0, NET_RX 45.0% of the interval\n"
				"\nsoftirqs over 1.00 s; "));
	EXPECT_NE(NULL, strstr(self->out, "hottest CPU: none, no NET_RX time counted\n"));
}

TEST_F(stats, prometheus_with_device)
{
	fk.nr_dumps = 1;
	ASSERT_EQ(EXIT_SUCCESS, run(self, "--prometheus", "3", NULL));
	EXPECT_STREQ("", self->err);
	EXPECT_EQ(0, strncmp(self->out, "# HELP nictl_softirq_accounting_enabled ", 40));
	EXPECT_NE(NULL, strstr(self->out,
			       "\nnictl_softirq_runs_total{cpu=\"2\",vec=\"net_tx\"} 0\n"));
	EXPECT_EQ(NULL, strstr(self->out, "cpu=\"3\""));
	EXPECT_NE(NULL, strstr(self->out, "\nnictl_napi_packets_total{device=\"vnode1\","
				"queue=\"1\"} 5900\n"));
}

TEST_F(stats, switches_send_one_request_and_confirm_on_stderr)
{
	struct nlattr *tb[NICTL_A_MAX + 1];

	ASSERT_EQ(EXIT_SUCCESS, run(self, "--reset", NULL));
	ASSERT_EQ(1, fnl.nr_req);
	EXPECT_EQ(NICTL_CMD_STATS_RESET, req_cmd(0));
	EXPECT_EQ(0, fnl.req[0]->nlmsg_flags & NLM_F_DUMP);
	EXPECT_STREQ("", self->out);
	EXPECT_STREQ("nictlctl: softirq and NAPI counters reset\n", self->err);

	ASSERT_EQ(EXIT_SUCCESS, run(self, "--off", NULL));
	EXPECT_EQ(NICTL_CMD_STATS_SET, req_cmd(1));
	req_attrs(1, tb);
	ASSERT_NE(NULL, tb[NICTL_A_STATS_ENABLED]);
	EXPECT_EQ(0, nla_get_u8(tb[NICTL_A_STATS_ENABLED]));
	EXPECT_STREQ("", self->out);
	EXPECT_STREQ("nictlctl: softirq accounting off; the counters keep their values\n",
		     self->err);

	ASSERT_EQ(EXIT_SUCCESS, run(self, "--on", NULL));
	req_attrs(2, tb);
	ASSERT_NE(NULL, tb[NICTL_A_STATS_ENABLED]);
	EXPECT_EQ(1, nla_get_u8(tb[NICTL_A_STATS_ENABLED]));
	EXPECT_STREQ("nictlctl: softirq accounting on\n", self->err);
}

TEST_F(stats, switches_need_cap_net_admin)
{
	fk.error = -EPERM;
	EXPECT_EQ(EXIT_FAILURE, run(self, "--reset", NULL));
	EXPECT_STREQ("nictlctl: permission denied: needs CAP_NET_ADMIN in the initial "
		     "user namespace (run as root on the host)\n", self->err);
	EXPECT_STREQ("", self->out);
}

TEST_F(stats, missing_module)
{
	fnl.family = -NLE_OBJ_NOTFOUND;
	EXPECT_EQ(EXIT_FAILURE, run(self, NULL));
	/* Why, from the host's module tree: ctl_module_absent_test.c. */
	EXPECT_EQ(0, strncmp(self->err, "nictlctl: module nictl is not loaded: ", 38))
		TH_LOG("%s", self->err);
	EXPECT_EQ(EXIT_FAILURE, run(self, "--on", NULL));
	EXPECT_EQ(0, fnl.nr_req);
}

TEST_F(stats, module_without_stats)
{
	fk.error = -EOPNOTSUPP;
	EXPECT_EQ(EXIT_FAILURE, run(self, NULL));
	EXPECT_STREQ("nictlctl: stats: the loaded nictl module does not know this request; "
		     "load the nictl.ko of this release (Operation not supported)\n", self->err);
	EXPECT_STREQ("", self->out);
}

TEST_F(stats, no_such_device)
{
	fk.error = -ENODEV;
	fk.error_cmd = NICTL_CMD_DEV_GET;
	EXPECT_EQ(EXIT_FAILURE, run(self, "eth9", "-i", "1", NULL));
	EXPECT_STREQ("nictlctl: no such device: eth9\n", self->err);
	EXPECT_STREQ("", self->out);
	EXPECT_EQ(0, fk.nr_sleeps);
}

TEST_F(stats, second_sample_failing_prints_nothing_of_it)
{
	fk.error = -ENODEV;
	fk.error_cmd = NICTL_CMD_NAPI_GET;
	EXPECT_EQ(EXIT_FAILURE, run(self, "vnode1", "-i", "1", NULL));
	EXPECT_STREQ("nictlctl: no such device: vnode1\n", self->err);
	EXPECT_STREQ("", self->out);
}

TEST_F(stats, malformed_reply)
{
	fk.no_now = true;
	EXPECT_EQ(EXIT_FAILURE, run(self, NULL));
	EXPECT_STREQ("nictlctl: stats: malformed reply; nictlctl and the nictl module must be "
		     "of one release (Protocol error)\n", self->err);
}

TEST_F(stats, softnet_garbage_fails_in_one_line)
{
	char expected[256];

	fk.softnet_path = "/dev/null";	/* the module no longer rewrites it */
	fakesys_write(&self->fs, "no numbers here\n", "net/softnet_stat");
	EXPECT_EQ(EXIT_FAILURE, run(self, NULL));
	snprintf(expected, sizeof(expected), "nictlctl: cannot read %s: not in the format of "
		 "softnet_stat\n", self->softnet);
	EXPECT_STREQ(expected, self->err);
}

TEST_F(stats, usage_errors_exit_2_without_asking_the_kernel)
{
	static const struct {
		const char *args[4];
		const char *msg;
	} cases[] = {
		{ { "--count", "3" }, "--count needs -i: it counts intervals of -i" },
		{ { "-i", "0" }, "-i '0': give an interval from 1ms to 86400s, in seconds or with "
				 "a unit: 1, 0.5, 500ms, 2s, 1m" },
		{ { "-i", "-1" }, NULL }, { { "-i", "1x" }, NULL }, { { "-i", "nan" }, NULL },
		{ { "-i", "" }, NULL }, { { "-i", "86401" }, NULL }, { { "-i", "1441m" }, NULL },
		{ { "-i", "0.5ms" }, NULL }, { { "-i", "0.0001" }, NULL }, { { "-i", "ms" }, NULL },
		{ { "-i", "1", "-c", "2" }, NULL },
		{ { "-i", "1", "--count", "0" }, "--count '0': give the number of intervals, 1 or more" },
		{ { "-i", "1", "--count", "x" }, NULL },
		{ { "--reset", "vnode1" }, "--reset takes no DEV: the accounting is one for all "
					   "CPUs and devices" },
		{ { "--on", "-j" }, "--on takes no other option" },
		{ { "--on", "--off" }, "give only one of --reset, --on and --off" },
		{ { "-j", "--prometheus" }, "give only one of -j and --prometheus" },
		{ { "-j", "--all" }, "--all chooses the table's rows; -j and --prometheus always "
				     "carry every CPU" },
		{ { "--prometheus", "-a" }, "--all chooses the table's rows; -j and --prometheus "
					    "always carry every CPU" },
		{ { "--prometheus", "-i", "1" }, "--prometheus prints counters, which Prometheus "
						 "turns into rates itself; it takes no -i" },
		{ { "vnode0", "vnode1" }, "unexpected argument 'vnode1'" },
		{ { "--hist=yes" }, "option --hist takes no argument" },
		{ { "-i" }, "option -i needs an argument" },
		{ { "0" }, NULL },
	};
	char expected[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(EXIT_USAGE, run(self, cases[i].args[0], cases[i].args[1],
					  cases[i].args[2], cases[i].args[3], NULL))
			TH_LOG("stats %s %s", cases[i].args[0], cases[i].args[1] ?: "");
		EXPECT_EQ(1, count_lines(self->err));
		if (!cases[i].msg)
			continue;
		snprintf(expected, sizeof(expected), "nictlctl: stats: %s; see: nictlctl stats "
			 "--help\n", cases[i].msg);
		EXPECT_STREQ(expected, self->err);
	}
	EXPECT_EQ(0, fnl.nr_req);
	EXPECT_EQ(0, fk.nr_sleeps);
}

TEST_F(stats, help)
{
	const char *usage = "Usage: nictlctl stats [DEV] [-i INTERVAL [--count N]] [--hist] "
			    "[-a|--all] [-j|--json | --prometheus]\n";

	EXPECT_EQ(EXIT_SUCCESS, run(self, "--help", NULL));
	EXPECT_EQ(0, strncmp(self->out, usage, strlen(usage)));
	EXPECT_STREQ("", self->err);
}

/* Without the module: runs from /proc/softirqs, softirq time from /proc/stat, and no more. */
TEST_F(stats, without_the_module_counts_from_procfs)
{
	fnl.family = -NLE_OBJ_NOTFOUND;
	fakesys_write(&self->fs, "                    CPU0       CPU1       CPU2\n"
		      "          HI:          0          0          0\n"
		      "      NET_TX:        690        734          1\n"
		      "      NET_RX:      25351      30891          0\n", "softirqs");
	fakesys_write(&self->fs, "cpu  5734802 295142 1454215 2147896 14726 0 24030 0 0 0\n"
		      "cpu0 2836755 146731 718364 1118134 3066 0 9970 0 0 0\n"
		      "cpu1 2898047 148410 735851 1029762 11660 0 14060 0 0 0\n"
		      "cpu2 1 1 1 1 1 0 0 0 0 0\nintr 1 2 3\n", "stat");

	ASSERT_EQ(EXIT_SUCCESS, run(self, "-j", NULL)) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, "module nictl is not loaded: ")) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, ". Counted from /proc/softirqs and /proc/stat: runs per "
			       "CPU and the time in softirqs of every vector, no NET_RX time\n"));
	EXPECT_NE(NULL, strstr(self->out, ",\"via\":\"procfs\",\"enabled\":false,"))
		TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "{\"cpu\":1,\"net_rx\":{\"count\":30891,\"time_ns\":null,"
			       "\"max_ns\":null,\"max_new\":false,\"hist\":null,\"pct\":null,"));
	EXPECT_NE(NULL, strstr(self->out, "\"poll\":null,\"net_rx_split\":null,"
			       "\"napi_unattributed\":null,\"softirq_pct\":"));
	EXPECT_NE(NULL, strstr(self->out, "\"hottest_cpu\":1}")) TH_LOG("%s", self->out);

	ASSERT_EQ(EXIT_SUCCESS, run(self, NULL));
	EXPECT_NE(NULL, strstr(self->out, ", from /proc (module nictl not loaded): runs per vector, "
			       "SOFT% the time in softirqs of every vector; no NET_RX time, run "
			       "durations or NAPI polls\n  CPU  RX_RUNS  RX/s ")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\nhottest CPU: 1, softirqs (every vector) "));
	EXPECT_EQ(NULL, strstr(self->out, "NAPI%"));

	ASSERT_EQ(EXIT_SUCCESS, run(self, "--prometheus", NULL));
	EXPECT_NE(NULL, strstr(self->out, "\nnictl_stats_source{via=\"procfs\"} 1\n"));
	EXPECT_NE(NULL, strstr(self->out, "\nnictl_softirq_runs_total{cpu=\"1\",vec=\"net_rx\"} 30891\n"));
	EXPECT_EQ(NULL, strstr(self->out, "nictl_softirq_seconds_total"));

	/* What only the module counts is refused, with the reason. */
	EXPECT_EQ(EXIT_FAILURE, run(self, "vnode1", NULL));
	EXPECT_NE(NULL, strstr(self->err, "stats DEV needs it: a device's NAPI polls are counted by "
			       "it only\n")) TH_LOG("%s", self->err);
	EXPECT_EQ(EXIT_FAILURE, run(self, "--hist", NULL));
	EXPECT_NE(NULL, strstr(self->err, "--hist needs it: only it times each run\n"));
	EXPECT_EQ(EXIT_FAILURE, run(self, "--on", NULL));
	EXPECT_NE(NULL, strstr(self->err, "--on needs it: its accounting is the module's\n"));
}

TEST_HARNESS_MAIN
