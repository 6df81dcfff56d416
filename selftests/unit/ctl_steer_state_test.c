// SPDX-License-Identifier: GPL-2.0
/* What bind --steer keeps for restore, in a directory of the test's own. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "steer/state.h"

/* The loopback device is always ifindex 1; no device has this one. */
#define LO_IFINDEX	1
#define GONE_IFINDEX	999999

FIXTURE(state) {
	char dir[64];
	struct knob_list kept;
	struct knob_list loaded;
};

FIXTURE_SETUP(state)
{
	self->kept = self->loaded = (struct knob_list){ NULL, 0 };
	snprintf(self->dir, sizeof(self->dir), "/tmp/nictlctl-run-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, setenv("NICTL_RUN_DIR", self->dir, 1));
	ASSERT_EQ(0, knobs_add(&self->kept, "rx-0/rps_flow_cnt", "0"));
	ASSERT_EQ(0, knobs_add(&self->kept, "rx-0/rps_cpus", "00"));
	ASSERT_EQ(0, knobs_add(&self->kept, "tx-1/xps_cpus", "1,00000000"));
}

FIXTURE_TEARDOWN(state)
{
	char cmd[96];

	knobs_free(&self->kept);
	knobs_free(&self->loaded);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	EXPECT_EQ(0, system(cmd));
	unsetenv("NICTL_RUN_DIR");
}

TEST_F(state, saved_values_load_back)
{
	unsigned int i;

	EXPECT_EQ(-ENOENT, state_load(GONE_IFINDEX, &self->loaded));
	ASSERT_EQ(0, state_save(GONE_IFINDEX, "vnode1", &self->kept));
	ASSERT_EQ(0, state_load(GONE_IFINDEX, &self->loaded));
	ASSERT_EQ(self->kept.nr, self->loaded.nr);
	for (i = 0; i < self->kept.nr; i++) {
		EXPECT_STREQ(self->kept.knobs[i].name, self->loaded.knobs[i].name);
		EXPECT_STREQ(self->kept.knobs[i].value, self->loaded.knobs[i].value);
	}
	EXPECT_EQ(0, state_remove(GONE_IFINDEX));
	EXPECT_EQ(-ENOENT, state_load(GONE_IFINDEX, &self->loaded));
}

/*
 * A later steering (a queue added by ethtool -L, a part steered for the
 * first time) adds what it replaced; a value kept already is from before
 * nictl and stays.
 */
TEST_F(state, keep_adds_only_new_values)
{
	struct knob_list later = { NULL, 0 };
	bool created;

	ASSERT_EQ(0, state_keep(GONE_IFINDEX, "vnode1", &self->kept, &created));
	EXPECT_TRUE(created);
	ASSERT_EQ(0, knobs_add(&later, "rx-0/rps_cpus", "f0"));
	ASSERT_EQ(0, knobs_add(&later, "rx-1/rps_cpus", "0"));
	ASSERT_EQ(0, state_keep(GONE_IFINDEX, "vnode1", &later, &created));
	EXPECT_FALSE(created);
	knobs_free(&later);
	ASSERT_EQ(0, state_load(GONE_IFINDEX, &self->loaded));
	ASSERT_EQ(4U, self->loaded.nr);
	EXPECT_STREQ("00", knobs_find(&self->loaded, "rx-0/rps_cpus")->value);
	EXPECT_STREQ("0", knobs_find(&self->loaded, "rx-1/rps_cpus")->value);
	EXPECT_STREQ("1,00000000", knobs_find(&self->loaded, "tx-1/xps_cpus")->value);
	EXPECT_EQ(NULL, knobs_find(&self->loaded, "rx-2/rps_cpus"));
}

/* Only a device that is still there holds the RFS table size up. */
TEST_F(state, others_are_devices_still_there)
{
	ASSERT_EQ(0, state_save(GONE_IFINDEX, "gone0", &self->kept));
	EXPECT_FALSE(state_others(LO_IFINDEX));
	ASSERT_EQ(0, state_save(LO_IFINDEX, "lo", &self->kept));
	EXPECT_TRUE(state_others(GONE_IFINDEX));
	EXPECT_FALSE(state_others(LO_IFINDEX));
}

TEST_F(state, flow_entries_record)
{
	unsigned int before, raised;

	EXPECT_EQ(-ENOENT, state_flow_load(&before, &raised));
	ASSERT_EQ(0, state_flow_save(4096, 32768));
	ASSERT_EQ(0, state_flow_load(&before, &raised));
	EXPECT_EQ(4096U, before);
	EXPECT_EQ(32768U, raised);
	EXPECT_EQ(0, state_flow_remove());
	EXPECT_EQ(-ENOENT, state_flow_load(&before, &raised));
}

TEST_HARNESS_MAIN
