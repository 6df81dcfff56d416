// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's rules on made-up samples: CPUs 0-3 on node 0 and 4-7 on node
 * 1, SMT pairs (0,1) (2,3) (4,5) (6,7); eth0 on node 1 with two queues whose
 * IRQs 40 and 41 interrupt CPUs 4 and 6, a daemon rule, NAPI counters, a
 * 2048-descriptor ring of 4096 and two of four channels. Two samples one
 * second apart. Each test starts from that healthy machine, breaks one
 * thing, and looks for the finding, its evidence and its absence just
 * below its threshold.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "doctor/doctor.h"

#define NR_CPUS		8
#define NR_QUEUES	2
#define SEC		1000000000ULL

struct machine {
	struct doc_sample s;
	struct doc_cpu cpus[NR_CPUS];
	struct doc_dev dev;
	struct doc_irq irqs[NR_QUEUES];
	struct doc_napi napis[NR_QUEUES];
	struct doc_counter drops[1];
};

static void healthy(struct machine *m, uint64_t now_ns)
{
	unsigned int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < NR_CPUS; i++)
		m->cpus[i] = (struct doc_cpu){ .cpu = i, .node = i / 4, .core = i & ~1u,
					       .softnet = true };
	for (i = 0; i < NR_QUEUES; i++) {
		m->irqs[i] = (struct doc_irq){ .irq = 40 + i, .queue = i, .cpu = 4 + 2 * i };
		if (cpuset_add(&m->irqs[i].affinity, 4 + 2 * i))
			abort();
		m->napis[i] = (struct doc_napi){ .queue = i };
		if (cpuset_add(&m->napis[i].cpus, 4 + 2 * i))
			abort();
	}
	m->drops[0] = (struct doc_counter){ .name = "rx_missed_errors" };
	m->dev = (struct doc_dev){
		.ifindex = 2, .ifname = "eth0", .node = 1, .rx_queues = NR_QUEUES,
		.irqs = m->irqs, .nr_irqs = NR_QUEUES, .napis = m->napis, .nr_napis = NR_QUEUES,
		.drops = m->drops, .nr_drops = 1, .channels = 2, .max_channels = 4,
		.ring = 2048, .ring_max = 4096, .rps_far_queue = -1, .governor = "r",
		.bound = true,
	};
	m->s = (struct doc_sample){
		.now_ns = now_ns, .stats_on = true, .cpus = m->cpus, .nr_cpus = NR_CPUS,
		.budget = 300, .budget_usecs = 2000, .max_backlog = 1000, .rules_read = true,
		.devs = &m->dev, .nr_devs = 1,
	};
}

FIXTURE(doc) {
	struct machine prev;
	struct machine cur;
	struct doc_findings fs;
};

FIXTURE_SETUP(doc)
{
	healthy(&self->prev, 10 * SEC);
	healthy(&self->cur, 11 * SEC);
	memset(&self->fs, 0, sizeof(self->fs));
}

FIXTURE_TEARDOWN(doc)
{
	doc_findings_free(&self->fs);
}

/* Run the rules; print what they found, for a failing test's reader. */
static void diagnose(FIXTURE_DATA(doc) *self)
{
	unsigned int i;

	doc_findings_free(&self->fs);
	if (doc_rules(&self->prev.s, &self->cur.s, &self->fs))
		abort();
	for (i = 0; i < self->fs.nr; i++)
		fprintf(stderr, "# found %s %s %s: %s\n", doc_severity_name(self->fs.f[i].severity),
			self->fs.f[i].id, self->fs.f[i].dev ?: "host", self->fs.f[i].text);
}

static const struct doc_finding *find(FIXTURE_DATA(doc) *self, const char *id)
{
	unsigned int i;

	for (i = 0; i < self->fs.nr; i++)
		if (!strcmp(self->fs.f[i].id, id))
			return &self->fs.f[i];
	return NULL;
}

