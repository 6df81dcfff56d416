// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "env.h"
#include "module.h"
#include "stats.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

#define STATS_PARAM	"/sys/module/nictl/parameters/stats"

/* rx_settle(): rx_packets must stand still this many reads this far apart. */
#define SETTLE_READS	5
#define SETTLE_GAP_US	(100 * 1000)
#define SETTLE_MAX_READS 200

/* traffic_rounds(): the pause after each round. */
#define ROUND_GAP_US	(20 * 1000)

/* counts_agree(): the packets two counters may differ by, at least. */
#define COUNTS_SLACK	2

/* The counters of one vector as a list: count, time, max, then the buckets. */
#define VEC_COUNTERS	(3 + NICTL_HIST_BUCKETS)

#define SOFTIRQ_ATTRS	(ATTR_BIT(NICTL_A_SOFTIRQ_VEC) | ATTR_BIT(NICTL_A_SOFTIRQ_COUNT) | \
			 ATTR_BIT(NICTL_A_SOFTIRQ_TIME_NS) | ATTR_BIT(NICTL_A_SOFTIRQ_MAX_NS) | \
			 ATTR_BIT(NICTL_A_SOFTIRQ_HIST))
#define CPU_ATTRS	(ATTR_BIT(NICTL_A_CPU) | ATTR_BIT(NICTL_A_STATS_ENABLED) | \
			 ATTR_BIT(NICTL_A_STATS_START_NS) | ATTR_BIT(NICTL_A_STATS_NOW_NS) | \
			 ATTR_BIT(NICTL_A_NAPI_UNATTRIBUTED) | ATTR_BIT(NICTL_A_SOFTIRQ) | \
			 ATTR_BIT(NICTL_A_POLL))
#define POLL_ATTRS	(ATTR_BIT(NICTL_A_POLL_KIND) | ATTR_BIT(NICTL_A_POLL_POLLS) | \
			 ATTR_BIT(NICTL_A_POLL_PACKETS) | ATTR_BIT(NICTL_A_POLL_TIME_NS) | \
			 ATTR_BIT(NICTL_A_POLL_UNTIMED) | ATTR_BIT(NICTL_A_POLL_BUSY_POLLS) | \
			 ATTR_BIT(NICTL_A_POLL_BUSY_NS))
#define NAPI_TIME_ATTRS	(ATTR_BIT(NICTL_A_NAPI_ID) | ATTR_BIT(NICTL_A_NAPI_TIME_NS) | \
			 ATTR_BIT(NICTL_A_NAPI_BUSY_NS))
#define NAPI_ATTRS	(ATTR_BIT(NICTL_A_NAPI_ID) | ATTR_BIT(NICTL_A_NAPI_QUEUE) | \
			 ATTR_BIT(NICTL_A_NAPI_POLLS) | ATTR_BIT(NICTL_A_NAPI_PACKETS) | \
			 ATTR_BIT(NICTL_A_NAPI_CPUS) | ATTR_BIT(NICTL_A_NAPI_TIME_NS) | \
			 ATTR_BIT(NICTL_A_NAPI_BUSY_NS))

/* The counters of one poll kind as a list, in the order of poll_counter_names. */
#define POLL_COUNTERS	6

/* The kernel log lines summarize.sh fails a guest on. */
static const char *const splats[] = {
	"WARNING:", "BUG:", "Oops", "general protection", "Call Trace", "UBSAN", "KASAN",
	"ernel panic", "refcount_t:", "list_del corruption", NULL
};

static const char *const poll_counter_names[POLL_COUNTERS] = {
	"polls", "packets", "time_ns", "untimed", "busy_polls", "busy_ns",
};

static const char *vec_name(unsigned int vec)
{
	static const char *const names[] = { "NET_RX", "NET_TX" };

	return vec < __NICTL_SOFTIRQ_MAX ? names[vec] : "?";
}

static const char *poll_kind_name(unsigned int kind)
{
	static const char *const names[] = { "device NAPI", "backlog" };

	return kind < __NICTL_POLL_MAX ? names[kind] : "?";
}

static void poll_counters(const struct nictl_poll *p, uint64_t *out)
{
	out[0] = p->polls;
	out[1] = p->packets;
	out[2] = p->time_ns;
	out[3] = p->untimed;
	out[4] = p->busy_polls;
	out[5] = p->busy_ns;
}

