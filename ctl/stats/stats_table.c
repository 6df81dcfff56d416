// SPDX-License-Identifier: GPL-2.0
/*
 * The stats table, documented in stats.c: per CPU the NET_RX and NET_TX
 * softirqs (and softnet_stat over an interval), NET_RX split into device
 * NAPI polling, RPS backlog and the rest, optionally their duration
 * histograms, with DEV the device's NAPI instances, and a last line naming
 * the hottest CPU and the most unequal queue.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats/stats.h"
#include "util.h"

/* More CPUs than this make the table a summary of the hottest (stats --all: every one). */
#define SUMMARY_CPUS	16

const char *const stats_vec_names[__NICTL_SOFTIRQ_MAX] = {
	[NICTL_SOFTIRQ_NET_RX] = "net_rx",
	[NICTL_SOFTIRQ_NET_TX] = "net_tx",
};

const char *const stats_poll_names[__NICTL_POLL_MAX] = {
	[NICTL_POLL_DEVICE] = "device",
	[NICTL_POLL_BACKLOG] = "backlog",
};

/* Bucket b > 0 holds [2^(b-1), 2^b) us; 1024 us is called 1 ms, as people do. */
const char *const stats_bucket_labels[NICTL_HIST_BUCKETS] = {
	"<1us", "1-2us", "2-4us", "4-8us", "8-16us", "16-32us", "32-64us", "64-128us",
	"128-256us", "256-512us", "512us-1ms", "1-2ms", "2-4ms", "4-8ms", "8-16ms", ">=16ms",
};

/*
 * A duration with three significant digits in the largest unit that keeps it
 * below 1000 ("850ns", "12.3us", "1.05ms"); "-" when there is none.
 */
char *stats_fmt_ns(char *buf, size_t size, uint64_t ns, bool has_value)
{
	static const char *const units[] = { "us", "ms", "s" };
	double v = ns;
	size_t i;

	if (!has_value) {
		snprintf(buf, size, "-");
		return buf;
	}
	if (ns < 1000) {
		snprintf(buf, size, "%lluns", (unsigned long long)ns);
		return buf;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		v /= 1000;
		/* Round first, so that 999.96us becomes 1.00ms, not 1000us. */
		if (v < 9.995)
			snprintf(buf, size, "%.2f%s", v, units[i]);
		else if (v < 99.95)
			snprintf(buf, size, "%.1f%s", v, units[i]);
		else if (v < 999.5 || i == ARRAY_SIZE(units) - 1)
			snprintf(buf, size, "%.0f%s", v, units[i]);
		else
			continue;
		break;
	}
	return buf;
}

/* Cells filled row by row, printed in aligned columns like show's table. */
struct grid {
	unsigned int cols;
	unsigned int nr;		/* cells so far */
	char **cells;
	bool failed;			/* out of memory; reported at print time */
};

static __printf(2, 3) void grid_add(struct grid *g, const char *fmt, ...)
{
	char **cells, *s;
	va_list ap;
	int n;

	if (g->failed)
		return;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	cells = n < 0 ? NULL : realloc(g->cells, (g->nr + 1) * sizeof(*cells));
	if (!cells) {
		if (n >= 0)
			free(s);
		g->failed = true;
		return;
	}
	g->cells = cells;
	g->cells[g->nr++] = s;
}

static void grid_names(struct grid *g, const char *const *names)
{
	unsigned int i;

	for (i = 0; i < g->cols; i++)
		grid_add(g, "%s", names[i]);
}

static void grid_ns(struct grid *g, uint64_t ns, bool has_value, const char *suffix)
{
	char buf[32];

	grid_add(g, "%s%s", stats_fmt_ns(buf, sizeof(buf), ns, has_value), has_value ? suffix : "");
}

static void grid_cpus(struct grid *g, const struct cpuset *cpus, const char *suffix)
{
	char *list = cpuset_format(cpus);

	if (!list)
		g->failed = true;
	else
		grid_add(g, "%s%s", *list ? list : "-", suffix);
	free(list);
}

