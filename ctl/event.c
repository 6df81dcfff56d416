// SPDX-License-Identifier: GPL-2.0
/*
 * Listening to the module. An event's device attributes and IRQ nests have
 * the shape of a DEV_GET reply, so dev.c parses them; this file reads what
 * only events carry, and the controller's notices that tell a listener the
 * module went away (its memberships end with it) or came back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <net/if.h>

#include <linux/genetlink.h>
#include <linux/nictl.h>
#include <netlink/genl/ctrl.h>

#include "event.h"

/* Enough for a burst of events from many devices; an overrun still resyncs. */
#define EVENTS_RCVBUF	(4 << 20)

static const struct nla_policy event_policy[NICTL_A_MAX + 1] = {
	[NICTL_A_EVENT]		= { .type = NLA_U32 },
	[NICTL_A_EVENT_SEQ]	= { .type = NLA_U64 },
	[NICTL_A_PID]		= { .type = NLA_U32 },
	[NICTL_A_UID]		= { .type = NLA_U32 },
	[NICTL_A_PORTID]	= { .type = NLA_U32 },
	[NICTL_A_EVENT_TIME_NS]	= { .type = NLA_U64 },
	[NICTL_A_PERM_ADDR]	= { .type = NLA_BINARY, .maxlen = 32 },
	[NICTL_A_OLD_IFNAME]	= { .type = NLA_NUL_STRING, .maxlen = IFNAMSIZ },
	[NICTL_A_OLD_RX_QUEUES]	= { .type = NLA_U32 },
	[NICTL_A_OLD_TX_QUEUES]	= { .type = NLA_U32 },
	[NICTL_A_ERRNO]		= { .type = NLA_U32 },
	[NICTL_A_MESSAGE]	= { .type = NLA_NUL_STRING },
	[NICTL_A_LINK]		= { .type = NLA_NESTED },
};

static const struct nla_policy old_irq_policy[NICTL_A_IRQ_MAX + 1] = {
	[NICTL_A_IRQ_NUM]	= { .type = NLA_U32 },
};

#define CPUS_POLICY	{ .type = NLA_BINARY, .maxlen = NICTL_CPUMASK_MAX_BYTES }

static const struct nla_policy was_policy[NICTL_A_IRQ_MAX + 1] = {
	[NICTL_A_IRQ_EXPECTED]		= CPUS_POLICY,
	[NICTL_A_IRQ_OLD_AFFINITY]	= CPUS_POLICY,
};

const char *ctl_event_name(unsigned int type)
{
	static const char *const names[__NICTL_EVENT_MAX] = {
		[NICTL_EVENT_REGISTERED]	= "registered",
		[NICTL_EVENT_UNREGISTERED]	= "unregistered",
		[NICTL_EVENT_UP]		= "up",
		[NICTL_EVENT_DOWN]		= "down",
		[NICTL_EVENT_RENAMED]		= "renamed",
		[NICTL_EVENT_QUEUES_CHANGED]	= "queues-changed",
		[NICTL_EVENT_DRIFT]		= "drift",
		[NICTL_EVENT_BOUND]		= "bound",
		[NICTL_EVENT_RESTORED]		= "restored",
		[NICTL_EVENT_STICKY_APPLIED]	= "sticky-applied",
		[NICTL_EVENT_STICKY_FAILED]	= "sticky-failed",
		[NICTL_EVENT_LINKED]		= "linked",
		[NICTL_EVENT_UNLINKED]		= "unlinked",
	};

	return type < __NICTL_EVENT_MAX && names[type] ? names[type] : "unknown";
}

/* Read each IRQ nest's EXPECTED or OLD_AFFINITY into ev->was, in dev.c's order. */
static int parse_was(struct nlmsghdr *hdr, struct ctl_event *ev)
{
	struct genlmsghdr *gnlh = nlmsg_data(hdr);
	struct nlattr *tb[NICTL_A_IRQ_MAX + 1], *attr, *was;
	unsigned int i = 0;
	int rem, err = 0;

	ev->was = calloc(ev->dev.devs[0].nr_irqs ?: 1, sizeof(*ev->was));
	if (!ev->was)
		return -ENOMEM;
	nla_for_each_attr(attr, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(attr) != NICTL_A_IRQ || i >= ev->dev.devs[0].nr_irqs)
			continue;
		if (nla_parse_nested(tb, NICTL_A_IRQ_MAX, attr, (struct nla_policy *)was_policy))
			return -EPROTO;
		was = tb[NICTL_A_IRQ_EXPECTED] ?: tb[NICTL_A_IRQ_OLD_AFFINITY];
		if (was)
			err = cpuset_from_bytes(&ev->was[i], nla_data(was), nla_len(was));
		if (err)
			return err == -ERANGE ? -EPROTO : err;
		i++;
	}
	return 0;
}

