// SPDX-License-Identifier: GPL-2.0
/*
 * The placement of `nictlctl balance` on made-up machines: cases whose best
 * plan is known, ties that must keep the current placement (the daemon
 * relies on it never to oscillate), each constraint (policy, offline CPUs,
 * pinned groups, a physical core per group), six NICs on two nodes, and
 * 1024 groups on 256 CPUs against the bound LPT guarantees, in well under a
 * second.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"

#include "balance/place.h"

#define MAX_CPUS	16
#define MAX_GROUPS	32

/* A group as a test states it. */
struct spec {
	uint64_t load;
	int cpu;
	const char *allowed;		/* a cpulist; NULL for every CPU */
	bool exclusive;
	bool pinned;
};

/* A machine and its groups. */
struct scene {
	unsigned int nr_cpus;
	bool smt;			/* CPUs 2k and 2k+1 are one core */
	const char *offline;		/* a cpulist */
	uint64_t base[MAX_CPUS];
	uint64_t min_gain;
	unsigned int nr_groups;
	struct spec g[MAX_GROUPS];
};

static int place(const struct scene *s, struct bal_plan *plan)
{
	struct cpuset allowed[MAX_GROUPS], offline = CPUSET_INIT;
	struct bal_group groups[MAX_GROUPS];
	int core[MAX_CPUS];
	struct bal_problem p = {
		.groups = groups, .nr_groups = s->nr_groups, .base = s->base, .core = core,
		.nr_cpus = s->nr_cpus, .min_gain = s->min_gain,
	};
	unsigned int i;
	int err;

	if (cpuset_parse(&offline, s->offline ?: ""))
		abort();
	for (i = 0; i < s->nr_cpus; i++)
		core[i] = cpuset_has(&offline, i) ? -1 : s->smt ? (int)(i & ~1U) : (int)i;
	for (i = 0; i < s->nr_groups; i++) {
		allowed[i] = (struct cpuset)CPUSET_INIT;
		/* More CPUs than the machine has: bal_place() must ignore them. */
		if (cpuset_parse(&allowed[i], s->g[i].allowed ?: "0-15"))
			abort();
		groups[i] = (struct bal_group){
			.load = s->g[i].load, .cpu = s->g[i].cpu, .allowed = &allowed[i],
			.exclusive = s->g[i].exclusive, .pinned = s->g[i].pinned,
		};
	}
	err = bal_place(&p, plan);
	for (i = 0; i < s->nr_groups; i++)
		cpuset_free(&allowed[i]);
	cpuset_free(&offline);
	return err;
}

#define LIST(type, ...)	(const type[]){ __VA_ARGS__ }, ARRAY_SIZE(((const type[]){ __VA_ARGS__ }))
#define CPUS(...)	LIST(int, __VA_ARGS__)
#define LOADS(...)	LIST(uint64_t, __VA_ARGS__)
#define FLAGS(...)	LIST(bool, __VA_ARGS__)

/* Whether the plan puts the groups of @s on @want; if not, say where it does not. */
static bool cpus_are(const struct bal_plan *plan, const struct scene *s, const int *want,
		     unsigned int n)
{
	bool same = n == s->nr_groups;
	unsigned int i;

	for (i = 0; i < n && i < s->nr_groups; i++) {
		if (plan->cpu[i] != want[i]) {
			fprintf(stderr, "# group %u on CPU %d, want %d\n", i, plan->cpu[i],
				want[i]);
			same = false;
		}
	}
	return same;
}

static bool loads_are(const uint64_t *load, const struct scene *s, const uint64_t *want,
		      unsigned int n)
{
	bool same = n == s->nr_cpus;
	unsigned int i;

	for (i = 0; i < n && i < s->nr_cpus; i++) {
		if (load[i] != want[i]) {
			fprintf(stderr, "# CPU %u: load %llu, want %llu\n", i,
				(unsigned long long)load[i], (unsigned long long)want[i]);
			same = false;
		}
	}
	return same;
}

