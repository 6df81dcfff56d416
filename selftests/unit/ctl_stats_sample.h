/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two fixed samples of the stats command, one second apart, 100 s after the
 * counters started, for the tests of the arithmetic, the formats and the
 * command. Four possible CPUs, 0-2 online; device vnode1 (ifindex 3) with
 * two queues whose combined IRQs sit on CPUs 0 and 1.
 *
 *   NET_RX    CPU 0: 1500 runs, 450 ms of 1 s (45%), new max 2 ms
 *             CPU 1: 100 runs, 10 ms (1%), max 4 ms from before
 *   NET_TX    CPU 0: 2 runs, 2 us
 *   polls     CPU 0: device NAPIs 300 ms of NET_RX, 250 ms of them vnode1's
 *             (8193), 50 ms another device's (9000); no backlog
 *             CPU 1: device NAPIs 2 ms (8194), backlog 6 ms, 400 packets
 *   softnet   CPU 0: processed wraps past 2^32 (+9000), time_squeeze +3
 *             CPU 1: received_rps +50
 *   NAPI      8193 queue 0: +9100 packets on CPU 0
 *             8194 queue 1: +900 packets, polled on CPUs 1 and 2 (2 is
 *             outside its IRQ's affinity)
 *
 * sample_stacked() turns a sample into one of bond0, stacked on vnode0 and
 * vnode1, one of the two NAPIs each.
 */
#ifndef CTL_STATS_SAMPLE_H
#define CTL_STATS_SAMPLE_H

#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

#define SAMPLE_START_NS		1000000000ULL
#define SAMPLE_PREV_NS		(SAMPLE_START_NS + 100000000000ULL)

/* The NET_RX split of the table over the interval, with vnode1. */
#define SAMPLE_SPLIT_TABLE \
	"\n" \
	"NET_RX time: NAPI% in vnode1's NAPIs, BACKLOG% in the RPS backlog, " \
	"OTHER% the rest\n" \
	SAMPLE_SPLIT_ROWS

/* Its columns; the same with bond0 of sample_stacked(), whose devices' NAPIs are these. */
#define SAMPLE_SPLIT_ROWS \
	"  CPU  NET_RX%  NAPI%  BACKLOG%  OTHER%  BKLOG_PKTS/s  RPS_IPI/s\n" \
	"  0    45.0     25.0   0.0       20.0    0.0           0.0\n" \
	"  1    1.0      0.2    0.6       0.2     400.0         50.0\n" \
	"  2    0.0      0.0    0.0       0.0     0.0           0.0\n"

/*
 * The table of sample_stacked() over the interval, from the NET_RX split on:
 * the queues of the devices beneath bond0, each row and footnote naming its device.
 */
#define SAMPLE_STACKED_TABLE \
	"NET_RX time: NAPI% in the NAPIs of the devices beneath bond0, " \
	"BACKLOG% in the RPS backlog, OTHER% the rest\n" \
	SAMPLE_SPLIT_ROWS \
	"\n" \
	"bond0 (ifindex 9), stacked on vnode0, vnode1: 2 NAPI instances, " \
	"10000.0 packets/s\n" \
	"  DEV     QUEUE  NAPI_ID  PKTS/s  POLLS/s  SHARE%  IRQ_CPUS  NAPI_CPUS  THREAD_MS  " \
	"BUSY_MS\n" \
	"  vnode0  0      8193     9100.0  300.0    91.0    0         0          -          -\n" \
	"  vnode1  0      8194     900.0   50.0     9.0     1         1-2*       -          -\n" \
	"  * polled outside its IRQ affinity: vnode1 queue 0 on CPU 2 (since the " \
	"counters started: a moved IRQ, threaded NAPI or busy polling)\n" \
	"hottest CPU: 0, NET_RX 45.0% of the interval; " \
	"vnode0 queue 0 takes 91% of bond0's packets (even: 50%)\n"

static inline void *sample_dup(const void *p, size_t size)
{
	void *q = malloc(size);

	if (!q)
		abort();
	return memcpy(q, p, size);
}

static inline void sample_cpus(struct cpuset *s, const char *list)
{
	if (cpuset_parse(s, list))
		abort();
}

/* A NIC with @nr combined queue IRQs: queue q on CPU @cpu + q. */
static inline void sample_nic(struct nictl_dev *dev, unsigned int ifindex, const char *name,
			      unsigned int nr, unsigned int cpu)
{
	char list[16];
	unsigned int q;

	*dev = (struct nictl_dev){
		.ifindex = ifindex, .ifname = strdup(name), .numa_node = -1, .rx_queues = nr,
		.tx_queues = nr, .flags = NICTL_DEV_F_UP, .source = NICTL_IRQ_SOURCE_NAPI,
		.nr_irqs = nr,
	};
	dev->irqs = calloc(nr, sizeof(*dev->irqs));
	if (!dev->irqs || !dev->ifname)
		abort();
	for (q = 0; q < nr; q++) {
		dev->irqs[q] = (struct nictl_irq){
			.queue = q, .kind = NICTL_QUEUE_KIND_COMBINED, .irq = 40 + q,
			.name = strdup(q ? "virtio0-input.1" : "virtio0-input.0"),
			.node = -1, .target_cpu = -1,
		};
		snprintf(list, sizeof(list), "%u", cpu + q);
		sample_cpus(&dev->irqs[q].affinity, list);
		sample_cpus(&dev->irqs[q].effective, list);
	}
}

/* The device's two combined queue IRQs: queue 0 on CPU 0, queue 1 on CPU 1. */
static inline void sample_dev(struct stats_sample *s)
{
	s->dev.devs = calloc(1, sizeof(*s->dev.devs));
	if (!s->dev.devs)
		abort();
	sample_nic(&s->dev.devs[0], 3, "vnode1", 2, 0);
	s->dev.nr = 1;
}

/* The NET_RX time of NAPIs 8193 and 9000 on CPU 0, of 8194 on CPU 1. */
static inline void sample_napi_times(struct stats_cpu *cpus, int which)
{
	struct stats_napi_time cpu0[] = {
		{ .id = 8193, .time_ns = 1000000000ULL + which * 250000000ULL },
		{ .id = 9000, .time_ns = 200000000ULL + which * 50000000ULL },
	};
	struct stats_napi_time cpu1[] = {
		{ .id = 8194, .time_ns = 40000000ULL + which * 2000000ULL },
	};

	cpus[0].napi_times = sample_dup(cpu0, sizeof(cpu0));
	cpus[0].nr_napi_times = 2;
	cpus[1].napi_times = sample_dup(cpu1, sizeof(cpu1));
	cpus[1].nr_napi_times = 1;
}

/* Sample @which (0: the earlier, 1: one second later), with vnode1 if @dev. */
static inline void sample_make(struct stats_sample *s, int which, bool dev)
{
	struct stats_cpu cpus[4];
	struct stats_napi napis[2];
	unsigned int i;

	memset(s, 0, sizeof(*s));
	memset(cpus, 0, sizeof(cpus));
	for (i = 0; i < 4; i++) {
		cpus[i].cpu = i;
		cpus[i].start_ns = SAMPLE_START_NS;
		/* CPU 1 is read 100 us after CPU 0, as in a real dump. */
		cpus[i].now_ns = SAMPLE_PREV_NS + which * 1000000000ULL + i * 100000;
		cpus[i].softnet.present = i < 3;
		cpus[i].softnet.has_rps = i < 3;
	}
	cpus[0].vec[NICTL_SOFTIRQ_NET_RX] = (struct stats_vec){
		.count = 10000, .time_ns = 2000000000, .max_ns = 1500000,
		.hist = { [8] = 9000, [11] = 1000 },
	};
	cpus[0].vec[NICTL_SOFTIRQ_NET_TX] = (struct stats_vec){
		.count = 100, .time_ns = 100000, .max_ns = 12000, .hist = { [0] = 60, [1] = 40 },
	};
	cpus[1].vec[NICTL_SOFTIRQ_NET_RX] = (struct stats_vec){
		.count = 100, .time_ns = 100000000, .max_ns = 4000000,
		.hist = { [10] = 99, [12] = 1 },
	};
	cpus[0].poll[NICTL_POLL_DEVICE] = (struct stats_poll){
		.polls = 1100, .packets = 60000, .time_ns = 1200000000,
	};
	cpus[1].poll[NICTL_POLL_DEVICE] = (struct stats_poll){
		.polls = 100, .packets = 5000, .time_ns = 40000000,
	};
	cpus[1].poll[NICTL_POLL_BACKLOG] = (struct stats_poll){
		.polls = 200, .packets = 4000, .time_ns = 30000000,
	};
	cpus[0].softnet.processed = 0xfffffff0;
	cpus[0].softnet.time_squeeze = 5;
	cpus[1].softnet.processed = 500;
	cpus[1].softnet.received_rps = 1000;
	if (which) {
		cpus[0].vec[NICTL_SOFTIRQ_NET_RX].count += 1500;
		cpus[0].vec[NICTL_SOFTIRQ_NET_RX].time_ns += 450000000;
		cpus[0].vec[NICTL_SOFTIRQ_NET_RX].max_ns = 2000000;
		cpus[0].vec[NICTL_SOFTIRQ_NET_RX].hist[8] += 1000;
		cpus[0].vec[NICTL_SOFTIRQ_NET_RX].hist[9] += 499;
		cpus[0].vec[NICTL_SOFTIRQ_NET_RX].hist[11] += 1;
		cpus[0].vec[NICTL_SOFTIRQ_NET_TX].count += 2;
		cpus[0].vec[NICTL_SOFTIRQ_NET_TX].time_ns += 2000;
		cpus[0].vec[NICTL_SOFTIRQ_NET_TX].hist[1] += 2;
		cpus[1].vec[NICTL_SOFTIRQ_NET_RX].count += 100;
		cpus[1].vec[NICTL_SOFTIRQ_NET_RX].time_ns += 10000000;
		cpus[1].vec[NICTL_SOFTIRQ_NET_RX].hist[10] += 100;
		cpus[0].softnet.processed += 9000;	/* wraps */
		cpus[0].softnet.time_squeeze += 3;
		cpus[1].softnet.processed += 100;
		cpus[0].poll[NICTL_POLL_DEVICE].polls += 300;
		cpus[0].poll[NICTL_POLL_DEVICE].packets += 9100;
		cpus[0].poll[NICTL_POLL_DEVICE].time_ns += 300000000;
		cpus[1].poll[NICTL_POLL_DEVICE].polls += 50;
		cpus[1].poll[NICTL_POLL_DEVICE].packets += 900;
		cpus[1].poll[NICTL_POLL_DEVICE].time_ns += 2000000;
		cpus[1].poll[NICTL_POLL_BACKLOG].polls += 20;
		cpus[1].poll[NICTL_POLL_BACKLOG].packets += 400;
		cpus[1].poll[NICTL_POLL_BACKLOG].time_ns += 6000000;
		cpus[1].softnet.received_rps += 50;
	}
	sample_napi_times(cpus, which);
	s->enabled = true;
	s->cpus = sample_dup(cpus, sizeof(cpus));
	s->nr_cpus = 4;
	sample_cpus(&s->online, "0-2");
	if (!dev)
		return;
	s->has_dev = true;
	s->ifindex = 3;
	s->ifname = strdup("vnode1");
	memset(napis, 0, sizeof(napis));
	napis[0] = (struct stats_napi){
		.id = 8193, .ifindex = 3, .queue = 0, .polls = 1000, .packets = 50000,
		.time_ns = 1000000000,
	};
	napis[1] = (struct stats_napi){
		.id = 8194, .ifindex = 3, .queue = 1, .polls = 100, .packets = 5000,
		.time_ns = 40000000,
	};
	if (which) {
		napis[0].polls += 300;
		napis[0].packets += 9100;
		napis[0].time_ns += 250000000;
		napis[1].polls += 50;
		napis[1].packets += 900;
		napis[1].time_ns += 2000000;
	}
	sample_cpus(&napis[0].cpus, "0");
	sample_cpus(&napis[1].cpus, "1-2");
	s->napis = sample_dup(napis, sizeof(napis));
	s->nr_napis = 2;
	sample_dev(s);
}

/*
 * Sample @s (made with a device) as bond0 (ifindex 9) stacked on vnode0
 * (ifindex 2) and vnode1 (ifindex 3), one combined queue IRQ each, vnode0's
 * on CPU 0 and vnode1's on CPU 1: NAPI 8193 is vnode0's queue 0, 8194
 * vnode1's queue 0 (polled on CPUs 1-2, so 2 is outside its IRQ's CPU).
 */
static inline void sample_stacked(struct stats_sample *s)
{
	dev_list_free(&s->dev);
	free(s->ifname);
	s->ifname = strdup("bond0");
	s->ifindex = 9;
	s->dev.stacked = strdup("bond0");
	s->dev.stacked_ifindex = 9;
	s->dev.devs = calloc(2, sizeof(*s->dev.devs));
	if (!s->ifname || !s->dev.stacked || !s->dev.devs)
		abort();
	sample_nic(&s->dev.devs[0], 2, "vnode0", 1, 0);
	sample_nic(&s->dev.devs[1], 3, "vnode1", 1, 1);
	s->dev.nr = 2;
	s->napis[0].ifindex = 2;
	s->napis[1].queue = 0;
}

#endif /* CTL_STATS_SAMPLE_H */