/* The fact @key of @f as text ("-" when absent), whatever its kind. */
static const char *fact(const struct doc_finding *f, const char *key)
{
	static char buf[64];
	unsigned int i;

	for (i = 0; f && i < f->nr_facts; i++) {
		if (strcmp(f->facts[i].key, key))
			continue;
		if (f->facts[i].str)
			return f->facts[i].str;
		snprintf(buf, sizeof(buf), "%lld", f->facts[i].num);
		return buf;
	}
	return "-";
}

static void move_irq(struct machine *m, unsigned int q, int cpu)
{
	m->irqs[q].cpu = cpu;
	cpuset_free(&m->irqs[q].affinity);
	if (cpuset_add(&m->irqs[q].affinity, cpu))
		abort();
}

/* Both samples alike, as a placement is. */
static void move_both(FIXTURE_DATA(doc) *self, unsigned int q, int cpu)
{
	move_irq(&self->prev, q, cpu);
	move_irq(&self->cur, q, cpu);
}

TEST_F(doc, healthy_machine_has_no_finding)
{
	self->cur.napis[0].packets = 600;
	self->cur.napis[1].packets = 400;
	self->cur.cpus[4].net_rx_ns = SEC / 10;
	diagnose(self);
	EXPECT_EQ(0, self->fs.nr);
	EXPECT_EQ(0, doc_problems(&self->fs));
	EXPECT_EQ(SEC, self->fs.span_ns);
}

TEST_F(doc, all_irqs_on_one_cpu)
{
	const struct doc_finding *f;

	move_both(self, 1, 4);
	diagnose(self);
	f = find(self, "irq-single-cpu");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_WARNING, f->severity);
	EXPECT_STREQ("eth0", f->dev);
	EXPECT_STREQ("4", fact(f, "cpu"));
	EXPECT_STREQ("40-41", fact(f, "irqs"));
	EXPECT_STREQ("nictlctl bind eth0 --numa-local --steer", f->fix);
	EXPECT_TRUE(f->bind_fix);
	EXPECT_EQ(NULL, find(self, "irq-smt-siblings"));
}

TEST_F(doc, irq_on_cpu0_of_the_far_node)
{
	const struct doc_finding *f;

	move_both(self, 0, 0);
	diagnose(self);
	f = find(self, "irq-cpu0");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("40", fact(f, "irqs"));
	EXPECT_STREQ("0", fact(f, "cpus"));
	f = find(self, "irq-far-node");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("1", fact(f, "irqs_count"));
	EXPECT_STREQ("0", fact(f, "cpus"));
	EXPECT_EQ(NULL, find(self, "irq-single-cpu"));
}

/*
 * Without the module: no NET_RX time (no stats-off advice that cannot
 * work), the module's absence as a finding with its fix, and a bind fix
 * that steers nothing.
 */
TEST_F(doc, irq_on_cpu0_of_the_far_node_without_the_module)
{
	const struct doc_finding *f;
	char why[] = "nictl.ko is not installed for kernel 6.12", fix[] = "install nictl-dkms";

	move_both(self, 0, 0);
	self->prev.s.stats_on = self->cur.s.stats_on = false;
	self->prev.s.module_why = self->cur.s.module_why = why;
	self->prev.s.module_fix = self->cur.s.module_fix = fix;
	diagnose(self);
	f = find(self, "irq-far-node");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, strncmp(f->fix, "nictlctl bind ", 14));
	EXPECT_EQ(NULL, strstr(f->fix, "--steer")) TH_LOG("%s", f->fix);
	f = find(self, "module-absent");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_INFO, f->severity);
	EXPECT_EQ(NULL, f->dev);
	EXPECT_NE(NULL, strstr(f->text, "module nictl is not loaded: nictl.ko is not installed"));
	EXPECT_STREQ("install nictl-dkms", f->fix);
	EXPECT_EQ(NULL, find(self, "stats-off"));
	self->prev.s.module_why = self->cur.s.module_why = NULL;
	self->prev.s.module_fix = self->cur.s.module_fix = NULL;
}