uint64_t hist_lower_ns(unsigned int b)
{
	return b ? 1000ULL << (b - 1) : 0;
}

uint64_t hist_upper_ns(unsigned int b)
{
	return b < NICTL_HIST_BUCKETS - 1 ? 1000ULL << b : UINT64_MAX;
}

static void vec_counters(const struct nictl_softirq *si, uint64_t *out)
{
	out[0] = si->count;
	out[1] = si->time_ns;
	out[2] = si->max_ns;
	memcpy(&out[3], si->hist, sizeof(si->hist));
}

static const char *counter_name(unsigned int i, char *buf, size_t len)
{
	static const char *const names[] = { "count", "time_ns", "max_ns" };

	if (i < 3)
		return names[i];
	snprintf(buf, len, "hist[%u]", i - 3);
	return buf;
}

/* The histogram of @si against its count, longest run and total time. */
static bool hist_consistent(unsigned int cpu, const struct nictl_softirq *si)
{
	const char *name = vec_name(si->vec);
	uint64_t sum = 0, low = 0, high = 0;
	bool open = false, ok = true;
	int b, top = -1;

	for (b = 0; b < NICTL_HIST_BUCKETS; b++) {
		if (!si->hist[b])
			continue;
		sum += si->hist[b];
		low += si->hist[b] * hist_lower_ns(b);
		if (hist_upper_ns(b) == UINT64_MAX)
			open = true;
		else
			high += si->hist[b] * hist_upper_ns(b);
		top = b;
	}
	if (sum != si->count) {
		fprintf(stderr, "# CPU %u %s: histogram adds up to %" PRIu64 ", count is %"
			PRIu64 "\n", cpu, name, sum, si->count);
		return false;
	}
	if (top < 0) {
		if (si->time_ns || si->max_ns) {
			fprintf(stderr, "# CPU %u %s: no runs, but %" PRIu64 " ns, longest %"
				PRIu64 "\n", cpu, name, si->time_ns, si->max_ns);
			ok = false;
		}
		return ok;
	}
	/* Each run is in [lower, upper) of its bucket: so are the longest and the sum. */
	if (si->max_ns < hist_lower_ns(top) || si->max_ns >= hist_upper_ns(top)) {
		fprintf(stderr, "# CPU %u %s: longest run %" PRIu64
			" ns is not in bucket %d, the highest in use\n", cpu, name, si->max_ns,
			top);
		ok = false;
	}
	if (si->time_ns < low || (!open && si->time_ns >= high)) {
		fprintf(stderr, "# CPU %u %s: %" PRIu64 " ns in all, the buckets say [%" PRIu64
			", %" PRIu64 ")\n", cpu, name, si->time_ns, low, high);
		ok = false;
	}
	/* The average run is no longer than the longest, which is part of the total. */
	if (si->time_ns < si->max_ns || si->time_ns / si->count > si->max_ns) {
		fprintf(stderr, "# CPU %u %s: %" PRIu64 " runs of %" PRIu64 " ns in all, longest %"
			PRIu64 "\n", cpu, name, si->count, si->time_ns, si->max_ns);
		ok = false;
	}
	return ok;
}

/*
 * The poll kinds of one CPU: each whole, untimed polls among the polls, and
 * their time, added with the NET_RX run it was part of, within NET_RX's.
 */
static bool polls_consistent(const struct nictl_cpu_stats *st)
{
	uint64_t polled_ns = 0;
	unsigned int k;
	bool ok = true;

	for (k = 0; k < __NICTL_POLL_MAX; k++) {
		if ((st->poll[k].present & POLL_ATTRS) != POLL_ATTRS) {
			fprintf(stderr, "# CPU %u: %s polls missing or incomplete (have %#llx)\n",
				st->cpu, poll_kind_name(k),
				(unsigned long long)st->poll[k].present);
			return false;
		}
		if (st->poll[k].untimed > st->poll[k].polls ||
		    st->poll[k].busy_polls > st->poll[k].polls ||
		    st->poll[k].packets > st->poll[k].polls * NAPI_POLL_WEIGHT) {
			fprintf(stderr, "# CPU %u %s: %" PRIu64 " polls, %" PRIu64 " untimed, %"
				PRIu64 " busy, %" PRIu64 " packets\n", st->cpu, poll_kind_name(k),
				st->poll[k].polls, st->poll[k].untimed, st->poll[k].busy_polls,
				st->poll[k].packets);
			ok = false;
		}
		polled_ns += st->poll[k].time_ns;
	}
	if (polled_ns > st->vec[NICTL_SOFTIRQ_NET_RX].time_ns) {
		fprintf(stderr, "# CPU %u: polls took %" PRIu64 " ns of NET_RX's %" PRIu64 "\n",
			st->cpu, polled_ns, st->vec[NICTL_SOFTIRQ_NET_RX].time_ns);
		ok = false;
	}
	return ok;
}

