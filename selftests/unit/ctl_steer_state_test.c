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

	EXPECT_FALSE(state_exists(GONE_IFINDEX));
	ASSERT_EQ(0, state_save(GONE_IFINDEX, "vnode1", &self->kept));
	EXPECT_TRUE(state_exists(GONE_IFINDEX));
	ASSERT_EQ(0, state_load(GONE_IFINDEX, &self->loaded));
	ASSERT_EQ(self->kept.nr, self->loaded.nr);
	for (i = 0; i < self->kept.nr; i++) {
		EXPECT_STREQ(self->kept.knobs[i].name, self->loaded.knobs[i].name);
		EXPECT_STREQ(self->kept.knobs[i].value, self->loaded.knobs[i].value);
	}
	EXPECT_EQ(0, state_remove(GONE_IFINDEX));
	EXPECT_EQ(-ENOENT, state_load(GONE_IFINDEX, &self->loaded));
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
