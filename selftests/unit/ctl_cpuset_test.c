// SPDX-License-Identifier: GPL-2.0
/* cpulist parsing and printing, and the protocol's byte-wise CPU bitmap. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "cpuset.h"
#include "util.h"

/* Parse @list into a fresh set and print it back. */
static char *round_trip(const char *list, int *err)
{
	struct cpuset s = CPUSET_INIT;
	char *out;

	*err = cpuset_parse(&s, list);
	out = cpuset_format(&s);
	cpuset_free(&s);
	return out;
}

TEST(parse_format_round_trip)
{
	static const char *const cases[][2] = {
		{ "0", "0" },
		{ "0-3", "0-3" },
		{ "4-5,7", "4-5,7" },
		{ "0-3,8,10-11", "0-3,8,10-11" },
		{ "1,3,5", "1,3,5" },
		{ "0,1", "0-1" },		/* runs of two print as ranges */
		{ "7,6,5", "5-7" },		/* order does not matter */
		{ "2-2", "2" },
		{ "1-3,2-5", "1-5" },		/* overlaps merge */
		{ "0-3\n", "0-3" },		/* sysfs ends lines with a newline */
		{ "  63,64 ", "63-64" },	/* across a word boundary */
		{ "", "" },			/* sysfs's empty mask */
		{ "\n", "" },
		{ "8191", "8191" },		/* the protocol's last CPU */
	};
	unsigned int i;
	char *out;
	int err;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		out = round_trip(cases[i][0], &err);
		EXPECT_EQ(0, err) TH_LOG("parsing '%s'", cases[i][0]);
		ASSERT_NE(NULL, out);
		EXPECT_STREQ(cases[i][1], out) TH_LOG("parsing '%s'", cases[i][0]);
		free(out);
	}
}

TEST(parse_rejects_bad_lists)
{
	static const char *const syntax[] = {
		"3-1", "a", "1,,2", ",1", "1,", "1-", "-1", "1-2-3", "+1", "1 2", "0x1",
		"1;2", "1-a", " , ", "1:2", "0-3:2/4",
	};
	static const char *const range[] = { "8192", "0-8192", "99999999999999999999" };
	struct cpuset s = CPUSET_INIT;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(syntax); i++)
		EXPECT_EQ(-EINVAL, cpuset_parse(&s, syntax[i])) TH_LOG("list %u", i);
	for (i = 0; i < ARRAY_SIZE(range); i++)
		EXPECT_EQ(-ERANGE, cpuset_parse(&s, range[i])) TH_LOG("list %u", i);
	cpuset_free(&s);
}

TEST(parse_adds_to_the_set)
{
	struct cpuset s = CPUSET_INIT;
	char *out;

	ASSERT_EQ(0, cpuset_parse(&s, "1"));
	ASSERT_EQ(0, cpuset_parse(&s, "3-4"));
	out = cpuset_format(&s);
	EXPECT_STREQ("1,3-4", out);
	free(out);
	cpuset_free(&s);
}

/* The masks /proc/irq/default_smp_affinity and IRQBALANCE_BANNED_CPUS hold. */
TEST(parse_mask)
{
	static const struct {
		const char *mask, *list;
	} ok[] = {
		{ "ff\n", "0-7" },
		{ "50", "4,6" },
		{ "0x50", "4,6" },
		{ "00000000,00000050", "4,6" },
		{ "1,0", "32" },
		{ "1,00000001", "0,32" },
		{ "  Af  ", "0-3,5,7" },
		{ "0", "" },
	};
	static const char *const bad[] = {
		"", "x", "1,,2", ",1", "1,", "123456789", "1 2", "0x", "-1", "g",
	};
	struct cpuset s = CPUSET_INIT, t = CPUSET_INIT;
	char *out, *big;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		ASSERT_EQ(0, cpuset_parse_mask(&s, ok[i].mask)) TH_LOG("mask '%s'", ok[i].mask);
		out = cpuset_format(&s);
		EXPECT_STREQ(ok[i].list, out) TH_LOG("mask '%s'", ok[i].mask);
		free(out);
		cpuset_free(&s);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(-EINVAL, cpuset_parse_mask(&s, bad[i])) TH_LOG("bad mask %u", i);
	/* "1" and 256 chunks of 32 bits: CPU 8192, one past what the protocol carries. */
	big = malloc(1 + 256 * 9 + 1);
	ASSERT_NE(NULL, big);
	strcpy(big, "1");
	for (i = 0; i < 256; i++)
		strcat(big, ",00000000");
	EXPECT_EQ(-ERANGE, cpuset_parse_mask(&t, big));
	big[0] = '0';
	EXPECT_EQ(0, cpuset_parse_mask(&t, big));
	free(big);
	cpuset_free(&s);
	cpuset_free(&t);
}

