// SPDX-License-Identifier: GPL-2.0
/*
 * From counters to what people read: the difference of two samples (or one
 * sample against the start of the counters) turned into shares of time,
 * rates and averages, per CPU and per NAPI instance, and each CPU's NET_RX
 * time split into device NAPI polling, RPS backlog polling and the rest.
 *
 * Every CPU's rates use that CPU's own NOW_NS readings, so the few
 * microseconds a dump takes do not skew them. A reset between two samples
 * (START_NS moved) makes the interval begin at the reset, with zero counters.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

/* @cur - @prev, or 0 should a counter ever go back. */
static uint64_t delta(uint64_t cur, uint64_t prev)
{
	return cur > prev ? cur - prev : 0;
}

static double per_sec(uint64_t n, uint64_t span_ns)
{
	return span_ns ? (double)n * 1e9 / span_ns : 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0;
}

static const struct stats_napi *find_napi(const struct stats_sample *s, unsigned int id)
{
	unsigned int i;

	for (i = 0; s && i < s->nr_napis; i++)
		if (s->napis[i].id == id)
			return &s->napis[i];
	return NULL;
}

/* The counters started anew between @prev and @cur: STATS_RESET or a reload. */
bool stats_restarted(const struct stats_sample *prev, const struct stats_sample *cur)
{
	return prev->nr_cpus && cur->nr_cpus && prev->cpus[0].start_ns != cur->cpus[0].start_ns;
}

static uint64_t latest_now(const struct stats_sample *s)
{
	uint64_t now = 0;
	unsigned int i;

	for (i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].now_ns > now)
			now = s->cpus[i].now_ns;
	return now;
}

/* @base NULL: the counters' start, when every counter was zero. */
static void vec_view(struct vec_view *v, const struct stats_vec *cur, const struct stats_vec *base,
		     uint64_t span_ns, bool interval)
{
	static const struct stats_vec zero;
	unsigned int b;

	if (!base)
		base = &zero;
	v->count = delta(cur->count, base->count);
	v->time_ns = delta(cur->time_ns, base->time_ns);
	v->max_ns = cur->max_ns;
	v->max_new = interval && cur->max_ns > base->max_ns;
	for (b = 0; b < NICTL_HIST_BUCKETS; b++)
		v->hist[b] = delta(cur->hist[b], base->hist[b]);
	v->pct = pct(v->time_ns, span_ns);
	v->per_sec = per_sec(v->count, span_ns);
	v->avg_ns = v->count ? (v->time_ns + v->count / 2) / v->count : 0;
}

static void poll_view(struct poll_view *v, const struct stats_poll *cur,
		      const struct stats_poll *base, uint64_t span_ns)
{
	static const struct stats_poll zero;

	if (!base)
		base = &zero;
	v->polls = delta(cur->polls, base->polls);
	v->packets = delta(cur->packets, base->packets);
	v->time_ns = delta(cur->time_ns, base->time_ns);
	v->untimed = delta(cur->untimed, base->untimed);
	v->busy_polls = delta(cur->busy_polls, base->busy_polls);
	v->busy_ns = delta(cur->busy_ns, base->busy_ns);
	v->pct = pct(v->time_ns, span_ns);
	v->busy_pct = pct(v->busy_ns, span_ns);
	v->packets_per_sec = per_sec(v->packets, span_ns);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * The NET_RX time on CPU @c of the NAPI instances of @s's device (of every
 * device beneath a stacked one); 0 without @c.
 */
static uint64_t dev_napi_ns(const struct stats_cpu *c, const struct stats_sample *s)
{
	uint64_t ns = 0;
	unsigned int i;

	for (i = 0; c && i < c->nr_napi_times; i++)
		if (find_napi(s, c->napi_times[i].id))
			ns += c->napi_times[i].time_ns;
	return ns;
}

/*
 * The three parts of the NET_RX time. The module adds a NET_RX run's poll
 * times with the run's own, so backlog and device polling fit in NET_RX;
 * a NAPI instance's time is added as each poll ends, so one device's part
 * may run one unfinished run ahead: it is held to the device polling's.
 */
