// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of kmod/qirq.c, built in userspace: synthetic devices whose
 * queues share IRQs the way real drivers do, listed IRQ by IRQ with the
 * queues each serves, and grouped into what a bind places on one CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "qirq.h"

#define RX	NICTL_QUEUE_KIND_RX
#define TX	NICTL_QUEUE_KIND_TX
#define PAIR	NICTL_QUEUE_KIND_COMBINED

/* One (IRQ, queue, kind) as discovery notes it. */
struct found {
	unsigned int irq, queue, kind;
};

/* An IRQ as the merge must list it: its queues as "q/kind" words. */
struct want {
	unsigned int irq, queue, kind, group;
	const char *refs;
};

struct merged {
	struct nictl_qirq *irqs;
	struct nictl_qref *refs;
	unsigned int n, groups;
};

static void merge(const struct found *f, unsigned int n, struct merged *m)
{
	unsigned long long *scratch = calloc(n + 1, sizeof(*scratch));
	unsigned int i;

	m->irqs = calloc(n + 1, sizeof(*m->irqs));
	m->refs = calloc(n + 1, sizeof(*m->refs));
	for (i = 0; i < n; i++) {
		m->irqs[i].irq = f[i].irq;
		m->irqs[i].queue = f[i].queue;
		m->irqs[i].kind = f[i].kind;
		m->irqs[i].plan_cpu = -1;
		snprintf(m->irqs[i].name, sizeof(m->irqs[i].name), "irq%u", f[i].irq);
	}
	m->n = nictl_qirqs_merge(m->irqs, n, m->refs, scratch, &m->groups);
	free(scratch);
}

static void merged_free(struct merged *m)
{
	free(m->irqs);
	free(m->refs);
}

static const char *kind_name(unsigned int kind)
{
	return kind == RX ? "rx" : kind == TX ? "tx" : "pair";
}

/* "0/rx 4/rx" for an IRQ's queues. */
static void refs_text(const struct merged *m, const struct nictl_qirq *q, char *buf, size_t len)
{
	const struct nictl_qref *r;
	unsigned int k;
	size_t used = 0;

	buf[0] = '\0';
	for (k = 0; k < q->n_refs && used < len; k++) {
		r = &m->refs[q->first_ref + k];
		used += snprintf(buf + used, len - used, "%s%u/%s", k ? " " : "", r->queue,
				 kind_name(r->kind));
	}
}

/* Whether @m lists exactly @w, in order; prints every difference. */
static bool merged_is(const struct merged *m, const struct want *w, unsigned int n,
		      unsigned int groups)
{
	char refs[256], name[16];
	unsigned int i;
	bool ok = true;

	if (m->n != n || m->groups != groups) {
		fprintf(stderr, "# %u IRQs in %u groups, want %u in %u\n", m->n, m->groups, n,
			groups);
		return false;
	}
	for (i = 0; i < n; i++) {
		const struct nictl_qirq *q = &m->irqs[i];

		/* The entry an IRQ keeps is one of its own, name and all. */
		snprintf(name, sizeof(name), "irq%u", q->irq);
		refs_text(m, q, refs, sizeof(refs));
		if (q->irq == w[i].irq && q->queue == w[i].queue && q->kind == w[i].kind &&
		    q->group == w[i].group && !strcmp(refs, w[i].refs) && !strcmp(q->name, name))
			continue;
		fprintf(stderr, "# entry %u: IRQ %u queue %u %s group %u serves '%s' (%s); "
			"want IRQ %u queue %u %s group %u serving '%s'\n", i, q->irq, q->queue,
			kind_name(q->kind), q->group, refs, q->name, w[i].irq, w[i].queue,
			kind_name(w[i].kind), w[i].group, w[i].refs);
		ok = false;
	}
	return ok;
}

#define N(a)	(sizeof(a) / sizeof((a)[0]))
#define CHECK(found, want, groups) do {					\
	struct merged m;						\
									\
	merge(found, N(found), &m);					\
	EXPECT_TRUE(merged_is(&m, want, N(want), groups));		\
	merged_free(&m);						\
} while (0)

/* virtio_net, e1000e: an rx and a tx IRQ per queue; a queue's two are one group. */
TEST(split_rx_tx)
{
	const struct found f[] = { { 31, 1, TX }, { 28, 0, RX }, { 30, 1, RX }, { 29, 0, TX } };
	const struct want w[] = {
		{ 28, 0, RX, 0, "0/rx" }, { 29, 0, TX, 0, "0/tx" },
		{ 30, 1, RX, 1, "1/rx" }, { 31, 1, TX, 1, "1/tx" },
	};

	CHECK(f, w, 2);
}

/* mlx5, igb: one IRQ per channel, found once as a pair or twice as rx and tx. */
TEST(one_irq_per_channel)
{
	const struct found f[] = { { 50, 0, PAIR }, { 51, 1, RX }, { 51, 1, TX } };
	const struct want w[] = { { 50, 0, PAIR, 0, "0/pair" }, { 51, 1, PAIR, 1, "1/rx 1/tx" } };

	CHECK(f, w, 2);
}