/* The NAPI times of one CPU: each whole, with a distinct non-zero id. */
static bool napi_times_consistent(const struct nictl_cpu_stats *st)
{
	const struct nictl_napi_time *t;
	unsigned int i, j;
	bool ok = true;

	for (i = 0; i < st->n_napi_times; i++) {
		t = &st->napi_time[i];
		if ((t->present & NAPI_TIME_ATTRS) != NAPI_TIME_ATTRS || !t->id) {
			fprintf(stderr, "# CPU %u: NAPI %u time incomplete (have %#llx)\n",
				st->cpu, t->id, (unsigned long long)t->present);
			ok = false;
		}
		for (j = 0; j < i; j++) {
			if (st->napi_time[j].id != t->id)
				continue;
			fprintf(stderr, "# CPU %u: NAPI %u twice\n", st->cpu, t->id);
			ok = false;
		}
	}
	return ok;
}

static bool cpu_stats_consistent(const struct nictl_cpu_stats *st)
{
	const struct nictl_softirq *si;
	unsigned int v;
	bool ok = true;

	if ((st->present & CPU_ATTRS) != CPU_ATTRS) {
		fprintf(stderr, "# CPU %u: attributes missing (have %#llx)\n", st->cpu,
			(unsigned long long)st->present);
		return false;
	}
	if (st->enabled > 1 || st->now_ns < st->start_ns) {
		fprintf(stderr, "# CPU %u: enabled %u, start %" PRIu64 " ns, now %" PRIu64 " ns\n",
			st->cpu, st->enabled, st->start_ns, st->now_ns);
		ok = false;
	}
	for (v = 0; v < __NICTL_SOFTIRQ_MAX; v++) {
		si = &st->vec[v];
		if ((si->present & SOFTIRQ_ATTRS) != SOFTIRQ_ATTRS) {
			fprintf(stderr, "# CPU %u: %s missing or incomplete (have %#llx)\n",
				st->cpu, vec_name(v), (unsigned long long)si->present);
			ok = false;
			continue;
		}
		ok &= hist_consistent(st->cpu, si);
		/* One CPU runs one softirq at a time: never more than the time that passed. */
		if (si->time_ns > st->now_ns - st->start_ns) {
			fprintf(stderr, "# CPU %u %s: %" PRIu64 " ns in %" PRIu64
				" ns since the start\n", st->cpu, vec_name(v), si->time_ns,
				st->now_ns - st->start_ns);
			ok = false;
		}
	}
	return ok && polls_consistent(st) && napi_times_consistent(st);
}

bool stats_consistent(const struct nictl_stats *st)
{
	const struct nictl_cpu_stats *c;
	struct cpus possible, seen;
	unsigned int i;
	bool ok;

	if (read_cpus("/sys/devices/system/cpu/possible", &possible))
		return false;
	ok = st->n == cpus_count(&possible);
	if (!ok)
		fprintf(stderr, "# %u messages for %u possible CPUs\n", st->n,
			cpus_count(&possible));
	cpus_zero(&seen);
	for (i = 0; i < st->n; i++) {
		c = &st->cpu[i];
		ok &= cpu_stats_consistent(c);
		if (!cpus_test(&possible, c->cpu) || cpus_test(&seen, c->cpu) ||
		    (i && c->cpu < st->cpu[i - 1].cpu)) {
			fprintf(stderr, "# message %u: CPU %u impossible, repeated or misplaced\n",
				i, c->cpu);
			ok = false;
		}
		cpus_set(&seen, c->cpu);
		if (!i)
			continue;
		/* One dump reads one state, with a clock that does not go back. */
		if (c->start_ns != st->cpu[0].start_ns || c->enabled != st->cpu[0].enabled ||
		    c->now_ns < st->cpu[i - 1].now_ns) {
			fprintf(stderr, "# CPU %u: start %" PRIu64 ", enabled %u, now %" PRIu64
				" disagree with CPU %u before it\n", c->cpu, c->start_ns,
				c->enabled, c->now_ns, st->cpu[i - 1].cpu);
			ok = false;
		}
	}
	return ok;
}

