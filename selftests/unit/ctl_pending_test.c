// SPDX-License-Identifier: GPL-2.0
/* The daemon's retry schedule of devices that wait for their queue IRQs. */
#include "kselftest_harness.h"

#include "daemon/pending.h"

TEST(events_for_one_device_make_one_entry)
{
	struct pending p = { NULL, 0 };
	struct pending_dev d;

	ASSERT_EQ(0, pending_add(&p, 3, 1000, 10000));
	ASSERT_EQ(0, pending_add(&p, 3, 1005, 10000));
	ASSERT_EQ(0, pending_add(&p, 4, 1005, 10000));
	EXPECT_EQ(2U, p.nr);
	EXPECT_EQ(0, pending_timeout(&p, 1005));
	ASSERT_TRUE(pending_pop(&p, 1005, &d));
	ASSERT_TRUE(pending_pop(&p, 1005, &d));
	EXPECT_FALSE(pending_pop(&p, 1005, &d));
	EXPECT_EQ(-1, pending_timeout(&p, 1005));
	pending_free(&p);
}

TEST(retries_back_off_until_the_deadline)
{
	static const long long due[] = { 20, 40, 80, 160, 320, 640, 1000, 1000 };
	struct pending p = { NULL, 0 };
	struct pending_dev d;
	long long now = 0;
	unsigned int i;

	ASSERT_EQ(0, pending_add(&p, 7, now, 3000));
	ASSERT_TRUE(pending_pop(&p, now, &d));
	for (i = 0; i < 8 && now < 3000; i++) {
		ASSERT_TRUE(pending_retry(&p, &d, now));
		EXPECT_EQ(due[i], pending_timeout(&p, now)) TH_LOG("retry %u", i);
		EXPECT_FALSE(pending_pop(&p, now + due[i] - 1, &d));
		now += due[i];
		ASSERT_TRUE(pending_pop(&p, now, &d));
		EXPECT_EQ(7U, d.key);
	}
	/* 20 + 40 + ... + 640 + 1000 + 1000 > 3000: the wait is over. */
	EXPECT_FALSE(pending_retry(&p, &d, now));
	EXPECT_EQ(0U, p.nr);
	pending_free(&p);
}

TEST(a_new_event_restarts_the_wait)
{
	struct pending p = { NULL, 0 };
	struct pending_dev d;

	ASSERT_EQ(0, pending_add(&p, 7, 0, 100));
	ASSERT_TRUE(pending_pop(&p, 0, &d));
	ASSERT_TRUE(pending_retry(&p, &d, 0));
	/* The device came up: due now, with a fresh deadline. */
	ASSERT_EQ(0, pending_add(&p, 7, 10, 100));
	EXPECT_EQ(1U, p.nr);
	EXPECT_EQ(0, pending_timeout(&p, 10));
	EXPECT_EQ(110, p.devs[0].deadline_ms);
	pending_del(&p, 7);
	EXPECT_EQ(0U, p.nr);
	pending_free(&p);
}

TEST_HARNESS_MAIN
