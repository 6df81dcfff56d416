// SPDX-License-Identifier: GPL-2.0
/*
 * The Prometheus format of stats (ctl/stats/stats_prom.c): the exact text for
 * a fixed sample, and every line of it checked against the text exposition
 * format by a checker of our own (names, labels, values, # HELP and # TYPE
 * ahead of a family's samples, families in one piece, histograms cumulative
 * up to le="+Inf", which equals _count), and by promtool from Debian's
 * prometheus package, which make deps installs.
 */
#include <math.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ctl_stats_sample.h"

#define PROMTOOL	"/usr/bin/promtool"

/* What the checker found wrong first, with the line; "" when all is well. */
static char prom_error[512];

struct family {
	char name[128];
	char type[16];
	bool help, typed, sampled;
};

/* The histogram series being read: its labels without le, and the buckets so far. */
struct series {
	char labels[256];
	double last_le;
	double last_count;
	double inf_count;
	bool inf_seen, sum_seen;
};

struct checker {
	struct family fams[32];
	unsigned int nr_fams;
	int current;			/* index of the family being read, -1 before any */
	struct series hist;
	char seen[512][320];		/* name{labels} of every sample, for duplicates */
	unsigned int nr_seen;
	unsigned int line;
};

static __printf(2, 3) bool fail(struct checker *c, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (prom_error[0])
		return false;
	n = snprintf(prom_error, sizeof(prom_error), "line %u: ", c->line);
	va_start(ap, fmt);
	vsnprintf(prom_error + n, sizeof(prom_error) - n, fmt, ap);
	va_end(ap);
	return false;
}

static size_t name_len(const char *p, bool metric)
{
	size_t n = 0;

	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || p[n] == '_' ||
	       (metric && p[n] == ':') || (n && p[n] >= '0' && p[n] <= '9'))
		n++;
	return n;
}

static bool parse_value(const char *s, double *v)
{
	char *end;

	if (!strcmp(s, "+Inf")) {
		*v = INFINITY;
		return true;
	}
	if (!strcmp(s, "-Inf")) {
		*v = -INFINITY;
		return true;
	}
	if (!strcmp(s, "NaN")) {
		*v = NAN;
		return true;
	}
	/* strtod would take "inf", "nan" and hex; the format has none of them. */
	if (!*s || strpbrk(s, "xXiInN"))
		return false;
	*v = strtod(s, &end);
	return !*end;
}

static struct family *find_family(struct checker *c, const char *name, size_t len)
{
	unsigned int i;

	for (i = 0; i < c->nr_fams; i++)
		if (strlen(c->fams[i].name) == len && !strncmp(c->fams[i].name, name, len))
			return &c->fams[i];
	return NULL;
}

/* Make the family named @name (of @len) the current one; families come in one piece. */
static struct family *enter_family(struct checker *c, const char *name, size_t len)
{
	struct family *f = find_family(c, name, len);

	if (f && f - c->fams != c->current) {
		fail(c, "family %.*s continues after another one", (int)len, name);
		return NULL;
	}
	if (!f) {
		if (c->nr_fams == ARRAY_SIZE(c->fams) || len >= sizeof(f->name)) {
			fail(c, "too many families for the checker");
			return NULL;
		}
		f = &c->fams[c->nr_fams++];
		memset(f, 0, sizeof(*f));
		memcpy(f->name, name, len);
		c->current = f - c->fams;
	}
	return f;
}

static bool check_comment(struct checker *c, const char *line)
{
	bool help = !strncmp(line, "# HELP ", 7);
	const char *name = line + 7, *rest;
	struct family *f;
	size_t len;

	if (!help && strncmp(line, "# TYPE ", 7))
		return true;	/* any other comment is allowed */
	len = name_len(name, true);
	rest = name + len;
	if (!len || *rest != ' ')
		return fail(c, "bad metric name in: %s", line);
	f = enter_family(c, name, len);
	if (!f)
		return false;
	if (f->sampled)
		return fail(c, "%s after the family's samples", help ? "HELP" : "TYPE");
	if (help) {
		if (f->help)
			return fail(c, "second HELP of %s", f->name);
		f->help = true;
		return true;
	}
	if (f->typed)
		return fail(c, "second TYPE of %s", f->name);
	if (strcmp(rest + 1, "counter") && strcmp(rest + 1, "gauge") &&
	    strcmp(rest + 1, "histogram") && strcmp(rest + 1, "summary") &&
	    strcmp(rest + 1, "untyped"))
		return fail(c, "unknown type '%s'", rest + 1);
	snprintf(f->type, sizeof(f->type), "%s", rest + 1);
	f->typed = true;
	if (!strcmp(f->type, "counter") &&
	    (len < 6 || strncmp(name + len - 6, "_total", 6)))
		return fail(c, "counter %s does not end in _total", f->name);
	return true;
}