TEST(equal)
{
	struct cpuset a = CPUSET_INIT, b = CPUSET_INIT;

	EXPECT_TRUE(cpuset_equal(&a, &b));
	ASSERT_EQ(0, cpuset_parse(&a, "3,200"));
	EXPECT_FALSE(cpuset_equal(&a, &b));
	ASSERT_EQ(0, cpuset_parse(&b, "3"));
	EXPECT_FALSE(cpuset_equal(&a, &b));
	cpuset_del(&a, 200);	/* a has more words than b, all zero now */
	EXPECT_TRUE(cpuset_equal(&a, &b));
	EXPECT_TRUE(cpuset_equal(&b, &a));
	cpuset_free(&a);
	cpuset_free(&b);
}

TEST(set_operations)
{
	struct cpuset a = CPUSET_INIT, b = CPUSET_INIT;
	char *out;
	int cpu, n = 0;

	ASSERT_EQ(0, cpuset_parse(&a, "0-7,100"));
	ASSERT_EQ(0, cpuset_parse(&b, "2-3,100,200"));
	EXPECT_EQ(9, cpuset_weight(&a));
	EXPECT_TRUE(cpuset_has(&a, 100));
	EXPECT_FALSE(cpuset_has(&a, 99));
	EXPECT_FALSE(cpuset_has(&a, 5000));	/* beyond the words held */
	EXPECT_EQ(100, cpuset_next(&a, 7));
	EXPECT_EQ(-1, cpuset_next(&a, 100));
	EXPECT_TRUE(cpuset_intersects(&a, &b));

	cpuset_andnot(&a, &b);
	out = cpuset_format(&a);
	EXPECT_STREQ("0-1,4-7", out);
	free(out);
	EXPECT_FALSE(cpuset_intersects(&a, &b));

	cpuset_del(&a, 0);
	cpuset_del(&a, 9000);	/* a CPU the set never held */
	cpuset_for_each(cpu, &a)
		n++;
	EXPECT_EQ(5, n);

	ASSERT_EQ(0, cpuset_or(&a, &b));
	cpuset_and(&a, &b);
	out = cpuset_format(&a);
	EXPECT_STREQ("2-3,100,200", out);
	free(out);

	cpuset_free(&a);
	EXPECT_TRUE(cpuset_empty(&a));
	EXPECT_EQ(-1, cpuset_next(&a, -1));
	cpuset_free(&b);
}

TEST(bitmap_encoding_is_byte_wise)
{
	struct cpuset s = CPUSET_INIT;
	uint8_t buf[4];

	ASSERT_EQ(0, cpuset_parse(&s, "0,9,15"));
	ASSERT_EQ(2, cpuset_bytes_len(&s));
	memset(buf, 0xaa, sizeof(buf));
	cpuset_to_bytes(&s, buf, sizeof(buf));
	EXPECT_EQ(0x01, buf[0]);
	EXPECT_EQ(0x82, buf[1]);
	EXPECT_EQ(0x00, buf[2]);	/* padded with zeroes */
	EXPECT_EQ(0x00, buf[3]);
	cpuset_free(&s);
	EXPECT_EQ(0, cpuset_bytes_len(&s));
}

TEST(bitmap_decoding)
{
	static const uint8_t buf[] = { 0x01, 0x80, 0x00, 0x04 };
	struct cpuset s = CPUSET_INIT;
	char *out;

	ASSERT_EQ(0, cpuset_parse(&s, "40"));	/* replaced, not added to */
	ASSERT_EQ(0, cpuset_from_bytes(&s, buf, sizeof(buf)));
	out = cpuset_format(&s);
	EXPECT_STREQ("0,15,26", out);
	free(out);
	ASSERT_EQ(0, cpuset_from_bytes(&s, buf, 0));
	EXPECT_TRUE(cpuset_empty(&s));
	cpuset_free(&s);
}

TEST(bitmap_round_trip_at_the_limit)
{
	struct cpuset s = CPUSET_INIT, back = CPUSET_INIT;
	uint8_t buf[NICTL_CPUMASK_MAX_BYTES + 1] = { 0 };
	char *a, *b;

	ASSERT_EQ(0, cpuset_parse(&s, "0-2,64,1000-1003,8191"));
	ASSERT_EQ(NICTL_CPUMASK_MAX_BYTES, cpuset_bytes_len(&s));
	cpuset_to_bytes(&s, buf, NICTL_CPUMASK_MAX_BYTES);
	ASSERT_EQ(0, cpuset_from_bytes(&back, buf, NICTL_CPUMASK_MAX_BYTES));
	a = cpuset_format(&s);
	b = cpuset_format(&back);
	EXPECT_STREQ(a, b);
	free(a);
	free(b);

	/* A bit past the last CPU the protocol can name is refused. */
	buf[NICTL_CPUMASK_MAX_BYTES] = 1;
	EXPECT_EQ(-ERANGE, cpuset_from_bytes(&back, buf, sizeof(buf)));
	cpuset_free(&s);
	cpuset_free(&back);
}

TEST_HARNESS_MAIN