bool stats_enabled_is(const struct nictl_stats *st, bool on)
{
	unsigned int i;
	bool ok = st->n > 0;

	for (i = 0; i < st->n; i++) {
		if (st->cpu[i].enabled == on)
			continue;
		fprintf(stderr, "# CPU %u reports accounting %s\n", st->cpu[i].cpu,
			st->cpu[i].enabled ? "on" : "off");
		ok = false;
	}
	return ok;
}

/*
 * One counter of two samples (@where it is, e.g. "CPU 3 NET_RX"): equal
 * when @frozen, else not smaller.
 */
static bool counter_ok(const char *where, const char *name, uint64_t a, uint64_t b, bool frozen)
{
	if (frozen ? b == a : b >= a)
		return true;
	fprintf(stderr, "# %s %s: want %s%" PRIu64 ", got %" PRIu64 "\n", where, name,
		frozen ? "" : ">= ", a, b);
	return false;
}

/*
 * The counters of @a against @b's, see counter_ok(); a NULL @a stands for
 * zeros (then @b's clock need not have moved).
 */
static bool cpu_compare(const struct nictl_cpu_stats *a, const struct nictl_cpu_stats *b,
			bool frozen)
{
	uint64_t ca[VEC_COUNTERS] = { 0 }, cb[VEC_COUNTERS];
	char where[40], name[16];
	unsigned int v, k;
	bool ok;

	snprintf(where, sizeof(where), "CPU %u", b->cpu);
	ok = counter_ok(where, "NAPI unattributed", a ? a->napi_unattributed : 0,
			b->napi_unattributed, frozen);
	for (v = 0; v < __NICTL_SOFTIRQ_MAX; v++) {
		snprintf(where, sizeof(where), "CPU %u %s", b->cpu, vec_name(v));
		if (a)
			vec_counters(&a->vec[v], ca);
		vec_counters(&b->vec[v], cb);
		for (k = 0; k < VEC_COUNTERS; k++)
			ok &= counter_ok(where, counter_name(k, name, sizeof(name)), ca[k], cb[k],
					 frozen);
	}
	memset(ca, 0, sizeof(ca));
	for (v = 0; v < __NICTL_POLL_MAX; v++) {
		snprintf(where, sizeof(where), "CPU %u %s polls", b->cpu, poll_kind_name(v));
		if (a)
			poll_counters(&a->poll[v], ca);
		poll_counters(&b->poll[v], cb);
		for (k = 0; k < POLL_COUNTERS; k++)
			ok &= counter_ok(where, poll_counter_names[k], ca[k], cb[k], frozen);
	}
	if (!a && b->n_napi_times) {
		fprintf(stderr, "# CPU %u: %u NAPIs timed, want none\n", b->cpu, b->n_napi_times);
		ok = false;
	}
	return ok;
}

static bool stats_compare(const struct nictl_stats *a, const struct nictl_stats *b, bool frozen)
{
	const struct nictl_cpu_stats *x, *y;
	unsigned int i;
	bool ok = true;

	if (a->n != b->n || !a->n) {
		fprintf(stderr, "# samples of %u and %u CPUs\n", a->n, b->n);
		return false;
	}
	for (i = 0; i < a->n; i++) {
		x = &a->cpu[i];
		y = &b->cpu[i];
		if (x->cpu != y->cpu || x->start_ns != y->start_ns || y->now_ns <= x->now_ns) {
			fprintf(stderr, "# CPU %u then %u: start %" PRIu64 " then %" PRIu64
				", now %" PRIu64 " then %" PRIu64 "\n", x->cpu, y->cpu,
				x->start_ns, y->start_ns, x->now_ns, y->now_ns);
			return false;
		}
		ok &= cpu_compare(x, y, frozen);
	}
	return ok;
}

bool stats_advanced(const struct nictl_stats *a, const struct nictl_stats *b)
{
	return stats_compare(a, b, false);
}

bool stats_frozen(const struct nictl_stats *a, const struct nictl_stats *b)
{
	return stats_compare(a, b, true);
}