/*
 * Read the labels at *@p (just after '{') up to '}': syntax, escapes and
 * duplicates. The labels other than le go to @rest, the value of le to @le.
 */
static bool parse_labels(struct checker *c, const char **p, char *rest, size_t size, char *le)
{
	char names[16][64];
	unsigned int nr = 0, i;
	size_t len, out = 0;
	const char *start;
	bool is_le;

	rest[0] = le[0] = '\0';
	while (**p != '}') {
		len = name_len(*p, false);
		if (!len || len >= sizeof(names[0]) || !strncmp(*p, "__", 2))
			return fail(c, "bad label name at: %s", *p);
		for (i = 0; i < nr; i++)
			if (strlen(names[i]) == len && !strncmp(names[i], *p, len))
				return fail(c, "label %.*s twice", (int)len, *p);
		if (nr == ARRAY_SIZE(names))
			return fail(c, "too many labels for the checker");
		memcpy(names[nr], *p, len);
		names[nr++][len] = '\0';
		is_le = len == 2 && !strncmp(*p, "le", 2);
		start = *p;
		*p += len;
		if (strncmp(*p, "=\"", 2))
			return fail(c, "label %.*s without =\"", (int)len, start);
		*p += 2;
		while (**p != '"') {
			if (!**p || **p == '\n')
				return fail(c, "unterminated label value");
			if (**p == '\\' && !strchr("\\\"n", (*p)[1]))
				return fail(c, "bad escape \\%c", (*p)[1]);
			*p += **p == '\\' ? 2 : 1;
		}
		(*p)++;
		if (is_le) {
			snprintf(le, 64, "%.*s", (int)(*p - start - 5), start + 4);
		} else {
			if (out + (*p - start) + 2 >= size)
				return fail(c, "labels too long for the checker");
			out += snprintf(rest + out, size - out, "%s%.*s", out ? "," : "",
					(int)(*p - start), start);
		}
		if (**p == ',' && (*p)[1] != '}')
			(*p)++;
		else if (**p != '}')
			return fail(c, "expected , or } at: %s", *p);
	}
	(*p)++;
	return true;
}

/* The end of a histogram series: it must have had +Inf, _sum and _count. */
static bool close_series(struct checker *c)
{
	if (c->hist.labels[0] && (!c->hist.inf_seen || !c->hist.sum_seen))
		return fail(c, "histogram series {%s} lacks +Inf or _sum", c->hist.labels);
	memset(&c->hist, 0, sizeof(c->hist));
	return true;
}

static bool check_histogram(struct checker *c, const char *suffix, const char *labels,
			    const char *le, double v)
{
	double bound;

	if (strcmp(c->hist.labels, labels)) {
		if (!close_series(c))
			return false;
		snprintf(c->hist.labels, sizeof(c->hist.labels), "%s", labels);
		c->hist.last_le = -INFINITY;
	}
	if (!strcmp(suffix, "_bucket")) {
		if (!le[0] || !parse_value(le, &bound) || isnan(bound))
			return fail(c, "bucket without a valid le");
		if (c->hist.sum_seen || c->hist.inf_seen)
			return fail(c, "bucket after +Inf or _sum");
		if (bound <= c->hist.last_le)
			return fail(c, "le %s not above the previous bound", le);
		if (v < c->hist.last_count)
			return fail(c, "bucket le=%s not cumulative", le);
		c->hist.last_le = bound;
		c->hist.last_count = v;
		if (isinf(bound)) {
			c->hist.inf_seen = true;
			c->hist.inf_count = v;
		}
		return true;
	}
	if (le[0])
		return fail(c, "le on %s", suffix);
	if (!c->hist.inf_seen)
		return fail(c, "%s before the +Inf bucket", suffix);
	if (!strcmp(suffix, "_sum")) {
		c->hist.sum_seen = true;
		return true;
	}
	if (v != c->hist.inf_count)
		return fail(c, "_count %g differs from the +Inf bucket %g", v, c->hist.inf_count);
	return close_series(c);
}

