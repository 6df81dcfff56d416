// SPDX-License-Identifier: GPL-2.0
/*
 * Reading /proc/net/softnet_stat in the shapes kernels write it: with the
 * CPU number in field 13 (5.10+; 6.x adds two fields after it), without it
 * (rows are then the online CPUs in order), across offline CPUs, and
 * refusing files that are something else.
 */
#include "ctl_fakesys.h"

#include <errno.h>

#include "kselftest_harness.h"

#include "ctl_capture.h"
#include "stats/stats.h"
#include "topology.h"

/* 6.12's rows: CPU 2 is offline, so the third row is CPU 3. */
static const char rows_6_12[] =
	"00000010 00000001 00000002 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000000 00000000 00000000\n"
	"00000020 00000000 00000003 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000001 00000000 00000000\n"
	"ffffffff 0000000a 0000000b 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000 00000000 00000003 00000000 00000000\n";

/* Before 5.10: eleven fields and no CPU number. */
static const char rows_5_4[] =
	"00000010 00000001 00000002 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000\n"
	"00000020 00000000 00000003 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000\n"
	"ffffffff 0000000a 0000000b 00000000 00000000 00000000 00000000 00000000 00000000 "
	"00000000 00000000\n";

FIXTURE(softnet) {
	struct stats_sample s;
	struct cpuset online;
};

/* A sample of CPUs 0-3, as STATS_GET lists the possible CPUs. */
FIXTURE_SETUP(softnet)
{
	unsigned int i;

	memset(&self->s, 0, sizeof(self->s));
	self->s.cpus = calloc(4, sizeof(*self->s.cpus));
	ASSERT_NE(NULL, self->s.cpus);
	self->s.nr_cpus = 4;
	for (i = 0; i < 4; i++)
		self->s.cpus[i].cpu = i;
	self->online = (struct cpuset)CPUSET_INIT;
}

FIXTURE_TEARDOWN(softnet)
{
	cpuset_free(&self->online);
	stats_sample_free(&self->s);
}

static int parse(FIXTURE_DATA(softnet) *self, const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int err;

	if (!f)
		abort();
	err = softnet_parse(f, &self->online, &self->s);
	fclose(f);
	return err;
}

#define ROW(i)	(self->s.cpus[i].softnet)

TEST_F(softnet, cpu_number_column_skips_offline_cpus)
{
	/* Even a stale online list cannot mislead rows that carry their CPU. */
	ASSERT_EQ(0, cpuset_parse(&self->online, "0-2"));
	ASSERT_EQ(0, parse(self, rows_6_12));
	EXPECT_TRUE(ROW(0).present);
	EXPECT_EQ(0x10, ROW(0).processed);
	EXPECT_EQ(1, ROW(0).dropped);
	EXPECT_EQ(2, ROW(0).time_squeeze);
	EXPECT_EQ(0x20, ROW(1).processed);
	EXPECT_EQ(3, ROW(1).time_squeeze);
	EXPECT_FALSE(ROW(2).present);
	EXPECT_TRUE(ROW(3).present);
	EXPECT_EQ(0xffffffff, ROW(3).processed);
	EXPECT_EQ(10, ROW(3).dropped);
	EXPECT_EQ(11, ROW(3).time_squeeze);
}

/* Field 10, received_rps: the RPS IPIs that woke the CPU; absent from short rows. */
TEST_F(softnet, received_rps_is_field_ten)
{
	static const char rows[] =
		"00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		"00000000 0000002a 00000000 00000000 00000000\n"
		"00000002 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		"00000000 ffffffff 00000000 00000000 00000001\n"
		"00000003 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		"00000000\n";

	ASSERT_EQ(0, parse(self, rows));
	EXPECT_TRUE(ROW(0).has_rps);
	EXPECT_EQ(42, ROW(0).received_rps);
	EXPECT_TRUE(ROW(1).has_rps);
	EXPECT_EQ(0xffffffff, ROW(1).received_rps);
	/* Nine fields: no CPU number, so the row after CPU 1's is CPU 2's, without RPS. */
	EXPECT_TRUE(ROW(2).present);
	EXPECT_FALSE(ROW(2).has_rps);
	EXPECT_EQ(0, ROW(2).received_rps);
}

/* A received_rps wider than the kernel's 32 bits is not softnet_stat. */
TEST_F(softnet, received_rps_beyond_32_bits_is_refused)
{
	static const char rows[] =
		"00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		"00000000 100000000 00000000 00000000 00000000\n";

	EXPECT_EQ(-EINVAL, parse(self, rows));
}

TEST_F(softnet, thirteen_fields_of_5_10_to_6_1)
{
	static const char rows[] =
		"00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		"00000000 00000000 00000000 00000000 00000000\n"
		"00000002 00000000 00000000 00000000 00000000 00000000 00000000 00000000 "
		"00000000 00000000 00000000 00000000 00000002\n";

	ASSERT_EQ(0, parse(self, rows));
	EXPECT_EQ(1, ROW(0).processed);
	EXPECT_FALSE(ROW(1).present);
	EXPECT_EQ(2, ROW(2).processed);
}

