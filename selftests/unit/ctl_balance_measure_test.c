// SPDX-License-Identifier: GPL-2.0
/*
 * What a balance measures, from two samples built by hand: each queue
 * group weighs the NET_RX time its NAPI instances grew by, with their share
 * of the softirq's work around the polls, each CPU keeps as its base the
 * NET_RX time none of them took, a group runs where its
 * lowest queue's IRQ runs, cores come from the (fake) sysfs; and the
 * refusals: accounting off, counters reset, a NAPI instance that appeared
 * in the window. Then when a plan is worth applying, and when a kept
 * placement still fits a device.
 */
#include "ctl_fakesys.h"

#include "kselftest_harness.h"

#include "balance/balance.h"

#define NR_CPUS	8

/* Device vnode1: queue 0's rx and tx IRQs on CPU 4, queue 1's on CPU 5. */
static void make_dev(struct nictl_dev *dev)
{
	static const struct {
		unsigned int queue, kind, group, cpu;
	} irqs[] = {
		{ 0, NICTL_QUEUE_KIND_RX, 0, 4 }, { 0, NICTL_QUEUE_KIND_TX, 0, 4 },
		{ 1, NICTL_QUEUE_KIND_RX, 1, 5 }, { 1, NICTL_QUEUE_KIND_TX, 1, 5 },
	};
	unsigned int i;

	*dev = (struct nictl_dev){ .ifindex = 3, .ifname = strdup("vnode1"), .numa_node = 1 };
	dev->irqs = calloc(ARRAY_SIZE(irqs), sizeof(*dev->irqs));
	dev->nr_irqs = ARRAY_SIZE(irqs);
	for (i = 0; i < ARRAY_SIZE(irqs); i++) {
		struct nictl_irq *irq = &dev->irqs[i];

		irq->irq = 30 + i;
		irq->queue = irqs[i].queue;
		irq->kind = irqs[i].kind;
		irq->group = irqs[i].group;
		irq->queues = calloc(1, sizeof(*irq->queues));
		irq->queues[0] = (struct irq_queue){ irqs[i].queue, irqs[i].kind };
		irq->nr_queues = 1;
		cpuset_add(&irq->affinity, irqs[i].cpu);
		cpuset_add(&irq->effective, irqs[i].cpu);
	}
}

static void make_set(struct bal_set *set, const struct bind_policy *policy)
{
	*set = (struct bal_set){ 0 };
	set->devs.devs = calloc(1, sizeof(*set->devs.devs));
	set->devs.nr = 1;
	make_dev(&set->devs.devs[0]);
	set->policy = calloc(1, sizeof(*set->policy));
	set->policy[0] = policy;
	set->allowed = calloc(1, sizeof(*set->allowed));
	cpuset_parse(&set->allowed[0], "4-7");
}

/*
 * A sample at @now_ns: CPU c ran @netrx[c] ns of NET_RX; NAPI 101 (queue
 * 0) took @q0 ns, all on CPU 4, and NAPI 102 (queue 1) @q1 ns on CPU 5.
 */
static void make_sample(struct bal_sample *b, uint64_t now_ns, const uint64_t *netrx,
			uint64_t q0, uint64_t q1)
{
	unsigned int c;

	memset(b, 0, sizeof(*b));
	b->s.enabled = true;
	b->s.cpus = calloc(NR_CPUS, sizeof(*b->s.cpus));
	b->s.nr_cpus = NR_CPUS;
	for (c = 0; c < NR_CPUS; c++) {
		b->s.cpus[c].cpu = c;
		b->s.cpus[c].start_ns = 1000;
		b->s.cpus[c].now_ns = now_ns;
		b->s.cpus[c].vec[NICTL_SOFTIRQ_NET_RX].time_ns = netrx[c];
	}
	b->s.cpus[4].napi_times = calloc(1, sizeof(struct stats_napi_time));
	b->s.cpus[4].napi_times[0] = (struct stats_napi_time){ .id = 101, .time_ns = q0 };
	b->s.cpus[4].nr_napi_times = 1;
	b->s.cpus[5].napi_times = calloc(1, sizeof(struct stats_napi_time));
	b->s.cpus[5].napi_times[0] = (struct stats_napi_time){ .id = 102, .time_ns = q1 };
	b->s.cpus[5].nr_napi_times = 1;
	b->s.napis = calloc(2, sizeof(*b->s.napis));
	b->s.napis[0] = (struct stats_napi){ .id = 101, .ifindex = 3, .queue = 0, .time_ns = q0 };
	b->s.napis[1] = (struct stats_napi){ .id = 102, .ifindex = 3, .queue = 1, .time_ns = q1 };
	b->s.nr_napis = 2;
	b->napi_end = calloc(1, sizeof(*b->napi_end));
	b->napi_end[0] = 2;
	b->nr_devs = 1;
}