/* The IRQ numbers of the NICTL_A_OLD_IRQ nests, in order. */
static int parse_old_irqs(struct nlmsghdr *hdr, struct ctl_event *ev)
{
	struct genlmsghdr *gnlh = nlmsg_data(hdr);
	struct nlattr *tb[NICTL_A_IRQ_MAX + 1], *attr;
	unsigned int *irqs;
	int rem;

	nla_for_each_attr(attr, genlmsg_attrdata(gnlh, 0), genlmsg_attrlen(gnlh, 0), rem) {
		if (nla_type(attr) != NICTL_A_OLD_IRQ)
			continue;
		if (nla_parse_nested(tb, NICTL_A_IRQ_MAX, attr,
				     (struct nla_policy *)old_irq_policy) || !tb[NICTL_A_IRQ_NUM])
			return -EPROTO;
		irqs = realloc(ev->old_irqs, (ev->nr_old_irqs + 1) * sizeof(*irqs));
		if (!irqs)
			return -ENOMEM;
		ev->old_irqs = irqs;
		irqs[ev->nr_old_irqs++] = nla_get_u32(tb[NICTL_A_IRQ_NUM]);
	}
	return 0;
}

static int count_or_none(struct nlattr *attr)
{
	return attr ? (int)nla_get_u32(attr) : -1;
}

/* What only some events carry: the name, queues and MAC before and after. */
static int parse_extras(struct nlmsghdr *hdr, struct nlattr **tb, struct ctl_event *ev)
{
	struct nlattr *mac = tb[NICTL_A_PERM_ADDR];
	const char *link;

	ev->time_ns = tb[NICTL_A_EVENT_TIME_NS] ? nla_get_u64(tb[NICTL_A_EVENT_TIME_NS]) : 0;
	if (mac) {
		ev->perm_addr_len = nla_len(mac);
		memcpy(ev->perm_addr, nla_data(mac), ev->perm_addr_len);
	}
	ev->old_rx_queues = count_or_none(tb[NICTL_A_OLD_RX_QUEUES]);
	ev->old_tx_queues = count_or_none(tb[NICTL_A_OLD_TX_QUEUES]);
	if (tb[NICTL_A_OLD_IFNAME]) {
		ev->old_ifname = strdup(nla_get_string(tb[NICTL_A_OLD_IFNAME]));
		if (!ev->old_ifname)
			return -ENOMEM;
	}
	if (tb[NICTL_A_LINK]) {
		link = dev_link_name(tb[NICTL_A_LINK]);
		ev->link = link ? strdup(link) : NULL;
		if (!ev->link)
			return link ? -ENOMEM : -EPROTO;
	}
	ev->err = tb[NICTL_A_ERRNO] ? nla_get_u32(tb[NICTL_A_ERRNO]) : 0;
	if (tb[NICTL_A_MESSAGE]) {
		ev->message = strdup(nla_get_string(tb[NICTL_A_MESSAGE]));
		if (!ev->message)
			return -ENOMEM;
	}
	return parse_old_irqs(hdr, ev);
}