static bool alone_is(const struct bal_plan *plan, const struct scene *s, const bool *want,
		     unsigned int n)
{
	bool same = n == s->nr_groups;
	unsigned int i;

	for (i = 0; i < n && i < s->nr_groups; i++) {
		if (plan->alone[i] != want[i]) {
			fprintf(stderr, "# group %u %s, want %s\n", i,
				plan->alone[i] ? "alone" : "shares", want[i] ? "alone" : "shares");
			same = false;
		}
	}
	return same;
}

FIXTURE(place) {
	struct scene s;
	struct bal_plan plan;
};

FIXTURE_SETUP(place)
{
}

FIXTURE_TEARDOWN(place)
{
	bal_plan_free(&self->plan);
}

/*
 * Everything on CPU 0 of four: the heavy group moves away and the max is
 * its own load, the least possible. The light ones have nothing to gain
 * from a move, so they stay.
 */
TEST_F(place, heavy_group_leaves_the_crowd)
{
	self->s = (struct scene){
		.nr_cpus = 4, .nr_groups = 4,
		.g = { { 8, 0 }, { 1, 0 }, { 1, 0 }, { 1, 0 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(1, 0, 0, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_before, &self->s, LOADS(11, 0, 0, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(3, 8, 0, 0)));
	EXPECT_EQ(0, self->plan.hot_before);
	EXPECT_EQ(1, self->plan.hot_after);
	EXPECT_EQ(1, self->plan.moves);
	EXPECT_FALSE(self->plan.off_policy);
	EXPECT_FALSE(self->plan.shared);
}

/* The same wanting a core per group: one group per core, the heavy one stays. */
TEST_F(place, exclusive_groups_get_a_core_each)
{
	self->s = (struct scene){
		.nr_cpus = 4, .nr_groups = 4,
		.g = { { 8, 0, .exclusive = true }, { 1, 0, .exclusive = true },
		       { 1, 0, .exclusive = true }, { 1, 0, .exclusive = true } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 2, 3)));
	EXPECT_TRUE(alone_is(&self->plan, &self->s, FLAGS(true, true, true, true)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(8, 1, 1, 1)));
	EXPECT_EQ(3, self->plan.moves);
	EXPECT_TRUE(self->plan.off_policy);
	EXPECT_FALSE(self->plan.shared);
}

/*
 * Two NICs of eight queues on an eight-core node, queue q of each on CPU q,
 * so that CPU 0 has both heaviest. The loads (multiples of 10 and odd
 * multiples of 5) add up to 95 only as a queue of one NIC with a queue of
 * the other, and 760 over 8 CPUs is 95 each: that pairing is the one
 * optimum. Moving the first NIC's queues alone reaches it, and fewer moves
 * cannot.
 */
TEST_F(place, two_nics_pair_heavy_with_light)
{
	static const uint64_t a[8] = { 80, 70, 60, 50, 40, 30, 20, 10 };
	static const uint64_t b[8] = { 85, 75, 65, 55, 45, 35, 25, 15 };
	unsigned int q, cpu;

	self->s = (struct scene){ .nr_cpus = 8, .nr_groups = 16 };
	for (q = 0; q < 8; q++) {
		self->s.g[q] = (struct spec){ .load = a[q], .cpu = q };
		self->s.g[8 + q] = (struct spec){ .load = b[q], .cpu = q };
	}
	ASSERT_EQ(0, place(&self->s, &self->plan));
	for (cpu = 0; cpu < 8; cpu++)
		EXPECT_EQ(95, self->plan.load_after[cpu]);
	EXPECT_TRUE(cpus_are(&self->plan, &self->s,
			     CPUS(7, 6, 5, 4, 3, 2, 1, 0, 0, 1, 2, 3, 4, 5, 6, 7)));
	EXPECT_EQ(8, self->plan.moves);
	EXPECT_EQ(0, self->plan.hot_before);
	EXPECT_EQ(165, self->plan.load_before[0]);
}

/*
 * Two heavy groups on one CPU and eight light ones on the other: no single
 * move or swap cools CPU 0, so only the fresh placement finds 18.
 */
TEST_F(place, fresh_placement_beats_a_stuck_one)
{
	unsigned int i;

	self->s = (struct scene){
		.nr_cpus = 2, .nr_groups = 10, .g = { { 10, 0 }, { 10, 0 } },
	};
	for (i = 2; i < 10; i++)
		self->s.g[i] = (struct spec){ .load = 2, .cpu = 1 };
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 1, 0, 1, 0, 1, 0, 1, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_before, &self->s, LOADS(20, 16)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(18, 18)));
	EXPECT_EQ(5, self->plan.moves);
	bal_plan_free(&self->plan);

	/* 18 is 2 better: enough for a min_gain of 2, not of 3. */
	self->s.min_gain = 2;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_EQ(5, self->plan.moves);
	bal_plan_free(&self->plan);
	self->s.min_gain = 3;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_EQ(0, self->plan.moves);
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(20, 16)));
}

