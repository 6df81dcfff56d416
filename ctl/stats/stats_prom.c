// SPDX-License-Identifier: GPL-2.0
/*
 * The counters since the start in Prometheus' text exposition format (0.0.4),
 * for node_exporter's textfile collector: every family gets its # HELP and
 * # TYPE before its samples, counters end in _total, times are in seconds,
 * and there are no timestamps (the collector refuses them). softnet_stat is
 * not repeated here: node_exporter's softnet collector exports it already.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"
#include "util.h"

/* Upper bounds of buckets 0-14 in seconds: 2^b us; bucket 15 is +Inf. */
static const char *const bucket_le[NICTL_HIST_BUCKETS] = {
	"1e-06", "2e-06", "4e-06", "8e-06", "1.6e-05", "3.2e-05", "6.4e-05", "0.000128",
	"0.000256", "0.000512", "0.001024", "0.002048", "0.004096", "0.008192", "0.016384",
	"+Inf",
};

void prom_family(FILE *f, const char *name, const char *type, const char *help)
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
void prom_label(FILE *f, const char *s)
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

/*
 * A family with one sample per CPU and entry of one of a cpu_view's arrays
 * (vec, or poll): @label names the entry, the u64 at byte @field of each
 * entry is the value, in ns printed as seconds when @seconds.
 */
struct cpu_series {
	const char *label;
	const char *const *names;	/* the label's values, one per entry */
	unsigned int n;
	size_t array;			/* offset of the array in struct cpu_view */
	size_t size;			/* of an entry */
	size_t field;
	bool seconds;
};

#define VEC_SERIES(member, secs) {							\
	"vec", stats_vec_names, __NICTL_SOFTIRQ_MAX, offsetof(struct cpu_view, vec),	\
	sizeof(struct vec_view), offsetof(struct vec_view, member), secs }
#define POLL_SERIES(member, secs) {							\
	"kind", stats_poll_names, __NICTL_POLL_MAX, offsetof(struct cpu_view, poll),	\
	sizeof(struct poll_view), offsetof(struct poll_view, member), secs }

/* A family of per-CPU samples. */
struct cpu_family {
	const char *name;
	const char *type;
	const char *help;
	struct cpu_series series;
};

static const struct cpu_family vec_families[] = {
	{ "nictl_softirq_runs_total", "counter",
	  "Runs of the softirq handler since nictl's counters started.",
	  VEC_SERIES(count, false) },
	{ "nictl_softirq_seconds_total", "counter",
	  "Time spent in the softirq handler since nictl's counters started.",
	  VEC_SERIES(time_ns, true) },
	{ "nictl_softirq_max_seconds", "gauge",
	  "Longest run of the softirq handler since nictl's counters started.",
	  VEC_SERIES(max_ns, true) },
};

static const struct cpu_family poll_families[] = {
	{ "nictl_cpu_polls_total", "counter",
	  "NAPI polls of device NAPIs or of the RPS backlog since nictl's counters started.",
	  POLL_SERIES(polls, false) },
	{ "nictl_cpu_poll_packets_total", "counter",
	  "Packets those polls received.",
	  POLL_SERIES(packets, false) },
	{ "nictl_cpu_poll_seconds_total", "counter",
	  "NET_RX time those polls took (polls outside NET_RX are not timed).",
	  POLL_SERIES(time_ns, true) },
	{ "nictl_cpu_untimed_polls_total", "counter",
	  "Polls outside NET_RX not timed: threaded NAPI, backlog threads, the first poll of "
	  "each busy-poll loop.",
	  POLL_SERIES(untimed, false) },
	{ "nictl_cpu_busy_polls_total", "counter",
	  "Polls by busy polling: a task polling from a socket call, outside NET_RX.",
	  POLL_SERIES(busy_polls, false) },
	{ "nictl_cpu_busy_poll_seconds_total", "counter",
	  "CPU time busy polling took, outside NET_RX (each loop's first poll not timed).",
	  POLL_SERIES(busy_ns, true) },
};