/* Parse a NICTL_CMD_EVENT message; 0, -EPROTO or -ENOMEM. Free with ctl_event_free(). */
int ctl_event_parse(struct nlmsghdr *hdr, struct ctl_event *ev)
{
	struct nlattr *tb[NICTL_A_MAX + 1];
	int err;

	memset(ev, 0, sizeof(*ev));
	if (genlmsg_parse(hdr, 0, tb, NICTL_A_MAX, (struct nla_policy *)event_policy) ||
	    !tb[NICTL_A_EVENT] || !tb[NICTL_A_EVENT_SEQ])
		return -EPROTO;
	ev->type = nla_get_u32(tb[NICTL_A_EVENT]);
	ev->seq = nla_get_u64(tb[NICTL_A_EVENT_SEQ]);
	ev->portid = tb[NICTL_A_PORTID] ? nla_get_u32(tb[NICTL_A_PORTID]) : 0;
	ev->who = tb[NICTL_A_PID] && tb[NICTL_A_UID];
	ev->pid = ev->who ? nla_get_u32(tb[NICTL_A_PID]) : 0;
	ev->uid = ev->who ? nla_get_u32(tb[NICTL_A_UID]) : 0;
	err = dev_collect(hdr, &ev->dev);
	if (!err)
		err = parse_was(hdr, ev);
	if (!err)
		err = parse_extras(hdr, tb, ev);
	if (err)
		ctl_event_free(ev);
	return err;
}

void ctl_event_free(struct ctl_event *ev)
{
	unsigned int i;

	for (i = 0; ev->was && i < ev->dev.devs[0].nr_irqs; i++)
		cpuset_free(&ev->was[i]);
	free(ev->was);
	ev->was = NULL;
	free(ev->old_ifname);
	ev->old_ifname = NULL;
	free(ev->message);
	ev->message = NULL;
	free(ev->link);
	ev->link = NULL;
	free(ev->old_irqs);
	ev->old_irqs = NULL;
	dev_list_free(&ev->dev);
}

/* Whether @hdr, a controller message, announces family @name arriving or leaving. */
enum family_notice ctl_family_notice(struct nlmsghdr *hdr, const char *name)
{
	static const struct nla_policy policy[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_NAME] = { .type = NLA_STRING },
	};
	struct genlmsghdr *gnlh = nlmsg_data(hdr);
	struct nlattr *tb[CTRL_ATTR_MAX + 1];

	if (hdr->nlmsg_type != GENL_ID_CTRL ||
	    (gnlh->cmd != CTRL_CMD_NEWFAMILY && gnlh->cmd != CTRL_CMD_DELFAMILY) ||
	    genlmsg_parse(hdr, 0, tb, CTRL_ATTR_MAX, (struct nla_policy *)policy) ||
	    !tb[CTRL_ATTR_FAMILY_NAME] || strcmp(nla_get_string(tb[CTRL_ATTR_FAMILY_NAME]), name))
		return FAMILY_OTHER;
	return gnlh->cmd == CTRL_CMD_NEWFAMILY ? FAMILY_NEW : FAMILY_DEL;
}

/*
 * A non-blocking socket for notifications, already in the controller's
 * "notify" group (which outlives the module). Returns 0 or a negative libnl
 * error.
 */
int ctl_events_socket(struct nl_sock **sk)
{
	int grp, err;

	*sk = nl_socket_alloc();
	if (!*sk)
		return -NLE_NOMEM;
	nl_socket_disable_seq_check(*sk);
	nl_socket_enable_msg_peek(*sk);
	err = genl_connect(*sk);
	if (!err)
		err = nl_socket_set_buffer_size(*sk, EVENTS_RCVBUF, 0);
	if (!err) {
		/* Resolved before the socket stops blocking: the answer must be waited for. */
		grp = genl_ctrl_resolve_grp(*sk, "nlctrl", "notify");
		err = grp < 0 ? grp : nl_socket_add_membership(*sk, grp);
	}
	if (!err)
		err = nl_socket_set_nonblocking(*sk);
	if (err) {
		nl_socket_free(*sk);
		*sk = NULL;
	}
	return err;
}

/*
 * Join the module's audit group, which adds who asked to the events, or
 * where that is refused (no CAP_NET_ADMIN) or missing (an older kernel) its
 * events group; resolved over @nl (@sk does not block, so it cannot wait
 * for the answer). 0 or a negative libnl error.
 */
int ctl_events_join(struct ctl_nl *nl, struct nl_sock *sk)
{
	int grp = genl_ctrl_resolve_grp(nl->sk, NICTL_FAMILY_NAME, NICTL_MCGRP_AUDIT);

	if (grp >= 0 && !nl_socket_add_membership(sk, grp))
		return 0;
	grp = genl_ctrl_resolve_grp(nl->sk, NICTL_FAMILY_NAME, NICTL_MCGRP_EVENTS);
	return grp < 0 ? grp : nl_socket_add_membership(sk, grp);
}
