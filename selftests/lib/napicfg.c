// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/genetlink.h>

#include "napicfg.h"
#include "nl.h"

/* Documentation/netlink/specs/netdev.yaml: stable numbers. */
#define NETDEV_CMD_NAPI_GET			11
#define NETDEV_CMD_NAPI_SET			14
#define NETDEV_A_NAPI_IFINDEX			1
#define NETDEV_A_NAPI_ID			2
#define NETDEV_A_NAPI_PID			4
#define NETDEV_A_NAPI_DEFER_HARD_IRQS		5
#define NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT		6
#define NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT	7
#define NETDEV_A_NAPI_THREADED			8

static int64_t uint_value(const struct nlattr *attr)
{
	return mnl_attr_get_payload_len(attr) == 8 ? (int64_t)mnl_attr_get_u64(attr) :
						      (int64_t)mnl_attr_get_u32(attr);
}

static int napi_attr(const struct nlattr *attr, void *data)
{
	struct napicfg *n = data;

	switch (mnl_attr_get_type(attr)) {
	case NETDEV_A_NAPI_ID:
		n->id = mnl_attr_get_u32(attr);
		break;
	case NETDEV_A_NAPI_DEFER_HARD_IRQS:
		n->defer_hard_irqs = uint_value(attr);
		break;
	case NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT:
		n->gro_flush_timeout = uint_value(attr);
		break;
	case NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT:
		n->irq_suspend_timeout = uint_value(attr);
		break;
	case NETDEV_A_NAPI_THREADED:
		n->threaded = uint_value(attr);
		break;
	case NETDEV_A_NAPI_PID:
		n->pid = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

static int napi_cb(const struct nlmsghdr *nlh, void *data)
{
	struct napicfgs *out = data;
	struct napicfg n = { 0, -1, -1, -1, -1, 0 };

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), napi_attr, &n);
	if (n.id && out->nr < NAPICFG_MAX)
		out->n[out->nr++] = n;
	return 0;
}

int napicfg_read(unsigned int ifindex, struct napicfgs *out)
{
	char buf[NL_REQ_SIZE];
	struct nl_result res = { 0 };
	struct nl_client c;
	struct nlmsghdr *req;
	int err;

	out->nr = 0;
	err = nl_open(&c, "netdev");
	if (err)
		return err;
	req = nl_msg_start(buf, c.family, NETDEV_CMD_NAPI_GET, 1, NLM_F_DUMP, ++c.seq);
	mnl_attr_put_u32(req, NETDEV_A_NAPI_IFINDEX, ifindex);
	err = nl_transact(&c, req, napi_cb, out, &res);
	nl_close(&c);
	return err;
}

int napicfg_set_threaded(unsigned int id, unsigned int threaded)
{
	char buf[NL_REQ_SIZE];
	struct nl_result res = { 0 };
	struct nl_client c;
	struct nlmsghdr *req;
	int err;

	err = nl_open(&c, "netdev");
	if (err)
		return err;
	req = nl_msg_start(buf, c.family, NETDEV_CMD_NAPI_SET, 1, NLM_F_ACK, ++c.seq);
	mnl_attr_put_u32(req, NETDEV_A_NAPI_ID, id);
	mnl_attr_put_u32(req, NETDEV_A_NAPI_THREADED, threaded);
	err = nl_transact(&c, req, NULL, NULL, &res);
	nl_close(&c);
	return err;
}

void napicfg_format(const struct napicfgs *c, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < c->nr && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%u:%lld/%lld/%lld/%lld", i ? "," : "",
				 c->n[i].id, (long long)c->n[i].defer_hard_irqs,
				 (long long)c->n[i].gro_flush_timeout,
				 (long long)c->n[i].irq_suspend_timeout, (long long)c->n[i].threaded);
}
