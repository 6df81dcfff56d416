// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_nl_transact() against a live kernel. The nictl module is not loaded
 * where unit tests run, so the requests go to the generic-netlink controller
 * (nlctrl), which every kernel has: a dump, a request with a reply, and
 * refusals with and without an extended ACK.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"

#include <linux/genetlink.h>

#include "nl.h"

FIXTURE(ctrl) {
	struct ctl_nl nl;
	struct ctl_nl_error e;
	unsigned int replies;
	bool saw_nlctrl;
};

FIXTURE_SETUP(ctrl)
{
	ASSERT_EQ(0, ctl_nl_connect(&self->nl));
	self->nl.family = GENL_ID_CTRL;
	self->replies = 0;
	self->saw_nlctrl = false;
}

FIXTURE_TEARDOWN(ctrl)
{
	ctl_nl_close(&self->nl);
}

/* A ctl_nl_reply_fn counting the families and spotting nlctrl itself. */
static int count_family(struct nlmsghdr *hdr, void *arg)
{
	FIXTURE_DATA(ctrl) *self = arg;
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (genlmsg_parse(hdr, 0, tb, CTRL_ATTR_MAX, NULL) || !tb[CTRL_ATTR_FAMILY_NAME])
		return -EPROTO;
	self->replies++;
	if (!strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]), "nlctrl"))
		self->saw_nlctrl = true;
	return 0;
}

static int refuse(struct nlmsghdr *hdr, void *arg)
{
	(void)hdr;
	(void)arg;
	return -EPROTO;
}

/* A GETFAMILY request for @name; a dump of all families when NULL. */
static struct nl_msg *getfamily(FIXTURE_DATA(ctrl) *self, const char *name)
{
	struct nl_msg *msg = ctl_nl_msg(&self->nl, CTRL_CMD_GETFAMILY, name ? 0 : NLM_F_DUMP);

	if (!msg || (name && nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name)))
		abort();
	return msg;
}

TEST_F(ctrl, dump_collects_every_reply)
{
	ASSERT_EQ(0, ctl_nl_transact(&self->nl, getfamily(self, NULL), count_family, self,
				     &self->e));
	EXPECT_LT(1, self->replies);
	EXPECT_TRUE(self->saw_nlctrl);
}

TEST_F(ctrl, request_gets_its_reply_and_ack)
{
	ASSERT_EQ(0, ctl_nl_transact(&self->nl, getfamily(self, "nlctrl"), count_family, self,
				     &self->e));
	EXPECT_EQ(1, self->replies);
	EXPECT_TRUE(self->saw_nlctrl);

	/* The socket is ready for the next request: sequence numbers line up. */
	ASSERT_EQ(0, ctl_nl_transact(&self->nl, getfamily(self, "nlctrl"), count_family, self,
				     &self->e));
	EXPECT_EQ(2, self->replies);
}

TEST_F(ctrl, kernel_error_is_returned)
{
	/* Family names are at most 15 characters: a longer one fails the policy. */
	EXPECT_EQ(-ENOENT, ctl_nl_transact(&self->nl, getfamily(self, "nictl-nosuch"),
					   count_family, self, &self->e));
	EXPECT_EQ(-ENOENT, self->e.err);
	EXPECT_EQ(0, self->replies);
}

TEST_F(ctrl, extended_ack_message_is_kept)
{
	struct nl_msg *msg = ctl_nl_msg(&self->nl, CTRL_CMD_GETFAMILY, 0);
	uint8_t one_byte = 1;

	/* A u16 attribute one byte long fails the controller's policy. */
	ASSERT_NE(NULL, msg);
	ASSERT_EQ(0, nla_put(msg, CTRL_ATTR_FAMILY_ID, sizeof(one_byte), &one_byte));
	EXPECT_GT(0, ctl_nl_transact(&self->nl, msg, count_family, self, &self->e));
	EXPECT_STREQ("Attribute failed policy validation", self->e.msg);
}

TEST_F(ctrl, reply_handler_error_stops_the_exchange)
{
	EXPECT_EQ(-EPROTO, ctl_nl_transact(&self->nl, getfamily(self, NULL), refuse, NULL,
					   &self->e));
	EXPECT_EQ(-EPROTO, self->e.err);
}

TEST_HARNESS_MAIN