/* ice with 4 vectors for 8 rings: vector v serves rings v and v + 4. */
TEST(fewer_vectors_than_rings)
{
	struct found f[16];
	const struct want w[] = {
		{ 100, 0, PAIR, 0, "0/rx 0/tx 4/rx 4/tx" },
		{ 101, 1, PAIR, 1, "1/rx 1/tx 5/rx 5/tx" },
		{ 102, 2, PAIR, 2, "2/rx 2/tx 6/rx 6/tx" },
		{ 103, 3, PAIR, 3, "3/rx 3/tx 7/rx 7/tx" },
	};
	unsigned int q, i = 0;

	/* As discovery finds them: queue by queue, rx then tx. */
	for (q = 0; q < 8; q++) {
		f[i++] = (struct found){ 100 + q % 4, q, RX };
		f[i++] = (struct found){ 100 + q % 4, q, TX };
	}
	CHECK(f, w, 4);
}

/* nictl's test hook: every queue on queue 0's rx and tx IRQs. One group. */
TEST(all_queues_on_two_irqs)
{
	const struct found f[] = { { 28, 0, RX }, { 29, 0, TX }, { 28, 1, RX }, { 29, 1, TX } };
	const struct want w[] = { { 28, 0, RX, 0, "0/rx 1/rx" }, { 29, 0, TX, 0, "0/tx 1/tx" } };

	CHECK(f, w, 1);
}

/* IRQs linked through a queue each, not directly: one group all the same. */
TEST(groups_are_transitive)
{
	const struct found f[] = {
		{ 40, 0, RX }, { 41, 1, RX }, { 40, 1, TX }, { 42, 2, RX }, { 41, 2, TX },
		{ 43, 3, PAIR },
	};
	const struct want w[] = {
		{ 40, 0, PAIR, 0, "0/rx 1/tx" }, { 41, 1, PAIR, 0, "1/rx 2/tx" },
		{ 42, 2, RX, 0, "2/rx" }, { 43, 3, PAIR, 1, "3/pair" },
	};

	CHECK(f, w, 2);
}

TEST(same_queue_found_twice_counts_once)
{
	const struct found f[] = { { 60, 0, RX }, { 60, 0, RX }, { 61, 0, TX } };
	const struct want w[] = { { 60, 0, RX, 0, "0/rx" }, { 61, 0, TX, 0, "0/tx" } };

	CHECK(f, w, 1);
}

/*
 * Two devices on one IRQ (an mlx5 sub-function on its parent's vector):
 * each device lists it with its own queue, in its own group 0.
 */
TEST(two_devices_share_an_irq)
{
	const struct found pf[] = { { 70, 0, PAIR }, { 71, 1, PAIR } };
	const struct found sf[] = { { 80, 0, RX }, { 81, 0, TX }, { 70, 0, PAIR } };
	const struct want wpf[] = { { 70, 0, PAIR, 0, "0/pair" }, { 71, 1, PAIR, 1, "1/pair" } };
	const struct want wsf[] = {
		{ 80, 0, RX, 0, "0/rx" }, { 81, 0, TX, 0, "0/tx" }, { 70, 0, PAIR, 0, "0/pair" },
	};

	CHECK(pf, wpf, 2);
	CHECK(sf, wsf, 1);
}

TEST(no_irqs)
{
	struct merged m;

	merge(NULL, 0, &m);
	EXPECT_EQ(0U, m.n);
	EXPECT_EQ(0U, m.groups);
	merged_free(&m);
}

/* A queue finds its group; planning a group moves all of it, or nothing. */
TEST(plan_by_queue)
{
	const struct found f[] = {
		{ 28, 0, RX }, { 29, 0, TX }, { 28, 1, RX }, { 29, 1, TX }, { 30, 2, PAIR },
	};
	struct merged m;
	unsigned int i;

	merge(f, N(f), &m);
	ASSERT_EQ(2U, m.groups);
	EXPECT_EQ(0, nictl_qirqs_group_of(m.irqs, m.n, m.refs, 1));
	EXPECT_EQ(1, nictl_qirqs_group_of(m.irqs, m.n, m.refs, 2));
	EXPECT_EQ(-1, nictl_qirqs_group_of(m.irqs, m.n, m.refs, 3));

	EXPECT_EQ(0, nictl_qirqs_plan_group(m.irqs, m.n, 0, 5));
	/* Queue 1 again, on the same CPU as queue 0: it is one group. */
	EXPECT_EQ(0, nictl_qirqs_plan_group(m.irqs, m.n, 0, 5));
	EXPECT_EQ(-1, nictl_qirqs_plan_group(m.irqs, m.n, 0, 6));
	for (i = 0; i < m.n; i++)
		EXPECT_EQ(m.irqs[i].group ? -1 : 5, m.irqs[i].plan_cpu) TH_LOG("IRQ %u",
									   m.irqs[i].irq);
	merged_free(&m);
}