static void cpu_samples(FILE *f, const struct stats_view *v, const char *name,
			const struct cpu_series *s)
{
	const char *entry;
	unsigned int i, j;
	uint64_t value;

	for (i = 0; i < v->nr_cpus; i++) {
		for (j = 0; j < s->n; j++) {
			entry = (const char *)&v->cpus[i] + s->array + j * s->size;
			memcpy(&value, entry + s->field, sizeof(value));
			fprintf(f, "%s{cpu=\"%u\",%s=\"%s\"} ", name, v->cpus[i].cpu, s->label,
				s->names[j]);
			if (s->seconds)
				put_seconds(f, value);
			else
				fprintf(f, "%llu\n", (unsigned long long)value);
		}
	}
}

static void cpu_families(FILE *f, const struct stats_view *v, const struct cpu_family *fam,
			 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		prom_family(f, fam[i].name, fam[i].type, fam[i].help);
		cpu_samples(f, v, fam[i].name, &fam[i].series);
	}
}

/*
 * One histogram per vector, of every CPU's runs: per CPU and vector it would
 * be 36 series a CPU, over 9,000 on a 256-CPU host, where the per-CPU max
 * and time already say which CPU is slow. Cumulative buckets ending in +Inf,
 * then _sum and _count; _count is the +Inf bucket, which the module keeps
 * equal to the run count, and taking it from the buckets keeps them equal.
 */
static void histogram(FILE *f, const struct stats_view *v, unsigned int vec)
{
	const char *name = stats_vec_names[vec];
	uint64_t total = 0, time_ns = 0;
	unsigned int b, i;

	for (b = 0; b < NICTL_HIST_BUCKETS; b++) {
		for (i = 0; i < v->nr_cpus; i++)
			total += v->cpus[i].vec[vec].hist[b];
		fprintf(f, "nictl_softirq_duration_seconds_bucket{vec=\"%s\",le=\"%s\"} %llu\n",
			name, bucket_le[b], (unsigned long long)total);
	}
	for (i = 0; i < v->nr_cpus; i++)
		time_ns += v->cpus[i].vec[vec].time_ns;
	fprintf(f, "nictl_softirq_duration_seconds_sum{vec=\"%s\"} ", name);
	put_seconds(f, time_ns);
	fprintf(f, "nictl_softirq_duration_seconds_count{vec=\"%s\"} %llu\n", name,
		(unsigned long long)total);
}

/* One sample per NAPI instance of @name, the value chosen by @what. */
enum napi_value { NAPI_POLLS, NAPI_PACKETS, NAPI_SECONDS, NAPI_BUSY_SECONDS, NAPI_THREAD_SECONDS };

static void napi_samples(FILE *f, const struct queue_view *queues, unsigned int n,
			 const char *name, enum napi_value what)
{
	const struct queue_view *q;
	unsigned int i;

	for (i = 0; i < n; i++) {
		q = &queues[i];
		if (what == NAPI_THREAD_SECONDS && !q->thread_pid)
			continue;
		fprintf(f, "%s{device=", name);
		/* A stacked DEV's instances are its physical devices': device names those. */
		prom_label(f, q->dev);
		/*
		 * No NAPI id: a driver reload renumbers them, and each reload would
		 * start new series. An instance of unknown queue is told by its id.
		 */
		if (q->queue < 0)
			fprintf(f, ",queue=\"napi-%u\"} ", q->napi_id);
		else
			fprintf(f, ",queue=\"%d\"} ", q->queue);
		if (what == NAPI_SECONDS)
			put_seconds(f, q->time_ns);
		else if (what == NAPI_BUSY_SECONDS)
			put_seconds(f, q->busy_ns);
		else if (what == NAPI_THREAD_SECONDS)
			put_seconds(f, q->thread_ns);
		else
			fprintf(f, "%llu\n",
				(unsigned long long)(what == NAPI_PACKETS ? q->packets : q->polls));
	}
}

