// SPDX-License-Identifier: GPL-2.0
/*
 * The steering planner on made-up machines: 1, 2 and 4 queues on 2 and 4
 * cores, SMT on and off, two nodes, isolated CPUs, the RFS table size.
 */
#include <errno.h>
#include <stdlib.h>

#include "kselftest_harness.h"

#include "steer/plan.h"

#define MAX_CPUS	16
#define MAX_QUEUES	4

/* A machine and a bound device, as the test states them. */
struct scene {
	unsigned int nr_cpus;
	unsigned int nodes;		/* the CPUs split evenly, in order */
	bool smt;			/* CPUs 2k and 2k+1 are one core */
	const char *cpus;		/* the bind's CPUs */
	const char *isolated;
	unsigned int queues;		/* rx and tx alike */
	int irq_cpu[MAX_QUEUES];	/* per queue, rx and tx IRQs alike */
	unsigned int flow_entries;
};

/* What the plan should hold, CPU sets as cpulists. */
struct want {
	const char *rps[MAX_QUEUES];
	enum rps_case rps_case;		/* the same for every rx queue */
	const char *xps[MAX_QUEUES];
	unsigned int flow_entries;
};

static int plan_scene(const struct scene *s, struct steer_plan *plan)
{
	struct cpuset cpus = CPUSET_INIT, isolated = CPUSET_INIT;
	struct steer_cpu topo[MAX_CPUS];
	struct steer_input in = {
		.rx_queues = s->queues,
		.tx_queues = s->queues,
		.rx_cpu = s->irq_cpu,
		.tx_cpu = s->irq_cpu,
		.cpus = &cpus,
		.isolated = &isolated,
		.topo = topo,
		.nr_topo = s->nr_cpus,
		.flow_entries = s->flow_entries,
	};
	unsigned int c;
	int err;

	for (c = 0; c < s->nr_cpus; c++)
		topo[c] = (struct steer_cpu){
			.node = c / (s->nr_cpus / s->nodes),
			.core = s->smt ? c & ~1U : c,
		};
	if (cpuset_parse(&cpus, s->cpus) || cpuset_parse(&isolated, s->isolated ?: ""))
		abort();
	err = steer_plan_make(&in, plan);
	cpuset_free(&cpus);
	cpuset_free(&isolated);
	return err;
}

/* Whether @set is @list; if not, say which queue of what has what. */
static bool same_cpus(const char *what, unsigned int q, const struct cpuset *set,
		      const char *list)
{
	char *got = cpuset_format(set);
	bool same = got && !strcmp(got, list);

	if (!same)
		fprintf(stderr, "# %s of queue %u: want '%s', got '%s'\n", what, q, list,
			got ?: "(out of memory)");
	free(got);
	return same;
}

static bool plan_is(const struct steer_plan *plan, const struct scene *s, const struct want *w)
{
	unsigned int q;
	bool ok = true;

	for (q = 0; q < s->queues; q++) {
		ok &= same_cpus("rps_cpus", q, &plan->rx[q].rps_cpus, w->rps[q]);
		ok &= same_cpus("xps_cpus", q, &plan->tx[q].xps_cpus, w->xps[q]);
		if (plan->rx[q].rps_case != w->rps_case) {
			fprintf(stderr, "# rx queue %u: RPS %s, want %s\n", q,
				steer_rps_case_name(plan->rx[q].rps_case),
				steer_rps_case_name(w->rps_case));
			ok = false;
		}
		if (plan->rx[q].flow_cnt != w->flow_entries / s->queues) {
			fprintf(stderr, "# rx queue %u: rps_flow_cnt %u, want %u\n", q,
				plan->rx[q].flow_cnt, w->flow_entries / s->queues);
			ok = false;
		}
	}
	if (plan->flow_entries != w->flow_entries) {
		fprintf(stderr, "# rps_sock_flow_entries %u, want %u\n", plan->flow_entries,
			w->flow_entries);
		ok = false;
	}
	return ok;
}

FIXTURE(plan) {
	struct steer_plan plan;
};

FIXTURE_SETUP(plan)
{
}

FIXTURE_TEARDOWN(plan)
{
	steer_plan_free(&self->plan);
}

FIXTURE_VARIANT(plan) {
	struct scene scene;
	struct want want;
};

