// SPDX-License-Identifier: GPL-2.0
/*
 * The counters since the start in Prometheus' text exposition format (0.0.4),
 * for node_exporter's textfile collector: every family gets its # HELP and
 * # TYPE before its samples, counters end in _total, times are in seconds,
 * and there are no timestamps (the collector refuses them). softnet_stat is
 * not repeated here: node_exporter's softnet collector exports it already.
 */
#include <stdio.h>

#include "stats/stats.h"

/* Upper bounds of buckets 0-14 in seconds: 2^b us; bucket 15 is +Inf. */
static const char *const bucket_le[NICTL_HIST_BUCKETS] = {
	"1e-06", "2e-06", "4e-06", "8e-06", "1.6e-05", "3.2e-05", "6.4e-05", "0.000128",
	"0.000256", "0.000512", "0.001024", "0.002048", "0.004096", "0.008192", "0.016384",
	"+Inf",
};

static void family(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* Nanoseconds as seconds, digit for digit: no rounding through a double. */
static void put_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%09llu\n", (unsigned long long)(ns / 1000000000),
		(unsigned long long)(ns % 1000000000));
}

/* A label value: backslash, double quote and newline are escaped. */
static void put_label(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void cpu_vec_labels(FILE *f, unsigned int cpu, unsigned int vec)
{
	fprintf(f, "cpu=\"%u\",vec=\"%s\"", cpu, stats_vec_names[vec]);
}

/* One sample per CPU and vector of @name, the value chosen by @what. */
enum vec_value { VEC_RUNS, VEC_SECONDS, VEC_MAX };

static void vec_samples(FILE *f, const struct stats_view *v, const char *name,
			enum vec_value what)
{
	const struct vec_view *vv;
	unsigned int i, vec;

	for (i = 0; i < v->nr_cpus; i++) {
		for (vec = 0; vec < __NICTL_SOFTIRQ_MAX; vec++) {
			vv = &v->cpus[i].vec[vec];
			fprintf(f, "%s{", name);
			cpu_vec_labels(f, v->cpus[i].cpu, vec);
			fputs("} ", f);
			if (what == VEC_RUNS)
				fprintf(f, "%llu\n", (unsigned long long)vv->count);
			else
				put_seconds(f, what == VEC_SECONDS ? vv->time_ns : vv->max_ns);
		}
	}
}

/*
 * Cumulative buckets ending in +Inf, then _sum and _count. _count is the
 * +Inf bucket, the sum of the histogram, which the module keeps equal to the
 * run count; taking it from the histogram keeps the two equal regardless.
 */
static void histogram(FILE *f, unsigned int cpu, unsigned int vec, const struct vec_view *vv)
{
	uint64_t total = 0;
	unsigned int b;

	for (b = 0; b < NICTL_HIST_BUCKETS; b++) {
		total += vv->hist[b];
		fputs("nictl_softirq_duration_seconds_bucket{", f);
		cpu_vec_labels(f, cpu, vec);
		fprintf(f, ",le=\"%s\"} %llu\n", bucket_le[b], (unsigned long long)total);
	}
	fputs("nictl_softirq_duration_seconds_sum{", f);
	cpu_vec_labels(f, cpu, vec);
	fputs("} ", f);
	put_seconds(f, vv->time_ns);
	fputs("nictl_softirq_duration_seconds_count{", f);
	cpu_vec_labels(f, cpu, vec);
	fprintf(f, "} %llu\n", (unsigned long long)total);
}

/* One sample per CPU and poll kind of @name, the value chosen by @what. */
enum poll_value { POLL_POLLS, POLL_PACKETS, POLL_SECONDS, POLL_UNTIMED };

static void poll_samples(FILE *f, const struct stats_view *v, const char *name,
			 enum poll_value what)
{
	const struct poll_view *p;
	unsigned int i, kind;

	for (i = 0; i < v->nr_cpus; i++) {
		for (kind = 0; kind < __NICTL_POLL_MAX; kind++) {
			p = &v->cpus[i].poll[kind];
			fprintf(f, "%s{cpu=\"%u\",kind=\"%s\"} ", name, v->cpus[i].cpu,
				stats_poll_names[kind]);
			if (what == POLL_SECONDS)
				put_seconds(f, p->time_ns);
			else if (what == POLL_UNTIMED)
				fprintf(f, "%llu\n", (unsigned long long)p->untimed);
			else
				fprintf(f, "%llu\n", (unsigned long long)(what == POLL_POLLS ?
									 p->polls : p->packets));
		}
	}
}

static void napi_samples(FILE *f, const struct stats_view *v, const char *name,
			 enum poll_value what)
{
	const struct queue_view *q;
	unsigned int i;

	for (i = 0; i < v->nr_queues; i++) {
		q = &v->queues[i];
		fprintf(f, "%s{dev=", name);
		put_label(f, v->ifname);
		/* An unknown queue is an empty label, which Prometheus reads as absent. */
		if (q->queue < 0)
			fputs(",queue=\"\"", f);
		else
			fprintf(f, ",queue=\"%d\"", q->queue);
		fprintf(f, ",napi_id=\"%u\"} ", q->napi_id);
		if (what == POLL_SECONDS)
			put_seconds(f, q->time_ns);
		else
			fprintf(f, "%llu\n",
				(unsigned long long)(what == POLL_PACKETS ? q->packets : q->polls));
	}
}

/* The Prometheus format of a view since the start (not of an interval). */
int stats_prom(FILE *f, const struct stats_view *v)
{
	unsigned int i, vec;

	family(f, "nictl_softirq_accounting_enabled", "gauge",
	       "1 when nictl times the network softirqs, 0 when its probes are off.");
	fprintf(f, "nictl_softirq_accounting_enabled %d\n", v->enabled);
	family(f, "nictl_softirq_runs_total", "counter",
	       "Runs of the softirq handler since nictl's counters started.");
	vec_samples(f, v, "nictl_softirq_runs_total", VEC_RUNS);
	family(f, "nictl_softirq_seconds_total", "counter",
	       "Time spent in the softirq handler since nictl's counters started.");
	vec_samples(f, v, "nictl_softirq_seconds_total", VEC_SECONDS);
	family(f, "nictl_softirq_max_seconds", "gauge",
	       "Longest run of the softirq handler since nictl's counters started.");
	vec_samples(f, v, "nictl_softirq_max_seconds", VEC_MAX);
	family(f, "nictl_softirq_duration_seconds", "histogram",
	       "Runs of the softirq handler by duration, since nictl's counters started.");
	for (i = 0; i < v->nr_cpus; i++)
		for (vec = 0; vec < __NICTL_SOFTIRQ_MAX; vec++)
			histogram(f, v->cpus[i].cpu, vec, &v->cpus[i].vec[vec]);
	family(f, "nictl_napi_unattributed_polls_total", "counter",
	       "NAPI polls nictl could not attribute to an instance (its per-CPU table was full).");
	for (i = 0; i < v->nr_cpus; i++)
		fprintf(f, "nictl_napi_unattributed_polls_total{cpu=\"%u\"} %llu\n", v->cpus[i].cpu,
			(unsigned long long)v->cpus[i].napi_unattributed);
	family(f, "nictl_poll_total", "counter",
	       "NAPI polls of device NAPIs or of the RPS backlog since nictl's counters started.");
	poll_samples(f, v, "nictl_poll_total", POLL_POLLS);
	family(f, "nictl_poll_packets_total", "counter",
	       "Packets those polls received.");
	poll_samples(f, v, "nictl_poll_packets_total", POLL_PACKETS);
	family(f, "nictl_poll_seconds_total", "counter",
	       "NET_RX time those polls took (polls outside NET_RX are not timed).");
	poll_samples(f, v, "nictl_poll_seconds_total", POLL_SECONDS);
	family(f, "nictl_poll_untimed_total", "counter",
	       "Polls outside NET_RX: threaded NAPI, busy polling, backlog threads.");
	poll_samples(f, v, "nictl_poll_untimed_total", POLL_UNTIMED);
	if (!v->has_dev)
		return 0;
	family(f, "nictl_napi_polls_total", "counter",
	       "Polls of the device's NAPI instance since nictl's counters started.");
	napi_samples(f, v, "nictl_napi_polls_total", POLL_POLLS);
	family(f, "nictl_napi_packets_total", "counter",
	       "Packets the device's NAPI instance received since nictl's counters started.");
	napi_samples(f, v, "nictl_napi_packets_total", POLL_PACKETS);
	family(f, "nictl_napi_seconds_total", "counter",
	       "NET_RX time the device's NAPI instance took since nictl's counters started.");
	napi_samples(f, v, "nictl_napi_seconds_total", POLL_SECONDS);
	return 0;
}
