// SPDX-License-Identifier: GPL-2.0
/*
 * The stats arithmetic: shares of time, rates, averages and the queue split
 * from the two fixed samples of ctl_stats_sample.h, and the cases that bend
 * it: a reset between samples, counters that go back, offline CPUs, queues
 * with separate rx and tx IRQs.
 */
#include "kselftest_harness.h"

#include "ctl_cpulist.h"
#include "ctl_stats_sample.h"

FIXTURE(calc) {
	struct stats_sample prev;
	struct stats_sample cur;
	struct stats_view v;
};

FIXTURE_SETUP(calc)
{
	sample_make(&self->prev, 0, true);
	sample_make(&self->cur, 1, true);
	memset(&self->v, 0, sizeof(self->v));
}

FIXTURE_TEARDOWN(calc)
{
	stats_view_free(&self->v);
	stats_sample_free(&self->prev);
	stats_sample_free(&self->cur);
}

#define RX(v, i)	((v)->cpus[i].vec[NICTL_SOFTIRQ_NET_RX])
#define TX(v, i)	((v)->cpus[i].vec[NICTL_SOFTIRQ_NET_TX])

TEST_F(calc, interval_rates_use_each_cpus_own_clock)
{
	struct stats_view *v = &self->v;

	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_TRUE(v->interval);
	EXPECT_EQ(1000000000, v->span_ns);
	ASSERT_EQ(3, v->nr_cpus);	/* CPU 3 is offline and counted nothing */
	EXPECT_EQ(1500, RX(v, 0).count);
	EXPECT_EQ(450000000, RX(v, 0).time_ns);
	EXPECT_EQ(45.0, RX(v, 0).pct);
	EXPECT_EQ(1500.0, RX(v, 0).per_sec);
	EXPECT_EQ(300000, RX(v, 0).avg_ns);
	EXPECT_EQ(2000000, RX(v, 0).max_ns);
	EXPECT_TRUE(RX(v, 0).max_new);
	EXPECT_EQ(1000, RX(v, 0).hist[8]);
	EXPECT_EQ(499, RX(v, 0).hist[9]);
	EXPECT_EQ(1, RX(v, 0).hist[11]);
	EXPECT_EQ(2, TX(v, 0).count);
	EXPECT_EQ(1000, TX(v, 0).avg_ns);
	EXPECT_FALSE(TX(v, 0).max_new);
	/* CPU 1 was read 100 us after CPU 0 both times: still exactly 1 s. */
	EXPECT_EQ(1, v->cpus[1].cpu);
	EXPECT_EQ(1.0, RX(v, 1).pct);
	EXPECT_EQ(100.0, RX(v, 1).per_sec);
	EXPECT_EQ(4000000, RX(v, 1).max_ns);
	EXPECT_FALSE(RX(v, 1).max_new);
	EXPECT_EQ(0, RX(v, 2).count);
	EXPECT_EQ(0, RX(v, 2).avg_ns);
	EXPECT_EQ(0, v->hot_cpu);
}

TEST_F(calc, softnet_deltas_survive_the_32_bit_wrap)
{
	struct stats_view *v = &self->v;

	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_TRUE(v->cpus[0].softnet.present);
	EXPECT_EQ(9000, v->cpus[0].softnet.processed);
	EXPECT_EQ(9000.0, v->cpus[0].processed_per_sec);
	EXPECT_EQ(0, v->cpus[0].softnet.dropped);
	EXPECT_EQ(3, v->cpus[0].softnet.time_squeeze);
	EXPECT_EQ(100, v->cpus[1].softnet.processed);
}

TEST_F(calc, softnet_row_missing_in_either_sample)
{
	struct stats_view *v = &self->v;

	self->prev.cpus[1].softnet.present = false;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_TRUE(v->cpus[0].softnet.present);
	EXPECT_FALSE(v->cpus[1].softnet.present);
	EXPECT_EQ(0.0, v->cpus[1].processed_per_sec);
}

