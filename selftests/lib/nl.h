/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A raw generic-netlink client on libmnl, independent of nictlctl's libnl
 * code, so the protocol is tested from a second implementation. It keeps
 * what a test needs to assert on: the kernel's errno and its extack.
 */
#ifndef NICTL_TEST_NL_H
#define NICTL_TEST_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libmnl/libmnl.h>

/* Big enough for any request a test builds (a maximal CPU bitmap and more). */
#define NL_REQ_SIZE	8192
/* A dump datagram may carry several devices. */
#define NL_RECV_SIZE	65536

struct nl_client {
	struct mnl_socket *sock;
	uint16_t family;	/* resolved id of the family */
	uint32_t version;	/* CTRL_ATTR_VERSION of the family */
	uint32_t seq;
};

/*
 * The outcome of one transaction. @err is the positive errno the kernel
 * answered with (0 for success); a local failure (socket error, malformed
 * reply) leaves it 0 and only shows in the return value.
 */
struct nl_result {
	int err;
	char msg[256];		/* NLMSGERR_ATTR_MSG, "" when absent */
	bool has_offs;
	uint32_t offs;		/* NLMSGERR_ATTR_OFFS */
};

/* Called for every message that is not an error, ack or done. */
typedef int (*nl_reply_cb)(const struct nlmsghdr *nlh, void *data);

/*
 * Open a socket with extended acks and resolve @family_name: -ENOENT when
 * the family is not registered (module not loaded).
 */
int nl_open(struct nl_client *c, const char *family_name);
void nl_close(struct nl_client *c);

/*
 * Start a request in @buf (NL_REQ_SIZE bytes) for @family: a do request
 * asks for an ack, so every transaction ends with one message from the
 * kernel that carries its errno; a dump (@flags has NLM_F_DUMP) ends with
 * NLMSG_DONE instead.
 */
struct nlmsghdr *nl_msg_start(void *buf, uint16_t family, uint8_t cmd, uint8_t version,
			      uint16_t flags, uint32_t seq);
/* Byte offset of @attr from the start of @nlh, as NLMSGERR_ATTR_OFFS counts. */
uint32_t nl_attr_offset(const struct nlmsghdr *nlh, const struct nlattr *attr);

/*
 * Feed one received datagram of the transaction with sequence @seq. Returns
 * 1 while more is expected, 0 once it ended in success, -errno when it
 * ended in an error (the kernel's, then recorded in @res, or a local one:
 * -EPROTO for a malformed or foreign message).
 */
int nl_parse_buf(const void *buf, size_t len, uint32_t seq, nl_reply_cb cb, void *data,
		 struct nl_result *res);

/* Send @req and collect replies until the transaction ends; see nl_parse_buf(). */
int nl_transact(struct nl_client *c, struct nlmsghdr *req, nl_reply_cb cb, void *data,
		struct nl_result *res);

/*
 * Join the multicast group @group of @c's family (@family_name): 0, -ENOENT
 * when the family has no such group, or -errno.
 */
int nl_join_group(struct nl_client *c, const char *family_name, const char *group);
/*
 * Receive one datagram into @buf within @timeout_ms: its length, 0 when
 * none came in time, or -errno (-ENOBUFS: the socket overran, messages
 * were lost).
 */
ssize_t nl_recv_timeout(struct nl_client *c, void *buf, size_t len, int timeout_ms);

#endif /* NICTL_TEST_NL_H */
