// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's NIC reading on a device the ethtool ioctl does not know (a
 * name no interface has): its sysfs drop counters from a fake /sys, and
 * everything the ioctl would have told left unknown, which no rule judges.
 */
#include "ctl_fakesys.h"

#include "kselftest_harness.h"

#include "doctor/doctor.h"

FIXTURE(nic) {
	struct fakesys sys;
	struct doc_dev dev;
};

FIXTURE_SETUP(nic)
{
	fakesys_create(&self->sys);
	memset(&self->dev, 0, sizeof(self->dev));
	self->dev.ifname = "nictlfake0";
}

FIXTURE_TEARDOWN(nic)
{
	unsigned int i;

	for (i = 0; i < self->dev.nr_drops; i++)
		free(self->dev.drops[i].name);
	free(self->dev.drops);
	fakesys_destroy(&self->sys);
}

TEST_F(nic, sysfs_drop_counters_without_ethtool)
{
	fakesys_write(&self->sys, "7\n", "class/net/nictlfake0/statistics/rx_missed_errors");
	fakesys_write(&self->sys, "3\n", "class/net/nictlfake0/statistics/rx_fifo_errors");
	/* The stack's own drops are softnet's finding, not the NIC's. */
	fakesys_write(&self->sys, "99\n", "class/net/nictlfake0/statistics/rx_dropped");
	ASSERT_EQ(0, doc_ethtool_read(&self->dev));
	ASSERT_EQ(2, self->dev.nr_drops);
	EXPECT_STREQ("sysfs:rx_missed_errors", self->dev.drops[0].name);
	EXPECT_EQ(7, self->dev.drops[0].value);
	EXPECT_STREQ("sysfs:rx_fifo_errors", self->dev.drops[1].name);
	EXPECT_EQ(3, self->dev.drops[1].value);
	EXPECT_EQ(0, self->dev.ring);
	EXPECT_EQ(0, self->dev.ring_max);
	EXPECT_EQ(0, self->dev.max_channels);
}

TEST_F(nic, nothing_known_is_nothing_read)
{
	ASSERT_EQ(0, doc_ethtool_read(&self->dev));
	EXPECT_EQ(0, self->dev.nr_drops);
}

TEST(drop_counter_names)
{
	static const char *const drops[] = {
		"rx_missed_errors", "rx_no_buffer_count", "rx_no_dma_resources",
		"rx_out_of_buffer", "rx_discards_phy", "port.rx_discards", "rx_dropped",
		"rx_queue_3_drops", "rx_fifo_errors", "RX_DROPPED", "rx_total_discard_pkts",
	};
	static const char *const others[] = {
		"tx_dropped", "tx_queue_0_drops", "rx_packets", "rx_bytes", "rx_crc_errors",
		"tx_fifo_errors", "collisions",
	};
	char wrong[512] = "";
	size_t i;

	/* The names classified wrongly, for the failure message. */
	for (i = 0; i < ARRAY_SIZE(drops); i++)
		if (!doc_is_drop_counter(drops[i]))
			strcat(strcat(wrong, " "), drops[i]);
	for (i = 0; i < ARRAY_SIZE(others); i++)
		if (doc_is_drop_counter(others[i]))
			strcat(strcat(wrong, " "), others[i]);
	EXPECT_STREQ("", wrong);
}

TEST_HARNESS_MAIN