bool stats_zero(const struct nictl_stats *st)
{
	unsigned int i;
	bool ok = st->n > 0;

	for (i = 0; i < st->n; i++)
		ok &= cpu_compare(NULL, &st->cpu[i], true);
	return ok;
}

uint64_t stats_runs(const struct nictl_stats *st, unsigned int vec)
{
	uint64_t runs = 0;
	unsigned int i;

	for (i = 0; i < st->n; i++)
		runs += st->cpu[i].vec[vec].count;
	return runs;
}

bool stats_share(const struct nictl_stats *a, const struct nictl_stats *b, unsigned int vec,
		 unsigned int cpu, const struct cpus *counted, struct stats_share *share)
{
	const struct nictl_softirq *x, *y;
	uint64_t runs, ns;
	unsigned int i;

	memset(share, 0, sizeof(*share));
	if (a->n != b->n)
		return false;
	fprintf(stderr, "# %s per CPU (runs/us, * = not counted):", vec_name(vec));
	for (i = 0; i < a->n; i++) {
		if (a->cpu[i].cpu != b->cpu[i].cpu) {
			fprintf(stderr, "\n# the samples list different CPUs\n");
			return false;
		}
		x = &a->cpu[i].vec[vec];
		y = &b->cpu[i].vec[vec];
		runs = y->count - x->count;
		ns = y->time_ns - x->time_ns;
		fprintf(stderr, " %u%s: %" PRIu64 "/%" PRIu64, a->cpu[i].cpu,
			cpus_test(counted, a->cpu[i].cpu) ? "" : "*", runs, ns / 1000);
		if (!cpus_test(counted, a->cpu[i].cpu))
			continue;
		share->runs_all += runs;
		share->time_all_ns += ns;
		if (a->cpu[i].cpu != cpu)
			continue;
		share->runs = runs;
		share->time_ns = ns;
	}
	fprintf(stderr, "\n");
	return true;
}

bool counts_agree(const char *what, uint64_t got, uint64_t want)
{
	uint64_t diff = got > want ? got - want : want - got;
	uint64_t slack = want / 50 > COUNTS_SLACK ? want / 50 : COUNTS_SLACK;

	fprintf(stderr, "# %s: %" PRIu64 ", want %" PRIu64 " +- %" PRIu64 "\n", what, got, want,
		slack);
	return diff <= slack;
}

bool share_at_least(const char *what, uint64_t part, uint64_t all, unsigned int percent)
{
	fprintf(stderr, "# %s: %" PRIu64 " of %" PRIu64 " (%.1f %%, want >= %u %%)\n", what, part,
		all, all ? 100.0 * part / all : 0.0, percent);
	return all && part * 100 >= all * percent;
}

static bool napi_consistent(const struct nictl_napi *napi, size_t mask_len)
{
	bool ok = true;

	if ((napi->present & NAPI_ATTRS) != NAPI_ATTRS) {
		fprintf(stderr, "# NAPI %u: attributes missing (have %#llx)\n", napi->id,
			(unsigned long long)napi->present);
		return false;
	}
	if (!napi->id || napi->cpus_len != mask_len) {
		fprintf(stderr, "# NAPI %u: CPU bitmap of %zu bytes, want %zu\n", napi->id,
			napi->cpus_len, mask_len);
		ok = false;
	}
	if (!napi->polls != !cpus_count(&napi->cpus) ||
	    napi->packets > napi->polls * NAPI_POLL_WEIGHT) {
		fprintf(stderr, "# NAPI %u: %" PRIu64 " polls, %" PRIu64 " packets, on %u CPUs\n",
			napi->id, napi->polls, napi->packets, cpus_count(&napi->cpus));
		ok = false;
	}
	return ok;
}

bool napis_consistent(const struct nictl_napis *n, const char *ifname, unsigned int rx_queues)
{
	int nr_cpu_ids = sys_nr_cpu_ids();
	unsigned int i, j;
	bool ok = nr_cpu_ids > 0;

	if (n->cmd != NICTL_CMD_NAPI_GET || !(n->present & ATTR_BIT(NICTL_A_IFINDEX)) ||
	    strcmp(n->ifname, ifname)) {
		fprintf(stderr, "# NAPI_GET reply: command %u, device '%s', want '%s'\n", n->cmd,
			n->ifname, ifname);
		ok = false;
	}
	for (i = 0; i < n->n; i++) {
		ok &= napi_consistent(&n->napi[i], (nr_cpu_ids + 7) / 8);
		if (n->napi[i].queue >= rx_queues) {
			fprintf(stderr, "# NAPI %u serves queue %u of %u\n", n->napi[i].id,
				n->napi[i].queue, rx_queues);
			ok = false;
		}
		for (j = 0; j < i; j++) {
			if (n->napi[j].id != n->napi[i].id && n->napi[j].queue != n->napi[i].queue)
				continue;
			fprintf(stderr, "# NAPIs %u and %u: same id or queue\n", n->napi[j].id,
				n->napi[i].id);
			ok = false;
		}
	}
	return ok;
}