/* CPU 1 is busy with other work: the groups pack around it, never onto it. */
TEST_F(place, base_load_steers_groups_away)
{
	self->s = (struct scene){
		.nr_cpus = 3, .nr_groups = 4, .base = { 0, 50, 0 },
		.g = { { 40, -1 }, { 30, -1 }, { 20, -1 }, { 10, -1 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 2, 2, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_before, &self->s, LOADS(0, 50, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(50, 50, 50)));
	EXPECT_EQ(1, self->plan.hot_before);
	EXPECT_EQ(0, self->plan.hot_after);
	EXPECT_EQ(4, self->plan.moves);
	EXPECT_TRUE(self->plan.off_policy);
}

TEST_F(place, base_load_moves_a_heavy_group)
{
	self->s = (struct scene){
		.nr_cpus = 2, .nr_groups = 1, .base = { 10, 0 }, .g = { { 8, 0 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(1)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(10, 8)));
	EXPECT_EQ(0, self->plan.hot_after);
}

TEST_F(place, even_spread_stays)
{
	self->s = (struct scene){
		.nr_cpus = 4, .smt = true, .nr_groups = 4,
		.g = { { 7, 0, .exclusive = true }, { 7, 2, .exclusive = true },
		       { 7, 1 }, { 7, 3 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 2, 1, 3)));
	EXPECT_EQ(0, self->plan.moves);
	EXPECT_FALSE(self->plan.off_policy);
	/* Four groups want or share two cores: no group can have one alone. */
	EXPECT_TRUE(self->plan.shared);
	EXPECT_TRUE(alone_is(&self->plan, &self->s, FLAGS(false, false, false, false)));
}

static bool same_plan(const struct bal_plan *a, const struct bal_plan *b, const struct scene *s)
{
	return !memcmp(a->cpu, b->cpu, s->nr_groups * sizeof(*a->cpu)) &&
	       !memcmp(a->alone, b->alone, s->nr_groups * sizeof(*a->alone)) &&
	       !memcmp(a->load_before, b->load_before, s->nr_cpus * sizeof(*a->load_before)) &&
	       !memcmp(a->load_after, b->load_after, s->nr_cpus * sizeof(*a->load_after)) &&
	       a->hot_before == b->hot_before && a->hot_after == b->hot_after &&
	       a->moves == b->moves && a->off_policy == b->off_policy && a->shared == b->shared;
}

/* A plan applied and placed again is left as it is: the daemon settles. */
TEST_F(place, plan_is_reproducible_and_stable)
{
	struct bal_plan again = { 0 };
	unsigned int i;

	self->s = (struct scene){
		.nr_cpus = 6, .smt = true, .nr_groups = 9,
		.g = { { 31, 0 }, { 17, 0 }, { 23, 1 }, { 5, 1 }, { 12, 2 }, { 29, 2 },
		       { 8, 3 }, { 19, 4 }, { 3, 4 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	ASSERT_EQ(0, place(&self->s, &again));
	EXPECT_TRUE(same_plan(&self->plan, &again, &self->s));
	/* 31 is the heaviest group's own load: two moves reach that. */
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 5, 1, 1, 3, 2, 3, 4, 4)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(31, 28, 29, 20, 22, 17)));
	EXPECT_EQ(2, self->plan.moves);
	bal_plan_free(&again);

	for (i = 0; i < self->s.nr_groups; i++)
		self->s.g[i].cpu = self->plan.cpu[i];
	ASSERT_EQ(0, place(&self->s, &again));
	EXPECT_EQ(0, again.moves);
	EXPECT_TRUE(cpus_are(&again, &self->s, CPUS(0, 5, 1, 1, 3, 2, 3, 4, 4)));
	bal_plan_free(&again);
}

/*
 * The hottest CPU carries one group that cannot go anywhere cooler. LPT
 * would spread the two light groups over CPUs 1 and 2; the current
 * placement is as good, so it stays.
 */
TEST_F(place, equally_good_placement_stays)
{
	self->s = (struct scene){
		.nr_cpus = 3, .nr_groups = 3, .g = { { 10, 0 }, { 1, 1 }, { 1, 1 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 1)));
	EXPECT_EQ(0, self->plan.moves);
	EXPECT_EQ(0, self->plan.hot_after);
	bal_plan_free(&self->plan);

	/* Placed nowhere yet, the light groups get a CPU each. */
	self->s.g[1].cpu = -1;
	self->s.g[2].cpu = -1;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 2)));
}