static void rx_split(struct cpu_view *v, const struct stats_cpu *cur,
		     const struct stats_cpu *base, const struct stats_sample *s, uint64_t span_ns)
{
	struct rx_split *sp = &v->split;
	uint64_t rx = v->vec[NICTL_SOFTIRQ_NET_RX].time_ns;
	uint64_t napi = v->poll[NICTL_POLL_DEVICE].time_ns;

	if (s->has_dev)
		napi = min_u64(napi, delta(dev_napi_ns(cur, s), dev_napi_ns(base, s)));
	sp->backlog_ns = min_u64(v->poll[NICTL_POLL_BACKLOG].time_ns, rx);
	sp->napi_ns = min_u64(napi, rx - sp->backlog_ns);
	sp->other_ns = rx - sp->backlog_ns - sp->napi_ns;
	sp->napi_pct = pct(sp->napi_ns, span_ns);
	sp->backlog_pct = pct(sp->backlog_ns, span_ns);
	sp->other_pct = pct(sp->other_ns, span_ns);
}

/* The 32-bit softnet counters wrap; unsigned subtraction of 32 bits undoes that. */
static void softnet_view(struct cpu_view *v, const struct stats_cpu *cur,
			 const struct stats_cpu *prev)
{
	if (!prev) {
		v->softnet = cur->softnet;
		return;
	}
	if (!cur->softnet.present || !prev->softnet.present)
		return;
	v->softnet.present = true;
	v->softnet.processed = cur->softnet.processed - prev->softnet.processed;
	v->softnet.dropped = cur->softnet.dropped - prev->softnet.dropped;
	v->softnet.time_squeeze = cur->softnet.time_squeeze - prev->softnet.time_squeeze;
	v->softnet.has_rps = cur->softnet.has_rps && prev->softnet.has_rps;
	if (v->softnet.has_rps)
		v->softnet.received_rps = cur->softnet.received_rps - prev->softnet.received_rps;
	v->processed_per_sec = per_sec(v->softnet.processed, delta(cur->now_ns, prev->now_ns));
	v->rps_per_sec = per_sec(v->softnet.received_rps, delta(cur->now_ns, prev->now_ns));
}

static bool counted(const struct stats_cpu *c)
{
	unsigned int i;

	for (i = 0; i < __NICTL_SOFTIRQ_MAX; i++)
		if (c->vec[i].count)
			return true;
	for (i = 0; i < __NICTL_POLL_MAX; i++)
		if (c->poll[i].polls)
			return true;
	return c->napi_unattributed;
}

/*
 * Offline CPUs that never counted anything are left out: a distribution
 * kernel has many more possible CPUs than the machine has.
 */
static bool shown(const struct stats_sample *s, const struct stats_cpu *c)
{
	return cpuset_empty(&s->online) || cpuset_has(&s->online, c->cpu) ||
	       c->softnet.present || counted(c);
}

static void cpu_view(struct cpu_view *v, const struct stats_cpu *cur,
		     const struct stats_sample *curs, const struct stats_sample *prev, bool reset)
{
	const struct stats_cpu *p = stats_find_cpu(prev, cur->cpu);
	const struct stats_cpu *base = reset ? NULL : p;
	uint64_t since = base ? base->now_ns : cur->start_ns;
	uint64_t span = delta(cur->now_ns, since);
	unsigned int i;

	v->cpu = cur->cpu;
	for (i = 0; i < __NICTL_SOFTIRQ_MAX; i++)
		vec_view(&v->vec[i], &cur->vec[i], base ? &base->vec[i] : NULL, span,
			 prev != NULL);
	for (i = 0; i < __NICTL_POLL_MAX; i++)
		poll_view(&v->poll[i], &cur->poll[i], base ? &base->poll[i] : NULL, span);
	rx_split(v, cur, base, curs, span);
	v->napi_unattributed = delta(cur->napi_unattributed, base ? base->napi_unattributed : 0);
	if (!prev || p)
		softnet_view(v, cur, p);
	v->has_softirq = cur->has_softirq_ns && (!base || base->has_softirq_ns);
	v->softirq_ns = v->has_softirq ? delta(cur->softirq_ns, base ? base->softirq_ns : 0) : 0;
	v->softirq_pct = pct(v->softirq_ns, span);
}

/* The CPU's share of the span in NET_RX, or in softirqs of every vector via procfs. */
static double hot_pct(const struct stats_view *v, const struct cpu_view *c)
{
	return v->via_proc ? c->softirq_pct : c->vec[NICTL_SOFTIRQ_NET_RX].pct;
}