/* The family a sample belongs to: a histogram's name_bucket/_sum/_count, else its name. */
static struct family *sample_family(struct checker *c, const char *name, size_t len,
				    const char **suffix)
{
	static const char *const suffixes[] = { "_bucket", "_sum", "_count" };
	struct family *f;
	size_t i, n;

	*suffix = "";
	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		n = strlen(suffixes[i]);
		if (len <= n || strncmp(name + len - n, suffixes[i], n))
			continue;
		f = find_family(c, name, len - n);
		if (f && !strcmp(f->type, "histogram")) {
			*suffix = suffixes[i];
			return f;
		}
	}
	f = find_family(c, name, len);
	if (f && !strcmp(f->type, "histogram")) {
		fail(c, "histogram sample without a suffix");
		return NULL;
	}
	return f;
}

static bool check_sample(struct checker *c, const char *line)
{
	char labels[256], le[64];
	const char *p = line, *suffix;
	struct family *f;
	size_t len = name_len(line, true);
	unsigned int i;
	double v;

	if (!len)
		return fail(c, "not a sample: %s", line);
	f = sample_family(c, line, len, &suffix);
	if (!f)
		return fail(c, "sample of %.*s without # HELP and # TYPE", (int)len, line);
	if (f - c->fams != c->current)
		return fail(c, "family %s continues after another one", f->name);
	if (!f->help || !f->typed)
		return fail(c, "sample of %s before its HELP or TYPE", f->name);
	f->sampled = true;
	p += len;
	labels[0] = le[0] = '\0';
	if (*p == '{') {
		p++;
		if (!parse_labels(c, &p, labels, sizeof(labels), le))
			return false;
	}
	if (*p != ' ')
		return fail(c, "no space before the value");
	/* One value and no timestamp: the textfile collector refuses them. */
	if (!parse_value(p + 1, &v))
		return fail(c, "bad value '%s'", p + 1);
	if (c->nr_seen == ARRAY_SIZE(c->seen))
		return fail(c, "too many samples for the checker");
	if (snprintf(c->seen[c->nr_seen], sizeof(c->seen[0]), "%.*s{%s,le=%s}", (int)len, line,
		     labels, le) >= (int)sizeof(c->seen[0]))
		return fail(c, "sample too long for the checker");
	for (i = 0; i < c->nr_seen; i++)
		if (!strcmp(c->seen[i], c->seen[c->nr_seen]))
			return fail(c, "duplicate sample %s", c->seen[i]);
	c->nr_seen++;
	if (!strcmp(f->type, "histogram"))
		return check_histogram(c, suffix, labels, le, v);
	if (le[0])
		return fail(c, "le outside a histogram");
	if (!strcmp(f->type, "counter") && !(v >= 0))
		return fail(c, "counter below zero");
	return true;
}

/* Check a whole exposition; true when it is valid, else prom_error says why. */
static bool prom_check(const char *text)
{
	static struct checker c;
	char line[1024];
	const char *p = text, *nl;

	memset(&c, 0, sizeof(c));
	c.current = -1;
	prom_error[0] = '\0';
	while (*p) {
		c.line++;
		nl = strchr(p, '\n');
		if (!nl)
			return fail(&c, "no newline at the end");
		if ((size_t)(nl - p) >= sizeof(line))
			return fail(&c, "line too long for the checker");
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		p = nl + 1;
		if (!line[0])
			return fail(&c, "empty line");
		if (line[0] == '#' ? !check_comment(&c, line) : !check_sample(&c, line))
			return false;
		/* A histogram's series ends where its family does. */
		if (c.current >= 0 && strcmp(c.fams[c.current].type, "histogram") &&
		    !close_series(&c))
			return false;
	}
	return close_series(&c);
}

FIXTURE(prom) {
	struct stats_sample cur;
	struct stats_view v;
	char *text;
	size_t size;
};

FIXTURE_SETUP(prom)
{
	sample_make(&self->cur, 1, true);
	memset(&self->v, 0, sizeof(self->v));
	self->text = NULL;
}