FIXTURE(measure) {
	struct fakesys fs;
	struct bind_policy policy;
	struct bal_set set;
	struct bal_sample t0, t1;
	char err[256];
};

FIXTURE_SETUP(measure)
{
	static const uint64_t before[NR_CPUS] = { 0, 0, 0, 0, 1000, 2000, 500, 0 };
	/* CPU 4: 300 ms, 200 of them queue 0's; CPU 5: 150 ms, all queue 1's; CPU 6: 50. */
	static const uint64_t after[NR_CPUS] = { 0, 0, 0, 0, 300001000, 150002000, 50000500, 0 };

	fakesys_create(&self->fs);
	fakesys_smt_pairs(&self->fs, NR_CPUS);
	self->policy = (struct bind_policy){ .numa_local = true };
	make_set(&self->set, &self->policy);
	make_sample(&self->t0, 2000000000ULL, before, 700, 2000);
	make_sample(&self->t1, 3000000000ULL, after, 200000700, 150002000);
}

FIXTURE_TEARDOWN(measure)
{
	bal_sample_free(&self->t0);
	bal_sample_free(&self->t1);
	bal_set_free(&self->set);
	fakesys_destroy(&self->fs);
}

TEST_F(measure, groups_weigh_their_napis_and_the_rest_stays_as_base)
{
	struct bal_set *set = &self->set;

	ASSERT_EQ(0, bal_measure(set, &self->t0, &self->t1, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	EXPECT_EQ(1000000000ULL, set->window_ns);
	ASSERT_EQ(2U, set->nr_groups);
	EXPECT_EQ(0U, set->slots[0].queue);
	EXPECT_EQ(1U, set->slots[1].queue);
	EXPECT_EQ(200000000ULL, set->groups[0].load);
	EXPECT_EQ(150000000ULL, set->groups[1].load);
	EXPECT_EQ(4, set->groups[0].cpu);
	EXPECT_EQ(5, set->groups[1].cpu);
	EXPECT_TRUE(set->groups[0].exclusive);
	EXPECT_EQ(&set->allowed[0], set->groups[0].allowed);
	ASSERT_EQ(NR_CPUS, set->nr_cpus);
	EXPECT_EQ(100000000ULL, set->base[4]);
	EXPECT_EQ(0ULL, set->base[5]);
	EXPECT_EQ(50000000ULL, set->base[6]);
	EXPECT_EQ(4, set->core[5]);
	EXPECT_EQ(6, set->core[7]);
	EXPECT_EQ(0, set->core[0]);
}

/*
 * The softirq's own work around the polls goes with them: CPU 4's 300 ms
 * of NET_RX are 200 ms of queue 0's polls, 50 of another device's and 50
 * of neither; queue 0 takes 200/250 of those 50, the other device's share
 * stays. CPU 5's polls account for all of its NET_RX: nothing to share.
 */
TEST_F(measure, the_softirq_work_around_a_queue_polls_goes_with_it)
{
	struct bal_set *set = &self->set;

	self->t1.s.cpus[4].poll[NICTL_POLL_DEVICE].time_ns = 250000000;
	self->t1.s.cpus[5].poll[NICTL_POLL_DEVICE].time_ns = 150000000;
	ASSERT_EQ(0, bal_measure(set, &self->t0, &self->t1, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	EXPECT_EQ(240000000ULL, set->groups[0].load);
	EXPECT_EQ(60000000ULL, set->base[4]);
	EXPECT_EQ(150000000ULL, set->groups[1].load);
	EXPECT_EQ(0ULL, set->base[5]);
	/* No poll time there: the module did not time CPU 6's polls, nothing moves. */
	EXPECT_EQ(50000000ULL, set->base[6]);
}

TEST_F(measure, refuses_accounting_off)
{
	self->t1.s.enabled = false;
	EXPECT_EQ(-1, bal_measure(&self->set, &self->t0, &self->t1, self->err, sizeof(self->err)));
	EXPECT_STREQ("softirq accounting is off: switch it on with `nictlctl stats --on`",
		     self->err);
}

TEST_F(measure, refuses_counters_reset_in_the_window)
{
	self->t1.s.cpus[0].start_ns = 2500000000ULL;
	EXPECT_EQ(-1, bal_measure(&self->set, &self->t0, &self->t1, self->err, sizeof(self->err)));
	EXPECT_STREQ("the counters were reset while the load was measured", self->err);
}

TEST_F(measure, refuses_a_napi_that_appeared_in_the_window)
{
	self->t1.s.napis[1].id = 103;	/* the driver reloaded */
	EXPECT_EQ(-1, bal_measure(&self->set, &self->t0, &self->t1, self->err, sizeof(self->err)));
	EXPECT_STREQ("vnode1 changed its NAPI instances while its load was measured (reloaded?)",
		     self->err);
}

/* A plan by hand: group g on @cpu[g], with loads before/after as given. */
static void make_plan(struct bal_plan *plan, const int *cpu, uint64_t hot_before,
		      uint64_t hot_after, bool off_policy)
{
	*plan = (struct bal_plan){ .hot_before = 4, .hot_after = 6, .off_policy = off_policy };
	plan->cpu = calloc(2, sizeof(*plan->cpu));
	plan->alone = calloc(2, sizeof(*plan->alone));
	plan->load_before = calloc(NR_CPUS, sizeof(uint64_t));
	plan->load_after = calloc(NR_CPUS, sizeof(uint64_t));
	memcpy(plan->cpu, cpu, 2 * sizeof(*cpu));
	plan->load_before[4] = hot_before;
	plan->load_after[6] = hot_after;
}

TEST_F(measure, a_plan_is_applied_when_it_gains_the_threshold_or_fixes_the_policy)
{
	static const int same[2] = { 4, 5 }, moved[2] = { 6, 5 };
	struct bal_plan plan;

	ASSERT_EQ(0, bal_measure(&self->set, &self->t0, &self->t1, self->err, sizeof(self->err)));
	make_plan(&plan, same, 300, 300, false);
	EXPECT_STREQ("already balanced: nothing to move", bal_verdict(&self->set, &plan, 10));
	bal_plan_free(&plan);

	make_plan(&plan, moved, 300, 280, false);
	EXPECT_EQ(6U, bal_gain_pct(&self->set, &plan));
	EXPECT_STREQ("the gain is under the threshold: nothing moved",
		     bal_verdict(&self->set, &plan, 10));
	EXPECT_EQ(NULL, bal_verdict(&self->set, &plan, 5));
	bal_plan_free(&plan);

	make_plan(&plan, moved, 300, 290, true);
	EXPECT_EQ(NULL, bal_verdict(&self->set, &plan, 10));
	bal_plan_free(&plan);
}

TEST_F(measure, a_busy_cpu_no_device_may_use_does_not_decide_the_gain)
{
	static const int moved[2] = { 6, 5 };
	struct bal_plan plan;

	ASSERT_EQ(0, bal_measure(&self->set, &self->t0, &self->t1, self->err, sizeof(self->err)));
	make_plan(&plan, moved, 300, 150, false);
	/* CPU 2, off every policy and without a queue, is the machine's hottest. */
	plan.load_before[2] = plan.load_after[2] = 1000;
	EXPECT_FALSE(bal_cpu_relevant(&self->set, 2));
	EXPECT_TRUE(bal_cpu_relevant(&self->set, 7));
	EXPECT_EQ(4, bal_hottest(&self->set, plan.load_before));
	EXPECT_EQ(6, bal_hottest(&self->set, plan.load_after));
	EXPECT_EQ(50U, bal_gain_pct(&self->set, &plan));
	EXPECT_EQ(NULL, bal_verdict(&self->set, &plan, 10));
	bal_plan_free(&plan);
}

TEST_F(measure, an_irq_on_several_cpus_needs_a_bind_even_where_the_plan_keeps_it)
{
	static const int same[2] = { 4, 5 };
	struct bal_plan plan;

	ASSERT_EQ(0, bal_measure(&self->set, &self->t0, &self->t1, self->err, sizeof(self->err)));
	cpuset_add(&self->set.devs.devs[0].irqs[1].affinity, 7);
	make_plan(&plan, same, 300, 300, false);
	EXPECT_TRUE(bal_plan_changes(&self->set, &plan));
	bal_plan_free(&plan);
}

TEST_F(measure, a_kept_placement_fits_the_same_queues_only)
{
	static const int cpu[2] = { 6, 4 };
	struct bal_placement pl;
	struct nictl_dev *dev = &self->set.devs.devs[0];

	ASSERT_EQ(0, bal_measure(&self->set, &self->t0, &self->t1, self->err, sizeof(self->err)));
	ASSERT_EQ(0, bal_placement_of(&self->set, cpu, 0, &pl));
	ASSERT_EQ(2U, pl.nr);
	EXPECT_EQ(0U, pl.queue[0]);
	EXPECT_EQ(6, pl.cpu[0]);
	EXPECT_EQ(1U, pl.queue[1]);
	EXPECT_EQ(4, pl.cpu[1]);
	EXPECT_TRUE(bal_placement_fits(&pl, dev));
	/* The driver now has one queue pair: queue 1 is no more. */
	dev->nr_irqs = 2;
	EXPECT_FALSE(bal_placement_fits(&pl, dev));
	dev->nr_irqs = 4;
	bal_placement_free(&pl);
}

TEST_HARNESS_MAIN