TEST_F(calc, snapshot_counts_from_the_start)
{
	struct stats_view *v = &self->v;

	ASSERT_EQ(0, stats_view_make(v, NULL, &self->cur));
	EXPECT_FALSE(v->interval);
	/* The latest reading (CPU 3's, 300 us after CPU 0's) minus the start. */
	EXPECT_EQ(101000300000ULL, v->span_ns);
	EXPECT_EQ(11500, RX(v, 0).count);
	EXPECT_EQ(100.0 * 2450000000.0 / 101000000000.0, RX(v, 0).pct);
	EXPECT_EQ(11500 * 1e9 / 101000000000.0, RX(v, 0).per_sec);
	EXPECT_EQ(213043, RX(v, 0).avg_ns);	/* 2.45e9 / 11500, rounded */
	EXPECT_FALSE(RX(v, 0).max_new);
	/* softnet_stat counts since boot: a snapshot shows its totals. */
	EXPECT_EQ(8984, v->cpus[0].softnet.processed);
	EXPECT_EQ(8, v->cpus[0].softnet.time_squeeze);
}

TEST_F(calc, reset_between_samples_starts_the_interval_there)
{
	struct stats_view *v = &self->v;
	unsigned int i;

	/* Reset 0.5 s into the interval; since then CPU 0 ran 10 times, 5 ms. */
	for (i = 0; i < self->cur.nr_cpus; i++) {
		self->cur.cpus[i].start_ns = SAMPLE_PREV_NS + 500000000;
		memset(self->cur.cpus[i].vec, 0, sizeof(self->cur.cpus[i].vec));
	}
	self->cur.cpus[0].vec[NICTL_SOFTIRQ_NET_RX] = (struct stats_vec){
		.count = 10, .time_ns = 5000000, .max_ns = 900000, .hist = { [9] = 10 },
	};
	self->cur.napis[0].packets = 40;
	self->cur.napis[1].packets = 10;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(500300000, v->span_ns);
	EXPECT_EQ(10, RX(v, 0).count);
	EXPECT_EQ(1.0, RX(v, 0).pct);
	EXPECT_EQ(20.0, RX(v, 0).per_sec);
	EXPECT_TRUE(RX(v, 0).max_new);
	EXPECT_EQ(10, RX(v, 0).hist[9]);
	/* softnet_stat does not reset with nictl: still the full second. */
	EXPECT_EQ(9000.0, v->cpus[0].processed_per_sec);
	EXPECT_EQ(50, v->packets);
	EXPECT_EQ(80.0, v->queues[0].share_pct);
}

TEST_F(calc, counters_never_go_negative)
{
	struct stats_view *v = &self->v;

	self->cur.cpus[1].vec[NICTL_SOFTIRQ_NET_RX].count = 1;
	self->cur.cpus[1].vec[NICTL_SOFTIRQ_NET_RX].time_ns = 1;
	self->cur.napis[1].packets = 0;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(0, RX(v, 1).count);
	EXPECT_EQ(0.0, RX(v, 1).pct);
	EXPECT_EQ(0, v->queues[1].packets);
	EXPECT_EQ(100.0, v->queues[0].share_pct);
}

TEST_F(calc, queue_split_and_napi_outside_the_irq_affinity)
{
	struct stats_view *v = &self->v;

	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	ASSERT_TRUE(v->has_dev);
	EXPECT_STREQ("vnode1", v->ifname);
	EXPECT_EQ(3, v->ifindex);
	ASSERT_EQ(2, v->nr_queues);
	EXPECT_EQ(10000, v->packets);
	EXPECT_EQ(0, v->queues[0].queue);
	EXPECT_EQ(8193, v->queues[0].napi_id);
	EXPECT_EQ(9100, v->queues[0].packets);
	EXPECT_EQ(300, v->queues[0].polls);
	EXPECT_EQ(9100.0, v->queues[0].packets_per_sec);
	EXPECT_EQ(300.0, v->queues[0].polls_per_sec);
	EXPECT_EQ(91.0, v->queues[0].share_pct);
	EXPECT_STREQ("0", cpulist_of(&v->queues[0].irq_cpus));
	EXPECT_STREQ("", cpulist_of(&v->queues[0].outside));
	EXPECT_EQ(9.0, v->queues[1].share_pct);
	EXPECT_STREQ("1", cpulist_of(&v->queues[1].irq_cpus));
	EXPECT_STREQ("1-2", cpulist_of(&v->queues[1].napi_cpus));
	EXPECT_STREQ("2", cpulist_of(&v->queues[1].outside));
	EXPECT_EQ(0, v->uneven);
}

