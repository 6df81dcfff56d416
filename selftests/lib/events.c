// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>

#include "events.h"

static const char *const event_names[__NICTL_EVENT_MAX] = {
	[NICTL_EVENT_REGISTERED] = "registered",
	[NICTL_EVENT_UNREGISTERED] = "unregistered",
	[NICTL_EVENT_UP] = "up",
	[NICTL_EVENT_DOWN] = "down",
	[NICTL_EVENT_RENAMED] = "renamed",
	[NICTL_EVENT_QUEUES_CHANGED] = "queues-changed",
	[NICTL_EVENT_DRIFT] = "drift",
	[NICTL_EVENT_BOUND] = "bound",
	[NICTL_EVENT_RESTORED] = "restored",
	[NICTL_EVENT_STICKY_APPLIED] = "sticky-applied",
	[NICTL_EVENT_STICKY_FAILED] = "sticky-failed",
	[NICTL_EVENT_LINKED] = "linked",
	[NICTL_EVENT_UNLINKED] = "unlinked",
};

const char *nictl_event_name(uint32_t type)
{
	return type < __NICTL_EVENT_MAX && event_names[type] ? event_names[type] : "?";
}

int nictl_listen_group(struct nictl_listener *l, const char *group)
{
	int ret;

	memset(l, 0, sizeof(*l));
	ret = nl_open(&l->nl, NICTL_FAMILY_NAME);
	if (ret)
		return ret;
	ret = nl_join_group(&l->nl, NICTL_FAMILY_NAME, group);
	if (ret)
		nl_close(&l->nl);
	return ret;
}

int nictl_listen(struct nictl_listener *l)
{
	return nictl_listen_group(l, NICTL_MCGRP_EVENTS);
}

void nictl_unlisten(struct nictl_listener *l)
{
	nl_close(&l->nl);
}

static int event_u32(const struct nlattr *attr, uint32_t *dst)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
		return MNL_CB_ERROR;
	*dst = mnl_attr_get_u32(attr);
	return MNL_CB_OK;
}

static int event_u64(const struct nlattr *attr, uint64_t *dst)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U64) < 0)
		return MNL_CB_ERROR;
	*dst = mnl_attr_get_u64(attr);
	return MNL_CB_OK;
}

static int old_irq(const struct nlattr *attr, struct nictl_event_msg *ev)
{
	const uint64_t allowed = ATTR_BIT(NICTL_A_IRQ_NUM) | ATTR_BIT(NICTL_A_IRQ_QUEUE) |
				 ATTR_BIT(NICTL_A_IRQ_KIND);
	struct nictl_irq *irq = &ev->old_irqs[ev->n_old_irqs];

	if (ev->n_old_irqs >= NICTL_MAX_IRQS || nictl_parse_irq(attr, irq) ||
	    irq->present != allowed)
		return MNL_CB_ERROR;
	ev->n_old_irqs++;
	return MNL_CB_OK;
}

static int event_attr(const struct nlattr *attr, struct nictl_event_msg *ev)
{
	uint16_t type = mnl_attr_get_type(attr);

	switch (type) {
	case NICTL_A_EVENT:
		return event_u32(attr, &ev->type);
	case NICTL_A_EVENT_SEQ:
		return event_u64(attr, &ev->seq);
	case NICTL_A_EVENT_TIME_NS:
		return event_u64(attr, &ev->time_ns);
	case NICTL_A_OLD_IFNAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0 ||
		    strlen(mnl_attr_get_str(attr)) >= sizeof(ev->old_ifname))
			return MNL_CB_ERROR;
		strcpy(ev->old_ifname, mnl_attr_get_str(attr));
		return MNL_CB_OK;
	case NICTL_A_OLD_RX_QUEUES:
		return event_u32(attr, &ev->old_rx_queues);
	case NICTL_A_OLD_TX_QUEUES:
		return event_u32(attr, &ev->old_tx_queues);
	case NICTL_A_PID:
		return event_u32(attr, &ev->pid);
	case NICTL_A_UID:
		return event_u32(attr, &ev->uid);
	case NICTL_A_PORTID:
		return event_u32(attr, &ev->portid);
	case NICTL_A_ERRNO:
		return event_u32(attr, &ev->err);
	case NICTL_A_MESSAGE:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0 ||
		    strlen(mnl_attr_get_str(attr)) >= sizeof(ev->message))
			return MNL_CB_ERROR;
		strcpy(ev->message, mnl_attr_get_str(attr));
		return MNL_CB_OK;
	case NICTL_A_LINK:
		return nictl_parse_link(attr, ev->link) ? MNL_CB_ERROR : MNL_CB_OK;
	default:
		return MNL_CB_ERROR;
	}
}

/*
 * The device's attributes go to the reply parser; the event's own come once
 * each, but for the repeated NICTL_A_OLD_IRQ.
 */