/*
 * The union of the affinities of the IRQs of @dev's @queue (the device the
 * instance belongs to, NULL when unknown). A NAPI instance receives, so
 * when the queue has a receive (or combined) IRQ its transmit IRQ is left out.
 */
static int irq_cpus(struct cpuset *out, const struct nictl_dev *dev, int queue)
{
	const struct nictl_irq *irq;
	bool has_rx = false;
	unsigned int i;
	int err = 0;

	if (!dev || queue < 0)
		return 0;
	for (i = 0; i < dev->nr_irqs; i++) {
		irq = &dev->irqs[i];
		if (irq->queue == (unsigned int)queue && irq->kind != NICTL_QUEUE_KIND_TX)
			has_rx = true;
	}
	for (i = 0; i < dev->nr_irqs && !err; i++) {
		irq = &dev->irqs[i];
		if (irq->queue != (unsigned int)queue ||
		    (has_rx && irq->kind == NICTL_QUEUE_KIND_TX))
			continue;
		err = cpuset_or(out, &irq->affinity);
	}
	return err;
}

/*
 * The index in @s->dev of the device @n belongs to; @s->dev.nr when none
 * is (the device went between DEV_GET and NAPI_GET).
 */
static unsigned int napi_dev(const struct stats_sample *s, const struct stats_napi *n)
{
	unsigned int i;

	for (i = 0; i < s->dev.nr; i++)
		if (s->dev.devs[i].ifindex == n->ifindex)
			break;
	return i;
}

static int queue_view(struct queue_view *q, const struct stats_napi *cur,
		      const struct stats_sample *curs, const struct stats_napi *base,
		      uint64_t span_ns)
{
	int err;

	q->dev_index = napi_dev(curs, cur);
	/* Only a stacked device has instances of other devices to name. */
	q->dev = curs->dev.stacked && q->dev_index < curs->dev.nr ?
		 curs->dev.devs[q->dev_index].ifname : curs->ifname;
	q->napi_id = cur->id;
	q->queue = cur->queue;
	q->polls = delta(cur->polls, base ? base->polls : 0);
	q->packets = delta(cur->packets, base ? base->packets : 0);
	q->time_ns = delta(cur->time_ns, base ? base->time_ns : 0);
	q->busy_ns = delta(cur->busy_ns, base ? base->busy_ns : 0);
	q->polls_per_sec = per_sec(q->polls, span_ns);
	q->packets_per_sec = per_sec(q->packets, span_ns);
	/* A thread made since the base (threaded switched on, a reload) counts whole. */
	q->thread_pid = cur->thread_pid;
	q->thread_ns = delta(cur->thread_ns, base && base->thread_pid == cur->thread_pid ?
				base->thread_ns : 0);
	err = cpuset_or(&q->napi_cpus, &cur->cpus) ?: cpuset_or(&q->thread_cpus, &cur->thread_cpus);
	if (!err)
		err = irq_cpus(&q->irq_cpus, q->dev_index < curs->dev.nr ?
				&curs->dev.devs[q->dev_index] : NULL, cur->queue);
	/* With no IRQ known there is no affinity to be outside of. */
	if (!err && !cpuset_empty(&q->irq_cpus)) {
		err = cpuset_or(&q->outside, &q->napi_cpus);
		cpuset_andnot(&q->outside, &q->irq_cpus);
	}
	return err;
}

/* Device order (a stacked DEV's), then queue order; an unknown queue (-1) sorts last. */
static int queue_cmp(const void *a, const void *b)
{
	const struct queue_view *x = a, *y = b;
	unsigned int qx = x->queue, qy = y->queue;

	if (x->dev_index != y->dev_index)
		return x->dev_index < y->dev_index ? -1 : 1;
	if (qx != qy)
		return qx < qy ? -1 : 1;
	return x->napi_id < y->napi_id ? -1 : x->napi_id > y->napi_id;
}

/* Busy polling's time on CPU @c of NAPI @id; 0 without @c. */
static uint64_t napi_busy_ns(const struct stats_cpu *c, unsigned int id)
{
	const struct stats_napi_time *t = stats_find_napi_time(c, id);

	return t ? t->busy_ns : 0;
}

