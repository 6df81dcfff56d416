// SPDX-License-Identifier: GPL-2.0
/*
 * Which CPUs bind offers the kernel, and the physical-core check, on a fake
 * topology: 8 CPUs, node 0 = 0-3, node 1 = 4-7, SMT pairs (0,1) (2,3) ...
 */
#include "ctl_fakesys.h"

#include "kselftest_harness.h"

#include "choose.h"
#include "ctl_capture.h"

FIXTURE(sys) {
	struct fakesys fs;
	struct cpu_request req;
	struct cpu_choice choice;
	struct capture cap;
	char *list;
	char *err;
};

FIXTURE_SETUP(sys)
{
	fakesys_create(&self->fs);
	fakesys_write(&self->fs, "0-7\n", "devices/system/cpu/online");
	fakesys_write(&self->fs, "0-3\n", "devices/system/node/node0/cpulist");
	fakesys_write(&self->fs, "4-7\n", "devices/system/node/node1/cpulist");
	fakesys_write(&self->fs, "\n", "devices/system/node/node2/cpulist");
	/* Node 2 has memory only; it is nearer node 0 than node 1. */
	fakesys_write(&self->fs, "0-2\n", "devices/system/node/online");
	fakesys_write(&self->fs, "10 20 20\n", "devices/system/node/node0/distance");
	fakesys_write(&self->fs, "20 10 30\n", "devices/system/node/node1/distance");
	fakesys_write(&self->fs, "20 30 10\n", "devices/system/node/node2/distance");
	fakesys_write(&self->fs, "\n", "devices/system/cpu/isolated");
	fakesys_smt_pairs(&self->fs, 8);
	self->req = (struct cpu_request){
		.source = CPUS_ONLINE, .given = CPUSET_INIT, .exclude = CPUSET_INIT,
	};
	self->list = NULL;
	self->err = NULL;
}

FIXTURE_TEARDOWN(sys)
{
	cpuset_free(&self->req.given);
	cpuset_free(&self->req.exclude);
	free(self->list);
	free(self->err);
	fakesys_destroy(&self->fs);
}

/*
 * Run cpus_choose() on self->req; on success leave the chosen cpulist in
 * self->list and the reasons in self->choice.why, and always what it
 * printed in self->err.
 */
static int choose(FIXTURE_DATA(sys) *self)
{
	int ret;

	capture_begin(&self->cap, stderr);
	ret = cpus_choose(&self->req, &self->choice);
	self->err = capture_end(&self->cap);
	if (!ret)
		self->list = cpuset_format(&self->choice.cpus);
	return ret;
}