TEST_F(doc, device_without_node_is_never_far)
{
	move_both(self, 0, 2);
	self->cur.dev.node = -1;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "irq-far-node"));
	EXPECT_EQ(NULL, find(self, "irq-smt-siblings"));
}

TEST_F(doc, two_queues_on_smt_siblings)
{
	const struct doc_finding *f;

	move_both(self, 1, 5);
	diagnose(self);
	f = find(self, "irq-smt-siblings");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("4-5", fact(f, "cpus"));
	EXPECT_STREQ("2", fact(f, "node_cores"));
}

/* A queue pair's rx and tx IRQs share a CPU: they need one core, not two. */
TEST_F(doc, siblings_counted_by_cpus_not_irqs)
{
	struct doc_irq irqs[4];
	unsigned int i;

	for (i = 0; i < 4; i++) {
		irqs[i] = (struct doc_irq){ .irq = 50 + i, .queue = i / 2, .cpu = 4 + i / 2 };
		ASSERT_EQ(0, cpuset_add(&irqs[i].affinity, irqs[i].cpu));
	}
	self->cur.dev.irqs = irqs;
	self->cur.dev.nr_irqs = 4;
	diagnose(self);
	ASSERT_NE(NULL, find(self, "irq-smt-siblings"));
	EXPECT_STREQ("4-5", fact(find(self, "irq-smt-siblings"), "cpus"));
	for (i = 0; i < 4; i++)
		cpuset_free(&irqs[i].affinity);
}

/* One core on the node for two IRQs: siblings are the best there is. */
TEST_F(doc, siblings_are_fine_when_the_node_has_no_more_cores)
{
	move_both(self, 1, 5);
	self->cur.cpus[6].node = 0;
	self->cur.cpus[7].node = 0;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "irq-smt-siblings"));
}

TEST_F(doc, isolated_cpu_is_an_error_and_comes_first)
{
	const struct doc_finding *f;

	move_both(self, 0, 0);
	ASSERT_EQ(0, cpuset_add(&self->cur.s.isolated, 0));
	diagnose(self);
	ASSERT_LT(0, self->fs.nr);
	f = &self->fs.f[0];
	EXPECT_STREQ("irq-isolated-cpu", f->id);
	EXPECT_EQ(DOC_ERROR, f->severity);
	EXPECT_STREQ("0", fact(f, "cpus"));
	cpuset_free(&self->cur.s.isolated);
}

TEST_F(doc, reserved_cpu)
{
	const struct doc_finding *f;

	ASSERT_EQ(0, cpuset_add(&self->cur.s.reserved, 6));
	diagnose(self);
	f = find(self, "irq-reserved-cpu");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("41", fact(f, "irqs"));
	/* --fix binds as the text says: off the reserved CPU. */
	EXPECT_STREQ("nictlctl bind eth0 --numa-local --exclude 6 --steer", f->fix);
	EXPECT_TRUE(f->bind_fix);
	cpuset_free(&self->cur.s.reserved);
}

TEST_F(doc, banned_cpu_says_who_banned_it)
{
	const struct doc_finding *f;

	ASSERT_EQ(0, cpuset_add(&self->cur.s.banned, 6));
	ASSERT_EQ(0, cpuset_add(&self->cur.s.reserved, 7));
	self->cur.s.banned_why = "IRQBALANCE_BANNED_CPULIST=6 in /etc/default/irqbalance (6)";
	diagnose(self);
	f = find(self, "irq-banned-cpu");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_WARNING, f->severity);
	EXPECT_STREQ("41", fact(f, "irqs"));
	EXPECT_STREQ("1 of 2 queue IRQs on CPU 6, banned for other work: "
		     "IRQBALANCE_BANNED_CPULIST=6 in /etc/default/irqbalance (6)", f->text);
	EXPECT_STREQ("nictlctl bind eth0 --numa-local --exclude 6-7 --steer", f->fix);
	cpuset_free(&self->cur.s.banned);
	cpuset_free(&self->cur.s.reserved);
}