/* Print the grid, each row indented by two spaces; frees it. -1 when out of memory. */
static int grid_print(FILE *f, struct grid *g)
{
	unsigned int i, col, *width = calloc(g->cols, sizeof(*width));
	int err = g->failed || !width ? -1 : 0;

	for (i = 0; !err && i < g->nr; i++)
		if (strlen(g->cells[i]) > width[i % g->cols])
			width[i % g->cols] = strlen(g->cells[i]);
	for (i = 0; !err && i < g->nr; i++) {
		col = i % g->cols;
		if (!col)
			fputs("  ", f);
		if (col == g->cols - 1)
			fprintf(f, "%s\n", g->cells[i]);
		else
			fprintf(f, "%-*s  ", (int)width[col], g->cells[i]);
	}
	for (i = 0; i < g->nr; i++)
		free(g->cells[i]);
	free(g->cells);
	free(width);
	return err;
}

static const char *const snapshot_cols[] = {
	"CPU", "NET_RX%", "RX_RUNS", "RX/s", "RX_AVG", "RX_MAX", "NET_TX%", "TX/s", "TX_MAX",
};

static const char *const interval_cols[] = {
	"CPU", "NET_RX%", "RX/s", "RX_AVG", "RX_MAX", "NET_TX%", "TX/s", "TX_MAX", "PKTS/s",
	"DROPS", "SQUEEZE",
};

/* PKTS/s, DROPS and SQUEEZE of an interval, from softnet_stat. */
static void softnet_cells(struct grid *g, const struct cpu_view *c)
{
	if (!c->softnet.present) {
		grid_add(g, "-");
		grid_add(g, "-");
		grid_add(g, "-");
		return;
	}
	grid_add(g, "%.1f", c->processed_per_sec);
	grid_add(g, "%u", c->softnet.dropped);
	grid_add(g, "%u", c->softnet.time_squeeze);
}

static void cpu_row(struct grid *g, const struct stats_view *v, const struct cpu_view *c)
{
	const struct vec_view *rx = &c->vec[NICTL_SOFTIRQ_NET_RX];
	const struct vec_view *tx = &c->vec[NICTL_SOFTIRQ_NET_TX];

	grid_add(g, "%u", c->cpu);
	grid_add(g, "%.1f", rx->pct);
	if (!v->interval)
		grid_add(g, "%llu", (unsigned long long)rx->count);
	grid_add(g, "%.1f", rx->per_sec);
	grid_ns(g, rx->avg_ns, rx->count, "");
	grid_ns(g, rx->max_ns, rx->max_ns, rx->max_new ? "+" : "");
	grid_add(g, "%.1f", tx->pct);
	grid_add(g, "%.1f", tx->per_sec);
	grid_ns(g, tx->max_ns, tx->max_ns, tx->max_new ? "+" : "");
	if (v->interval)
		softnet_cells(g, c);
}

/* Without the module: runs from /proc/softirqs, and the softirq time of every vector. */
static const char *const proc_snapshot_cols[] = {
	"CPU", "RX_RUNS", "RX/s", "TX_RUNS", "TX/s", "SOFT%",
};

static const char *const proc_interval_cols[] = {
	"CPU", "RX/s", "TX/s", "SOFT%", "PKTS/s", "DROPS", "SQUEEZE",
};

static void proc_row(struct grid *g, const struct stats_view *v, const struct cpu_view *c)
{
	const struct vec_view *rx = &c->vec[NICTL_SOFTIRQ_NET_RX];
	const struct vec_view *tx = &c->vec[NICTL_SOFTIRQ_NET_TX];

	grid_add(g, "%u", c->cpu);
	if (!v->interval)
		grid_add(g, "%llu", (unsigned long long)rx->count);
	grid_add(g, "%.1f", rx->per_sec);
	if (!v->interval)
		grid_add(g, "%llu", (unsigned long long)tx->count);
	grid_add(g, "%.1f", tx->per_sec);
	if (c->has_softirq)
		grid_add(g, "%.1f", c->softirq_pct);
	else
		grid_add(g, "-");
	if (v->interval)
		softnet_cells(g, c);
}

/* The CPU table's columns and rows: [via procfs][interval]. */
struct cpu_layout {
	const char *const *names;
	unsigned int n;
	void (*row)(struct grid *g, const struct stats_view *v, const struct cpu_view *c);
};