/* One queue, two cores: RPS spreads its work over both. */
FIXTURE_VARIANT_ADD(plan, q1_cores2) {
	.scene = { .nr_cpus = 2, .nodes = 1, .cpus = "0-1", .queues = 1, .irq_cpu = { 1 } },
	.want = { .rps = { "0-1" }, .rps_case = RPS_SPREAD, .xps = { "0-1" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* As many queues as cores: the NIC spreads already, RPS stays off. */
FIXTURE_VARIANT_ADD(plan, q2_cores2) {
	.scene = { .nr_cpus = 2, .nodes = 1, .cpus = "0-1", .queues = 2, .irq_cpu = { 0, 1 } },
	.want = { .rps = { "", "" }, .rps_case = RPS_OFF_QUEUES, .xps = { "0", "1" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

FIXTURE_VARIANT_ADD(plan, q1_cores4) {
	.scene = { .nr_cpus = 4, .nodes = 1, .cpus = "0-3", .queues = 1, .irq_cpu = { 2 } },
	.want = { .rps = { "0-3" }, .rps_case = RPS_SPREAD, .xps = { "0-3" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* Two queues on four cores: the other two cores go one to each queue. */
FIXTURE_VARIANT_ADD(plan, q2_cores4) {
	.scene = { .nr_cpus = 4, .nodes = 1, .cpus = "0-3", .queues = 2, .irq_cpu = { 1, 2 } },
	.want = { .rps = { "0-3", "0-3" }, .rps_case = RPS_SPREAD, .xps = { "0-1", "2-3" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

FIXTURE_VARIANT_ADD(plan, q4_cores4) {
	.scene = { .nr_cpus = 4, .nodes = 1, .cpus = "0-3", .queues = 4,
		   .irq_cpu = { 0, 1, 2, 3 } },
	.want = { .rps = { "", "", "", "" }, .rps_case = RPS_OFF_QUEUES,
		  .xps = { "0", "1", "2", "3" }, .flow_entries = STEER_FLOW_ENTRIES },
};

/* More queues than cores (bound with --allow-siblings): RPS off. */
FIXTURE_VARIANT_ADD(plan, q4_cores2_smt) {
	.scene = { .nr_cpus = 4, .nodes = 1, .smt = true, .cpus = "0-3", .queues = 4,
		   .irq_cpu = { 0, 1, 2, 3 } },
	.want = { .rps = { "", "", "", "" }, .rps_case = RPS_OFF_QUEUES,
		  .xps = { "0", "1", "2", "3" }, .flow_entries = STEER_FLOW_ENTRIES },
};

/* One queue on SMT: two cores of four threads, CPU 0 kept off by the bind. */
FIXTURE_VARIANT_ADD(plan, q1_cores2_smt) {
	.scene = { .nr_cpus = 4, .nodes = 1, .smt = true, .cpus = "1-3", .queues = 1,
		   .irq_cpu = { 2 } },
	.want = { .rps = { "1-3" }, .rps_case = RPS_SPREAD, .xps = { "1-3" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* Two queues on two SMT cores: each queue keeps its IRQ's core for XPS. */
FIXTURE_VARIANT_ADD(plan, q2_cores2_smt) {
	.scene = { .nr_cpus = 4, .nodes = 1, .smt = true, .cpus = "0-3", .queues = 2,
		   .irq_cpu = { 0, 2 } },
	.want = { .rps = { "", "" }, .rps_case = RPS_OFF_QUEUES, .xps = { "0-1", "2-3" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* Two queues on four SMT cores: a whole core goes to one queue. */
FIXTURE_VARIANT_ADD(plan, q2_cores4_smt) {
	.scene = { .nr_cpus = 8, .nodes = 1, .smt = true, .cpus = "0-7", .queues = 2,
		   .irq_cpu = { 0, 4 } },
	.want = { .rps = { "0-7", "0-7" }, .rps_case = RPS_SPREAD,
		  .xps = { "0-1,6-7", "2-5" }, .flow_entries = STEER_FLOW_ENTRIES },
};

/* The guests' vnode1: node 1 of two, two SMT cores, a queue on each. */
FIXTURE_VARIANT_ADD(plan, q2_node1_of2) {
	.scene = { .nr_cpus = 8, .nodes = 2, .smt = true, .cpus = "4-7", .queues = 2,
		   .irq_cpu = { 4, 6 } },
	.want = { .rps = { "", "" }, .rps_case = RPS_OFF_QUEUES, .xps = { "4-5", "6-7" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* RPS stays on the IRQ's node; XPS gives the far node's CPUs a queue too. */
FIXTURE_VARIANT_ADD(plan, q1_two_nodes) {
	.scene = { .nr_cpus = 8, .nodes = 2, .cpus = "1-7", .queues = 1, .irq_cpu = { 5 } },
	.want = { .rps = { "4-7" }, .rps_case = RPS_SPREAD, .xps = { "1-7" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* Isolated CPUs take no steered work, whatever the bind offered. */
FIXTURE_VARIANT_ADD(plan, isolated_left_out) {
	.scene = { .nr_cpus = 4, .nodes = 1, .cpus = "0-3", .isolated = "3", .queues = 1,
		   .irq_cpu = { 1 } },
	.want = { .rps = { "0-2" }, .rps_case = RPS_SPREAD, .xps = { "0-2" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* With a CPU isolated, two queues have as many cores as the rest: RPS off. */
FIXTURE_VARIANT_ADD(plan, isolated_turns_rps_off) {
	.scene = { .nr_cpus = 4, .nodes = 1, .cpus = "1-3", .isolated = "3", .queues = 2,
		   .irq_cpu = { 1, 2 } },
	.want = { .rps = { "", "" }, .rps_case = RPS_OFF_QUEUES, .xps = { "1", "2" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

/* A larger RFS table is kept and shared out, never lowered. */
FIXTURE_VARIANT_ADD(plan, larger_flow_table_kept) {
	.scene = { .nr_cpus = 4, .nodes = 1, .cpus = "0-3", .queues = 2, .irq_cpu = { 1, 2 },
		   .flow_entries = 131072 },
	.want = { .rps = { "0-3", "0-3" }, .rps_case = RPS_SPREAD, .xps = { "0-1", "2-3" },
		  .flow_entries = 131072 },
};

FIXTURE_VARIANT_ADD(plan, smaller_flow_table_raised) {
	.scene = { .nr_cpus = 2, .nodes = 1, .cpus = "0-1", .queues = 1, .irq_cpu = { 0 },
		   .flow_entries = 4096 },
	.want = { .rps = { "0-1" }, .rps_case = RPS_SPREAD, .xps = { "0-1" },
		  .flow_entries = STEER_FLOW_ENTRIES },
};

TEST_F(plan, as_planned)
{
	ASSERT_EQ(0, plan_scene(&variant->scene, &self->plan));
	EXPECT_TRUE(plan_is(&self->plan, &variant->scene, &variant->want));
}

/* Every steering CPU sends on exactly one tx queue. */
TEST_F(plan, each_cpu_one_tx_queue)
{
	const struct scene *s = &variant->scene;
	unsigned int q, owners;
	int cpu;

	ASSERT_EQ(0, plan_scene(s, &self->plan));
	cpuset_for_each(cpu, &self->plan.cpus) {
		owners = 0;
		for (q = 0; q < s->queues; q++)
			owners += cpuset_has(&self->plan.tx[q].xps_cpus, cpu);
		EXPECT_EQ(1U, owners) TH_LOG("CPU %d is in %u XPS maps", cpu, owners);
	}
}

TEST(every_cpu_isolated)
{
	struct scene s = { .nr_cpus = 4, .nodes = 1, .cpus = "2-3", .isolated = "2-3",
			   .queues = 1, .irq_cpu = { 2 } };
	struct steer_plan plan;

	EXPECT_EQ(-ENOSPC, plan_scene(&s, &plan));
	steer_plan_free(&plan);
}

/* A queue whose IRQ went nowhere gets no RPS, and no CPU sends on it. */
TEST(queue_without_irq)
{
	struct scene s = { .nr_cpus = 4, .nodes = 1, .cpus = "0-3", .queues = 2,
			   .irq_cpu = { 1, -1 } };
	struct steer_plan plan;

	ASSERT_EQ(0, plan_scene(&s, &plan));
	EXPECT_EQ(RPS_SPREAD, plan.rx[0].rps_case);
	EXPECT_EQ(RPS_OFF_NO_IRQ, plan.rx[1].rps_case);
	EXPECT_TRUE(same_cpus("xps_cpus", 0, &plan.tx[0].xps_cpus, "0-3"));
	EXPECT_TRUE(same_cpus("xps_cpus", 1, &plan.tx[1].xps_cpus, ""));
	steer_plan_free(&plan);
}

/* The reason given names the counts the decision was made on. */
TEST(why_names_the_counts)
{
	struct scene s = { .nr_cpus = 8, .nodes = 2, .smt = true, .cpus = "4-7", .queues = 2,
			   .irq_cpu = { 4, 6 } };
	struct steer_plan plan;
	char why[160];

	ASSERT_EQ(0, plan_scene(&s, &plan));
	steer_rps_why(&plan, 0, why, sizeof(why));
	EXPECT_STREQ("2 rx queues for 2 cores on node 1: the queues spread the work already",
		     why);
	steer_plan_free(&plan);
}

TEST_HARNESS_MAIN
