// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the kernel's extended ACKs out of error and DONE messages, and
 * the one line a failed request prints.
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"

#include "ctl_capture.h"
#include "nl.h"

/* A netlink message assembled byte by byte, as the kernel would send it. */
struct raw {
	union {
		struct nlmsghdr hdr;
		uint8_t bytes[512];
	};
	size_t len;
};

static void raw_start(struct raw *r, uint16_t type, uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->hdr.nlmsg_type = type;
	r->hdr.nlmsg_flags = flags;
	r->len = NLMSG_HDRLEN;
	r->hdr.nlmsg_len = r->len;
}

static void raw_put(struct raw *r, const void *data, size_t len)
{
	memcpy(r->bytes + r->len, data, len);
	r->len = NLMSG_ALIGN(r->len + len);
	r->hdr.nlmsg_len = r->len;
}

static void raw_attr(struct raw *r, uint16_t type, const void *data, size_t len)
{
	struct nlattr attr = { .nla_len = NLA_HDRLEN + len, .nla_type = type };

	memcpy(r->bytes + r->len, &attr, sizeof(attr));
	memcpy(r->bytes + r->len + NLA_HDRLEN, data, len);
	r->len = NLMSG_ALIGN(r->len + NLA_HDRLEN + len);
	r->hdr.nlmsg_len = r->len;
}

/* The nlmsgerr of an error about a request of @req_len bytes. */
static void raw_error(struct raw *r, int error, uint32_t req_len)
{
	struct nlmsgerr err = { .error = error };

	err.msg.nlmsg_len = req_len;
	raw_put(r, &err, sizeof(err));
}

static void raw_tlvs(struct raw *r, const char *msg)
{
	uint32_t offs = 20;

	/* Another extack attribute first: the message must still be found. */
	raw_attr(r, NLMSGERR_ATTR_OFFS, &offs, sizeof(offs));
	raw_attr(r, NLMSGERR_ATTR_MSG, msg, strlen(msg) + 1);
}

TEST(capped_error)
{
	struct raw r;
	char buf[64];

	raw_start(&r, NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	raw_error(&r, -EINVAL, 1040);
	raw_tlvs(&r, "CPU 9 does not exist");
	ctl_nl_extack(&r.hdr, buf, sizeof(buf));
	EXPECT_STREQ("CPU 9 does not exist", buf);
}

TEST(uncapped_error_skips_the_echoed_request)
{
	uint8_t request_body[14] = { 0 };	/* padded to 16 in the echo */
	struct raw r;
	char buf[64];

	raw_start(&r, NLMSG_ERROR, NLM_F_ACK_TLVS);
	raw_error(&r, -EINVAL, NLMSG_HDRLEN + sizeof(request_body));
	raw_put(&r, request_body, sizeof(request_body));
	raw_tlvs(&r, "unknown queue 7");
	ctl_nl_extack(&r.hdr, buf, sizeof(buf));
	EXPECT_STREQ("unknown queue 7", buf);
}

TEST(done_of_a_failed_dump)
{
	int error = -ENOBUFS;
	struct raw r;
	char buf[64];

	raw_start(&r, NLMSG_DONE, NLM_F_MULTI | NLM_F_ACK_TLVS);
	raw_put(&r, &error, sizeof(error));
	raw_tlvs(&r, "dump failed");
	ctl_nl_extack(&r.hdr, buf, sizeof(buf));
	EXPECT_STREQ("dump failed", buf);
}

TEST(no_extack)
{
	struct raw r;
	char buf[64] = "stale";

	raw_start(&r, NLMSG_ERROR, NLM_F_CAPPED);
	raw_error(&r, -EPERM, 36);
	ctl_nl_extack(&r.hdr, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
}

TEST(truncated_messages_yield_nothing)
{
	struct raw r;
	char buf[64] = "stale";

	/* Flagged, but the echo claims more bytes than the message holds. */
	raw_start(&r, NLMSG_ERROR, NLM_F_ACK_TLVS);
	raw_error(&r, -EINVAL, 400);
	raw_tlvs(&r, "x");
	ctl_nl_extack(&r.hdr, buf, sizeof(buf));
	EXPECT_STREQ("", buf);

	/* Too short for an nlmsgerr at all. */
	raw_start(&r, NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	raw_put(&r, "\xea\xff\xff\xff", 4);
	ctl_nl_extack(&r.hdr, buf, sizeof(buf));
	EXPECT_STREQ("", buf);

	/* A message attribute that is not a string. */
	raw_start(&r, NLMSG_ERROR, NLM_F_CAPPED | NLM_F_ACK_TLVS);
	raw_error(&r, -EINVAL, 36);
	raw_attr(&r, NLMSGERR_ATTR_MSG, "abc", 3);
	ctl_nl_extack(&r.hdr, buf, sizeof(buf));
	EXPECT_STREQ("", buf);
}

/* What ctl_nl_report() prints for @err with extack message @msg. */
static char *report(const char *cmd, const char *dev, int err, const char *msg)
{
	struct ctl_nl_error e = { .err = err };
	struct capture cap;

	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	capture_begin(&cap, stderr);
	ctl_nl_report(cmd, dev, &e);
	return capture_end(&cap);
}

#define EXPECT_REPORT(line, cmd, dev, err, msg) do {		\
	char *_text = report(cmd, dev, err, msg);		\
	EXPECT_STREQ(line "\n", _text);				\
	free(_text);						\
} while (0)

TEST(report_lines)
{
	EXPECT_REPORT("nictlctl: no such device: eth9", "show", "eth9", -ENODEV, "");
	EXPECT_REPORT("nictlctl: permission denied: needs CAP_NET_ADMIN in the initial "
		     "user namespace (run as root on the host)",
		      "bind", "vnode1", -EPERM, "");
	EXPECT_REPORT("nictlctl: bind vnode1: IRQ 45 is managed by the kernel "
		      "(Operation not permitted)",
		      "bind", "vnode1", -EPERM, "IRQ 45 is managed by the kernel");
	EXPECT_REPORT("nictlctl: bind vnode1: CPU 9 does not exist (Invalid argument)",
		      "bind", "vnode1", -EINVAL, "CPU 9 does not exist");
	EXPECT_REPORT("nictlctl: bind vnode1: Invalid argument", "bind", "vnode1", -EINVAL, "");
	EXPECT_REPORT("nictlctl: restore vnode1: nictl has not bound this device; there is "
		      "nothing to restore (No data available)",
		      "restore", "vnode1", -ENODATA, "");
	EXPECT_REPORT("nictlctl: bind vnode1: the device has no queue IRQs; is it down? "
		      "(No such file or directory)",
		      "bind", "vnode1", -ENOENT, "");
	EXPECT_REPORT("nictlctl: show: malformed reply; nictlctl and the nictl module must be "
		      "of one release (Protocol error)",
		      "show", NULL, -EPROTO, "");
	EXPECT_REPORT("nictlctl: show: Cannot allocate memory", "show", NULL, -ENOMEM, "");
}

TEST_HARNESS_MAIN