static const struct cpu_layout cpu_layouts[2][2] = {
	{
		{ snapshot_cols, ARRAY_SIZE(snapshot_cols), cpu_row },
		{ interval_cols, ARRAY_SIZE(interval_cols), cpu_row },
	}, {
		{ proc_snapshot_cols, ARRAY_SIZE(proc_snapshot_cols), proc_row },
		{ proc_interval_cols, ARRAY_SIZE(proc_interval_cols), proc_row },
	},
};

/* The module's NET_RX time first (softirq time via procfs), then NET_TX's, then the CPU. */
static int hotter_first(const void *a, const void *b, void *view)
{
	const struct cpu_view *x = &((const struct stats_view *)view)->cpus[*(const unsigned int *)a];
	const struct cpu_view *y = &((const struct stats_view *)view)->cpus[*(const unsigned int *)b];
	const struct vec_view *xr = &x->vec[NICTL_SOFTIRQ_NET_RX], *yr = &y->vec[NICTL_SOFTIRQ_NET_RX];
	const struct vec_view *xt = &x->vec[NICTL_SOFTIRQ_NET_TX], *yt = &y->vec[NICTL_SOFTIRQ_NET_TX];

	if (x->softirq_ns != y->softirq_ns)
		return x->softirq_ns > y->softirq_ns ? -1 : 1;
	if (xr->time_ns != yr->time_ns)
		return xr->time_ns > yr->time_ns ? -1 : 1;
	if (xt->time_ns != yt->time_ns)
		return xt->time_ns > yt->time_ns ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/*
 * The CPUs the table lists, as indices into v->cpus, in @rows: every CPU in
 * ascending order, or (above SUMMARY_CPUS CPUs, unless @all) the hottest
 * SUMMARY_CPUS, hottest first. Returns how many, 0 when out of memory.
 */
static unsigned int pick_rows(const struct stats_view *v, bool all, unsigned int **rows)
{
	unsigned int i, n = v->nr_cpus;

	*rows = malloc((n ?: 1) * sizeof(**rows));
	if (!*rows)
		return 0;
	for (i = 0; i < n; i++)
		(*rows)[i] = i;
	if (all || n <= SUMMARY_CPUS)
		return n ?: 1;
	qsort_r(*rows, n, sizeof(**rows), hotter_first, (void *)v);
	return SUMMARY_CPUS;
}

/* The line that stands for the CPUs a summary leaves out. */
static void print_rest(FILE *f, const struct stats_view *v, const unsigned int *rows,
		       unsigned int shown)
{
	const struct cpu_view *last = &v->cpus[rows[shown - 1]];
	unsigned int rest = v->nr_cpus - shown;

	fprintf(f, "  ... %u more CPU%s, each with %s %.1f%% or less (--all lists them)\n",
		rest, rest == 1 ? "" : "s", v->via_proc ? "softirqs" : "NET_RX",
		v->via_proc ? last->softirq_pct : last->vec[NICTL_SOFTIRQ_NET_RX].pct);
}

/* The heading without the module: what procfs gave, and what it cannot say. */
static void proc_heading(FILE *f, const struct stats_view *v)
{
	if (v->interval)
		fprintf(f, "softirqs over %.2f s", v->span_ns / 1e9);
	else
		fprintf(f, "softirqs since boot %.1f s ago", v->span_ns / 1e9);
	fputs(", from /proc (module nictl not loaded): runs per vector, SOFT% the time in "
	      "softirqs of every vector; no NET_RX time, run durations or NAPI polls\n", f);
}

static int print_cpus(FILE *f, const struct stats_view *v, const unsigned int *rows,
		      unsigned int nr_rows)
{
	const struct cpu_layout *l = &cpu_layouts[v->via_proc][v->interval];
	struct grid g = { .cols = l->n };
	unsigned int i;
	int err;

	if (v->via_proc) {
		proc_heading(f, v);
	} else {
		if (v->interval)
			fprintf(f, "softirqs over %.2f s", v->span_ns / 1e9);
		else
			fprintf(f, "softirqs since the counters started %.1f s ago",
				v->span_ns / 1e9);
		fprintf(f, "; accounting %s",
			v->enabled ? "on" : "off, counters frozen (stats --on)");
		if (v->interval)
			fputs("; MAX: longest run since the start, + if reached in this interval",
			      f);
		fputc('\n', f);
	}
	grid_names(&g, l->names);
	for (i = 0; i < v->nr_cpus && i < nr_rows; i++)
		l->row(&g, v, &v->cpus[rows[i]]);
	err = grid_print(f, &g);
	if (!err && nr_rows < v->nr_cpus)
		print_rest(f, v, rows, nr_rows);
	return err;
}

static const char *const snapshot_split_cols[] = {
	"CPU", "NET_RX%", "NAPI%", "BACKLOG%", "OTHER%", "BKLOG_PKTS",
};

static const char *const interval_split_cols[] = {
	"CPU", "NET_RX%", "NAPI%", "BACKLOG%", "OTHER%", "BKLOG_PKTS/s", "RPS_IPI/s",
};

static void split_row(struct grid *g, const struct stats_view *v, const struct cpu_view *c)
{
	const struct poll_view *bl = &c->poll[NICTL_POLL_BACKLOG];

	grid_add(g, "%u", c->cpu);
	grid_add(g, "%.1f", c->vec[NICTL_SOFTIRQ_NET_RX].pct);
	grid_add(g, "%.1f", c->split.napi_pct);
	grid_add(g, "%.1f", c->split.backlog_pct);
	grid_add(g, "%.1f", c->split.other_pct);
	if (!v->interval) {
		grid_add(g, "%llu", (unsigned long long)bl->packets);
		return;
	}
	grid_add(g, "%.1f", bl->packets_per_sec);
	if (c->softnet.has_rps)
		grid_add(g, "%.1f", c->rps_per_sec);
	else
		grid_add(g, "-");
}

/*
 * Busy polling runs in tasks, outside NET_RX: its CPU time is in none of the
 * split's columns, so a line names the CPUs it ran on.
 */
static void print_busy(FILE *f, const struct stats_view *v, const unsigned int *rows,
		       unsigned int nr_rows)
{
	const struct poll_view *p;
	const char *sep = "";
	unsigned int i;

	for (i = 0; i < v->nr_cpus && i < nr_rows; i++) {
		p = &v->cpus[rows[i]].poll[NICTL_POLL_DEVICE];
		if (!p->busy_polls)
			continue;
		fputs(*sep ? sep : "  busy polling, in tasks outside NET_RX: ", f);
		fprintf(f, "CPU %u %.1f%% (%llu polls)", v->cpus[rows[i]].cpu, p->busy_pct,
			(unsigned long long)p->busy_polls);
		sep = ", ";
	}
	if (*sep)
		fputc('\n', f);
}

/*
 * Where each CPU's NET_RX time went: polling device NAPIs (DEV's alone with
 * DEV), polling the backlog RPS steers packets to, the rest.
 */
static int print_split(FILE *f, const struct stats_view *v, const unsigned int *rows,
		       unsigned int nr_rows)
{
	struct grid g = { .cols = v->interval ? ARRAY_SIZE(interval_split_cols) :
						ARRAY_SIZE(snapshot_split_cols) };
	unsigned int i;
	int err;

	fputs("\nNET_RX time: NAPI% in ", f);
	if (v->lower)
		fprintf(f, "the NAPIs of the devices beneath %s", v->ifname);
	else if (v->has_dev)
		fprintf(f, "%s's NAPIs", v->ifname);
	else
		fputs("device NAPIs", f);
	fputs(", BACKLOG% in the RPS backlog, OTHER% the rest\n", f);
	grid_names(&g, v->interval ? interval_split_cols : snapshot_split_cols);
	for (i = 0; i < v->nr_cpus && i < nr_rows; i++)
		split_row(&g, v, &v->cpus[rows[i]]);
	err = grid_print(f, &g);
	if (!err)
		print_busy(f, v, rows, nr_rows);
	/* Backlog threads (PREEMPT_RT) poll outside NET_RX, and RPS sends them no IPI. */
	if (!err && v->backlog_untimed)
		fprintf(f, "  %llu backlog polls ran in backlog threads (PREEMPT_RT): untimed, "
			"no RPS IPIs\n",
			(unsigned long long)v->backlog_untimed);
	return err;
}

static int print_hist(FILE *f, const struct stats_view *v, const unsigned int *rows,
		      unsigned int nr_rows)
{
	struct grid g = { .cols = 2 + NICTL_HIST_BUCKETS };
	const struct vec_view *vv;
	const struct cpu_view *c;
	unsigned int i, vec, b;

	fprintf(f, "\nruns by duration%s\n", v->interval ? " in the interval" : "");
	grid_add(&g, "CPU");
	grid_add(&g, "VEC");
	for (b = 0; b < NICTL_HIST_BUCKETS; b++)
		grid_add(&g, "%s", stats_bucket_labels[b]);
	for (i = 0; i < v->nr_cpus && i < nr_rows; i++) {
		c = &v->cpus[rows[i]];
		for (vec = 0; vec < __NICTL_SOFTIRQ_MAX; vec++) {
			vv = &c->vec[vec];
			grid_add(&g, "%u", c->cpu);
			grid_add(&g, "%s", stats_vec_names[vec]);
			for (b = 0; b < NICTL_HIST_BUCKETS; b++)
				grid_add(&g, "%llu", (unsigned long long)vv->hist[b]);
		}
	}
	return grid_print(f, &g);
}

static const char *const snapshot_queue_cols[] = {
	"QUEUE", "NAPI_ID", "PACKETS", "POLLS", "SHARE%", "IRQ_CPUS", "NAPI_CPUS", "THREAD_MS",
	"BUSY_MS",
};

static const char *const interval_queue_cols[] = {
	"QUEUE", "NAPI_ID", "PKTS/s", "POLLS/s", "SHARE%", "IRQ_CPUS", "NAPI_CPUS", "THREAD_MS",
	"BUSY_MS",
};

/* A stacked DEV's queues are of several devices: a DEV column names each one's. */
static void queue_names(struct grid *g, const struct stats_view *v)
{
	const char *const *names = v->interval ? interval_queue_cols : snapshot_queue_cols;
	unsigned int i;

	if (v->lower)
		grid_add(g, "DEV");
	for (i = 0; i < ARRAY_SIZE(snapshot_queue_cols); i++)
		grid_add(g, "%s", names[i]);
}

static void queue_row(struct grid *g, const struct stats_view *v, const struct queue_view *q)
{
	if (v->lower)
		grid_add(g, "%s", q->dev);
	if (q->queue < 0)
		grid_add(g, "?");
	else
		grid_add(g, "%d", q->queue);
	grid_add(g, "%u", q->napi_id);
	if (v->interval) {
		grid_add(g, "%.1f", q->packets_per_sec);
		grid_add(g, "%.1f", q->polls_per_sec);
	} else {
		grid_add(g, "%llu", (unsigned long long)q->packets);
		grid_add(g, "%llu", (unsigned long long)q->polls);
	}
	grid_add(g, "%.1f", q->share_pct);
	grid_cpus(g, &q->irq_cpus, "");
	grid_cpus(g, &q->napi_cpus, cpuset_empty(&q->outside) ? "" : "*");
	if (q->thread_pid)
		grid_add(g, "%.1f", q->thread_ns / 1e6);
	else
		grid_add(g, "-");
	if (q->busy_ns)
		grid_add(g, "%.1f", q->busy_ns / 1e6);
	else
		grid_add(g, "-");
}

/* "queue 1", or "NAPI 8193" when the queue is unknown; "vnode1 queue 1" under a stacked DEV. */
static void print_queue(FILE *f, const struct stats_view *v, const struct queue_view *q)
{
	if (v->lower)
		fprintf(f, "%s ", q->dev);
	if (q->queue < 0)
		fprintf(f, "NAPI %u", q->napi_id);
	else
		fprintf(f, "queue %d", q->queue);
}

/* The footnote of the '*': which queue ran where it should not have. */
static int print_outside(FILE *f, const struct stats_view *v)
{
	const char *sep = "";
	unsigned int i;
	char *list;

	for (i = 0; i < v->nr_queues; i++) {
		if (cpuset_empty(&v->queues[i].outside))
			continue;
		list = cpuset_format(&v->queues[i].outside);
		if (!list)
			return -1;
		fputs(*sep ? sep : "  * polled outside its IRQ affinity: ", f);
		print_queue(f, v, &v->queues[i]);
		fprintf(f, " on CPU %s", list);
		free(list);
		if (cpuset_intersects(&v->queues[i].outside, &v->queues[i].busy_cpus))
			fputs(" (busy polling there)", f);
		sep = ", ";
	}
	/* NAPI_CPUS accumulate from the start: an IRQ moved since then shows here too. */
	if (*sep)
		fputs(" (since the counters started: a moved IRQ, threaded NAPI or busy "
		      "polling)\n", f);
	return 0;
}

static int print_queues(FILE *f, const struct stats_view *v)
{
	struct grid g = { .cols = ARRAY_SIZE(snapshot_queue_cols) + !!v->lower };
	unsigned int i;

	fprintf(f, "\n%s (ifindex %u)", v->ifname, v->ifindex);
	for (i = 0; v->lower && i < v->lower->nr; i++)
		fprintf(f, "%s%s", i ? ", " : ", stacked on ", v->lower->devs[i].ifname);
	fputs(": ", f);
	if (!v->nr_queues) {
		fputs("no NAPI instances\n", f);
		return 0;
	}
	fprintf(f, "%u NAPI instance%s, ", v->nr_queues, v->nr_queues == 1 ? "" : "s");
	if (v->interval)
		fprintf(f, "%.1f packets/s\n", v->packets * 1e9 / (v->span_ns ?: 1));
	else
		fprintf(f, "%llu packets since the counters started\n",
			(unsigned long long)v->packets);
	queue_names(&g, v);
	for (i = 0; i < v->nr_queues; i++)
		queue_row(&g, v, &v->queues[i]);
	return grid_print(f, &g) ?: print_outside(f, v);
}

/* The last line: the hottest CPU and, with DEV, the most unequal queue. */
static void print_verdict(FILE *f, const struct stats_view *v)
{
	const struct queue_view *q;

	const char *span = v->interval ? "interval" : v->via_proc ? "time since boot" :
			   "time since the start";

	if (v->hot_cpu < 0)
		fprintf(f, "hottest CPU: none, no %s time counted",
			v->via_proc ? "softirq" : "NET_RX");
	else if (v->via_proc)
		fprintf(f, "hottest CPU: %u, softirqs (every vector) %.1f%% of the %s",
			v->cpus[v->hot_cpu].cpu, v->cpus[v->hot_cpu].softirq_pct, span);
	else
		fprintf(f, "hottest CPU: %u, NET_RX %.1f%% of the %s", v->cpus[v->hot_cpu].cpu,
			v->cpus[v->hot_cpu].vec[NICTL_SOFTIRQ_NET_RX].pct, span);
	if (v->has_dev && !v->nr_queues) {
		fprintf(f, "; %s has no NAPI instances", v->ifname);
	} else if (v->has_dev && v->uneven < 0) {
		fprintf(f, "; %s received no packets", v->ifname);
	} else if (v->has_dev) {
		q = &v->queues[v->uneven];
		fputs("; ", f);
		print_queue(f, v, q);
		fprintf(f, " takes %.0f%% of %s's packets (even: %.0f%%)", q->share_pct, v->ifname,
			100.0 / v->nr_queues);
	}
	fputc('\n', f);
}

/* The table format of one view; -1 after saying so when out of memory. */
int stats_table(FILE *f, const struct stats_view *v, bool hist, bool all)
{
	unsigned int *rows, nr_rows = pick_rows(v, all, &rows);
	int err = nr_rows ? print_cpus(f, v, rows, nr_rows) : -1;

	/* Without the module there is no NET_RX time to split, no run to bucket. */
	if (!err && !v->via_proc)
		err = print_split(f, v, rows, nr_rows);
	if (!err && hist && !v->via_proc)
		err = print_hist(f, v, rows, nr_rows);
	free(rows);
	if (!err && v->has_dev)
		err = print_queues(f, v);
	if (err) {
		ctl_msg("out of memory");
		return -1;
	}
	print_verdict(f, v);
	return 0;
}