/*
 * The per-CPU families of a view since the start (not of an interval).
 * Without the module, the runs of /proc/softirqs since boot only: what
 * else it has, node_exporter exports (node_cpu_seconds_total{mode="softirq"}).
 */
void stats_prom_cpus(FILE *f, const struct stats_view *v)
{
	unsigned int i, vec;

	prom_family(f, "nictl_softirq_accounting_enabled", "gauge",
	       "1 when nictl times the network softirqs, 0 when its probes are off.");
	fprintf(f, "nictl_softirq_accounting_enabled %d\n", v->enabled);
	prom_family(f, "nictl_stats_source", "gauge",
	       "1 for where these series come from: via=\"module\" (nictl's accounting) or "
	       "via=\"procfs\" (module nictl not loaded: /proc/softirqs since boot, runs only).");
	fprintf(f, "nictl_stats_source{via=\"%s\"} 1\n", v->via_proc ? "procfs" : "module");
	cpu_families(f, v, vec_families, v->via_proc ? 1 : ARRAY_SIZE(vec_families));
	if (v->via_proc)
		return;
	prom_family(f, "nictl_softirq_duration_seconds", "histogram",
	       "Runs of the softirq handler on every CPU by duration, since nictl's counters "
	       "started.");
	for (vec = 0; vec < __NICTL_SOFTIRQ_MAX; vec++)
		histogram(f, v, vec);
	prom_family(f, "nictl_napi_unattributed_polls_total", "counter",
	       "NAPI polls nictl could not attribute to an instance (its per-CPU table was full).");
	for (i = 0; i < v->nr_cpus; i++)
		fprintf(f, "nictl_napi_unattributed_polls_total{cpu=\"%u\"} %llu\n", v->cpus[i].cpu,
			(unsigned long long)v->cpus[i].napi_unattributed);
	cpu_families(f, v, poll_families, ARRAY_SIZE(poll_families));
}

/* The NAPI families of @n queues, of one device or of several. */
void stats_prom_napis(FILE *f, const struct queue_view *queues, unsigned int n)
{
	unsigned int i;

	prom_family(f, "nictl_napi_polls_total", "counter",
	       "Polls of the device's NAPI instance since nictl's counters started.");
	napi_samples(f, queues, n, "nictl_napi_polls_total", NAPI_POLLS);
	prom_family(f, "nictl_napi_packets_total", "counter",
	       "Packets the device's NAPI instance received since nictl's counters started.");
	napi_samples(f, queues, n, "nictl_napi_packets_total", NAPI_PACKETS);
	prom_family(f, "nictl_napi_seconds_total", "counter",
	       "NET_RX time the device's NAPI instance took since nictl's counters started.");
	napi_samples(f, queues, n, "nictl_napi_seconds_total", NAPI_SECONDS);
	prom_family(f, "nictl_napi_busy_poll_seconds_total", "counter",
	       "CPU time tasks spent busy-polling the device's NAPI instance, outside NET_RX, "
	       "since nictl's counters started.");
	napi_samples(f, queues, n, "nictl_napi_busy_poll_seconds_total", NAPI_BUSY_SECONDS);
	for (i = 0; i < n && !queues[i].thread_pid; i++)
		;
	if (i == n)
		return;
	prom_family(f, "nictl_napi_thread_seconds_total", "counter",
	       "CPU time of the kernel thread that polls the device's NAPI instance (threaded "
	       "NAPI), since the thread started.");
	napi_samples(f, queues, n, "nictl_napi_thread_seconds_total", NAPI_THREAD_SECONDS);
}

/* The Prometheus format of a view since the start (not of an interval). */
int stats_prom(FILE *f, const struct stats_view *v)
{
	stats_prom_cpus(f, v);
	if (v->has_dev)
		stats_prom_napis(f, v->queues, v->nr_queues);
	return 0;
}