FIXTURE_TEARDOWN(prom)
{
	stats_view_free(&self->v);
	stats_sample_free(&self->cur);
	free(self->text);
}

static const char *expose(FIXTURE_DATA(prom) *self)
{
	FILE *f = open_memstream(&self->text, &self->size);

	if (!f || stats_view_make(&self->v, NULL, &self->cur) || stats_prom(f, &self->v) ||
	    fclose(f))
		abort();
	return self->text;
}

/* CPU 0 of the fixed sample only, with vnode1 (a task busy-polled queue 1): the text in full. */
TEST_F(prom, exact_text)
{
	self->cur.nr_cpus = 1;
	self->cur.cpus[0].poll[NICTL_POLL_DEVICE].busy_polls = 700;
	self->cur.cpus[0].poll[NICTL_POLL_DEVICE].busy_ns = 250000000;
	self->cur.napis[1].busy_ns = 250000000;
	EXPECT_STREQ(
		"# HELP nictl_softirq_accounting_enabled 1 when nictl times the network "
		"softirqs, 0 when its probes are off.\n"
		"# TYPE nictl_softirq_accounting_enabled gauge\n"
		"nictl_softirq_accounting_enabled 1\n"
		"# HELP nictl_stats_source 1 for where these series come from: via=\"module\" "
		"(nictl's accounting) or via=\"procfs\" (module nictl not loaded: /proc/softirqs "
		"since boot, runs only).\n"
		"# TYPE nictl_stats_source gauge\n"
		"nictl_stats_source{via=\"module\"} 1\n"
		"# HELP nictl_softirq_runs_total Runs of the softirq handler since nictl's "
		"counters started.\n"
		"# TYPE nictl_softirq_runs_total counter\n"
		"nictl_softirq_runs_total{cpu=\"0\",vec=\"net_rx\"} 11500\n"
		"nictl_softirq_runs_total{cpu=\"0\",vec=\"net_tx\"} 102\n"
		"# HELP nictl_softirq_seconds_total Time spent in the softirq handler since "
		"nictl's counters started.\n"
		"# TYPE nictl_softirq_seconds_total counter\n"
		"nictl_softirq_seconds_total{cpu=\"0\",vec=\"net_rx\"} 2.450000000\n"
		"nictl_softirq_seconds_total{cpu=\"0\",vec=\"net_tx\"} 0.000102000\n"
		"# HELP nictl_softirq_max_seconds Longest run of the softirq handler since "
		"nictl's counters started.\n"
		"# TYPE nictl_softirq_max_seconds gauge\n"
		"nictl_softirq_max_seconds{cpu=\"0\",vec=\"net_rx\"} 0.002000000\n"
		"nictl_softirq_max_seconds{cpu=\"0\",vec=\"net_tx\"} 0.000012000\n"
		"# HELP nictl_softirq_duration_seconds Runs of the softirq handler on every CPU by "
		"duration, since nictl's counters started.\n"
		"# TYPE nictl_softirq_duration_seconds histogram\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"1e-06\"} 0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"2e-06\"} 0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"4e-06\"} 0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"8e-06\"} 0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"1.6e-05\"} 0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"3.2e-05\"} 0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"6.4e-05\"} 0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.000128\"} "
		"0\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.000256\"} "
		"10000\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.000512\"} "
		"10499\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.001024\"} "
		"10499\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.002048\"} "
		"11500\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.004096\"} "
		"11500\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.008192\"} "
		"11500\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"0.016384\"} "
		"11500\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_rx\",le=\"+Inf\"} "
		"11500\n"
		"nictl_softirq_duration_seconds_sum{vec=\"net_rx\"} 2.450000000\n"
		"nictl_softirq_duration_seconds_count{vec=\"net_rx\"} 11500\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"1e-06\"} 60\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"2e-06\"} 102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"4e-06\"} 102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"8e-06\"} 102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"1.6e-05\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"3.2e-05\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"6.4e-05\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.000128\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.000256\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.000512\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.001024\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.002048\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.004096\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.008192\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"0.016384\"} "
		"102\n"
		"nictl_softirq_duration_seconds_bucket{vec=\"net_tx\",le=\"+Inf\"} 102\n"
		"nictl_softirq_duration_seconds_sum{vec=\"net_tx\"} 0.000102000\n"
		"nictl_softirq_duration_seconds_count{vec=\"net_tx\"} 102\n"
		"# HELP nictl_napi_unattributed_polls_total NAPI polls nictl could not attribute "
		"to an instance (its per-CPU table was full).\n"
		"# TYPE nictl_napi_unattributed_polls_total counter\n"
		"nictl_napi_unattributed_polls_total{cpu=\"0\"} 0\n"
		"# HELP nictl_cpu_polls_total NAPI polls of device NAPIs or of the RPS backlog since "
		"nictl's counters started.\n"
		"# TYPE nictl_cpu_polls_total counter\n"
		"nictl_cpu_polls_total{cpu=\"0\",kind=\"device\"} 1400\n"
		"nictl_cpu_polls_total{cpu=\"0\",kind=\"backlog\"} 0\n"
		"# HELP nictl_cpu_poll_packets_total Packets those polls received.\n"
		"# TYPE nictl_cpu_poll_packets_total counter\n"
		"nictl_cpu_poll_packets_total{cpu=\"0\",kind=\"device\"} 69100\n"
		"nictl_cpu_poll_packets_total{cpu=\"0\",kind=\"backlog\"} 0\n"
		"# HELP nictl_cpu_poll_seconds_total NET_RX time those polls took (polls outside "
		"NET_RX are not timed).\n"
		"# TYPE nictl_cpu_poll_seconds_total counter\n"
		"nictl_cpu_poll_seconds_total{cpu=\"0\",kind=\"device\"} 1.500000000\n"
		"nictl_cpu_poll_seconds_total{cpu=\"0\",kind=\"backlog\"} 0.000000000\n"
		"# HELP nictl_cpu_untimed_polls_total Polls outside NET_RX not timed: threaded "
		"NAPI, backlog threads, the first poll of each busy-poll loop.\n"
		"# TYPE nictl_cpu_untimed_polls_total counter\n"
		"nictl_cpu_untimed_polls_total{cpu=\"0\",kind=\"device\"} 0\n"
		"nictl_cpu_untimed_polls_total{cpu=\"0\",kind=\"backlog\"} 0\n"
		"# HELP nictl_cpu_busy_polls_total Polls by busy polling: a task polling from a "
		"socket call, outside NET_RX.\n"
		"# TYPE nictl_cpu_busy_polls_total counter\n"
		"nictl_cpu_busy_polls_total{cpu=\"0\",kind=\"device\"} 700\n"
		"nictl_cpu_busy_polls_total{cpu=\"0\",kind=\"backlog\"} 0\n"
		"# HELP nictl_cpu_busy_poll_seconds_total CPU time busy polling took, outside "
		"NET_RX (each loop's first poll not timed).\n"
		"# TYPE nictl_cpu_busy_poll_seconds_total counter\n"
		"nictl_cpu_busy_poll_seconds_total{cpu=\"0\",kind=\"device\"} 0.250000000\n"
		"nictl_cpu_busy_poll_seconds_total{cpu=\"0\",kind=\"backlog\"} 0.000000000\n"
		"# HELP nictl_napi_polls_total Polls of the device's NAPI instance since nictl's "
		"counters started.\n"
		"# TYPE nictl_napi_polls_total counter\n"
		"nictl_napi_polls_total{device=\"vnode1\",queue=\"0\"} 1300\n"
		"nictl_napi_polls_total{device=\"vnode1\",queue=\"1\"} 150\n"
		"# HELP nictl_napi_packets_total Packets the device's NAPI instance received since "
		"nictl's counters started.\n"
		"# TYPE nictl_napi_packets_total counter\n"
		"nictl_napi_packets_total{device=\"vnode1\",queue=\"0\"} 59100\n"
		"nictl_napi_packets_total{device=\"vnode1\",queue=\"1\"} 5900\n"
		"# HELP nictl_napi_seconds_total NET_RX time the device's NAPI instance took since "
		"nictl's counters started.\n"
		"# TYPE nictl_napi_seconds_total counter\n"
		"nictl_napi_seconds_total{device=\"vnode1\",queue=\"0\"} "
		"1.250000000\n"
		"nictl_napi_seconds_total{device=\"vnode1\",queue=\"1\"} "
		"0.042000000\n"
		"# HELP nictl_napi_busy_poll_seconds_total CPU time tasks spent busy-polling the "
		"device's NAPI instance, outside NET_RX, since nictl's counters started.\n"
		"# TYPE nictl_napi_busy_poll_seconds_total counter\n"
		"nictl_napi_busy_poll_seconds_total{device=\"vnode1\",queue=\"0\"} 0.000000000\n"
		"nictl_napi_busy_poll_seconds_total{device=\"vnode1\",queue=\"1\"} 0.250000000\n",
		expose(self));
	EXPECT_TRUE(prom_check(self->text));
	EXPECT_STREQ("", prom_error);
}

