// SPDX-License-Identifier: GPL-2.0
/*
 * The stats table and JSON formats documented in ctl/stats/stats.c, from
 * the fixed samples of ctl_stats_sample.h: users' scripts parse them, so any
 * change here is a change of interface. The Prometheus format is in
 * ctl_stats_prom_test.c.
 */
#include "kselftest_harness.h"

#include "ctl_stats_sample.h"

FIXTURE(fmt) {
	struct stats_sample prev;
	struct stats_sample cur;
	struct stats_view v;
	char *text;
	size_t size;
	FILE *f;
};

FIXTURE_SETUP(fmt)
{
	sample_make(&self->prev, 0, true);
	sample_make(&self->cur, 1, true);
	memset(&self->v, 0, sizeof(self->v));
	self->text = NULL;
	self->f = open_memstream(&self->text, &self->size);
	ASSERT_NE(NULL, self->f);
}

FIXTURE_TEARDOWN(fmt)
{
	stats_view_free(&self->v);
	stats_sample_free(&self->prev);
	stats_sample_free(&self->cur);
	free(self->text);
}

/* Print the view of @prev (NULL: a snapshot) and self->cur as @format. */
static const char *print(FIXTURE_DATA(fmt) *self, const struct stats_sample *prev,
			 char format, bool hist)
{
	int err;

	if (stats_view_make(&self->v, prev, &self->cur))
		abort();
	err = format == 'j' ? stats_json(self->f, &self->v) :
			      stats_table(self->f, &self->v, hist, false);
	if (err || fclose(self->f))
		abort();
	self->f = NULL;
	return self->text;
}

/* The same interval printed again, in @format. */
static const char *print_again(FIXTURE_DATA(fmt) *self, char format)
{
	free(self->text);
	self->text = NULL;
	self->f = open_memstream(&self->text, &self->size);
	if (!self->f)
		abort();
	stats_view_free(&self->v);
	return print(self, &self->prev, format, false);
}