/* The counters of one NAPI against @a's, see cpu_compare(). */
static bool napi_compare(const struct nictl_napi *a, const struct nictl_napi *b, bool frozen)
{
	static const struct nictl_napi zero;
	char where[32];
	bool ok;

	snprintf(where, sizeof(where), "NAPI %u", b->id);
	if (!a)
		a = &zero;
	ok = counter_ok(where, "polls", a->polls, b->polls, frozen) &
	     counter_ok(where, "packets", a->packets, b->packets, frozen) &
	     counter_ok(where, "time_ns", a->time_ns, b->time_ns, frozen);
	/* The CPUs it was polled on are a counter too: a set that only grows. */
	if (!cpus_subset(&a->cpus, &b->cpus) || (frozen && !cpus_equal(&a->cpus, &b->cpus))) {
		fprintf(stderr, "# %s: polled on %u CPUs, then %u others\n", where,
			cpus_count(&a->cpus), cpus_count(&b->cpus));
		ok = false;
	}
	return ok;
}

static bool napis_compare(const struct nictl_napis *a, const struct nictl_napis *b, bool frozen)
{
	unsigned int i;
	bool ok = true;

	if (a->n != b->n) {
		fprintf(stderr, "# %u NAPIs, then %u\n", a->n, b->n);
		return false;
	}
	for (i = 0; i < a->n; i++) {
		if (a->napi[i].id != b->napi[i].id) {
			fprintf(stderr, "# NAPI %u, then %u\n", a->napi[i].id, b->napi[i].id);
			return false;
		}
		ok &= napi_compare(&a->napi[i], &b->napi[i], frozen);
	}
	return ok;
}

bool napis_advanced(const struct nictl_napis *a, const struct nictl_napis *b)
{
	return napis_compare(a, b, false);
}

bool napis_frozen(const struct nictl_napis *a, const struct nictl_napis *b)
{
	return napis_compare(a, b, true);
}

bool napis_zero(const struct nictl_napis *n)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < n->n; i++)
		ok &= napi_compare(NULL, &n->napi[i], true);
	return ok;
}

const struct nictl_napi *napis_queue(const struct nictl_napis *n, uint32_t queue)
{
	unsigned int i;

	for (i = 0; i < n->n; i++)
		if (n->napi[i].queue == queue)
			return &n->napi[i];
	return NULL;
}

uint64_t napis_packets(const struct nictl_napis *n)
{
	uint64_t packets = 0;
	unsigned int i;

	for (i = 0; i < n->n; i++)
		packets += n->napi[i].packets;
	return packets;
}

int netdev_rx_packets(const char *ifname, uint64_t *packets)
{
	char path[128];
	long v;
	int ret;

	ret = pathf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_packets", ifname) ?:
	      read_long(path, &v);
	if (!ret)
		*packets = v;
	return ret;
}

int rx_settle(const char *ifname)
{
	uint64_t last = 0, now;
	unsigned int reads, still = 0;
	int ret;

	for (reads = 0; reads < SETTLE_MAX_READS; reads++) {
		ret = netdev_rx_packets(ifname, &now);
		if (ret)
			return ret;
		still = reads && now == last ? still + 1 : 0;
		if (still == SETTLE_READS)
			return 0;
		last = now;
		usleep(SETTLE_GAP_US);
	}
	fprintf(stderr, "# %s kept receiving\n", ifname);
	return -ETIMEDOUT;
}

int traffic_rounds(const char *ifname, unsigned int cpu, unsigned int rounds,
		   const char *rx_ifname)
{
	const char *const out[] = { ifname, NULL };
	struct cpus from;
	unsigned int i;
	int ret;

	cpus_zero(&from);
	cpus_set(&from, cpu);
	for (i = 0; i < rounds; i++) {
		ret = traffic_send(out, &from, TRAFFIC_ROUND_FRAMES);
		if (ret)
			return ret;
		usleep(ROUND_GAP_US);
	}
	return rx_settle(rx_ifname);
}