TEST_F(prom, every_line_follows_the_grammar)
{
	EXPECT_TRUE(prom_check(expose(self)));
	EXPECT_STREQ("", prom_error);
}

/*
 * One histogram per vector, summing every CPU's runs: its series do not
 * grow with the CPUs (on 256 CPUs per-CPU ones were over 9,000).
 */
TEST_F(prom, one_histogram_per_vector_of_every_cpu)
{
	unsigned long long want = 0, got;
	unsigned int i, series = 0;
	const char *p;

	/* Runs on every CPU, as many as the module counts in the histogram. */
	for (i = 0; i < self->cur.nr_cpus; i++) {
		self->cur.cpus[i].vec[NICTL_SOFTIRQ_NET_RX].hist[10] += 7 * (i + 1);
		self->cur.cpus[i].vec[NICTL_SOFTIRQ_NET_RX].count += 7 * (i + 1);
	}
	expose(self);
	for (i = 0; i < self->v.nr_cpus; i++) {
		ASSERT_LT(0U, self->v.cpus[i].vec[NICTL_SOFTIRQ_NET_RX].count);
		want += self->v.cpus[i].vec[NICTL_SOFTIRQ_NET_RX].count;
	}
	ASSERT_LT(1U, self->v.nr_cpus);
	p = strstr(self->text, "nictl_softirq_duration_seconds_count{vec=\"net_rx\"} ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(strchr(p, '}') + 1, "%llu", &got));
	EXPECT_EQ(want, got);
	for (p = self->text; (p = strstr(p, "\nnictl_softirq_duration_seconds_")); p++) {
		series++;
		EXPECT_NE(0, strncmp(strchr(p, '{'), "{cpu=", 5));
	}
	EXPECT_EQ(2U * (NICTL_HIST_BUCKETS + 2), series);
	EXPECT_TRUE(prom_check(self->text));
	EXPECT_STREQ("", prom_error);
}

TEST_F(prom, label_values_are_escaped_and_unknown_queues_named_by_napi)
{
	free(self->cur.ifname);
	self->cur.ifname = strdup("a\"b\\c");
	self->cur.napis[1].queue = -1;
	expose(self);
	EXPECT_NE(NULL, strstr(self->text, "nictl_napi_packets_total{device=\"a\\\"b\\\\c\","
				"queue=\"napi-8194\"} 5900\n"));
	EXPECT_TRUE(prom_check(self->text));
	EXPECT_STREQ("", prom_error);
}

/* bond0's instances carry the label set of any device's, device naming their own. */
TEST_F(prom, stacked_device_labels_each_instance_with_its_device)
{
	sample_stacked(&self->cur);
	expose(self);
	EXPECT_NE(NULL, strstr(self->text,
			       "\nnictl_napi_packets_total{device=\"vnode0\",queue=\"0\"} "
			       "59100\n"
			       "nictl_napi_packets_total{device=\"vnode1\",queue=\"0\"} 5900\n"))
		TH_LOG("%s", self->text);
	EXPECT_EQ(NULL, strstr(self->text, "bond0"));
	EXPECT_TRUE(prom_check(self->text));
	EXPECT_STREQ("", prom_error);
}

/* The thread family only where a thread polls a queue, with only those queues. */
TEST_F(prom, threaded_queues_have_their_threads_seconds)
{
	expose(self);
	EXPECT_EQ(NULL, strstr(self->text, "nictl_napi_thread_seconds_total"));
	stats_view_free(&self->v);
	free(self->text);
	self->cur.napis[1].thread_pid = 313;
	self->cur.napis[1].thread_ns = 2500000000ULL;
	expose(self);
	EXPECT_NE(NULL, strstr(self->text,
			       "# TYPE nictl_napi_thread_seconds_total counter\n"
			       "nictl_napi_thread_seconds_total{device=\"vnode1\",queue=\"1\"} 2.5"))
		TH_LOG("%s", self->text);
	EXPECT_EQ(NULL, strstr(self->text, "nictl_napi_thread_seconds_total{device=\"vnode1\","
				"queue=\"0\"}"));
	EXPECT_TRUE(prom_check(self->text));
	EXPECT_STREQ("", prom_error);
}

TEST_F(prom, without_device_no_napi_families)
{
	stats_sample_free(&self->cur);
	sample_make(&self->cur, 1, false);
	expose(self);
	EXPECT_EQ(NULL, strstr(self->text, "nictl_napi_packets_total"));
	EXPECT_TRUE(prom_check(self->text));
}

/* The checker itself must refuse what Prometheus refuses. */
TEST(checker_refuses_broken_expositions)
{
	static const char *const bad[] = {
		/* sample before HELP/TYPE */
		"x_total 1\n",
		/* counter without _total */
		"# HELP x h\n# TYPE x counter\nx 1\n",
		/* bad label name, bad escape, unterminated value */
		"# HELP x g\n# TYPE x gauge\nx{0a=\"1\"} 1\n",
		"# HELP x g\n# TYPE x gauge\nx{a=\"\\t\"} 1\n",
		"# HELP x g\n# TYPE x gauge\nx{a=\"1} 1\n",
		/* timestamp, bad value */
		"# HELP x g\n# TYPE x gauge\nx 1 1700000000\n",
		"# HELP x g\n# TYPE x gauge\nx one\n",
		/* family split by another one */
		"# HELP x g\n# TYPE x gauge\nx{a=\"1\"} 1\n# HELP y g\n# TYPE y gauge\ny 1\n"
		"x{a=\"2\"} 1\n",
		/* duplicate series */
		"# HELP x g\n# TYPE x gauge\nx{a=\"1\"} 1\nx{a=\"1\"} 2\n",
		/* histogram not cumulative, without +Inf, _count not +Inf */
		"# HELP h d\n# TYPE h histogram\nh_bucket{le=\"1\"} 5\nh_bucket{le=\"2\"} 4\n"
		"h_bucket{le=\"+Inf\"} 5\nh_sum 1\nh_count 5\n",
		"# HELP h d\n# TYPE h histogram\nh_bucket{le=\"1\"} 5\nh_sum 1\nh_count 5\n",
		"# HELP h d\n# TYPE h histogram\nh_bucket{le=\"1\"} 5\nh_bucket{le=\"+Inf\"} 6\n"
		"h_sum 1\nh_count 5\n",
		/* no newline at the end */
		"# HELP x g\n# TYPE x gauge\nx 1",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_FALSE(prom_check(bad[i]))
			TH_LOG("accepted: %s", bad[i]);
		EXPECT_STRNE("", prom_error);
	}
	EXPECT_TRUE(prom_check("# HELP h d\n# TYPE h histogram\nh_bucket{le=\"1\"} 5\n"
			       "h_bucket{le=\"+Inf\"} 6\nh_sum 1.5\nh_count 6\n"));
	EXPECT_STREQ("", prom_error);
}

/* Write @text to a file and run promtool on it; its output goes to @out. */
static int promtool(const char *text, char *out, size_t size)
{
	char path[] = "/tmp/nictlctl-prom-XXXXXX", cmd[128];
	size_t n = 0;
	FILE *f, *p;
	int fd, status;

	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
	snprintf(cmd, sizeof(cmd), PROMTOOL " check metrics < %s 2>&1", path);
	p = popen(cmd, "r");
	if (!p)
		abort();
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	status = pclose(p);
	unlink(path);
	return status;
}

TEST_F(prom, promtool_accepts_it)
{
	char out[4096];

	ASSERT_EQ(0, access(PROMTOOL, X_OK))
		TH_LOG("promtool is missing: make deps installs Debian's prometheus package");
	free(self->cur.ifname);
	self->cur.ifname = strdup("a\"b\\c");
	EXPECT_EQ(0, promtool(expose(self), out, sizeof(out)));
	EXPECT_STREQ("", out);
}

TEST_HARNESS_MAIN