/*
 * A queue polled in a thread carries the thread's CPU time over the span;
 * a thread made since the first sample (a new pid) counts whole, and a
 * queue polled in NET_RX has none.
 */
TEST_F(calc, threaded_queues_carry_their_threads_time)
{
	struct stats_view *v = &self->v;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		self->prev.napis[i].thread_pid = 312 + i;
		self->prev.napis[i].thread_ns = 2000000;
		self->cur.napis[i].thread_pid = 312 + i;
		self->cur.napis[i].thread_ns = 5000000;
		ASSERT_EQ(0, cpuset_add(&self->cur.napis[i].thread_cpus, 4 + i));
	}
	self->cur.napis[1].thread_pid = 400;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	ASSERT_EQ(2, v->nr_queues);
	EXPECT_EQ(312, v->queues[0].thread_pid);
	EXPECT_EQ(3000000, v->queues[0].thread_ns);
	EXPECT_STREQ("4", cpulist_of(&v->queues[0].thread_cpus));
	EXPECT_EQ(400, v->queues[1].thread_pid);
	EXPECT_EQ(5000000, v->queues[1].thread_ns);
	self->cur.napis[1].thread_pid = 0;
	stats_view_free(v);
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(0, v->queues[1].thread_pid);
}

/*
 * bond0's queues are its physical devices': each takes its IRQ affinity from
 * its own device, they sort by device, and NAPI% counts both devices' time.
 */
TEST_F(calc, stacked_device_has_the_queues_of_each_device_beneath_it)
{
	struct stats_view *v = &self->v;

	sample_stacked(&self->prev);
	sample_stacked(&self->cur);
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_STREQ("bond0", v->ifname);
	EXPECT_EQ(9, v->ifindex);
	ASSERT_EQ(&self->cur.dev, v->lower);
	ASSERT_EQ(2, v->nr_queues);
	EXPECT_EQ(10000, v->packets);
	EXPECT_STREQ("vnode0", v->queues[0].dev);
	EXPECT_EQ(8193, v->queues[0].napi_id);
	EXPECT_STREQ("0", cpulist_of(&v->queues[0].irq_cpus));
	EXPECT_STREQ("vnode1", v->queues[1].dev);
	EXPECT_EQ(0, v->queues[1].queue);
	EXPECT_EQ(8194, v->queues[1].napi_id);
	/* vnode1's queue 0, not vnode0's: its IRQ is on CPU 1. */
	EXPECT_STREQ("1", cpulist_of(&v->queues[1].irq_cpus));
	EXPECT_STREQ("2", cpulist_of(&v->queues[1].outside));
	EXPECT_EQ(0, v->uneven);
	EXPECT_EQ(250000000, v->cpus[0].split.napi_ns);
	EXPECT_EQ(2000000, v->cpus[1].split.napi_ns);
}

/* A single device's queues are named after it, whatever DEV_GET said. */
TEST_F(calc, single_device_queues_name_the_device)
{
	struct stats_view *v = &self->v;

	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(NULL, v->lower);
	ASSERT_EQ(2, v->nr_queues);
	EXPECT_EQ(self->cur.ifname, v->queues[0].dev);
	EXPECT_EQ(self->cur.ifname, v->queues[1].dev);
}

