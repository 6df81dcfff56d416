// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's device changes without the module (daemon/links.c): which
 * ethtool notifications are a device's queues changing, and of which
 * device; the rest of the family's messages and other families' are not.
 */
#include <linux/ethtool_netlink.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "kselftest_harness.h"

#include "daemon/links.h"

#define ETHTOOL_ID	27

FIXTURE(links) {
	struct links l;
	unsigned int calls;
	unsigned int ifindex;
	enum link_change what;
};

static void record(void *arg, enum link_change what, unsigned int ifindex)
{
	FIXTURE_DATA(links) *self = arg;

	self->calls++;
	self->what = what;
	self->ifindex = ifindex;
}

FIXTURE_SETUP(links)
{
	self->l = (struct links)LINKS_INIT;
	self->l.ethtool = ETHTOOL_ID;
	self->l.fn = record;
	self->l.arg = self;
	self->calls = 0;
}

FIXTURE_TEARDOWN(links)
{
}

/* A message of family @family, command @cmd, with a device header of @ifindex (0: none). */
static struct nl_msg *message(int family, uint8_t cmd, unsigned int ifindex)
{
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *head;

	if (!msg || !genlmsg_put(msg, 0, 0, family, 0, 0, cmd, 1))
		return NULL;
	head = nla_nest_start(msg, ETHTOOL_A_CHANNELS_HEADER);
	if (ifindex)
		nla_put_u32(msg, ETHTOOL_A_HEADER_DEV_INDEX, ifindex);
	nla_nest_end(msg, head);
	return msg;
}

static bool handled(FIXTURE_DATA(links) *self, int family, uint8_t cmd, unsigned int ifindex)
{
	struct nl_msg *msg = message(family, cmd, ifindex);
	bool ret;

	if (!msg)
		return false;
	ret = links_genl_message(&self->l, nlmsg_hdr(msg));
	nlmsg_free(msg);
	return ret;
}

TEST_F(links, channels_changed_names_its_device)
{
	EXPECT_TRUE(handled(self, ETHTOOL_ID, ETHTOOL_MSG_CHANNELS_NTF, 7));
	EXPECT_EQ(1U, self->calls);
	EXPECT_EQ(LINK_CHANGED, self->what);
	EXPECT_EQ(7U, self->ifindex);
}

/* ethtool's other notifications are its own, and change nothing nictl keeps. */
TEST_F(links, other_ethtool_notifications_are_taken_and_ignored)
{
	EXPECT_TRUE(handled(self, ETHTOOL_ID, ETHTOOL_MSG_FEATURES_NTF, 7));
	EXPECT_TRUE(handled(self, ETHTOOL_ID, ETHTOOL_MSG_CHANNELS_NTF, 0));
	EXPECT_EQ(0U, self->calls);
}

/* Another family's message (nictl's events, the controller's) is left to the caller. */
TEST_F(links, other_families_are_left_alone)
{
	EXPECT_FALSE(handled(self, ETHTOOL_ID + 1, ETHTOOL_MSG_CHANNELS_NTF, 7));
	self->l.ethtool = -1;
	EXPECT_FALSE(handled(self, ETHTOOL_ID, ETHTOOL_MSG_CHANNELS_NTF, 7));
	EXPECT_EQ(0U, self->calls);
}

TEST_HARNESS_MAIN