TEST_F(softnet, without_cpu_numbers_rows_follow_the_online_cpus)
{
	ASSERT_EQ(0, cpuset_parse(&self->online, "0-1,3"));
	ASSERT_EQ(0, parse(self, rows_5_4));
	EXPECT_EQ(0x10, ROW(0).processed);
	EXPECT_EQ(0x20, ROW(1).processed);
	EXPECT_FALSE(ROW(2).present);
	EXPECT_TRUE(ROW(3).present);
	EXPECT_EQ(0xffffffff, ROW(3).processed);
}

TEST_F(softnet, without_either_rows_are_cpus_0_1_2)
{
	ASSERT_EQ(0, parse(self, rows_5_4));
	EXPECT_EQ(0xffffffff, ROW(2).processed);
	EXPECT_FALSE(ROW(3).present);
}

TEST_F(softnet, rows_of_cpus_the_module_did_not_list_are_skipped)
{
	self->s.nr_cpus = 2;
	ASSERT_EQ(0, parse(self, rows_6_12));
	EXPECT_EQ(0x20, ROW(1).processed);
	self->s.nr_cpus = 4;
	EXPECT_FALSE(ROW(3).present);
}

TEST_F(softnet, empty_lines_and_empty_file)
{
	ASSERT_EQ(0, parse(self, ""));
	EXPECT_FALSE(ROW(0).present);
	ASSERT_EQ(0, parse(self, "\n00000005 00000000 00000000\n\n"));
	EXPECT_EQ(5, ROW(0).processed);
}

TEST_F(softnet, other_files_are_refused)
{
	EXPECT_EQ(-EINVAL, parse(self, "processed dropped squeezed\n"));
	EXPECT_EQ(-EINVAL, parse(self, "00000001 00000002\n"));
	EXPECT_EQ(-EINVAL, parse(self, "00000001 0000000g 00000003\n"));
	EXPECT_EQ(-EINVAL, parse(self, "00000001 -1 00000003\n"));
	EXPECT_EQ(-EINVAL, parse(self, "100000000 00000000 00000000\n"));
}

TEST(root_defaults_to_proc)
{
	unsetenv("NICTL_PROCFS");
	EXPECT_STREQ("/proc", proc_root());
	setenv("NICTL_PROCFS", "", 1);
	EXPECT_STREQ("/proc", proc_root());
	setenv("NICTL_PROCFS", "/tmp/x", 1);
	EXPECT_STREQ("/tmp/x", proc_root());
	unsetenv("NICTL_PROCFS");
}

FIXTURE(procfs) {
	struct fakesys fs;
	struct stats_sample s;
	char *err;
};

FIXTURE_SETUP(procfs)
{
	fakesys_create(&self->fs);
	setenv("NICTL_PROCFS", self->fs.root, 1);
	memset(&self->s, 0, sizeof(self->s));
	self->s.cpus = calloc(1, sizeof(*self->s.cpus));
	ASSERT_NE(NULL, self->s.cpus);
	self->s.nr_cpus = 1;
	self->err = NULL;
}

FIXTURE_TEARDOWN(procfs)
{
	stats_sample_free(&self->s);
	unsetenv("NICTL_PROCFS");
	fakesys_destroy(&self->fs);
	free(self->err);
}

static int read_softnet(FIXTURE_DATA(procfs) *self)
{
	struct capture err;
	int ret;

	capture_begin(&err, stderr);
	ret = softnet_read(&self->s);
	self->err = capture_end(&err);
	return ret;
}

TEST_F(procfs, reads_net_softnet_stat_under_the_root)
{
	fakesys_write(&self->fs, "0000002a 00000000 00000001\n", "net/softnet_stat");
	ASSERT_EQ(0, read_softnet(self));
	EXPECT_STREQ("", self->err);
	EXPECT_EQ(42, self->s.cpus[0].softnet.processed);
	EXPECT_EQ(1, self->s.cpus[0].softnet.time_squeeze);
}

TEST_F(procfs, missing_file_means_no_rows)
{
	ASSERT_EQ(0, read_softnet(self));
	EXPECT_STREQ("", self->err);
	EXPECT_FALSE(self->s.cpus[0].softnet.present);
}

TEST_F(procfs, garbage_is_one_line)
{
	char expected[256];

	fakesys_write(&self->fs, "Inter-| sta-\n", "net/softnet_stat");
	ASSERT_EQ(-1, read_softnet(self));
	snprintf(expected, sizeof(expected), "nictlctl: cannot read %s/net/softnet_stat: "
		 "not in the format of softnet_stat\n", self->fs.root);
	EXPECT_STREQ(expected, self->err);
}

TEST_HARNESS_MAIN