int bind_queues(struct nl_client *nl, const struct nictl_dev *dev, const unsigned int *cpus,
		unsigned int n, struct nictl_dev *reply)
{
	struct nictl_place place[NICTL_MAX_IRQS];
	struct nictl_bind_args args = {
		.ifname = dev->ifname,
		.place = place,
	};
	struct nl_result res;
	unsigned int i, j;
	uint32_t q;
	int ret;

	for (i = 0; i < dev->n_irqs; i++) {
		q = dev->irqs[i].queue;
		for (j = 0; j < args.n_place && place[j].queue != q; j++)
			;
		if (j < args.n_place)
			continue;
		place[j].queue = q;
		place[j].cpu = cpus[q % n];
		args.n_place++;
	}
	ret = nictl_bind(nl, &args, reply, &res);
	if (ret) {
		fprintf(stderr, "# bind %s: %s (%s)\n", dev->ifname, strerror(-ret), res.msg);
		return ret;
	}
	return traffic_burst(test_nics);
}

bool irqs_moved(struct nl_client *nl, const struct nictl_dev *reply)
{
	struct nictl_dev now;
	struct nl_result res;
	unsigned int i;
	bool ok;

	if (!effective_follows(reply))
		return false;
	if (nictl_dev_get(nl, reply->ifname, &now, &res)) {
		fprintf(stderr, "# DEV_GET %s: %s\n", reply->ifname, res.msg);
		return false;
	}
	ok = now.n_irqs == reply->n_irqs;
	for (i = 0; i < now.n_irqs; i++) {
		if ((now.irqs[i].flags & (NICTL_IRQ_F_BOUND | NICTL_IRQ_F_PENDING)) ==
		    NICTL_IRQ_F_BOUND)
			continue;
		fprintf(stderr, "# IRQ %u (%s): flags %#x, want bound and nothing pending\n",
			now.irqs[i].num, now.irqs[i].name, now.irqs[i].flags);
		ok = false;
	}
	return ok;
}

int stats_param(bool *on)
{
	char buf[8];
	int ret;

	ret = read_str(STATS_PARAM, buf, sizeof(buf));
	if (!ret)
		*on = buf[0] == 'Y';
	return ret;
}

int stats_defaults(void)
{
	struct nl_result res;
	struct nl_client nl;
	bool on;
	int ret;

	ret = nictl_module_load() ?: stats_param(&on);
	if (!ret && !on)
		ret = nictl_module_unload() ?: nictl_module_load();
	ret = ret ?: nictl_open(&nl);
	if (ret) {
		fprintf(stderr, "# reload nictl with default parameters: %s\n", strerror(-ret));
		return ret;
	}
	ret = nictl_stats_set(&nl, true, &res);
	if (ret)
		fprintf(stderr, "# switch accounting on: %s (%s)\n", strerror(-ret), res.msg);
	nl_close(&nl);
	return ret;
}

/* The end of a metric (@colon) or label name at @p, or NULL. */
static const char *prom_name(const char *p, bool colon)
{
	if (!isalpha((unsigned char)*p) && *p != '_' && !(colon && *p == ':'))
		return NULL;
	for (p++; isalnum((unsigned char)*p) || *p == '_' || (colon && *p == ':'); p++)
		;
	return p;
}

/* Past the label set that opens at @p ('{'), or NULL. */
static const char *prom_labels(const char *p)
{
	do {
		p = prom_name(p + 1, false);
		if (!p || p[0] != '=' || p[1] != '"')
			return NULL;
		for (p += 2; *p != '"'; p++) {
			/* The escapes are \\, \" and \n; a value ends before the line does. */
			if (*p == '\\' && p[1] && strchr("\\\"n", p[1]))
				p++;
			else if (!*p || *p == '\\' || *p == '\n')
				return NULL;
		}
		p++;
	} while (*p == ',');
	return *p == '}' ? p + 1 : NULL;
}

/* " value[ timestamp]" from @p to the end of the line at @end. */
static bool prom_value(const char *p, const char *end)
{
	char *next;

	if (*p++ != ' ')
		return false;
	strtod(p, &next);
	if (next == p)
		return false;
	if (next == end)
		return true;
	p = next;
	if (*p++ != ' ')
		return false;
	strtoll(p, &next, 10);
	return next != p && next == end;
}