TEST_F(calc, napi_new_in_the_interval_counts_whole)
{
	struct stats_view *v = &self->v;

	self->prev.nr_napis = 1;	/* 8194 appeared after the first sample */
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(5900, v->queues[1].packets);
	EXPECT_EQ(15000, v->packets);
	EXPECT_EQ(0, v->uneven);
	self->prev.nr_napis = 2;	/* for stats_sample_free() */
}

TEST_F(calc, rx_irqs_only_when_the_queue_has_them)
{
	struct stats_view *v = &self->v;
	struct nictl_irq *irqs = self->cur.dev.devs[0].irqs;

	/* Queue 0: an rx IRQ on CPU 0 and a tx IRQ on CPU 3; queue 1: tx only. */
	irqs[0].kind = NICTL_QUEUE_KIND_RX;
	irqs[1].kind = NICTL_QUEUE_KIND_TX;
	irqs[1].queue = 0;
	cpuset_free(&irqs[1].affinity);
	sample_cpus(&irqs[1].affinity, "3");
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_STREQ("0", cpulist_of(&v->queues[0].irq_cpus));
	/* No IRQ for queue 1: nothing to be outside of. */
	EXPECT_STREQ("", cpulist_of(&v->queues[1].irq_cpus));
	EXPECT_STREQ("", cpulist_of(&v->queues[1].outside));
}

TEST_F(calc, unknown_queue_sorts_last)
{
	struct stats_view *v = &self->v;

	self->cur.napis[0].queue = -1;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(1, v->queues[0].queue);
	EXPECT_EQ(-1, v->queues[1].queue);
	EXPECT_EQ(8193, v->queues[1].napi_id);
	EXPECT_STREQ("", cpulist_of(&v->queues[1].irq_cpus));
	EXPECT_EQ(1, v->uneven);
}

TEST_F(calc, nothing_counted_names_nothing)
{
	struct stats_view *v = &self->v;

	ASSERT_EQ(0, stats_view_make(v, &self->cur, &self->cur));
	EXPECT_EQ(-1, v->hot_cpu);
	EXPECT_EQ(-1, v->uneven);
	EXPECT_EQ(0, v->packets);
	EXPECT_FALSE(RX(v, 0).max_new);
}

TEST_F(calc, offline_cpus_that_counted_stay)
{
	struct stats_view *v = &self->v;

	self->cur.cpus[3].vec[NICTL_SOFTIRQ_NET_TX].count = 1;
	ASSERT_EQ(0, stats_view_make(v, NULL, &self->cur));
	ASSERT_EQ(4, v->nr_cpus);
	EXPECT_EQ(3, v->cpus[3].cpu);
}

TEST_F(calc, every_cpu_without_an_online_list)
{
	struct stats_view *v = &self->v;

	cpuset_free(&self->cur.online);
	ASSERT_EQ(0, stats_view_make(v, NULL, &self->cur));
	EXPECT_EQ(4, v->nr_cpus);
}

TEST_F(calc, hottest_cpu_is_the_largest_share)
{
	struct stats_view *v = &self->v;

	self->cur.cpus[2].vec[NICTL_SOFTIRQ_NET_RX].count = 1;
	self->cur.cpus[2].vec[NICTL_SOFTIRQ_NET_RX].time_ns = 500000000;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	ASSERT_EQ(2, v->hot_cpu);
	EXPECT_EQ(2, v->cpus[v->hot_cpu].cpu);
}

#define SPLIT(v, i)	((v)->cpus[i].split)
#define POLL(v, i, k)	((v)->cpus[i].poll[NICTL_POLL_##k])

/*
 * NET_RX split three ways: with DEV, CPU 0's NAPI part is vnode1's 250 ms
 * alone (the other device's 50 ms go to OTHER); CPU 1 polled its backlog
 * 6 ms and got 50 RPS IPIs. The parts add up to NET_RX.
 */
