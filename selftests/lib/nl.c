// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl.h"

/* A lost reply must fail the test, not hang it until the harness timeout. */
#define NL_RECV_TIMEOUT_S	60

static int extack_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_result *res = data;

	switch (mnl_attr_get_type(attr)) {
	case NLMSGERR_ATTR_MSG:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_ERROR;
		snprintf(res->msg, sizeof(res->msg), "%s", mnl_attr_get_str(attr));
		break;
	case NLMSGERR_ATTR_OFFS:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		res->has_offs = true;
		res->offs = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

/* Parse the extack TLVs that start @offset bytes into the payload of @nlh. */
static int parse_extack(const struct nlmsghdr *nlh, size_t offset, struct nl_result *res)
{
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	offset = MNL_ALIGN(offset);
	if (offset > mnl_nlmsg_get_payload_len(nlh))
		return -EPROTO;
	if (mnl_attr_parse(nlh, offset, extack_attr_cb, res) < 0)
		return -EPROTO;
	return 0;
}

static int parse_error(const struct nlmsghdr *nlh, struct nl_result *res)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	size_t offset = sizeof(*e);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e) || e->error > 0)
		return -EPROTO;
	/* Unless capped, the kernel echoes our whole request before the TLVs. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		offset += e->msg.nlmsg_len - sizeof(e->msg);
	if (parse_extack(nlh, offset, res))
		return -EPROTO;
	res->err = -e->error;
	return e->error;
}

static int parse_done(const struct nlmsghdr *nlh, struct nl_result *res)
{
	int error;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(error))
		return -EPROTO;
	memcpy(&error, mnl_nlmsg_get_payload(nlh), sizeof(error));
	if (error > 0 || parse_extack(nlh, sizeof(error), res))
		return -EPROTO;
	res->err = -error;
	return error;
}

int nl_parse_buf(const void *buf, size_t len, uint32_t seq, nl_reply_cb cb, void *data,
		 struct nl_result *res)
{
	const struct nlmsghdr *nlh = buf;
	int rem = len, ret;

	for (; mnl_nlmsg_ok(nlh, rem); nlh = mnl_nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_seq != seq)
			return -EPROTO;
		switch (nlh->nlmsg_type) {
		case NLMSG_ERROR:
			return parse_error(nlh, res);
		case NLMSG_DONE:
			return parse_done(nlh, res);
		case NLMSG_NOOP:
			break;
		case NLMSG_OVERRUN:
			return -EPROTO;
		default:
			ret = cb ? cb(nlh, data) : 0;
			if (ret < 0)
				return ret;
		}
	}
	return rem ? -EPROTO : 1;
}

int nl_transact(struct nl_client *c, struct nlmsghdr *req, nl_reply_cb cb, void *data,
		struct nl_result *res)
{
	char *buf;
	ssize_t n;
	int ret;

	memset(res, 0, sizeof(*res));
	if (mnl_socket_sendto(c->sock, req, req->nlmsg_len) < 0)
		return -errno;
	buf = malloc(NL_RECV_SIZE);
	if (!buf)
		return -ENOMEM;
	do {
		n = mnl_socket_recvfrom(c->sock, buf, NL_RECV_SIZE);
		if (n < 0) {
			ret = -errno;
			break;
		}
		ret = nl_parse_buf(buf, n, req->nlmsg_seq, cb, data, res);
	} while (ret > 0);
	free(buf);
	return ret;
}

struct nlmsghdr *nl_msg_start(void *buf, uint16_t family, uint8_t cmd, uint8_t version,
			      uint16_t flags, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	if (!(flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = version;
	return nlh;
}

uint32_t nl_attr_offset(const struct nlmsghdr *nlh, const struct nlattr *attr)
{
	return (const char *)attr - (const char *)nlh;
}

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	struct nl_client *c = data;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_FAMILY_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U16) < 0)
			return MNL_CB_ERROR;
		c->family = mnl_attr_get_u16(attr);
		break;
	case CTRL_ATTR_VERSION:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		c->version = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb, data) < 0)
		return -EPROTO;
	return 0;
}

/* Ask the controller about family @name, its reply going to @cb. */
static int get_family(struct nl_client *c, const char *name, nl_reply_cb cb, void *data)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct nl_result res;

	nlh = nl_msg_start(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, 0, ++c->seq);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	return nl_transact(c, nlh, cb, data, &res);
}