TEST_F(sys, default_keeps_off_cpu0)
{
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("1-7", self->list);
	EXPECT_STREQ("kept off CPU 0", self->choice.why);
	EXPECT_STREQ("", self->err);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, default_keeps_off_isolated_and_nohz_full)
{
	fakesys_write(&self->fs, "2-3\n", "devices/system/cpu/isolated");
	fakesys_write(&self->fs, "7\n", "devices/system/cpu/nohz_full");
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("1,4-6", self->list);
	EXPECT_STREQ("kept off isolated/nohz_full CPUs 2-3,7, kept off CPU 0", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, cpu0_stays_when_nothing_else_remains)
{
	fakesys_write(&self->fs, "0\n", "devices/system/cpu/online");
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("0", self->list);
	EXPECT_STREQ("CPU 0 is the only one left", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, cpu0_beats_isolated_cpus)
{
	fakesys_write(&self->fs, "0-3\n", "devices/system/cpu/online");
	fakesys_write(&self->fs, "1-3\n", "devices/system/cpu/isolated");
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("0", self->list);
	EXPECT_STREQ("kept off isolated/nohz_full CPUs 1-3, CPU 0 is the only one left",
		     self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, isolated_cpus_stay_when_all_are_isolated)
{
	fakesys_write(&self->fs, "0-1\n", "devices/system/cpu/online");
	fakesys_write(&self->fs, "0-1\n", "devices/system/cpu/nohz_full");
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("1", self->list);
	EXPECT_STREQ("all of them isolated/nohz_full, kept off CPU 0", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, node_takes_its_online_cpus)
{
	fakesys_write(&self->fs, "0-5\n", "devices/system/cpu/online");
	self->req.source = CPUS_NODE;
	self->req.node = 1;
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("4-5", self->list);
	EXPECT_STREQ("node 1", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, node0_keeps_off_cpu0)
{
	self->req.source = CPUS_NODE;
	self->req.node = 0;
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("1-3", self->list);
	EXPECT_STREQ("node 0, kept off CPU 0", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, missing_node_fails)
{
	self->req.source = CPUS_NODE;
	self->req.node = 3;
	ASSERT_EQ(-1, choose(self));
	EXPECT_EQ(0, strncmp("nictlctl: NUMA node 3 does not exist; the nodes are listed in ",
			     self->err, 62));
}

/* --node N names the node: no fallback. */
TEST_F(sys, node_without_cpus_fails)
{
	self->req.source = CPUS_NODE;
	self->req.node = 2;
	ASSERT_EQ(-1, choose(self));
	EXPECT_STREQ("nictlctl: NUMA node 2 has no online CPUs; use --node N or --cpus LIST\n",
		     self->err);
}

/* --numa-local of a device on a node with memory and no CPUs: its neighbour's. */
TEST_F(sys, node_without_cpus_takes_the_nearest_when_asked)
{
	self->req.source = CPUS_NODE;
	self->req.node = 2;
	self->req.nearest = true;
	ASSERT_EQ(0, choose(self)) TH_LOG("%s", self->err);
	EXPECT_STREQ("1-3", self->list);
	EXPECT_STREQ("node 2 has no online CPUs: nearest node 0 (distance 20), kept off CPU 0",
		     self->choice.why);
	cpu_choice_free(&self->choice);
}

/* Nodes at the same least distance all serve. */
TEST_F(sys, equally_near_nodes_all_serve)
{
	fakesys_write(&self->fs, "20 20 10\n", "devices/system/node/node2/distance");
	self->req.source = CPUS_NODE;
	self->req.node = 2;
	self->req.nearest = true;
	ASSERT_EQ(0, choose(self)) TH_LOG("%s", self->err);
	EXPECT_STREQ("1-7", self->list);
	EXPECT_STREQ("node 2 has no online CPUs: nearest nodes 0-1 (distance 20), kept off CPU 0",
		     self->choice.why);
	cpu_choice_free(&self->choice);
}

/* A node whose CPUs are all offline counts as one without CPUs. */
TEST_F(sys, node_with_its_cpus_offline_takes_the_nearest)
{
	fakesys_write(&self->fs, "0-3\n", "devices/system/cpu/online");
	self->req.source = CPUS_NODE;
	self->req.node = 1;
	self->req.nearest = true;
	ASSERT_EQ(0, choose(self)) TH_LOG("%s", self->err);
	EXPECT_STREQ("1-3", self->list);
	EXPECT_STREQ("node 1 has no online CPUs: nearest node 0 (distance 20), kept off CPU 0",
		     self->choice.why);
	cpu_choice_free(&self->choice);
}

/* No node with online CPUs but the one asked for would be an empty set: refused. */
TEST_F(sys, nearest_never_is_an_empty_set)
{
	fakesys_write(&self->fs, "2\n", "devices/system/node/online");
	self->req.source = CPUS_NODE;
	self->req.node = 2;
	self->req.nearest = true;
	ASSERT_EQ(-1, choose(self));
	EXPECT_STREQ("nictlctl: NUMA node 2 has no online CPUs, and no other node has any\n",
		     self->err);
}

TEST_F(sys, given_cpus_are_respected)
{
	fakesys_write(&self->fs, "0-1\n", "devices/system/cpu/isolated");
	self->req.source = CPUS_GIVEN;
	ASSERT_EQ(0, cpuset_parse(&self->req.given, "0-1,6"));
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("0-1,6", self->list);
	EXPECT_STREQ("as given", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, exclude_applies_before_the_cpu0_rule)
{
	ASSERT_EQ(0, cpuset_parse(&self->req.exclude, "1-6"));
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("7", self->list);
	EXPECT_STREQ("without --exclude 1-6, kept off CPU 0", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, exclude_applies_to_given_cpus)
{
	self->req.source = CPUS_GIVEN;
	ASSERT_EQ(0, cpuset_parse(&self->req.given, "0-3"));
	ASSERT_EQ(0, cpuset_parse(&self->req.exclude, "2,9"));
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("0-1,3", self->list);
	EXPECT_STREQ("without --exclude 2,9", self->choice.why);
	cpu_choice_free(&self->choice);
}

TEST_F(sys, excluding_everything_fails)
{
	ASSERT_EQ(0, cpuset_parse(&self->req.exclude, "0-7"));
	ASSERT_EQ(-1, choose(self));
	EXPECT_STREQ("nictlctl: --exclude leaves no CPU to bind to; exclude fewer CPUs\n",
		     self->err);
}

/* A configuration's exclude is named as its file writes it, not as an option. */
TEST_F(sys, exclude_is_named_as_written)
{
	self->req.exclude_name = "exclude";
	ASSERT_EQ(0, cpuset_parse(&self->req.exclude, "1-6"));
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("without exclude 1-6, kept off CPU 0", self->choice.why);
	cpu_choice_free(&self->choice);

	ASSERT_EQ(0, cpuset_parse(&self->req.exclude, "0-7"));
	ASSERT_EQ(-1, choose(self));
	EXPECT_STREQ("nictlctl: exclude leaves no CPU to bind to; exclude fewer CPUs\n", self->err);
}

/* Banned CPUs go even from a given list, and before the CPU 0 rule. */
TEST_F(sys, banned_cpus_go_from_any_source)
{
	struct cpuset banned = CPUSET_INIT;

	ASSERT_EQ(0, cpuset_parse(&banned, "1-5,9"));
	self->req.banned = &banned;
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("6-7", self->list);
	EXPECT_STREQ("kept off banned CPUs 1-5, kept off CPU 0", self->choice.why);
	cpu_choice_free(&self->choice);
	free(self->list);
	self->req.source = CPUS_GIVEN;
	ASSERT_EQ(0, cpuset_parse(&self->req.given, "0-4"));
	ASSERT_EQ(0, choose(self));
	EXPECT_STREQ("0", self->list);
	EXPECT_STREQ("kept off banned CPUs 1-4", self->choice.why);
	cpu_choice_free(&self->choice);
	cpuset_free(&banned);
}

TEST_F(sys, all_banned_fails)
{
	struct cpuset banned = CPUSET_INIT;

	ASSERT_EQ(0, cpuset_parse(&banned, "4-7"));
	self->req.banned = &banned;
	self->req.source = CPUS_NODE;
	self->req.node = 1;
	ASSERT_EQ(-1, choose(self));
	EXPECT_STREQ("nictlctl: every CPU it may use (4-7) is banned, kept free of IRQs for other "
		     "work; give it other CPUs\n", self->err);
	cpuset_free(&banned);
}

TEST_F(sys, unreadable_topology_fails)
{
	fakesys_write(&self->fs, "x\n", "devices/system/cpu/online");
	ASSERT_EQ(-1, choose(self));
	EXPECT_NE(NULL, strstr(self->err, "cannot read the CPU topology under /tmp/"));
	EXPECT_NE(NULL, strstr(self->err, ": Invalid argument\n"));
}

/*
 * cpus_check_cores() on the CPUs of @list for a device with @queues queues
 * on @groups groups of IRQs.
 */
static int check_groups(FIXTURE_DATA(sys) *self, const char *list, unsigned int queues,
			unsigned int groups)
{
	struct cpu_choice choice = { CPUSET_INIT, NULL };
	int ret;

	if (cpuset_parse(&choice.cpus, list))
		abort();
	capture_begin(&self->cap, stderr);
	ret = cpus_check_cores(&choice, "vnode1", queues, groups);
	free(self->err);
	self->err = capture_end(&self->cap);
	cpu_choice_free(&choice);
	return ret;
}

/* The same for a device whose every queue has IRQs of its own. */
static int check_cores(FIXTURE_DATA(sys) *self, const char *list, unsigned int queues)
{
	return check_groups(self, list, queues, queues);
}

TEST_F(sys, one_queue_per_core_passes)
{
	EXPECT_EQ(0, check_cores(self, "4-7", 2));
	EXPECT_EQ(0, check_cores(self, "0,2,4,6", 4));
	EXPECT_STREQ("", self->err);
}

TEST_F(sys, more_queues_than_cores_fails_with_both_numbers)
{
	EXPECT_EQ(-1, check_cores(self, "4-7", 4));
	EXPECT_STREQ("nictlctl: vnode1 has 4 queues but CPUs 4-7 have only 2 physical cores; "
		     "add CPUs or pass --allow-siblings\n", self->err);
	EXPECT_EQ(-1, check_cores(self, "6-7", 2));
	EXPECT_STREQ("nictlctl: vnode1 has 2 queues but CPUs 6-7 have only 1 physical core; "
		     "add CPUs or pass --allow-siblings\n", self->err);
}

/* Queues that share IRQs go to one CPU: the groups, not the queues, need cores. */
TEST_F(sys, shared_irqs_need_a_core_per_group)
{
	EXPECT_EQ(0, check_groups(self, "4-7", 8, 2));
	EXPECT_STREQ("", self->err);
	EXPECT_EQ(-1, check_groups(self, "4-7", 8, 4));
	EXPECT_STREQ("nictlctl: vnode1 has 8 queues on 4 groups of shared IRQs but CPUs 4-7 have "
		     "only 2 physical cores; add CPUs or pass --allow-siblings\n", self->err);
}

TEST_F(sys, offline_or_missing_cpus_are_left_to_the_kernel)
{
	/* The kernel's refusal names the CPU; a core count could only guess. */
	EXPECT_EQ(0, check_cores(self, "99", 2));
	fakesys_write(&self->fs, "0-6\n", "devices/system/cpu/online");
	EXPECT_EQ(0, check_cores(self, "6-7", 2));
	EXPECT_STREQ("", self->err);
}

TEST_HARNESS_MAIN