TEST(durations_keep_three_digits)
{
	static const struct {
		uint64_t ns;
		const char *text;
	} cases[] = {
		{ 0, "0ns" }, { 999, "999ns" }, { 1000, "1.00us" }, { 9994, "9.99us" },
		{ 9995, "10.0us" }, { 12345, "12.3us" }, { 999499, "999us" },
		{ 999500, "1.00ms" }, { 1500000, "1.50ms" }, { 2000000000, "2.00s" },
		{ 5000000000000ULL, "5000s" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		EXPECT_STREQ(cases[i].text, stats_fmt_ns(buf, sizeof(buf), cases[i].ns, true));
	EXPECT_STREQ("-", stats_fmt_ns(buf, sizeof(buf), 0, false));
}

TEST(histogram_buckets_are_labelled_by_duration)
{
	static const char *const labels[NICTL_HIST_BUCKETS] = {
		"<1us", "1-2us", "2-4us", "4-8us", "8-16us", "16-32us", "32-64us", "64-128us",
		"128-256us", "256-512us", "512us-1ms", "1-2ms", "2-4ms", "4-8ms", "8-16ms",
		">=16ms",
	};
	unsigned int b;

	for (b = 0; b < NICTL_HIST_BUCKETS; b++)
		EXPECT_STREQ(labels[b], stats_bucket_labels[b]);
}

TEST_F(fmt, snapshot_table)
{
	EXPECT_STREQ(
		"softirqs since the counters started 101.0 s ago; accounting on\n"
		"  CPU  NET_RX%  RX_RUNS  RX/s   RX_AVG  RX_MAX  NET_TX%  TX/s  TX_MAX\n"
		"  0    2.4      11500    113.9  213us   2.00ms  0.0      1.0   12.0us\n"
		"  1    0.1      200      2.0    550us   4.00ms  0.0      0.0   -\n"
		"  2    0.0      0        0.0    -       -       0.0      0.0   -\n"
		"\n"
		"NET_RX time: NAPI% in vnode1's NAPIs, BACKLOG% in the RPS backlog, "
		"OTHER% the rest\n"
		"  CPU  NET_RX%  NAPI%  BACKLOG%  OTHER%  BKLOG_PKTS\n"
		"  0    2.4      1.2    0.0       1.2     0\n"
		"  1    0.1      0.0    0.0       0.0     4400\n"
		"  2    0.0      0.0    0.0       0.0     0\n"
		"\n"
		"vnode1 (ifindex 3): 2 NAPI instances, 65000 packets since the counters started\n"
		"  QUEUE  NAPI_ID  PACKETS  POLLS  SHARE%  IRQ_CPUS  NAPI_CPUS  THREAD_MS  BUSY_MS\n"
		"  0      8193     59100    1300   90.9    0         0          -          -\n"
		"  1      8194     5900     150    9.1     1         1-2*       -          -\n"
		"  * polled outside its IRQ affinity: queue 1 on CPU 2 (since the counters "
		"started: a moved IRQ, threaded NAPI or busy polling)\n"
		"hottest CPU: 0, NET_RX 2.4% of the time since the start; "
		"queue 0 takes 91% of vnode1's packets (even: 50%)\n",
		print(self, NULL, 't', false));
}

TEST_F(fmt, interval_table_with_histogram)
{
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
		"runs by duration in the interval\n"
		"  CPU  VEC     <1us  1-2us  2-4us  4-8us  8-16us  16-32us  32-64us  64-128us  "
		"128-256us  256-512us  512us-1ms  1-2ms  2-4ms  4-8ms  8-16ms  >=16ms\n"
		"  0    net_rx  0     0      0      0      0       0        0        0         "
		"1000       499        0          1      0      0      0       0\n"
		"  0    net_tx  0     2      0      0      0       0        0        0         "
		"0          0          0          0      0      0      0       0\n"
		"  1    net_rx  0     0      0      0      0       0        0        0         "
		"0          0          100        0      0      0      0       0\n"
		"  1    net_tx  0     0      0      0      0       0        0        0         "
		"0          0          0          0      0      0      0       0\n"
		"  2    net_rx  0     0      0      0      0       0        0        0         "
		"0          0          0          0      0      0      0       0\n"
		"  2    net_tx  0     0      0      0      0       0        0        0         "
		"0          0          0          0      0      0      0       0\n"
		"\n"
		"vnode1 (ifindex 3): 2 NAPI instances, 10000.0 packets/s\n"
		"  QUEUE  NAPI_ID  PKTS/s  POLLS/s  SHARE%  IRQ_CPUS  NAPI_CPUS  THREAD_MS  BUSY_MS\n"
		"  0      8193     9100.0  300.0    91.0    0         0          -          -\n"
		"  1      8194     900.0   50.0     9.0     1         1-2*       -          -\n"
		"  * polled outside its IRQ affinity: queue 1 on CPU 2 (since the counters "
		"started: a moved IRQ, threaded NAPI or busy polling)\n"
		"hottest CPU: 0, NET_RX 45.0% of the interval; "
		"queue 0 takes 91% of vnode1's packets (even: 50%)\n",
		print(self, &self->prev, 't', true));
}

/* The interval of bond0 as @format, from @from on; "" (and the text on stderr) without it. */
static const char *print_stacked(FIXTURE_DATA(fmt) *self, char format, const char *from)
{
	const char *text;

	sample_stacked(&self->prev);
	sample_stacked(&self->cur);
	text = strstr(print(self, &self->prev, format, false), from);
	if (!text)
		fprintf(stderr, "# no '%s' in:\n%s", from, self->text);
	return text ?: "";
}

TEST_F(fmt, stacked_device_interval_table)
{
	EXPECT_STREQ(SAMPLE_STACKED_TABLE, print_stacked(self, 't', "NET_RX time: "));
}

TEST_F(fmt, stacked_device_json_names_each_queues_device)
{
	EXPECT_STREQ(
		"\"hottest_cpu\":0,"
		"\"dev\":{\"ifname\":\"bond0\",\"ifindex\":9,\"packets\":10000,"
		"\"stacked\":true,\"lower\":[{\"ifname\":\"vnode0\",\"ifindex\":2},"
		"{\"ifname\":\"vnode1\",\"ifindex\":3}]},"
		"\"queues\":["
		"{\"ifname\":\"vnode0\",\"queue\":0,\"napi_id\":8193,\"polls\":300,"
		"\"packets\":9100,\"time_ns\":250000000,\"busy_ns\":0,"
		"\"polls_per_sec\":300.000,\"packets_per_sec\":9100.000,\"share_pct\":91.000,"
		"\"irq_cpus\":[0],\"napi_cpus\":[0],\"outside_cpus\":[],\"busy_cpus\":[],\"thread\":null},"
		"{\"ifname\":\"vnode1\",\"queue\":0,\"napi_id\":8194,\"polls\":50,"
		"\"packets\":900,\"time_ns\":2000000,\"busy_ns\":0,"
		"\"polls_per_sec\":50.000,\"packets_per_sec\":900.000,\"share_pct\":9.000,"
		"\"irq_cpus\":[1],\"napi_cpus\":[1,2],\"outside_cpus\":[2],\"busy_cpus\":[],\"thread\":null}]}\n",
		print_stacked(self, 'j', "\"hottest_cpu\":"));
}

TEST_F(fmt, cpus_only_accounting_off_nothing_counted)
{
	stats_sample_free(&self->cur);
	sample_make(&self->cur, 0, false);
	self->cur.enabled = false;
	self->cur.cpus[3].softnet.present = true;
	self->cur.cpus[3].vec[NICTL_SOFTIRQ_NET_TX].count = 3;
	/* Reuse the earlier sample as both ends: nothing happened in between. */
	EXPECT_STREQ(
		"softirqs over 0.00 s; accounting off, counters frozen (stats --on); "
		"MAX: longest run since the start, + if reached in this interval\n"
		"  CPU  NET_RX%  RX/s  RX_AVG  RX_MAX  NET_TX%  TX/s  TX_MAX  PKTS/s  DROPS  "
		"SQUEEZE\n"
		"  0    0.0      0.0   -       1.50ms  0.0      0.0   12.0us  0.0     0      0\n"
		"  1    0.0      0.0   -       4.00ms  0.0      0.0   -       0.0     0      0\n"
		"  2    0.0      0.0   -       -       0.0      0.0   -       0.0     0      0\n"
		"  3    0.0      0.0   -       -       0.0      0.0   -       -       -      -\n"
		"\n"
		"NET_RX time: NAPI% in device NAPIs, BACKLOG% in the RPS backlog, "
		"OTHER% the rest\n"
		"  CPU  NET_RX%  NAPI%  BACKLOG%  OTHER%  BKLOG_PKTS/s  RPS_IPI/s\n"
		"  0    0.0      0.0    0.0       0.0     0.0           0.0\n"
		"  1    0.0      0.0    0.0       0.0     0.0           0.0\n"
		"  2    0.0      0.0    0.0       0.0     0.0           0.0\n"
		"  3    0.0      0.0    0.0       0.0     0.0           -\n"
		"hottest CPU: none, no NET_RX time counted\n",
		print(self, &self->prev, 't', false));
}

TEST_F(fmt, device_without_packets_or_instances)
{
	self->prev.napis[0].queue = -1;
	self->cur.napis[0].queue = -1;
	self->cur.napis[0].packets = self->prev.napis[0].packets;
	self->cur.napis[1].packets = self->prev.napis[1].packets;
	print(self, &self->prev, 't', false);
	EXPECT_NE(NULL, strstr(self->text,
		"  1      8194     0.0     50.0     0.0     1         1-2*       -          -\n"
		"  ?      8193     0.0     300.0    0.0     -         0          -          -\n"
		"  * polled outside its IRQ affinity: queue 1 on CPU 2 ("));
	EXPECT_NE(NULL, strstr(self->text, "; vnode1 received no packets\n"));

	stats_view_free(&self->v);
	free(self->text);
	self->text = NULL;
	self->f = open_memstream(&self->text, &self->size);
	self->cur.nr_napis = 0;
	print(self, NULL, 't', false);
	self->cur.nr_napis = 2;
	EXPECT_NE(NULL, strstr(self->text, "\n\nvnode1 (ifindex 3): no NAPI instances\n"
				"hottest CPU: 0, NET_RX 2.4% of the time since the start; "
				"vnode1 has no NAPI instances\n"));
}

/* Backlog polls outside NET_RX get a footnote under the split. */
TEST_F(fmt, untimed_backlog_polls_are_footnoted)
{
	self->cur.cpus[1].poll[NICTL_POLL_BACKLOG].untimed = 12;
	EXPECT_NE(NULL, strstr(print(self, &self->prev, 't', false),
			       "  1    1.0      0.2    0.6       0.2     400.0         50.0\n"
			       "  2    0.0      0.0    0.0       0.0     0.0           0.0\n"
			       "  12 backlog polls ran in backlog threads (PREEMPT_RT): untimed, "
			       "no RPS IPIs\n\n")) TH_LOG("%s", self->text);
}

/* Queue 1 polled in thread 313 on CPU 5: 2.5 ms of CPU time in the interval. */
TEST_F(fmt, threaded_queue_shows_its_threads_time)
{
	self->prev.napis[1].thread_pid = 313;
	self->prev.napis[1].thread_ns = 1000000;
	self->cur.napis[1].thread_pid = 313;
	self->cur.napis[1].thread_ns = 3500000;
	ASSERT_EQ(0, cpuset_add(&self->cur.napis[1].thread_cpus, 5));
	print(self, &self->prev, 't', false);
	EXPECT_NE(NULL, strstr(self->text,
		"  QUEUE  NAPI_ID  PKTS/s  POLLS/s  SHARE%  IRQ_CPUS  NAPI_CPUS  THREAD_MS  BUSY_MS\n"
		"  0      8193     9100.0  300.0    91.0    0         0          -          -\n"
		"  1      8194     900.0   50.0     9.0     1         1-2*       2.5        -\n"))
		TH_LOG("%s", self->text);
	print_again(self, 'j');
	EXPECT_NE(NULL, strstr(self->text, "\"outside_cpus\":[],\"busy_cpus\":[],\"thread\":null}"))
		TH_LOG("%s", self->text);
	EXPECT_NE(NULL, strstr(self->text,
		"\"outside_cpus\":[2],\"busy_cpus\":[],\"thread\":{\"pid\":313,\"time_ns\":2500000,"
		"\"cpus\":[5]}}")) TH_LOG("%s", self->text);
}

/*
 * A task on CPU 2 busy-polled queue 1 (IRQ on CPU 1) for 3 ms in the
 * interval, 40 polls: a line under the split names the CPU, BUSY_MS the
 * queue, and the footnote says why it was polled on CPU 2.
 */
TEST_F(fmt, busy_polled_queue_shows_where_and_how_long)
{
	struct stats_cpu *c = &self->cur.cpus[2];

	ASSERT_EQ(2U, c->cpu);
	c->napi_times = calloc(1, sizeof(*c->napi_times));
	ASSERT_NE(NULL, c->napi_times);
	c->napi_times[0] = (struct stats_napi_time){ .id = 8194, .busy_ns = 3000000 };
	c->nr_napi_times = 1;
	c->poll[NICTL_POLL_DEVICE].busy_polls = 40;
	c->poll[NICTL_POLL_DEVICE].busy_ns = 3000000;
	self->cur.napis[1].busy_ns = 3000000;
	print(self, &self->prev, 't', false);
	EXPECT_NE(NULL, strstr(self->text,
		"  2    0.0      0.0    0.0       0.0     0.0           0.0\n"
		"  busy polling, in tasks outside NET_RX: CPU 2 0.3% (40 polls)\n\n"))
		TH_LOG("%s", self->text);
	EXPECT_NE(NULL, strstr(self->text,
		"  1      8194     900.0   50.0     9.0     1         1-2*       -          3.0\n"
		"  * polled outside its IRQ affinity: queue 1 on CPU 2 (busy polling there) ("))
		TH_LOG("%s", self->text);
	print_again(self, 'j');
	EXPECT_NE(NULL, strstr(self->text, "\"busy_polls\":40,\"busy_ns\":3000000,"
				       "\"busy_pct\":0.300}")) TH_LOG("%s", self->text);
	EXPECT_NE(NULL, strstr(self->text, "\"time_ns\":2000000,\"busy_ns\":3000000,"))
		TH_LOG("%s", self->text);
	EXPECT_NE(NULL, strstr(self->text, "\"outside_cpus\":[2],\"busy_cpus\":[2],"))
		TH_LOG("%s", self->text);
}

TEST_F(fmt, interval_json)
{
	EXPECT_STREQ(
		"{\"interval_ns\":1000000000,\"via\":\"module\",\"enabled\":true,\"cpus\":["
		"{\"cpu\":0,"
		"\"net_rx\":{\"count\":1500,\"time_ns\":450000000,\"max_ns\":2000000,"
		"\"max_new\":true,\"hist\":[0,0,0,0,0,0,0,0,1000,499,0,1,0,0,0,0],"
		"\"pct\":45.000,\"per_sec\":1500.000,\"avg_ns\":300000},"
		"\"net_tx\":{\"count\":2,\"time_ns\":2000,\"max_ns\":12000,\"max_new\":false,"
		"\"hist\":[0,2,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"pct\":0.000,\"per_sec\":2.000,"
		"\"avg_ns\":1000},"
		"\"poll\":{\"device\":{\"polls\":300,\"packets\":9100,\"time_ns\":300000000,"
		"\"untimed\":0,\"pct\":30.000,"
		"\"packets_per_sec\":9100.000,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000},"
		"\"backlog\":{\"polls\":0,\"packets\":0,\"time_ns\":0,\"untimed\":0,\"pct\":0.000,"
		"\"packets_per_sec\":0.000,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000}},"
		"\"net_rx_split\":{\"napi_ns\":250000000,\"backlog_ns\":0,\"other_ns\":200000000,"
		"\"napi_pct\":25.000,\"backlog_pct\":0.000,\"other_pct\":20.000},"
		"\"napi_unattributed\":0,"
		"\"softirq_pct\":null,\"softnet\":{\"processed\":9000,\"dropped\":0,\"time_squeeze\":3,"
		"\"received_rps\":0}},"
		"{\"cpu\":1,"
		"\"net_rx\":{\"count\":100,\"time_ns\":10000000,\"max_ns\":4000000,"
		"\"max_new\":false,\"hist\":[0,0,0,0,0,0,0,0,0,0,100,0,0,0,0,0],"
		"\"pct\":1.000,\"per_sec\":100.000,\"avg_ns\":100000},"
		"\"net_tx\":{\"count\":0,\"time_ns\":0,\"max_ns\":0,\"max_new\":false,"
		"\"hist\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"pct\":0.000,\"per_sec\":0.000,"
		"\"avg_ns\":0},"
		"\"poll\":{\"device\":{\"polls\":50,\"packets\":900,\"time_ns\":2000000,"
		"\"untimed\":0,\"pct\":0.200,"
		"\"packets_per_sec\":900.000,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000},"
		"\"backlog\":{\"polls\":20,\"packets\":400,\"time_ns\":6000000,"
		"\"untimed\":0,\"pct\":0.600,"
		"\"packets_per_sec\":400.000,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000}},"
		"\"net_rx_split\":{\"napi_ns\":2000000,\"backlog_ns\":6000000,\"other_ns\":2000000,"
		"\"napi_pct\":0.200,\"backlog_pct\":0.600,\"other_pct\":0.200},"
		"\"napi_unattributed\":0,"
		"\"softirq_pct\":null,\"softnet\":{\"processed\":100,\"dropped\":0,\"time_squeeze\":0,"
		"\"received_rps\":50}},"
		"{\"cpu\":2,"
		"\"net_rx\":{\"count\":0,\"time_ns\":0,\"max_ns\":0,\"max_new\":false,"
		"\"hist\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"pct\":0.000,\"per_sec\":0.000,"
		"\"avg_ns\":0},"
		"\"net_tx\":{\"count\":0,\"time_ns\":0,\"max_ns\":0,\"max_new\":false,"
		"\"hist\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"pct\":0.000,\"per_sec\":0.000,"
		"\"avg_ns\":0},"
		"\"poll\":{\"device\":{\"polls\":0,\"packets\":0,\"time_ns\":0,"
		"\"untimed\":0,\"pct\":0.000,"
		"\"packets_per_sec\":0.000,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000},"
		"\"backlog\":{\"polls\":0,\"packets\":0,\"time_ns\":0,\"untimed\":0,\"pct\":0.000,"
		"\"packets_per_sec\":0.000,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000}},"
		"\"net_rx_split\":{\"napi_ns\":0,\"backlog_ns\":0,\"other_ns\":0,"
		"\"napi_pct\":0.000,\"backlog_pct\":0.000,\"other_pct\":0.000},"
		"\"napi_unattributed\":0,"
		"\"softirq_pct\":null,\"softnet\":{\"processed\":0,\"dropped\":0,\"time_squeeze\":0,"
		"\"received_rps\":0}}],"
		"\"hottest_cpu\":0,"
		"\"dev\":{\"ifname\":\"vnode1\",\"ifindex\":3,\"packets\":10000},"
		"\"queues\":["
		"{\"queue\":0,\"napi_id\":8193,\"polls\":300,\"packets\":9100,"
		"\"time_ns\":250000000,\"busy_ns\":0,"
		"\"polls_per_sec\":300.000,\"packets_per_sec\":9100.000,\"share_pct\":91.000,"
		"\"irq_cpus\":[0],\"napi_cpus\":[0],\"outside_cpus\":[],\"busy_cpus\":[],\"thread\":null},"
		"{\"queue\":1,\"napi_id\":8194,\"polls\":50,\"packets\":900,"
		"\"time_ns\":2000000,\"busy_ns\":0,"
		"\"polls_per_sec\":50.000,\"packets_per_sec\":900.000,\"share_pct\":9.000,"
		"\"irq_cpus\":[1],\"napi_cpus\":[1,2],\"outside_cpus\":[2],\"busy_cpus\":[],\"thread\":null}]}\n",
		print(self, &self->prev, 'j', false));
}

TEST_F(fmt, snapshot_json_without_device)
{
	stats_sample_free(&self->cur);
	sample_make(&self->cur, 1, false);
	self->cur.nr_cpus = 1;
	self->cur.cpus[0].softnet.present = false;
	self->cur.cpus[0].napi_unattributed = 7;
	EXPECT_STREQ(
		"{\"since_ns\":101000000000,\"via\":\"module\",\"enabled\":true,\"cpus\":["
		"{\"cpu\":0,"
		"\"net_rx\":{\"count\":11500,\"time_ns\":2450000000,\"max_ns\":2000000,"
		"\"max_new\":false,\"hist\":[0,0,0,0,0,0,0,0,10000,499,0,1001,0,0,0,0],"
		"\"pct\":2.426,\"per_sec\":113.861,\"avg_ns\":213043},"
		"\"net_tx\":{\"count\":102,\"time_ns\":102000,\"max_ns\":12000,"
		"\"max_new\":false,\"hist\":[60,42,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"
		"\"pct\":0.000,\"per_sec\":1.010,\"avg_ns\":1000},"
		"\"poll\":{\"device\":{\"polls\":1400,\"packets\":69100,\"time_ns\":1500000000,"
		"\"untimed\":0,\"pct\":1.485,"
		"\"packets_per_sec\":684.158,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000},"
		"\"backlog\":{\"polls\":0,\"packets\":0,\"time_ns\":0,\"untimed\":0,\"pct\":0.000,"
		"\"packets_per_sec\":0.000,\"busy_polls\":0,\"busy_ns\":0,\"busy_pct\":0.000}},"
		"\"net_rx_split\":{\"napi_ns\":1500000000,\"backlog_ns\":0,\"other_ns\":950000000,"
		"\"napi_pct\":1.485,\"backlog_pct\":0.000,\"other_pct\":0.941},"
		"\"napi_unattributed\":7,\"softirq_pct\":null,\"softnet\":null}],"
		"\"hottest_cpu\":0}\n",
		print(self, NULL, 'j', false));
}

/* A snapshot of @n CPUs, online all, CPU k with (k * 37 % n + 1) ms of NET_RX. */
static void many_cpus(struct stats_sample *s, unsigned int n)
{
	unsigned int k;

	memset(s, 0, sizeof(*s));
	s->enabled = true;
	s->nr_cpus = n;
	s->cpus = calloc(n, sizeof(*s->cpus));
	if (!s->cpus || cpuset_parse(&s->online, "0-79"))
		abort();
	for (k = 0; k < n; k++) {
		s->cpus[k].cpu = k;
		s->cpus[k].start_ns = SAMPLE_START_NS;
		s->cpus[k].now_ns = SAMPLE_PREV_NS;
		s->cpus[k].vec[NICTL_SOFTIRQ_NET_RX].count = 10;
		s->cpus[k].vec[NICTL_SOFTIRQ_NET_RX].time_ns = (k * 37 % n + 1) * 1000000ULL;
	}
}

/* The CPU numbers of the table's rows, in order, into @cpus: how many. */
static unsigned int table_cpus(const char *text, unsigned int *cpus, unsigned int max)
{
	unsigned int n = 0, cpu;
	const char *line;

	for (line = text; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		if (n < max && sscanf(line, "  %u ", &cpu) == 1)
			cpus[n++] = cpu;
	return n;
}

/* The longest line of @text. */
static size_t widest(const char *text)
{
	size_t max = 0, len;
	const char *end;

	for (; *text; text = *end ? end + 1 : end) {
		end = strchrnul(text, '\n');
		len = end - text;
		max = len > max ? len : max;
	}
	return max;
}

/*
 * 80 CPUs: the table lists the 16 with the most NET_RX time, hottest first,
 * and one line for the 64 others, all within 80 columns; --all lists every
 * CPU in ascending order.
 */
TEST(eighty_cpus_make_a_summary)
{
	struct stats_sample s;
	struct stats_view v;
	unsigned int cpus[400], n, i;
	char *text = NULL;
	size_t size;
	FILE *f;

	many_cpus(&s, 80);
	ASSERT_EQ(0, stats_view_make(&v, NULL, &s));
	f = open_memstream(&text, &size);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, stats_table(f, &v, false, false));
	ASSERT_EQ(0, fclose(f));
	n = table_cpus(text, cpus, ARRAY_SIZE(cpus));
	/* 16 rows, then the same 16 of the NET_RX split. */
	ASSERT_EQ(2 * 16U, n) TH_LOG("%s", text);
	/* CPU k has k * 37 % 80 + 1 ms: 80 ms for the k with k * 37 % 80 == 79. */
	for (i = 0; i < 16; i++) {
		EXPECT_EQ(80U - i, cpus[i] * 37 % 80 + 1) TH_LOG("row %u: CPU %u", i, cpus[i]);
		EXPECT_EQ(cpus[i], cpus[16 + i]) TH_LOG("split row %u", i);
	}
	EXPECT_NE(NULL, strstr(text, "  ... 64 more CPUs, each with NET_RX 0.1% or less "
			       "(--all lists them)\n")) TH_LOG("%s", text);
	EXPECT_GE(80U, widest(text)) TH_LOG("%s", text);
	free(text);

	text = NULL;
	f = open_memstream(&text, &size);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, stats_table(f, &v, true, true));
	ASSERT_EQ(0, fclose(f));
	n = table_cpus(text, cpus, ARRAY_SIZE(cpus));
	/* 80 rows, 80 of the split, then 160 of the histogram (2 vectors each). */
	ASSERT_EQ(80U + 80U + 160U, n);
	for (i = 0; i < 80; i++) {
		EXPECT_EQ(i, cpus[i]);
		EXPECT_EQ(i, cpus[80 + i]);
	}
	EXPECT_EQ(NULL, strstr(text, "more CPU"));
	free(text);
	stats_view_free(&v);
	stats_sample_free(&s);
}

TEST_HARNESS_MAIN