/* A move that gains 1 is made with min_gain 0 or 1, not with 2. */
TEST_F(place, min_gain_suppresses_small_moves)
{
	self->s = (struct scene){
		.nr_cpus = 2, .nr_groups = 4, .g = { { 4, 0 }, { 4, 1 }, { 1, 0 }, { 1, 0 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 1, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(5, 5)));
	EXPECT_EQ(1, self->plan.moves);
	bal_plan_free(&self->plan);

	self->s.min_gain = 1;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_EQ(1, self->plan.moves);
	bal_plan_free(&self->plan);

	self->s.min_gain = 2;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 0, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(6, 4)));
	EXPECT_EQ(0, self->plan.moves);
}

/* A device on node 1 whose IRQs all run on node 0: they go home. */
TEST_F(place, groups_go_to_their_node)
{
	self->s = (struct scene){
		.nr_cpus = 8, .nr_groups = 4,
		.g = { { 4, 0, "4-7" }, { 3, 0, "4-7" }, { 2, 0, "4-7" }, { 1, 0, "4-7" } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(4, 5, 6, 7)));
	EXPECT_EQ(4, self->plan.moves);
	EXPECT_TRUE(self->plan.off_policy);
}

/* CPU 0 is kept out of the policy: it stays idle while CPU 1 takes two. */
TEST_F(place, excluded_cpu_stays_unused)
{
	self->s = (struct scene){
		.nr_cpus = 4, .nr_groups = 4,
		.g = { { 5, 1, "1-3" }, { 5, 1, "1-3" }, { 5, 1, "1-3" }, { 5, 1, "1-3" } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(2, 3, 1, 1)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(0, 10, 5, 5)));
	EXPECT_EQ(2, self->plan.moves);
	EXPECT_FALSE(self->plan.off_policy);
}

/*
 * CPU 2 went offline with the groups on it: they leave, and its load
 * before counts for the plan but not for the hottest CPU.
 */