TEST_F(doc, banned_cpus_elsewhere_are_no_finding)
{
	ASSERT_EQ(0, cpuset_add(&self->cur.s.banned, 5));
	self->cur.s.banned_why = "IRQBALANCE_BANNED_CPULIST=5 in /etc/default/irqbalance (5)";
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "irq-banned-cpu"));
	cpuset_free(&self->cur.s.banned);
}

TEST_F(doc, drift_during_the_interval_only)
{
	const struct doc_finding *f;

	self->prev.irqs[1].drifts = 3;
	self->cur.irqs[1].drifts = 3;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "irq-drift"));
	self->cur.irqs[1].drifts = 5;
	diagnose(self);
	f = find(self, "irq-drift");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("2", fact(f, "drifts"));
	EXPECT_STREQ("41", fact(f, "irqs"));
	EXPECT_STREQ("nictlctl daemon", f->fix);
}

TEST_F(doc, irqbalance_without_bans)
{
	const struct doc_finding *f;

	self->cur.s.irqbalance = 321;
	self->cur.s.bans_known = true;
	self->cur.irqs[0].banned = true;
	diagnose(self);
	f = find(self, "irqbalance-unbanned");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("41", fact(f, "irqs"));
	EXPECT_STREQ("321", fact(f, "irqbalance_pid"));
	EXPECT_FALSE(f->bind_fix);
	self->cur.irqs[1].banned = true;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "irqbalance-unbanned"));
	/* Bans that could not be read protect nothing. */
	self->cur.s.bans_known = false;
	diagnose(self);
	EXPECT_NE(NULL, find(self, "irqbalance-unbanned"));
}

TEST_F(doc, bound_device_without_rule)
{
	const struct doc_finding *f;

	self->cur.dev.governor = NULL;
	diagnose(self);
	f = find(self, "no-daemon-rule");
	ASSERT_NE(NULL, f);
	EXPECT_NE(NULL, strstr(f->fix, "[rule eth0]\\nmatch-name = eth0"));
	self->cur.dev.bound = false;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "no-daemon-rule"));
}

TEST_F(doc, one_queue_without_rps)
{
	const struct doc_finding *f;

	self->cur.dev.rx_queues = 1;
	self->cur.dev.channels = 1;
	diagnose(self);
	f = find(self, "few-queues-no-rps");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("1", fact(f, "rx_queues"));
	EXPECT_STREQ("2", fact(f, "node_cores"));
	EXPECT_STREQ("ethtool -L eth0 combined 2", f->fix);
	/* At the hardware's maximum, RPS is what is left. */
	self->cur.dev.max_channels = 1;
	diagnose(self);
	EXPECT_STREQ("nictlctl bind eth0 --numa-local --steer",
		     find(self, "few-queues-no-rps")->fix);
	self->cur.dev.rps = true;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "few-queues-no-rps"));
}

TEST_F(doc, rps_onto_another_node)
{
	const struct doc_finding *f;

	self->cur.dev.rps = true;
	self->cur.dev.rps_far_queue = 1;
	ASSERT_EQ(0, cpuset_parse(&self->cur.dev.rps_far, "0-3"));
	diagnose(self);
	f = find(self, "rps-other-node");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("1", fact(f, "queue"));
	EXPECT_STREQ("0-3", fact(f, "far_cpus"));
	cpuset_free(&self->cur.dev.rps_far);
}