/* What prom_text_ok() knows after the lines so far. */
struct prom_state {
	char family[128];	/* named by the last # TYPE */
	char type[16];
	char typed[4096];	/* " name " of every family typed so far */
};

/* "# HELP name text", or "# TYPE name type", which starts a family. */
static bool prom_meta(const char *line, const char *end, struct prom_state *st)
{
	static const char *const types[] = {
		"counter", "gauge", "histogram", "summary", "untyped", NULL
	};
	const char *const *t, *name = line + 7, *p = prom_name(name, true);
	char word[sizeof(st->family) + 2];

	if (!p || *p != ' ' || p - name >= (long)sizeof(st->family))
		return false;
	if (line[2] == 'H')
		return true;
	for (t = types; *t; t++)
		if ((size_t)(end - p - 1) == strlen(*t) && !strncmp(p + 1, *t, end - p - 1))
			break;
	snprintf(word, sizeof(word), " %.*s ", (int)(p - name), name);
	if (!*t || strstr(st->typed, word) ||
	    strlen(st->typed) + strlen(word) >= sizeof(st->typed))
		return false;
	strcat(st->typed, word + 1);
	snprintf(st->family, sizeof(st->family), "%.*s", (int)(p - name), name);
	snprintf(st->type, sizeof(st->type), "%s", *t);
	return true;
}

/* Whether the sample name of @len chars at @name is of the current family. */
static bool prom_in_family(const char *name, size_t len, const struct prom_state *st)
{
	static const char *const suffixes[] = { "_bucket", "_sum", "_count", NULL };
	const char *const *sfx;
	size_t flen = strlen(st->family);

	if (!flen || len < flen || strncmp(name, st->family, flen))
		return false;
	if (len == flen)
		return true;
	if (strcmp(st->type, "histogram") && strcmp(st->type, "summary"))
		return false;
	for (sfx = suffixes; *sfx; sfx++)
		if (len - flen == strlen(*sfx) && !strncmp(name + flen, *sfx, len - flen))
			return true;
	return false;
}

static bool prom_line(const char *line, const char *end, struct prom_state *st)
{
	const char *p;

	if (!strncmp(line, "# HELP ", 7) || !strncmp(line, "# TYPE ", 7))
		return prom_meta(line, end, st);
	if (line[0] == '#')
		return true;
	p = prom_name(line, true);
	if (!p || !prom_in_family(line, p - line, st))
		return false;
	if (*p == '{')
		p = prom_labels(p);
	return p && prom_value(p, end);
}

bool prom_text_ok(const char *text)
{
	struct prom_state st = { .typed = " " };
	const char *line, *end;

	for (line = text; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end) {
			fprintf(stderr, "# the last line has no newline: '%s'\n", line);
			return false;
		}
		if (line == end || prom_line(line, end, &st))
			continue;
		fprintf(stderr, "# not Prometheus text: '%.*s'\n", (int)(end - line), line);
		return false;
	}
	if (!st.family[0])
		fprintf(stderr, "# no metric family at all\n");
	return st.family[0];
}

int kmsg_mark(const char *mark)
{
	char line[256];
	int ret = pathf(line, sizeof(line), "nictl selftest: %s\n", mark);

	return ret ?: write_str("/dev/kmsg", line);
}

bool kmsg_clean_since(const char *mark)
{
	const char *const *splat;
	char *log, *from, *next, *hit;
	int size, len;
	bool ok = true;

	size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	log = size > 0 ? malloc(size + 1) : NULL;
	len = log ? klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, size) : -1;
	if (len < 0) {
		fprintf(stderr, "# cannot read the kernel log\n");
		free(log);
		return false;
	}
	log[len] = '\0';
	from = NULL;
	for (next = log; (next = strstr(next, mark)); next++)
		from = next;
	if (!from) {
		fprintf(stderr, "# '%s' is not in the kernel log\n", mark);
		free(log);
		return false;
	}
	for (splat = splats; *splat && ok; splat++) {
		hit = strstr(from, *splat);
		if (!hit)
			continue;
		while (hit > from && hit[-1] != '\n')
			hit--;
		fprintf(stderr, "# kernel log: %.*s\n", (int)strcspn(hit, "\n"), hit);
		ok = false;
	}
	free(log);
	return ok;
}