TEST_F(place, offline_cpu_is_never_used)
{
	self->s = (struct scene){
		.nr_cpus = 4, .offline = "2", .nr_groups = 3, .base = { 1, 1, 1, 1 },
		.g = { { 6, 2 }, { 6, 2 }, { 6, 2 } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 3)));
	EXPECT_TRUE(loads_are(self->plan.load_before, &self->s, LOADS(1, 1, 19, 1)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(7, 7, 1, 7)));
	EXPECT_EQ(0, self->plan.hot_before);
	EXPECT_EQ(0, self->plan.hot_after);
	EXPECT_TRUE(self->plan.off_policy);
	bal_plan_free(&self->plan);

	/* No CPU online at all for a group: nothing to plan. */
	self->s.g[0].allowed = "2";
	EXPECT_EQ(-EINVAL, place(&self->s, &self->plan));
	EXPECT_EQ(NULL, self->plan.cpu);
}

TEST_F(place, group_without_cpu_is_refused)
{
	self->s = (struct scene){
		.nr_cpus = 4, .nr_groups = 2, .g = { { 1, 0 }, { 1, 0, "" } },
	};
	EXPECT_EQ(-EINVAL, place(&self->s, &self->plan));
	EXPECT_EQ(NULL, self->plan.cpu);
	/* The policy names only CPUs the machine does not have. */
	self->s.g[1].allowed = "4-15";
	EXPECT_EQ(-EINVAL, place(&self->s, &self->plan));
	EXPECT_EQ(NULL, self->plan.cpu);
}

/* No groups: the plan is the base loads, and no CPU online has no hottest. */
TEST_F(place, no_groups)
{
	self->s = (struct scene){ .nr_cpus = 3, .base = { 3, 9, 9 } };
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(3, 9, 9)));
	EXPECT_EQ(1, self->plan.hot_before);
	EXPECT_EQ(1, self->plan.hot_after);
	EXPECT_EQ(0, self->plan.moves);
	EXPECT_FALSE(self->plan.off_policy);
	bal_plan_free(&self->plan);

	self->s.offline = "0-2";
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_EQ(-1, self->plan.hot_before);
	EXPECT_EQ(-1, self->plan.hot_after);
}

/* A pinned group stays even where a move would cool its CPU; unpinned it goes. */
TEST_F(place, pinned_group_stays)
{
	self->s = (struct scene){
		.nr_cpus = 2, .nr_groups = 2, .base = { 5, 0 },
		.g = { { 10, 0, .pinned = true }, { 2, 0, .pinned = true } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 0)));
	EXPECT_EQ(0, self->plan.moves);
	bal_plan_free(&self->plan);

	self->s.g[1].pinned = false;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1)));
	bal_plan_free(&self->plan);

	self->s.g[0].pinned = false;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(1, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(7, 10)));
	bal_plan_free(&self->plan);

	/* Pinned where its policy no longer allows: it is not held there. */
	self->s.g[0].pinned = true;
	self->s.g[0].allowed = "1";
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(1, 0)));
	EXPECT_TRUE(self->plan.off_policy);
}

/*
 * Pinned, a group still competes for every core its policy allows: here
 * the pinned group 2 links the others into one component of four groups
 * for three cores, with no cap. Were it counted on CPU 2 alone, groups 0
 * and 1 would form a capped component of their own and group 1 would have
 * to leave core 0, and the cap would come and go with the pin.
 */
TEST_F(place, pin_does_not_change_the_cap)
{
	self->s = (struct scene){
		.nr_cpus = 3, .nr_groups = 4, .base = { 0, 20, 0 },
		.g = { { 1, 0, "0-2", .exclusive = true, .pinned = true }, { 5, 0, "0-1" },
		       { 10, 2, "1-2", .pinned = true }, { 10, 2, "2" } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 0, 2, 2)));
	EXPECT_EQ(0, self->plan.moves);
	EXPECT_TRUE(self->plan.shared);
	EXPECT_FALSE(self->plan.off_policy);
}