static int event_attr_cb(const struct nlattr *attr, void *data)
{
	struct nictl_event_msg *ev = data;
	uint16_t type = mnl_attr_get_type(attr);

	switch (type) {
	case NICTL_A_PAD:
		return MNL_CB_OK;
	case NICTL_A_OLD_IRQ:
		return old_irq(attr, ev);
	case NICTL_A_EVENT:
	case NICTL_A_EVENT_SEQ:
	case NICTL_A_EVENT_TIME_NS:
	case NICTL_A_OLD_IFNAME:
	case NICTL_A_OLD_RX_QUEUES:
	case NICTL_A_OLD_TX_QUEUES:
	case NICTL_A_PID:
	case NICTL_A_UID:
	case NICTL_A_PORTID:
	case NICTL_A_ERRNO:
	case NICTL_A_MESSAGE:
	case NICTL_A_LINK:
		if (ev->dev.present & ATTR_BIT(type))
			return MNL_CB_ERROR;
		ev->dev.present |= ATTR_BIT(type);
		return event_attr(attr, ev);
	default:
		return nictl_dev_attr(attr, &ev->dev);
	}
}

int nictl_parse_event(const struct nlmsghdr *nlh, struct nictl_event_msg *ev)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);

	memset(ev, 0, sizeof(*ev));
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl) || genl->cmd != NICTL_CMD_EVENT) {
		fprintf(stderr, "# a message in the events group that is not an event\n");
		return -EPROTO;
	}
	ev->dev.cmd = genl->cmd;
	ev->dev.version = genl->version;
	if (mnl_attr_parse(nlh, sizeof(*genl), event_attr_cb, ev) < 0) {
		fprintf(stderr, "# malformed event (attribute type, length or repeat)\n");
		return -EPROTO;
	}
	if (!ev->type || !ev->seq) {
		fprintf(stderr, "# event without a type or sequence number\n");
		return -EPROTO;
	}
	if (nlh->nlmsg_pid || nlh->nlmsg_seq) {
		fprintf(stderr, "# event with a port id or request sequence number\n");
		return -EPROTO;
	}
	return 0;
}

int nictl_next_event(struct nictl_listener *l, struct nictl_event_msg *ev, int timeout_ms)
{
	const struct nlmsghdr *nlh;
	ssize_t n;
	char *buf;
	int ret;

	buf = malloc(NL_RECV_SIZE);
	if (!buf)
		return -ENOMEM;
	n = nl_recv_timeout(&l->nl, buf, NL_RECV_SIZE, timeout_ms);
	nlh = (const struct nlmsghdr *)buf;
	if (n <= 0) {
		ret = n;
	} else if (!mnl_nlmsg_ok(nlh, n) || NLMSG_ALIGN(nlh->nlmsg_len) < (size_t)n ||
		   nlh->nlmsg_type != l->nl.family) {
		fprintf(stderr, "# an events datagram that is not one nictl message\n");
		ret = -EPROTO;
	} else {
		ret = nictl_parse_event(nlh, ev) ?: 1;
	}
	free(buf);
	if (ret == 1) {
		if (l->last_seq && ev->seq != l->last_seq + 1) {
			fprintf(stderr, "# sequence gap: %llu after %llu\n",
				(unsigned long long)ev->seq, (unsigned long long)l->last_seq);
			l->gaps++;
		}
		l->last_seq = ev->seq;
	}
	return ret;
}

static void print_event(const char *what, const struct nictl_event_msg *ev)
{
	fprintf(stderr, "# %s event seq %llu: %s %s\n", what, (unsigned long long)ev->seq,
		nictl_event_name(ev->type), ev->dev.ifname);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int nictl_wait_event(struct nictl_listener *l, uint32_t type, uint32_t ifindex,
		     int timeout_ms, struct nictl_event_msg *ev)
{
	long long end = now_ms() + timeout_ms, left;
	int ret;

	while ((left = end - now_ms()) > 0) {
		ret = nictl_next_event(l, ev, left);
		if (ret <= 0)
			return ret;
		if (ev->type == type && (!ifindex || ev->dev.ifindex == ifindex)) {
			print_event("awaited", ev);
			return 1;
		}
		print_event("passed", ev);
	}
	return 0;
}

int nictl_wait_bound(struct nictl_listener *l, uint32_t ifindex, bool in_netns,
		     int timeout_ms, struct nictl_event_msg *ev)
{
	int ret;

	while ((ret = nictl_wait_event(l, NICTL_EVENT_BOUND, ifindex, timeout_ms, ev)) == 1)
		if (!!(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID)) == in_netns)
			return 1;
	return ret;
}

int nictl_drain_events(struct nictl_listener *l, int quiet_ms)
{
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	int n = 0, ret;

	if (!ev)
		return -ENOMEM;
	while ((ret = nictl_next_event(l, ev, quiet_ms)) > 0) {
		print_event("drained", ev);
		n++;
	}
	free(ev);
	return ret < 0 ? ret : n;
}
