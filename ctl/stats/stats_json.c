// SPDX-License-Identifier: GPL-2.0
/* The stats JSON format, documented in stats.c: one line per view. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "json.h"
#include "report.h"
#include "stats/stats.h"

/*
 * json.c writes integers only; shares and rates need a fraction. Keys here
 * are our own constants, so they need no escaping; the separator follows
 * json.c's rule (a comma when a value was written at this level).
 */
static void json_fixed(struct json *j, const char *key, double v)
{
	if (j->comma)
		fputc(',', j->f);
	fprintf(j->f, "\"%s\":%.3f", key, v);
	j->comma = true;
}

static void json_u64(struct json *j, const char *key, uint64_t v)
{
	/* Past 2^63 a counter would turn negative; no softirq count gets there. */
	json_int(j, key, v > INT64_MAX ? INT64_MAX : (long long)v);
}

/* @v, or null where it was not measured (@has false). */
static void json_u64_if(struct json *j, const char *key, uint64_t v, bool has)
{
	if (has)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

static void json_fixed_if(struct json *j, const char *key, double v, bool has)
{
	if (has)
		json_fixed(j, key, v);
	else
		json_null(j, key);
}

/* Without the module (@timed false), a vector has its runs only: the rest is null. */
static void json_vec(struct json *j, const char *key, const struct vec_view *v, bool timed)
{
	unsigned int b;

	json_obj_begin(j, key);
	json_u64(j, "count", v->count);
	json_u64_if(j, "time_ns", v->time_ns, timed);
	json_u64_if(j, "max_ns", v->max_ns, timed);
	json_bool(j, "max_new", v->max_new);
	if (timed) {
		json_arr_begin(j, "hist");
		for (b = 0; b < NICTL_HIST_BUCKETS; b++)
			json_u64(j, NULL, v->hist[b]);
		json_arr_end(j);
	} else {
		json_null(j, "hist");
	}
	json_fixed_if(j, "pct", v->pct, timed);
	json_fixed(j, "per_sec", v->per_sec);
	json_u64_if(j, "avg_ns", v->avg_ns, timed);
	json_obj_end(j);
}

static void json_poll(struct json *j, const char *key, const struct poll_view *p)
{
	json_obj_begin(j, key);
	json_u64(j, "polls", p->polls);
	json_u64(j, "packets", p->packets);
	json_u64(j, "time_ns", p->time_ns);
	json_u64(j, "untimed", p->untimed);
	json_fixed(j, "pct", p->pct);
	json_fixed(j, "packets_per_sec", p->packets_per_sec);
	json_u64(j, "busy_polls", p->busy_polls);
	json_u64(j, "busy_ns", p->busy_ns);
	json_fixed(j, "busy_pct", p->busy_pct);
	json_obj_end(j);
}

static void json_split(struct json *j, const struct rx_split *sp)
{
	json_obj_begin(j, "net_rx_split");
	json_u64(j, "napi_ns", sp->napi_ns);
	json_u64(j, "backlog_ns", sp->backlog_ns);
	json_u64(j, "other_ns", sp->other_ns);
	json_fixed(j, "napi_pct", sp->napi_pct);
	json_fixed(j, "backlog_pct", sp->backlog_pct);
	json_fixed(j, "other_pct", sp->other_pct);
	json_obj_end(j);
}

/* What only the module counts: NAPI polls and NET_RX time by what it was spent on. */
static void json_polls(struct json *j, const struct cpu_view *c)
{
	unsigned int kind;

	json_obj_begin(j, "poll");
	for (kind = 0; kind < __NICTL_POLL_MAX; kind++)
		json_poll(j, stats_poll_names[kind], &c->poll[kind]);
	json_obj_end(j);
	json_split(j, &c->split);
	json_u64(j, "napi_unattributed", c->napi_unattributed);
}

static void json_cpu(struct json *j, const struct stats_view *v, const struct cpu_view *c)
{
	unsigned int vec;

	json_obj_begin(j, NULL);
	json_int(j, "cpu", c->cpu);
	for (vec = 0; vec < __NICTL_SOFTIRQ_MAX; vec++)
		json_vec(j, stats_vec_names[vec], &c->vec[vec], !v->via_proc);
	if (v->via_proc) {
		json_null(j, "poll");
		json_null(j, "net_rx_split");
		json_null(j, "napi_unattributed");
	} else {
		json_polls(j, c);
	}
	json_fixed_if(j, "softirq_pct", c->softirq_pct, c->has_softirq);
	if (c->softnet.present) {
		json_obj_begin(j, "softnet");
		json_int(j, "processed", c->softnet.processed);
		json_int(j, "dropped", c->softnet.dropped);
		json_int(j, "time_squeeze", c->softnet.time_squeeze);
		if (c->softnet.has_rps)
			json_int(j, "received_rps", c->softnet.received_rps);
		else
			json_null(j, "received_rps");
		json_obj_end(j);
	} else {
		json_null(j, "softnet");
	}
	json_obj_end(j);
}

static void json_cpus(struct json *j, const char *key, const struct cpuset *cpus)
{
	int cpu;

	json_arr_begin(j, key);
	cpuset_for_each(cpu, cpus)
		json_int(j, NULL, cpu);
	json_arr_end(j);
}

static void json_queue(struct json *j, const struct stats_view *v, const struct queue_view *q)
{
	json_obj_begin(j, NULL);
	if (v->lower)
		json_str(j, "ifname", q->dev);
	if (q->queue < 0)
		json_null(j, "queue");
	else
		json_int(j, "queue", q->queue);
	json_int(j, "napi_id", q->napi_id);
	json_u64(j, "polls", q->polls);
	json_u64(j, "packets", q->packets);
	json_u64(j, "time_ns", q->time_ns);
	json_u64(j, "busy_ns", q->busy_ns);
	json_fixed(j, "polls_per_sec", q->polls_per_sec);
	json_fixed(j, "packets_per_sec", q->packets_per_sec);
	json_fixed(j, "share_pct", q->share_pct);
	json_cpus(j, "irq_cpus", &q->irq_cpus);
	json_cpus(j, "napi_cpus", &q->napi_cpus);
	json_cpus(j, "outside_cpus", &q->outside);
	json_cpus(j, "busy_cpus", &q->busy_cpus);
	if (!q->thread_pid) {
		json_null(j, "thread");
	} else {
		json_obj_begin(j, "thread");
		json_int(j, "pid", q->thread_pid);
		json_u64(j, "time_ns", q->thread_ns);
		json_cpus(j, "cpus", &q->thread_cpus);
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* A stacked DEV says so, and names the physical devices whose queues follow. */
static void json_lower(struct json *j, const struct dev_list *lower)
{
	unsigned int i;

	json_bool(j, "stacked", true);
	json_arr_begin(j, "lower");
	for (i = 0; i < lower->nr; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "ifname", lower->devs[i].ifname);
		json_int(j, "ifindex", lower->devs[i].ifindex);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static int json_view(struct json *j, const void *arg)
{
	const struct stats_view *v = arg;
	unsigned int i;

	json_obj_begin(j, NULL);
	json_u64(j, v->interval ? "interval_ns" : "since_ns", v->span_ns);
	json_str(j, "via", v->via_proc ? "procfs" : "module");
	json_bool(j, "enabled", v->enabled);
	json_arr_begin(j, "cpus");
	for (i = 0; i < v->nr_cpus; i++)
		json_cpu(j, v, &v->cpus[i]);
	json_arr_end(j);
	if (v->hot_cpu < 0)
		json_null(j, "hottest_cpu");
	else
		json_int(j, "hottest_cpu", v->cpus[v->hot_cpu].cpu);
	if (v->has_dev) {
		json_obj_begin(j, "dev");
		json_str(j, "ifname", v->ifname);
		json_int(j, "ifindex", v->ifindex);
		json_u64(j, "packets", v->packets);
		if (v->lower)
			json_lower(j, v->lower);
		json_obj_end(j);
		json_arr_begin(j, "queues");
		for (i = 0; i < v->nr_queues; i++)
			json_queue(j, v, &v->queues[i]);
		json_arr_end(j);
	}
	json_obj_end(j);
	return 0;
}

/* One view as one line of JSON; -1 after saying so when out of memory. */
int stats_json(FILE *f, const struct stats_view *v)
{
	return json_print_doc(f, json_view, v);
}