/*
 * Four groups wanting a core each, two to a core now, on four SMT cores:
 * the heavier of each pair keeps its CPU, the other takes a free core, and
 * no sibling of a taken core is used.
 */
TEST_F(place, exclusive_groups_leave_siblings_free)
{
	self->s = (struct scene){
		.nr_cpus = 8, .smt = true, .nr_groups = 4,
		.g = { { 4, 0, .exclusive = true }, { 3, 1, .exclusive = true },
		       { 2, 2, .exclusive = true }, { 1, 3, .exclusive = true } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 4, 2, 6)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(4, 0, 2, 0, 3, 0, 1, 0)));
	EXPECT_TRUE(alone_is(&self->plan, &self->s, FLAGS(true, true, true, true)));
	EXPECT_EQ(2, self->plan.moves);
	EXPECT_TRUE(self->plan.off_policy);
	EXPECT_FALSE(self->plan.shared);
}

/* Four groups wanting a core each on two SMT cores: they share, a CPU each. */
TEST_F(place, exclusive_groups_share_when_cores_are_few)
{
	self->s = (struct scene){
		.nr_cpus = 4, .smt = true, .nr_groups = 4,
		.g = { { 5, 0, .exclusive = true }, { 5, 0, .exclusive = true },
		       { 5, 0, .exclusive = true }, { 5, 0, .exclusive = true } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(2, 3, 1, 0)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s, LOADS(5, 5, 5, 5)));
	EXPECT_TRUE(alone_is(&self->plan, &self->s, FLAGS(false, false, false, false)));
	EXPECT_TRUE(self->plan.shared);
	/* Sharing is all the policy can have: not off policy. */
	EXPECT_FALSE(self->plan.off_policy);
}

/*
 * A may use core 0 only, B core 0 or 2 and runs on CPU 0 now, and is the
 * heavier: placed first and greedily, it would keep core 0 and leave A
 * nothing. The matching sends B to core 2.
 */
TEST_F(place, matching_keeps_a_core_for_the_narrow_group)
{
	self->s = (struct scene){
		.nr_cpus = 4, .smt = true, .nr_groups = 2,
		.g = { { 1, -1, "0-1", .exclusive = true }, { 5, 0, "0-3", .exclusive = true } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 2)));
	EXPECT_TRUE(alone_is(&self->plan, &self->s, FLAGS(true, true)));
	EXPECT_FALSE(self->plan.shared);
	EXPECT_TRUE(self->plan.off_policy);
}

/*
 * Three groups and three cores, but two of them may use core 0 only: no
 * matching exists, so the cap is lifted and they share that core.
 */
