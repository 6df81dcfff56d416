// SPDX-License-Identifier: GPL-2.0
/*
 * Device changes from rtnetlink and ethtool netlink, for the daemon while
 * the module is away. Any RTM_NEWLINK is a change worth a look: the apply
 * that answers it finds out whether anything needs moving, and an apply
 * that moves nothing writes nothing.
 */
#include <errno.h>

#include <linux/ethtool_netlink.h>
#include <linux/genetlink.h>
#include <linux/rtnetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "daemon/links.h"

static int on_route(struct nl_msg *msg, void *arg)
{
	const struct nlmsghdr *hdr = nlmsg_hdr(msg);
	const struct ifinfomsg *ifi = nlmsg_data(hdr);
	struct links *l = arg;

	if ((hdr->nlmsg_type != RTM_NEWLINK && hdr->nlmsg_type != RTM_DELLINK) ||
	    !nlmsg_valid_hdr(hdr, sizeof(*ifi)) || ifi->ifi_index <= 0)
		return NL_OK;
	l->fn(l->arg, hdr->nlmsg_type == RTM_DELLINK ? LINK_GONE : LINK_CHANGED,
	      ifi->ifi_index);
	return NL_OK;
}

/* ethtool's monitor group, where the kernel has ethtool netlink (5.6+). */
static int join_ethtool(struct links *l, struct nl_sock *ask, struct nl_sock *genl)
{
	l->ethtool = genl_ctrl_resolve(ask, ETHTOOL_GENL_NAME);
	l->ethtool_grp = genl_ctrl_resolve_grp(ask, ETHTOOL_GENL_NAME, ETHTOOL_MCGRP_MONITOR_NAME);
	if (l->ethtool < 0 || l->ethtool_grp < 0) {
		l->ethtool = l->ethtool_grp = -1;
		return 0;
	}
	return nl_socket_add_membership(genl, l->ethtool_grp);
}

int links_start(struct links *l, struct nl_sock *ask, struct nl_sock *genl, link_fn fn,
		void *arg)
{
	int err;

	l->fn = fn;
	l->arg = arg;
	l->rt = nl_socket_alloc();
	if (!l->rt)
		return -NLE_NOMEM;
	nl_socket_disable_seq_check(l->rt);
	err = nl_connect(l->rt, NETLINK_ROUTE) ?:
	      nl_socket_add_membership(l->rt, RTNLGRP_LINK) ?:
	      nl_socket_set_nonblocking(l->rt);
	if (!err) {
		nl_socket_modify_cb(l->rt, NL_CB_VALID, NL_CB_CUSTOM, on_route, l);
		err = join_ethtool(l, ask, genl);
	}
	if (err)
		links_stop(l, genl);
	return err;
}

void links_stop(struct links *l, struct nl_sock *genl)
{
	if (l->ethtool_grp >= 0)
		nl_socket_drop_membership(genl, l->ethtool_grp);
	l->ethtool = l->ethtool_grp = -1;
	if (l->rt)
		nl_socket_free(l->rt);
	l->rt = NULL;
}

int links_fd(const struct links *l)
{
	return l->rt ? nl_socket_get_fd(l->rt) : -1;
}

void links_read(struct links *l)
{
	int err;

	do {
		err = nl_recvmsgs_default(l->rt);
		/* libnl reports the socket's ENOBUFS (an overrun) as -NLE_NOMEM. */
		if (err == -NLE_NOMEM)
			l->fn(l->arg, LINK_LOST, 0);
	} while (err >= 0 || err == -NLE_NOMEM);
}

bool links_genl_message(struct links *l, struct nlmsghdr *hdr)
{
	struct nlattr *attrs[ETHTOOL_A_CHANNELS_MAX + 1], *head[ETHTOOL_A_HEADER_MAX + 1];
	const struct genlmsghdr *gnl = nlmsg_data(hdr);

	if (l->ethtool < 0 || hdr->nlmsg_type != l->ethtool)
		return false;
	if (gnl->cmd != ETHTOOL_MSG_CHANNELS_NTF ||
	    genlmsg_parse(hdr, 0, attrs, ETHTOOL_A_CHANNELS_MAX, NULL) ||
	    !attrs[ETHTOOL_A_CHANNELS_HEADER] ||
	    nla_parse_nested(head, ETHTOOL_A_HEADER_MAX, attrs[ETHTOOL_A_CHANNELS_HEADER], NULL) ||
	    !head[ETHTOOL_A_HEADER_DEV_INDEX])
		return true;
	l->fn(l->arg, LINK_CHANGED, nla_get_u32(head[ETHTOOL_A_HEADER_DEV_INDEX]));
	return true;
}
