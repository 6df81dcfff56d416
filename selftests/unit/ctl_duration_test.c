// SPDX-License-Identifier: GPL-2.0
/* The interval syntax stats -i, doctor -i and balance --window share. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "duration.h"
#include "report.h"
#include "util.h"

TEST(seconds_fractions_and_units)
{
	static const struct {
		const char *arg;
		uint64_t ns;
	} cases[] = {
		{ "2", 2000000000ULL }, { "0.25", 250000000ULL }, { "250ms", 250000000ULL },
		{ "3s", 3000000000ULL }, { "1m", 60000000000ULL }, { "1ms", 1000000ULL },
		{ "1.5m", 90000000000ULL }, { "3600", 3600000000000ULL },
	};
	uint64_t ns;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ns = 0;
		EXPECT_EQ(0, duration_parse("stats", "-i", cases[i].arg, 3600, &ns))
			TH_LOG("%s", cases[i].arg);
		EXPECT_EQ(cases[i].ns, ns) TH_LOG("%s", cases[i].arg);
	}
}

TEST(refused_with_the_syntax)
{
	static const char *const bad[] = {
		"0", "-1", "", "nan", "inf", "1x", "ms", "0.5ms", "0.0001", "3601", "61m", "1 s",
		"1e400",
	};
	uint64_t ns = 7;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++)
		EXPECT_EQ(EXIT_USAGE, duration_parse("doctor", "-i", bad[i], 3600, &ns))
			TH_LOG("'%s' was taken", bad[i]);
	EXPECT_EQ(7U, ns);
}

TEST_HARNESS_MAIN