TEST_F(place, impossible_matching_shares)
{
	self->s = (struct scene){
		.nr_cpus = 6, .smt = true, .nr_groups = 3,
		.g = { { 4, -1, "0-1", .exclusive = true }, { 4, -1, "0-1", .exclusive = true },
		       { 4, -1, "0-5", .exclusive = true } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(cpus_are(&self->plan, &self->s, CPUS(0, 1, 2)));
	EXPECT_TRUE(alone_is(&self->plan, &self->s, FLAGS(false, false, true)));
	EXPECT_TRUE(self->plan.shared);
}

/* What makes the current placement off policy, and what does not. */
TEST_F(place, off_policy)
{
	self->s = (struct scene){
		.nr_cpus = 4, .smt = true, .nr_groups = 2,
		.g = { { 1, 0, .exclusive = true }, { 1, 2, .exclusive = true } },
	};
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_FALSE(self->plan.off_policy);
	bal_plan_free(&self->plan);

	/* Siblings for groups that are to have a core each. */
	self->s.g[1].cpu = 1;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(self->plan.off_policy);
	bal_plan_free(&self->plan);

	/* Siblings are fine when nobody asked for a core alone. */
	self->s.g[0].exclusive = false;
	self->s.g[1].exclusive = false;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_FALSE(self->plan.off_policy);
	bal_plan_free(&self->plan);

	/* Outside its policy. */
	self->s.g[1].allowed = "2-3";
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(self->plan.off_policy);
	bal_plan_free(&self->plan);

	/* Nowhere known. */
	self->s.g[1].allowed = NULL;
	self->s.g[1].cpu = -1;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	EXPECT_TRUE(self->plan.off_policy);
	EXPECT_TRUE(loads_are(self->plan.load_before, &self->s, LOADS(1, 0, 0, 0)));
}

/*
 * Six NICs on two nodes of four CPUs: node 0 (CPU 0 kept out for one of
 * them), node 1 (CPUs 6-7 only for one), and one allowed everywhere. The
 * 102 of load need 13 on some CPU, and 13 everywhere is possible: on node
 * 1 9+3+1, 9+3+1, 7+5, 7+5; on node 0 9+4, then 7+6, 5+8 and 3+4+2+4.
 */
TEST_F(place, six_nics_on_two_nodes)
{
	static const uint64_t load[6][4] = {
		{ 9, 7, 5, 3 }, { 8, 6, 4, 2 }, { 9, 7, 5, 3 }, { 3, 5, 7, 9 }, { 4, 4 }, { 1, 1 },
	};
	static const char *const allowed[6] = { "0-3", "1-3", "4-7", "4-7", "0-7", "6-7" };
	static const unsigned int queues[6] = { 4, 4, 4, 4, 2, 2 };
	unsigned int nic, q, n = 0, cpu;

	self->s = (struct scene){ .nr_cpus = 8 };
	for (nic = 0; nic < 6; nic++)
		for (q = 0; q < queues[nic]; q++)
			self->s.g[n++] = (struct spec){
				.load = load[nic][q], .cpu = q, .allowed = allowed[nic],
			};
	self->s.nr_groups = n;
	ASSERT_EQ(0, place(&self->s, &self->plan));
	for (cpu = 0; cpu < 8; cpu++)
		EXPECT_GE(13, self->plan.load_after[cpu]);
	/* Each within its policy: CPU 0 for none of the second NIC. */
	EXPECT_TRUE(cpus_are(&self->plan, &self->s,
			     CPUS(0, 1, 2, 3, 3, 1, 2, 3, 4, 6, 6, 4, 5, 7, 7, 5, 0, 2, 6, 7)));
	EXPECT_TRUE(loads_are(self->plan.load_after, &self->s,
			      LOADS(13, 13, 13, 13, 12, 12, 13, 13)));
}

#define BIG_CPUS	256
#define BIG_GROUPS	1024

/* 256 CPUs in SMT pairs and up to 1024 groups with loads from a fixed LCG. */
struct big {
	struct bal_group groups[BIG_GROUPS];
	uint64_t base[BIG_CPUS];
	int core[BIG_CPUS];
	struct cpuset all;
	struct bal_problem p;
};

static uint32_t lcg(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 8;
}

/* Loads from @lo to 1.5 * @lo; the current CPUs random, or all 0 when @crowd. */
static struct big *big_make(unsigned int nr_groups, uint64_t lo, bool exclusive, bool crowd)
{
	struct big *b = calloc(1, sizeof(*b));
	uint32_t seed = 2026;
	unsigned int i;

	if (!b || cpuset_parse(&b->all, "0-255"))
		abort();
	for (i = 0; i < BIG_CPUS; i++)
		b->core[i] = i & ~1U;
	for (i = 0; i < nr_groups; i++)
		b->groups[i] = (struct bal_group){
			.load = lo + lcg(&seed) % (lo / 2 + 1),
			.cpu = crowd ? 0 : (int)(lcg(&seed) % BIG_CPUS),
			.allowed = &b->all, .exclusive = exclusive,
		};
	b->p = (struct bal_problem){
		.groups = b->groups, .nr_groups = nr_groups, .base = b->base, .core = b->core,
		.nr_cpus = BIG_CPUS,
	};
	return b;
}

static void big_free(struct big *b)
{
	cpuset_free(&b->all);
	free(b);
}

/* bal_place() on @b, twice: the plans must be the same. CPU seconds of one. */
static double big_place(struct big *b, struct bal_plan *plan, bool *same)
{
	struct timespec t0, t1;
	struct bal_plan again = { 0 };

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	if (bal_place(&b->p, plan))
		abort();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	if (bal_place(&b->p, &again))
		abort();
	*same = !memcmp(plan->cpu, again.cpu, b->p.nr_groups * sizeof(*plan->cpu)) &&
		plan->hot_after == again.hot_after && plan->moves == again.moves;
	bal_plan_free(&again);
	return (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/*
 * LPT's hottest CPU got its last group g when it was the least loaded, at
 * most total/cpus; so it ends at most total/cpus + load(g). With every
 * group at most a third of total/cpus, that is within 4/3 of the lower
 * bound. The local search only lowers the hottest CPU, and the placement
 * kept is never worse than LPT's with min_gain 0.
 */
static void big_check_bound(struct __test_metadata *_metadata, const struct big *b,
			    const struct bal_plan *plan)
{
	uint64_t total = 0, heaviest = 0, bound;
	unsigned int i;

	for (i = 0; i < b->p.nr_groups; i++) {
		total += b->groups[i].load;
		if (b->groups[i].load > heaviest)
			heaviest = b->groups[i].load;
		ASSERT_TRUE(plan->cpu[i] >= 0 && plan->cpu[i] < BIG_CPUS);
	}
	ASSERT_GE(total, 3 * heaviest * BIG_CPUS);
	bound = (total + BIG_CPUS - 1) / BIG_CPUS;
	EXPECT_GE(4 * bound, 3 * plan->load_after[plan->hot_after]);
	EXPECT_GE(plan->load_before[plan->hot_before], plan->load_after[plan->hot_after]);
	TH_LOG("hottest %llu, lower bound %llu, before %llu, %u moves",
	       (unsigned long long)plan->load_after[plan->hot_after],
	       (unsigned long long)bound,
	       (unsigned long long)plan->load_before[plan->hot_before], plan->moves);
}

TEST(many_groups_on_many_cpus)
{
	struct big *b = big_make(BIG_GROUPS, 600, false, false);
	struct bal_plan plan = { 0 };
	bool same;
	double secs = big_place(b, &plan, &same);

	EXPECT_TRUE(same);
	EXPECT_GT(0.5, secs);
	big_check_bound(_metadata, b, &plan);
	bal_plan_free(&plan);
	big_free(b);
}

/* All on CPU 0: the derived placement needs about a move per group. */
TEST(many_groups_crowded_on_one_cpu)
{
	struct big *b = big_make(BIG_GROUPS, 600, false, true);
	struct bal_plan plan = { 0 };
	bool same;
	double secs = big_place(b, &plan, &same);

	EXPECT_TRUE(same);
	EXPECT_GT(0.5, secs);
	big_check_bound(_metadata, b, &plan);
	bal_plan_free(&plan);
	big_free(b);
}

/* 128 groups wanting a core each on 128 SMT cores: a core each, found fast. */
TEST(many_exclusive_groups)
{
	struct big *b = big_make(128, 500, true, false);
	struct bal_plan plan = { 0 };
	bool same, taken[BIG_CPUS] = { false };
	double secs = big_place(b, &plan, &same);
	unsigned int i;
	int k;

	EXPECT_TRUE(same);
	EXPECT_GT(0.5, secs);
	EXPECT_FALSE(plan.shared);
	for (i = 0; i < 128; i++) {
		k = b->core[plan.cpu[i]];
		EXPECT_FALSE(taken[k]);
		taken[k] = true;
		EXPECT_TRUE(plan.alone[i]);
	}
	bal_plan_free(&plan);
	big_free(b);
}

TEST_HARNESS_MAIN
