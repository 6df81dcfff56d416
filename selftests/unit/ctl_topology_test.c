// SPDX-License-Identifier: GPL-2.0
/* Reading CPU sets and SMT siblings from a fake sysfs tree. */
#include "ctl_fakesys.h"

#include <errno.h>

#include "kselftest_harness.h"

#include "ctl_cpulist.h"

#include "topology.h"

FIXTURE(sys) {
	struct fakesys fs;
	struct cpuset cpus;
};

FIXTURE_SETUP(sys)
{
	fakesys_create(&self->fs);
	self->cpus = (struct cpuset)CPUSET_INIT;
}

FIXTURE_TEARDOWN(sys)
{
	cpuset_free(&self->cpus);
	fakesys_destroy(&self->fs);
}

TEST(root_defaults_to_sys)
{
	unsetenv("NICTL_SYSFS");
	EXPECT_STREQ("/sys", topo_root());
	setenv("NICTL_SYSFS", "", 1);
	EXPECT_STREQ("/sys", topo_root());
	setenv("NICTL_SYSFS", "/tmp/x", 1);
	EXPECT_STREQ("/tmp/x", topo_root());
}

TEST_F(sys, online_and_node_cpus)
{
	fakesys_write(&self->fs, "0-7\n", "devices/system/cpu/online");
	fakesys_write(&self->fs, "4-7\n", "devices/system/node/node1/cpulist");
	ASSERT_EQ(0, topo_online_cpus(&self->cpus));
	EXPECT_STREQ("0-7", cpulist_of(&self->cpus));
	cpuset_free(&self->cpus);
	ASSERT_EQ(0, topo_node_cpus(1, &self->cpus));
	EXPECT_STREQ("4-7", cpulist_of(&self->cpus));
	EXPECT_EQ(-ENOENT, topo_node_cpus(2, &self->cpus));
}

/* nodeN/distance lists the distance to each online node, by node number. */
TEST_F(sys, node_distance_by_online_node)
{
	unsigned int d = 0;

	/* Nodes 0, 2 and 5 online: the third number is node 5's. */
	fakesys_write(&self->fs, "0,2,5\n", "devices/system/node/online");
	fakesys_write(&self->fs, "10 21 32\n", "devices/system/node/node0/distance");
	fakesys_write(&self->fs, "10 21\n", "devices/system/node/node2/distance");
	ASSERT_EQ(0, topo_online_nodes(&self->cpus));
	EXPECT_STREQ("0,2,5", cpulist_of(&self->cpus));
	EXPECT_EQ(0, topo_node_distance(0, 5, &d));
	EXPECT_EQ(32U, d);
	EXPECT_EQ(0, topo_node_distance(0, 0, &d));
	EXPECT_EQ(10U, d);
	/* Node 1 is not online; node 2's file is one number short. */
	EXPECT_EQ(-ENOENT, topo_node_distance(0, 1, &d));
	EXPECT_EQ(-EINVAL, topo_node_distance(2, 5, &d));
	/* Node 5 has no file. */
	EXPECT_EQ(-ENOENT, topo_node_distance(5, 0, &d));
}

TEST_F(sys, garbage_is_an_error)
{
	fakesys_write(&self->fs, "zero\n", "devices/system/cpu/online");
	EXPECT_EQ(-EINVAL, topo_online_cpus(&self->cpus));
}

TEST_F(sys, isolated_joins_isolcpus_and_nohz_full)
{
	fakesys_write(&self->fs, "2-3\n", "devices/system/cpu/isolated");
	fakesys_write(&self->fs, "3,6\n", "devices/system/cpu/nohz_full");
	ASSERT_EQ(0, topo_isolated_cpus(&self->cpus));
	EXPECT_STREQ("2-3,6", cpulist_of(&self->cpus));
}

TEST_F(sys, isolated_without_nohz_full)
{
	/* The state of a kernel without CONFIG_NO_HZ_FULL, and of a boot without it. */
	fakesys_write(&self->fs, "\n", "devices/system/cpu/isolated");
	ASSERT_EQ(0, topo_isolated_cpus(&self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
	/* Debian's 6.12 prints the unset nohz_full mask with two leading spaces. */
	fakesys_write(&self->fs, "  (null)\n", "devices/system/cpu/nohz_full");
	ASSERT_EQ(0, topo_isolated_cpus(&self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
	fakesys_write(&self->fs, "(null)\n", "devices/system/cpu/nohz_full");
	ASSERT_EQ(0, topo_isolated_cpus(&self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
	fakesys_write(&self->fs, "", "devices/system/cpu/nohz_full");
	ASSERT_EQ(0, topo_isolated_cpus(&self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
}

TEST_F(sys, isolated_files_may_be_missing)
{
	ASSERT_EQ(0, topo_isolated_cpus(&self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
}

TEST_F(sys, reserved_cpus_of_isolated_cgroup_partitions)
{
	/* Kernels before 6.7 have no such file: nothing is reserved. */
	ASSERT_EQ(0, topo_reserved_cpus(&self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
	fakesys_write(&self->fs, "\n", "fs/cgroup/cpuset.cpus.isolated");
	ASSERT_EQ(0, topo_reserved_cpus(&self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
	fakesys_write(&self->fs, "4-5\n", "fs/cgroup/cpuset.cpus.isolated");
	ASSERT_EQ(0, topo_reserved_cpus(&self->cpus));
	EXPECT_STREQ("4-5", cpulist_of(&self->cpus));
}

TEST_F(sys, cores_of_adjacent_siblings)
{
	unsigned int cores;

	fakesys_smt_pairs(&self->fs, 8);
	ASSERT_EQ(0, cpuset_parse(&self->cpus, "4-7"));
	ASSERT_EQ(0, topo_count_cores(&self->cpus, &cores));
	EXPECT_EQ(2, cores);
	cpuset_free(&self->cpus);
	ASSERT_EQ(0, cpuset_parse(&self->cpus, "1-4"));	/* halves of three cores */
	ASSERT_EQ(0, topo_count_cores(&self->cpus, &cores));
	EXPECT_EQ(3, cores);
}

TEST_F(sys, cores_of_split_siblings)
{
	static const char *const siblings[] = { "0,4", "1,5", "2,6", "3,7" };
	unsigned int cores;
	int cpu;

	/* The x86 numbering: the second threads of all cores come last. */
	for (cpu = 0; cpu < 8; cpu++)
		fakesys_write(&self->fs, siblings[cpu % 4],
			      "devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	ASSERT_EQ(0, cpuset_parse(&self->cpus, "4-7"));
	ASSERT_EQ(0, topo_count_cores(&self->cpus, &cores));
	EXPECT_EQ(4, cores);
	cpuset_free(&self->cpus);
	ASSERT_EQ(0, cpuset_parse(&self->cpus, "0-1,4-5"));
	ASSERT_EQ(0, topo_count_cores(&self->cpus, &cores));
	EXPECT_EQ(2, cores);
}

TEST_F(sys, cpu_without_topology_is_a_core)
{
	unsigned int cores;

	fakesys_write(&self->fs, "0-1\n", "devices/system/cpu/cpu0/topology/thread_siblings_list");
	ASSERT_EQ(0, cpuset_parse(&self->cpus, "0-3"));
	ASSERT_EQ(0, topo_count_cores(&self->cpus, &cores));
	EXPECT_EQ(3, cores);
	cpuset_free(&self->cpus);
	ASSERT_EQ(0, topo_count_cores(&self->cpus, &cores));
	EXPECT_EQ(0, cores);
}

TEST_HARNESS_MAIN
