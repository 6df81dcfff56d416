// SPDX-License-Identifier: GPL-2.0
/* The daemon's backoff against whoever undoes its re-applies. */
#include "kselftest_harness.h"

#include "daemon/backoff.h"

/* A change of device 3 at @now: the wait the daemon gets. */
static unsigned int change(struct backoff *b, long long now, bool *started)
{
	unsigned int delay = ~0U;

	if (backoff_change(b, 3, now, &delay, started))
		abort();
	return delay;
}

TEST(a_lone_change_is_answered_at_once)
{
	struct backoff b = { NULL, 0 };
	bool started;

	EXPECT_EQ(0U, change(&b, 1000, &started));
	EXPECT_FALSE(started);
	backoff_applied(&b, 3, 1100);
	/* The next change comes after a quiet spell: no fight. */
	EXPECT_EQ(0U, change(&b, 1100 + BACKOFF_FIGHT_WINDOW_MS, &started));
	EXPECT_FALSE(started);
	EXPECT_FALSE(backoff_fighting(&b, 3));
	backoff_free(&b);
}

/* Someone undoes every re-apply half a second later, for an hour. */
TEST(a_fight_doubles_the_wait_up_to_the_cap_then_ends)
{
	struct backoff b = { NULL, 0 };
	unsigned int delay, applies = 0, starts = 0, last = 0;
	long long now = 0, end = 3600 * 1000LL;
	bool started;

	while (now < end) {
		delay = change(&b, now, &started);
		starts += started;
		if (applies > 1 && delay != BACKOFF_MAX_MS)
			EXPECT_EQ(last ? 2 * last : (unsigned int)BACKOFF_FIRST_MS, delay)
				TH_LOG("apply %u", applies);
		last = delay;
		now += delay;
		backoff_applied(&b, 3, now);
		applies++;
		now += 500;
	}
	EXPECT_EQ(1U, starts);
	EXPECT_TRUE(backoff_fighting(&b, 3));
	EXPECT_EQ((unsigned int)BACKOFF_MAX_MS, last);
	/* 1 s doubling to the 5 min cap: about 9 steps, then one per 5 min. */
	EXPECT_GE(25U, applies) TH_LOG("%u re-applies in an hour", applies);
	/* The fighter stops: the next change, much later, is answered at once. */
	EXPECT_EQ(0U, change(&b, now + BACKOFF_FIGHT_WINDOW_MS, &started));
	EXPECT_FALSE(backoff_fighting(&b, 3));
	backoff_free(&b);
}

/* Changes that arrive while an answer waits do not double the wait again. */
TEST(changes_during_the_wait_count_once)
{
	struct backoff b = { NULL, 0 };
	bool started;

	change(&b, 0, &started);
	backoff_applied(&b, 3, 10);
	EXPECT_EQ((unsigned int)BACKOFF_FIRST_MS, change(&b, 500, &started));
	EXPECT_TRUE(started);
	EXPECT_EQ((unsigned int)BACKOFF_FIRST_MS, change(&b, 700, &started));
	EXPECT_FALSE(started);
	backoff_applied(&b, 3, 1500);
	EXPECT_EQ(2U * BACKOFF_FIRST_MS, change(&b, 2000, &started));
	backoff_free(&b);
}

/* Devices are apart, and a device that went away starts calm. */
TEST(devices_are_apart_and_forgotten)
{
	struct backoff b = { NULL, 0 };
	unsigned int delay;
	bool started;

	change(&b, 0, &started);
	backoff_applied(&b, 3, 10);
	change(&b, 500, &started);
	ASSERT_TRUE(backoff_fighting(&b, 3));
	ASSERT_EQ(0, backoff_change(&b, 4, 600, &delay, &started));
	EXPECT_EQ(0U, delay);
	EXPECT_FALSE(backoff_fighting(&b, 4));
	backoff_forget(&b, 3);
	EXPECT_FALSE(backoff_fighting(&b, 3));
	EXPECT_EQ(0U, change(&b, 700, &started));
	backoff_free(&b);
}

TEST_HARNESS_MAIN