TEST_F(calc, net_rx_splits_into_napi_backlog_and_the_rest)
{
	struct stats_view *v = &self->v;
	unsigned int i;

	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(250000000, SPLIT(v, 0).napi_ns);
	EXPECT_EQ(0, SPLIT(v, 0).backlog_ns);
	EXPECT_EQ(200000000, SPLIT(v, 0).other_ns);
	EXPECT_EQ(25.0, SPLIT(v, 0).napi_pct);
	EXPECT_EQ(300000000, POLL(v, 0, DEVICE).time_ns);
	EXPECT_EQ(9100, POLL(v, 0, DEVICE).packets);
	EXPECT_EQ(2000000, SPLIT(v, 1).napi_ns);
	EXPECT_EQ(6000000, SPLIT(v, 1).backlog_ns);
	EXPECT_EQ(2000000, SPLIT(v, 1).other_ns);
	EXPECT_EQ(20, POLL(v, 1, BACKLOG).polls);
	EXPECT_EQ(400, POLL(v, 1, BACKLOG).packets);
	EXPECT_EQ(400.0, POLL(v, 1, BACKLOG).packets_per_sec);
	EXPECT_TRUE(v->cpus[1].softnet.has_rps);
	EXPECT_EQ(50, v->cpus[1].softnet.received_rps);
	EXPECT_EQ(50.0, v->cpus[1].rps_per_sec);
	EXPECT_EQ(0, v->backlog_untimed);
	for (i = 0; i < v->nr_cpus; i++)
		EXPECT_EQ(RX(v, i).time_ns,
			  SPLIT(v, i).napi_ns + SPLIT(v, i).backlog_ns + SPLIT(v, i).other_ns)
			TH_LOG("CPU %u", v->cpus[i].cpu);
}

/* Without DEV, NAPI is every device's polling: CPU 0's 300 ms. */
TEST_F(calc, without_a_device_napi_is_every_devices)
{
	struct stats_view *v = &self->v;

	self->cur.has_dev = false;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(300000000, SPLIT(v, 0).napi_ns);
	EXPECT_EQ(150000000, SPLIT(v, 0).other_ns);
}

/*
 * A NAPI's time runs ahead of the run it belongs to, which the module adds
 * at the run's end: the device's part is held to the device polling's, and
 * backlog and NAPI together to NET_RX. No part goes negative.
 */
TEST_F(calc, parts_never_exceed_net_rx)
{
	struct stats_view *v = &self->v;

	self->cur.cpus[0].napi_times[0].time_ns += 400000000;
	self->cur.cpus[1].poll[NICTL_POLL_BACKLOG].time_ns += 9000000;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(300000000, SPLIT(v, 0).napi_ns);
	EXPECT_EQ(150000000, SPLIT(v, 0).other_ns);
	EXPECT_EQ(10000000, SPLIT(v, 1).backlog_ns);
	EXPECT_EQ(0, SPLIT(v, 1).napi_ns);
	EXPECT_EQ(0, SPLIT(v, 1).other_ns);
}

/* Backlog threads (PREEMPT_RT) poll outside NET_RX: counted, untimed, summed. */
TEST_F(calc, untimed_backlog_polls_are_summed)
{
	struct stats_view *v = &self->v;

	self->cur.cpus[1].poll[NICTL_POLL_BACKLOG].untimed = 7;
	self->cur.cpus[2].poll[NICTL_POLL_BACKLOG].untimed = 5;
	self->cur.cpus[2].poll[NICTL_POLL_BACKLOG].polls = 5;
	self->cur.cpus[2].poll[NICTL_POLL_BACKLOG].packets = 60;
	ASSERT_EQ(0, stats_view_make(v, &self->prev, &self->cur));
	EXPECT_EQ(12, v->backlog_untimed);
	EXPECT_EQ(60, POLL(v, 2, BACKLOG).packets);
	EXPECT_EQ(0, SPLIT(v, 2).backlog_ns);
}

TEST_HARNESS_MAIN