/* 2048 vectors, 2 rings each, found in a shuffled order: the same answer. */
TEST(many_vectors_any_order)
{
	const unsigned int nvec = 2048, n = 4 * nvec;
	struct found *f = calloc(n, sizeof(*f));
	unsigned int i, j, k, v;
	struct found t;
	struct merged m;

	ASSERT_NE(NULL, f);
	for (v = 0, i = 0; v < nvec; v++) {
		f[i++] = (struct found){ 5000 + v, v, RX };
		f[i++] = (struct found){ 5000 + v, v, TX };
		f[i++] = (struct found){ 5000 + v, v + nvec, RX };
		f[i++] = (struct found){ 5000 + v, v + nvec, TX };
	}
	srand(1);
	for (i = n - 1; i > 0; i--) {
		j = rand() % (i + 1);
		t = f[i];
		f[i] = f[j];
		f[j] = t;
	}
	merge(f, n, &m);
	ASSERT_EQ(nvec, m.n);
	EXPECT_EQ(nvec, m.groups);
	for (v = 0; v < nvec; v++) {
		const struct nictl_qirq *q = &m.irqs[v];

		ASSERT_EQ(5000 + v, q->irq);
		EXPECT_EQ(v, q->queue);
		EXPECT_EQ(v, q->group);
		ASSERT_EQ(4U, q->n_refs);
		for (k = 0; k < 4; k++)
			EXPECT_EQ(k < 2 ? v : v + nvec, m.refs[q->first_ref + k].queue);
	}
	merged_free(&m);
	free(f);
}

/*
 * Run nictl_qirqs_drop_contested() over @f; true when the entries kept are
 * exactly @keep (in the order it sorts them: queue, kind, IRQ); prints
 * what it kept otherwise.
 */
static bool kept_is(const struct found *f, unsigned int n, const struct found *keep,
		    unsigned int n_keep)
{
	struct nictl_qirq *irqs = calloc(n + 1, sizeof(*irqs));
	unsigned int i, kept;
	bool ok;

	for (i = 0; i < n; i++) {
		irqs[i].irq = f[i].irq;
		irqs[i].queue = f[i].queue;
		irqs[i].kind = f[i].kind;
	}
	kept = nictl_qirqs_drop_contested(irqs, n);
	ok = kept == n_keep;
	for (i = 0; ok && i < kept; i++)
		ok = irqs[i].irq == keep[i].irq && irqs[i].queue == keep[i].queue &&
		     irqs[i].kind == keep[i].kind;
	if (!ok) {
		fprintf(stderr, "# kept %u (want %u):", kept, n_keep);
		for (i = 0; i < kept; i++)
			fprintf(stderr, " irq%u=%u/%s", irqs[i].irq, irqs[i].queue,
				kind_name(irqs[i].kind));
		fprintf(stderr, "\n");
	}
	free(irqs);
	return ok;
}

/* Names that tell every queue apart: everything stays. */
TEST(uncontested_names_all_stay)
{
	const struct found f[] = {
		{ 31, 1, TX }, { 30, 1, RX }, { 20, 0, PAIR }, { 40, 2, RX }, { 41, 2, TX },
	};
	const struct found keep[] = {
		{ 20, 0, PAIR }, { 30, 1, RX }, { 31, 1, TX }, { 40, 2, RX }, { 41, 2, TX },
	};

	EXPECT_TRUE(kept_is(f, ARRAY_SIZE(f), keep, ARRAY_SIZE(keep)));
}

/*
 * bnxt_en before 6.12 on "enp94s0f0np0" with 12 rx queues: the vectors of
 * rx queues 1, 10 and 11 are all "enp94s0f0np0-rx-1". Queue 1's rx is
 * dropped, all three IRQs of it; queue 1's tx and the other queues stay.
 */
TEST(cut_names_drop_the_queue_they_confuse)
{
	const struct found f[] = {
		{ 50, 0, RX }, { 51, 1, RX }, { 52, 2, RX }, { 60, 1, RX }, { 61, 1, RX },
		{ 70, 1, TX },
	};
	const struct found keep[] = {
		{ 50, 0, RX }, { 70, 1, TX }, { 52, 2, RX },
	};

	EXPECT_TRUE(kept_is(f, ARRAY_SIZE(f), keep, ARRAY_SIZE(keep)));
}

/* A pair's IRQ and another rx IRQ of the same queue: its rx is contested, so both go. */
TEST(pair_and_rx_of_one_queue_both_go)
{
	const struct found f[] = { { 20, 3, PAIR }, { 21, 3, RX }, { 22, 4, PAIR } };
	const struct found keep[] = { { 22, 4, PAIR } };

	EXPECT_TRUE(kept_is(f, ARRAY_SIZE(f), keep, ARRAY_SIZE(keep)));
}

/* One IRQ noted twice for a queue is no contest. */
TEST(same_irq_twice_is_no_contest)
{
	const struct found f[] = { { 20, 0, RX }, { 20, 0, RX } };

	EXPECT_TRUE(kept_is(f, ARRAY_SIZE(f), f, ARRAY_SIZE(f)));
}

TEST(no_entries)
{
	EXPECT_TRUE(kept_is(NULL, 0, NULL, 0));
}

TEST_HARNESS_MAIN