/* A NAPI thread that may leave its IRQ's node: a warning, and taskset as the fix. */
TEST_F(doc, napi_thread_on_another_node)
{
	const struct doc_finding *f;

	self->cur.dev.threaded = true;
	self->cur.dev.thread_far_pid = 312;
	self->cur.dev.thread_far_name = "napi/vnode1-8193";
	self->cur.dev.thread_far_irq = 45;
	self->cur.dev.thread_far_cpu = 4;
	ASSERT_EQ(0, cpuset_parse(&self->cur.dev.thread_far, "0-3"));
	diagnose(self);
	f = find(self, "napi-thread-other-node");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_WARNING, f->severity);
	EXPECT_STREQ("irq 45 interrupts CPU 4, but its NAPI thread napi/vnode1-8193 (pid 312) may "
		     "run on CPUs of another node: its packets' work crosses nodes", f->text);
	EXPECT_STREQ("45", fact(f, "irq"));
	EXPECT_STREQ("312", fact(f, "pid"));
	EXPECT_STREQ("0-3", fact(f, "far_cpus"));
	EXPECT_STREQ("taskset -pc 4 312", f->fix);
	EXPECT_FALSE(f->bind_fix);
	cpuset_free(&self->cur.dev.thread_far);
}

TEST_F(doc, hot_cpu_at_the_threshold)
{
	const struct doc_finding *f;

	self->cur.cpus[4].net_rx_ns = SEC / 2 - 1000;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "hot-cpu"));
	self->cur.cpus[4].net_rx_ns = SEC / 2;
	diagnose(self);
	f = find(self, "hot-cpu");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("eth0", f->dev);
	EXPECT_STREQ("4", fact(f, "cpu"));
	EXPECT_STREQ("50", fact(f, "net_rx_pct"));
	EXPECT_STREQ("7", fact(f, "idle_cpus"));
}

/* Every CPU busy: nowhere to move the work, so no CPU stands out. */
TEST_F(doc, hot_cpu_needs_an_idle_one)
{
	unsigned int i;

	for (i = 0; i < NR_CPUS; i++)
		self->cur.cpus[i].net_rx_ns = SEC * 6 / 10;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "hot-cpu"));
}

TEST_F(doc, rss_imbalance_at_the_threshold)
{
	const struct doc_finding *f;

	self->cur.napis[0].packets = 899;
	self->cur.napis[1].packets = 101;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "rss-imbalance"));
	self->cur.napis[0].packets = 900;
	self->cur.napis[1].packets = 100;
	diagnose(self);
	f = find(self, "rss-imbalance");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_INFO, f->severity);
	EXPECT_STREQ("0", fact(f, "queue"));
	EXPECT_STREQ("90", fact(f, "share_pct"));
	EXPECT_STREQ("1000", fact(f, "packets"));
	EXPECT_STREQ("ethtool -X eth0 equal 2", f->fix);
	/* Too few packets to say anything. */
	self->cur.napis[1].packets = 99;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "rss-imbalance"));
}

TEST_F(doc, rss_imbalance_that_heats_a_cpu_is_a_warning)
{
	self->cur.napis[0].packets = 1000;
	self->cur.cpus[4].net_rx_ns = SEC * 8 / 10;
	diagnose(self);
	ASSERT_NE(NULL, find(self, "rss-imbalance"));
	EXPECT_EQ(DOC_WARNING, find(self, "rss-imbalance")->severity);
	EXPECT_NE(NULL, find(self, "hot-cpu"));
}

TEST_F(doc, softnet_squeeze_at_the_threshold)
{
	const struct doc_finding *f;

	self->prev.cpus[3].squeeze = 4000000000u;
	self->cur.cpus[3].squeeze = 4000000099u;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "softnet-squeeze"));
	self->cur.cpus[3].squeeze = 4000000100u;
	diagnose(self);
	f = find(self, "softnet-squeeze");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(NULL, f->dev);
	EXPECT_STREQ("100", fact(f, "time_squeeze"));
	EXPECT_STREQ("300", fact(f, "netdev_budget"));
	EXPECT_STREQ("sysctl -w net.core.netdev_budget=600 net.core.netdev_budget_usecs=4000",
		     f->fix);
}

