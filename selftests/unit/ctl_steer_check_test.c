// SPDX-License-Identifier: GPL-2.0
/*
 * show's checks of steering against the IRQs, on a made-up machine: CPUs
 * 0-3 on node 0, 4-7 on node 1, CPU 8 on no node (sysfs did not place it).
 * Each finding is compared as "what queue far-CPUs", one line each.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "steer/check.h"

#define NR_CPUS		9
#define MAX_QUEUES	4

/* A device's steering as the test states it: CPU sets as cpulists. */
struct scene {
	unsigned int queues;		/* rx and tx alike */
	bool rps, xps;
	int rx_irq[MAX_QUEUES];
	const char *rps_cpus[MAX_QUEUES];
	unsigned int flow_cnt[MAX_QUEUES];
	int tx_irq[MAX_QUEUES];
	const char *xps_cpus[MAX_QUEUES];
	unsigned int flow_entries;
};

static void set_queue(struct steer_queue *sq, int irq_cpu, const char *cpus)
{
	sq->irq_cpu = irq_cpu;
	if (cpuset_parse(&sq->cpus, cpus ?: ""))
		abort();
}

/* The findings for @s, one "what queue far" line each; malloc'ed. */
static char *findings(const struct scene *s)
{
	struct steer_queue rx[MAX_QUEUES] = { 0 }, tx[MAX_QUEUES] = { 0 };
	struct steer_now now = {
		.rx_queues = s->queues, .tx_queues = s->queues, .rps = s->rps, .xps = s->xps,
		.flow_entries = s->flow_entries, .rx = rx, .tx = tx,
	};
	struct steer_cpu topo[NR_CPUS];
	struct steer_warnings ws;
	char *text = NULL, *far;
	size_t len = 0;
	unsigned int q, k;
	FILE *f;

	for (q = 0; q < NR_CPUS; q++)
		topo[q] = (struct steer_cpu){ .node = q < 8 ? (int)q / 4 : -1, .core = q };
	for (q = 0; q < s->queues; q++) {
		set_queue(&rx[q], s->rx_irq[q], s->rps_cpus[q]);
		rx[q].flow_cnt = s->flow_cnt[q];
		set_queue(&tx[q], s->tx_irq[q], s->xps_cpus[q]);
	}
	f = open_memstream(&text, &len);
	if (!f || steer_check(&now, topo, NR_CPUS, &ws))
		abort();
	for (k = 0; k < ws.nr; k++) {
		far = cpuset_format(&ws.w[k].far);
		fprintf(f, "%s %u %s\n", steer_warning_name(ws.w[k].kind), ws.w[k].queue, far);
		free(far);
	}
	fclose(f);
	steer_warnings_free(&ws);
	for (q = 0; q < s->queues; q++) {
		cpuset_free(&rx[q].cpus);
		cpuset_free(&tx[q].cpus);
	}
	return text;
}

#define EXPECT_FINDINGS(want, scene) do {					\
	char *got = findings(scene);						\
	EXPECT_STREQ(want, got);						\
	free(got);								\
} while (0)

/* What bind --steer writes: RPS and XPS on the IRQs' nodes, RFS with a table. */
TEST(steered_on_the_irq_node)
{
	struct scene s = {
		.queues = 2, .rps = true, .xps = true, .flow_entries = 32768,
		.rx_irq = { 1, 5 }, .rps_cpus = { "0-3", "4-7" }, .flow_cnt = { 16384, 16384 },
		.tx_irq = { 1, 5 }, .xps_cpus = { "0-3", "4-7" },
	};

	EXPECT_FINDINGS("", &s);
}

TEST(rps_onto_the_other_node)
{
	struct scene s = {
		.queues = 2, .rps = true, .xps = true, .flow_entries = 32768,
		.rx_irq = { 4, 1 }, .rps_cpus = { "0-3", "3-5" },
		.tx_irq = { 4, 1 }, .xps_cpus = { "4", "1" },
	};

	EXPECT_FINDINGS("rps-other-node 0 0-3\nrps-other-node 1 4-5\n", &s);
}

TEST(xps_onto_a_far_queue)
{
	struct scene s = {
		.queues = 2, .rps = true, .xps = true,
		.rx_irq = { 1, 5 }, .tx_irq = { 1, 5 }, .xps_cpus = { "0-1", "0-1,6" },
	};

	EXPECT_FINDINGS("xps-other-node 1 0-1\n", &s);
}

TEST(rfs_without_a_table)
{
	struct scene s = {
		.queues = 2, .rps = true, .flow_entries = 0,
		.rx_irq = { 1, 2 }, .flow_cnt = { 128, 0 },
	};

	EXPECT_FINDINGS("rfs-no-table 0 \n", &s);
	s.flow_entries = 4096;
	EXPECT_FINDINGS("", &s);
}

/* Per rx queue RPS then RFS, then the tx queues. */
TEST(every_finding_in_order)
{
	struct scene s = {
		.queues = 2, .rps = true, .xps = true,
		.rx_irq = { 4, 5 }, .rps_cpus = { "0", "1" }, .flow_cnt = { 1, 1 },
		.tx_irq = { 0, 1 }, .xps_cpus = { "7", "" },
	};

	EXPECT_FINDINGS("rps-other-node 0 0\nrfs-no-table 0 \nrps-other-node 1 1\n"
			"rfs-no-table 1 \nxps-other-node 0 7\n", &s);
}

/* Without CONFIG_RPS, or with one tx queue, the kernel has no values: nothing to judge. */
TEST(no_rps_no_xps_files)
{
	struct scene s = {
		.queues = 1, .rx_irq = { 4 }, .rps_cpus = { "0" }, .flow_cnt = { 128 },
		.tx_irq = { 4 }, .xps_cpus = { "0" },
	};

	EXPECT_FINDINGS("", &s);
}

/* An IRQ on no known CPU or node, and a CPU on no node, are not judged. */
TEST(unknown_is_not_judged)
{
	struct scene s = {
		.queues = 2, .rps = true, .xps = true, .flow_entries = 32768,
		.rx_irq = { -1, 8 }, .rps_cpus = { "4-7", "0-3" },
		.tx_irq = { 0, 8 }, .xps_cpus = { "0,8", "4" },
	};

	EXPECT_FINDINGS("", &s);
}

TEST(warning_text_names_the_queue_and_the_fix)
{
	struct steer_warning w = { .kind = STEER_WARN_RPS_NODE, .queue = 3, .irq_cpu = 5,
				   .node = 1, .far = CPUSET_INIT };
	char *text;

	ASSERT_EQ(0, cpuset_parse(&w.far, "0-1"));
	text = steer_warning_text(&w);
	EXPECT_STREQ("rx queue 3: rps_cpus has CPUs 0-1 of another node than its IRQ's CPU 5 "
		     "(node 1): RPS moves its packets across nodes; steer it to node 1 "
		     "(bind --steer)", text);
	free(text);
	w.kind = STEER_WARN_RFS_TABLE;
	w.flow_cnt = 128;
	text = steer_warning_text(&w);
	EXPECT_STREQ("rx queue 3: rps_flow_cnt is 128 but net.core.rps_sock_flow_entries is 0: "
		     "RFS cannot work; raise it (bind --steer sets 32768)", text);
	free(text);
	cpuset_free(&w.far);
}

TEST_HARNESS_MAIN
