// SPDX-License-Identifier: GPL-2.0
/* CPU sets written as the sysfs masks of rps_cpus and xps_cpus. */
#include <errno.h>
#include <stdlib.h>

#include "kselftest_harness.h"

#include "steer/mask.h"

/* @list as a mask, or "error N" when formatting it into @len bytes fails. */
static const char *mask_of(const char *list, size_t len)
{
	static char buf[STEER_MASK_LEN];
	struct cpuset cpus = CPUSET_INIT;
	int err;

	err = cpuset_parse(&cpus, list) ?: steer_mask_format(&cpus, buf, len);
	if (err)
		snprintf(buf, sizeof(buf), "error %d", err);
	cpuset_free(&cpus);
	return buf;
}

TEST(one_cpu)
{
	EXPECT_STREQ("1", mask_of("0", STEER_MASK_LEN));
	EXPECT_STREQ("20", mask_of("5", STEER_MASK_LEN));
	EXPECT_STREQ("80000000", mask_of("31", STEER_MASK_LEN));
	/* Beyond 32 CPUs the kernel reads comma-separated 32-bit groups. */
	EXPECT_STREQ("2,00000000", mask_of("33", STEER_MASK_LEN));
	EXPECT_STREQ("1,00000000,00000000", mask_of("64", STEER_MASK_LEN));
}

TEST(several_cpus)
{
	EXPECT_STREQ("e", mask_of("1-3", STEER_MASK_LEN));
	EXPECT_STREQ("f0", mask_of("4-7", STEER_MASK_LEN));
	EXPECT_STREQ("1,80000001", mask_of("0,31-32", STEER_MASK_LEN));
}

/* An empty set turns RPS or XPS off: the kernel takes "0". */
TEST(empty_set)
{
	EXPECT_STREQ("0", mask_of("", STEER_MASK_LEN));
}

TEST(short_buffer)
{
	char want[32];

	snprintf(want, sizeof(want), "error %d", -ENAMETOOLONG);
	EXPECT_STREQ(want, mask_of("64", 10));
}

/* A mask as sysfs prints it, as a cpulist, or "error N". */
static const char *list_of(const char *mask)
{
	static char buf[64];
	struct cpuset cpus = CPUSET_INIT;
	char *list;
	int err;

	err = steer_mask_parse(mask, &cpus);
	list = err ? NULL : cpuset_format(&cpus);
	if (err)
		snprintf(buf, sizeof(buf), "error %d", err);
	else
		snprintf(buf, sizeof(buf), "%s", list ?: "(out of memory)");
	free(list);
	cpuset_free(&cpus);
	return buf;
}

TEST(parse)
{
	EXPECT_STREQ("", list_of("0"));
	EXPECT_STREQ("", list_of("00000000,00000000"));
	EXPECT_STREQ("1-3", list_of("e"));
	EXPECT_STREQ("4-7", list_of("F0"));
	EXPECT_STREQ("0,31-32", list_of("1,80000001"));
	EXPECT_STREQ("64", list_of("1,00000000,00000000"));
}

/* Every mask format writes reads back as the same set. */
TEST(parse_reads_format)
{
	static const char *const lists[] = { "", "0", "5", "1-3,33", "0,31-32,64-65" };
	char mask[STEER_MASK_LEN];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(lists); i++) {
		snprintf(mask, sizeof(mask), "%s", mask_of(lists[i], STEER_MASK_LEN));
		EXPECT_STREQ(lists[i], list_of(mask)) TH_LOG("mask %s", mask);
	}
}

TEST(parse_refuses_garbage)
{
	char want[32];

	snprintf(want, sizeof(want), "error %d", -EINVAL);
	EXPECT_STREQ(want, list_of("f0x"));
	EXPECT_STREQ(want, list_of("-1"));
}

TEST_HARNESS_MAIN