/* softnet_stat's counters are 32 bits: a wrap is growth, not a reset. */
TEST_F(doc, softnet_backlog_drops_across_a_wrap)
{
	const struct doc_finding *f;

	self->prev.cpus[2].dropped = 0xffffffffu;
	self->cur.cpus[2].dropped = 1;
	diagnose(self);
	f = find(self, "softnet-backlog-drops");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_ERROR, f->severity);
	EXPECT_STREQ("2", fact(f, "dropped"));
	EXPECT_STREQ("sysctl -w net.core.netdev_max_backlog=2000", f->fix);
}

TEST_F(doc, nic_drops_with_a_small_ring)
{
	const struct doc_finding *f;

	self->prev.drops[0].value = 10;
	self->cur.drops[0].value = 11;
	self->cur.dev.ring = 1024;
	diagnose(self);
	f = find(self, "nic-drops");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_ERROR, f->severity);
	EXPECT_STREQ("1", fact(f, "dropped"));
	EXPECT_STREQ("rx_missed_errors", fact(f, "counter"));
	EXPECT_STREQ("ethtool -G eth0 rx 4096", f->fix);
	f = find(self, "ring-small");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_WARNING, f->severity);
	EXPECT_STREQ("1024", fact(f, "ring"));
}

TEST_F(doc, small_ring_without_drops_is_info)
{
	self->cur.dev.ring = 1025;
	diagnose(self);
	EXPECT_EQ(NULL, find(self, "ring-small"));
	self->cur.dev.ring = 1024;
	diagnose(self);
	ASSERT_NE(NULL, find(self, "ring-small"));
	EXPECT_EQ(DOC_INFO, find(self, "ring-small")->severity);
	EXPECT_EQ(0, doc_problems(&self->fs));
}

TEST_F(doc, napi_outside_its_irq_is_explained)
{
	const struct doc_finding *f;

	self->cur.dev.threaded = true;
	self->cur.napis[1].packets = 50;
	ASSERT_EQ(0, cpuset_add(&self->cur.napis[1].cpus, 2));
	diagnose(self);
	f = find(self, "napi-off-irq-cpu");
	ASSERT_NE(NULL, f);
	EXPECT_EQ(DOC_INFO, f->severity);
	EXPECT_STREQ("1", fact(f, "queue"));
	EXPECT_STREQ("2", fact(f, "outside_cpus"));
	EXPECT_STREQ("1", fact(f, "threaded"));
	EXPECT_NE(NULL, strstr(f->text, "threaded NAPI"));
	EXPECT_EQ(0, doc_problems(&self->fs));
}

/* The module timed tasks busy-polling queue 1 for 3 ms: that is why, whatever sysctl says. */
TEST_F(doc, napi_outside_its_irq_busy_polled_says_how_long)
{
	const struct doc_finding *f;

	self->prev.napis[1].busy_ns = 1000000;
	self->cur.napis[1].busy_ns = 4000000;
	self->cur.napis[1].packets = 50;
	ASSERT_EQ(0, cpuset_add(&self->cur.napis[1].cpus, 2));
	diagnose(self);
	f = find(self, "napi-off-irq-cpu");
	ASSERT_NE(NULL, f);
	EXPECT_STREQ("3000000", fact(f, "busy_ns"));
	EXPECT_STREQ("0", fact(f, "busy_poll"));
	EXPECT_NE(NULL, strstr(f->text, "tasks busy-polled it for 3.0 ms")) TH_LOG("%s", f->text);
}

TEST_F(doc, accounting_off_is_info)
{
	self->cur.s.stats_on = false;
	self->cur.cpus[4].net_rx_ns = SEC;
	diagnose(self);
	ASSERT_NE(NULL, find(self, "stats-off"));
	EXPECT_EQ(NULL, find(self, "hot-cpu"));
	EXPECT_EQ(0, doc_problems(&self->fs));
}

TEST_F(doc, fixed_findings_do_not_count)
{
	move_both(self, 1, 4);
	diagnose(self);
	ASSERT_EQ(1, doc_problems(&self->fs));
	self->fs.f[0].fixed = true;
	EXPECT_EQ(0, doc_problems(&self->fs));
}

TEST_HARNESS_MAIN