static int resolve_family(struct nl_client *c, const char *name)
{
	int ret;

	c->family = 0;
	ret = get_family(c, name, family_cb, c);
	if (!ret && !c->family)
		ret = -EPROTO;
	return ret;
}

/* The group looked for, and its id once found. */
struct group_query {
	const char *name;
	uint32_t id;
};

/* One entry of CTRL_ATTR_MCAST_GROUPS. */
struct group_entry {
	const char *name;
	const struct nlattr *id;
};

static int group_attr_cb(const struct nlattr *attr, void *data)
{
	struct group_entry *e = data;

	switch (mnl_attr_get_type(attr)) {
	case CTRL_ATTR_MCAST_GRP_NAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return MNL_CB_ERROR;
		e->name = mnl_attr_get_str(attr);
		break;
	case CTRL_ATTR_MCAST_GRP_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		e->id = attr;
		break;
	}
	return MNL_CB_OK;
}

/* CTRL_ATTR_MCAST_GROUPS: one nest per group, with its name and id. */
static int groups_attr_cb(const struct nlattr *attr, void *data)
{
	struct group_query *q = data;
	const struct nlattr *grp;
	struct group_entry e;

	if (mnl_attr_get_type(attr) != CTRL_ATTR_MCAST_GROUPS)
		return MNL_CB_OK;
	mnl_attr_for_each_nested(grp, attr) {
		memset(&e, 0, sizeof(e));
		if (mnl_attr_parse_nested(grp, group_attr_cb, &e) < 0)
			return MNL_CB_ERROR;
		if (e.name && e.id && !strcmp(e.name, q->name))
			q->id = mnl_attr_get_u32(e.id);
	}
	return MNL_CB_OK;
}

static int groups_cb(const struct nlmsghdr *nlh, void *data)
{
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), groups_attr_cb, data) < 0)
		return -EPROTO;
	return 0;
}

int nl_join_group(struct nl_client *c, const char *family_name, const char *group)
{
	struct group_query q = { .name = group };
	int ret;

	ret = get_family(c, family_name, groups_cb, &q);
	if (ret)
		return ret;
	if (!q.id)
		return -ENOENT;
	if (mnl_socket_setsockopt(c->sock, NETLINK_ADD_MEMBERSHIP, &q.id, sizeof(q.id)) < 0)
		return -errno;
	return 0;
}

ssize_t nl_recv_timeout(struct nl_client *c, void *buf, size_t len, int timeout_ms)
{
	struct pollfd pfd = { .fd = mnl_socket_get_fd(c->sock), .events = POLLIN };
	ssize_t n;

	n = poll(&pfd, 1, timeout_ms);
	if (n <= 0)
		return n < 0 ? -errno : 0;
	n = mnl_socket_recvfrom(c->sock, buf, len);
	return n < 0 ? -errno : n;
}

int nl_open(struct nl_client *c, const char *family_name)
{
	struct timeval tv = { .tv_sec = NL_RECV_TIMEOUT_S };
	int one = 1, ret;

	memset(c, 0, sizeof(*c));
	c->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!c->sock)
		return -errno;
	if (mnl_socket_bind(c->sock, 0, MNL_SOCKET_AUTOPID) < 0 ||
	    mnl_socket_setsockopt(c->sock, NETLINK_EXT_ACK, &one, sizeof(one)) < 0 ||
	    setsockopt(mnl_socket_get_fd(c->sock), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv))) {
		ret = -errno;
		nl_close(c);
		return ret;
	}
	c->seq = time(NULL);
	ret = resolve_family(c, family_name);
	if (ret)
		nl_close(c);
	return ret;
}

void nl_close(struct nl_client *c)
{
	if (c->sock)
		mnl_socket_close(c->sock);
	c->sock = NULL;
}