/* The CPUs on which tasks busy-polled @q's NAPI in the span (@base NULL: since the start). */
static int busy_cpus(struct queue_view *q, const struct stats_sample *cur,
		     const struct stats_sample *base)
{
	const struct stats_cpu *c;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < cur->nr_cpus; i++) {
		c = &cur->cpus[i];
		if (delta(napi_busy_ns(c, q->napi_id),
			  napi_busy_ns(base ? stats_find_cpu(base, c->cpu) : NULL, q->napi_id)))
			err = cpuset_add(&q->busy_cpus, c->cpu);
	}
	return err;
}

static int queues_view(struct stats_view *v, const struct stats_sample *prev,
		       const struct stats_sample *cur, bool reset)
{
	const struct stats_napi *base;
	unsigned int i;
	int err;

	v->has_dev = true;
	v->ifindex = cur->ifindex;
	v->ifname = cur->ifname;
	v->lower = cur->dev.stacked ? &cur->dev : NULL;
	if (!cur->nr_napis)
		return 0;
	v->queues = calloc(cur->nr_napis, sizeof(*v->queues));
	if (!v->queues)
		return -ENOMEM;
	for (i = 0; i < cur->nr_napis; i++) {
		base = reset ? NULL : find_napi(prev, cur->napis[i].id);
		v->nr_queues++;
		err = queue_view(&v->queues[i], &cur->napis[i], cur, base, v->span_ns) ?:
		      busy_cpus(&v->queues[i], cur, reset ? NULL : prev);
		if (err)
			return err;
		v->packets += v->queues[i].packets;
	}
	qsort(v->queues, v->nr_queues, sizeof(*v->queues), queue_cmp);
	for (i = 0; i < v->nr_queues; i++) {
		v->queues[i].share_pct = pct(v->queues[i].packets, v->packets);
		if (v->packets && (v->uneven < 0 ||
				   v->queues[i].packets > v->queues[v->uneven].packets))
			v->uneven = i;
	}
	return 0;
}

/*
 * Fill @v with what happened between @prev and @cur, or with @prev NULL
 * since the counters started. Returns 0 or -ENOMEM; either way @v must be
 * freed with stats_view_free() (and lives no longer than @cur).
 */
int stats_view_make(struct stats_view *v, const struct stats_sample *prev,
		    const struct stats_sample *cur)
{
	bool reset = prev && stats_restarted(prev, cur);
	struct cpu_view *c;
	unsigned int i;

	memset(v, 0, sizeof(*v));
	v->interval = prev != NULL;
	v->via_proc = cur->via_proc;
	v->enabled = cur->enabled;
	v->hot_cpu = -1;
	v->uneven = -1;
	if (prev && !reset)
		v->span_ns = delta(latest_now(cur), latest_now(prev));
	else if (cur->nr_cpus)
		v->span_ns = delta(latest_now(cur), cur->cpus[0].start_ns);
	v->cpus = calloc(cur->nr_cpus ?: 1, sizeof(*v->cpus));
	if (!v->cpus)
		return -ENOMEM;
	for (i = 0; i < cur->nr_cpus; i++) {
		if (!shown(cur, &cur->cpus[i]))
			continue;
		c = &v->cpus[v->nr_cpus];
		cpu_view(c, &cur->cpus[i], cur, prev, reset);
		v->backlog_untimed += c->poll[NICTL_POLL_BACKLOG].untimed;
		if (hot_pct(v, c) > 0 &&
		    (v->hot_cpu < 0 || hot_pct(v, c) > hot_pct(v, &v->cpus[v->hot_cpu])))
			v->hot_cpu = v->nr_cpus;
		v->nr_cpus++;
	}
	return cur->has_dev ? queues_view(v, prev, cur, reset) : 0;
}

void stats_view_free(struct stats_view *v)
{
	unsigned int i;

	for (i = 0; i < v->nr_queues; i++) {
		cpuset_free(&v->queues[i].irq_cpus);
		cpuset_free(&v->queues[i].napi_cpus);
		cpuset_free(&v->queues[i].outside);
		cpuset_free(&v->queues[i].thread_cpus);
		cpuset_free(&v->queues[i].busy_cpus);
	}
	free(v->queues);
	free(v->cpus);
	memset(v, 0, sizeof(*v));
}
