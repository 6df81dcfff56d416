// SPDX-License-Identifier: GPL-2.0
/*
 * Two dumps of the netdev family, filtered by ifindex: the device's queues
 * with the id of the NAPI each is linked to (QUEUE_GET), then its NAPIs
 * with their IRQs and threads (NAPI_GET). Joined by NAPI id they give each
 * queue's IRQ; a NAPI without an IRQ (none set, or a kernel before the
 * attribute) links nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "direct/links.h"

/*
 * The family's numbers (Documentation/netlink/specs/netdev.yaml, stable
 * ABI): Debian 12's userspace headers predate them, so they are named here,
 * apart from <linux/netdev.h>'s.
 */
#define NDG_FAMILY		"netdev"
#define NDG_CMD_QUEUE_GET	10
#define NDG_CMD_NAPI_GET	11
#define NDG_CMD_NAPI_SET	14
#define NDG_A_QUEUE_ID		1
#define NDG_A_QUEUE_IFINDEX	2
#define NDG_A_QUEUE_TYPE	3
#define NDG_A_QUEUE_NAPI_ID	4
#define NDG_A_QUEUE_MAX		NDG_A_QUEUE_NAPI_ID
#define NDG_A_NAPI_IFINDEX	1
#define NDG_A_NAPI_ID		2
#define NDG_A_NAPI_IRQ		3
#define NDG_A_NAPI_PID		4
#define NDG_A_NAPI_DEFER_HARD_IRQS	5
#define NDG_A_NAPI_GRO_FLUSH_TIMEOUT	6
#define NDG_A_NAPI_IRQ_SUSPEND_TIMEOUT	7
#define NDG_A_NAPI_THREADED	8
#define NDG_A_NAPI_MAX		NDG_A_NAPI_THREADED
#define NDG_QUEUE_TYPE_RX	0
#define NDG_QUEUE_TYPE_TX	1

/*
 * One entry of either dump: a queue (@id, @rx) and its NAPI's id in @link,
 * or a NAPI (@id), its IRQ in @link (0: none), its thread in @pid (0:
 * none) and whether it polls there in @threaded (-1: not said, before 6.17).
 */
struct entry {
	unsigned int id;
	bool rx;
	unsigned int link;
	unsigned int pid;
	int threaded;
	int64_t cfg[NAPI_CFG_NR];
};

struct collected {
	struct entry *e;
	unsigned int n;
	int err;
};

static int add(struct collected *c, struct entry e)
{
	struct entry *grown = realloc(c->e, (c->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	c->e = grown;
	c->e[c->n++] = e;
	return 0;
}

/* A queue: (id, rx, NAPI id), when it has a NAPI. */
static int on_queue(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[NDG_A_QUEUE_MAX + 1];
	struct collected *c = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, NDG_A_QUEUE_MAX, NULL) ||
	    !tb[NDG_A_QUEUE_ID] || !tb[NDG_A_QUEUE_TYPE] || !tb[NDG_A_QUEUE_NAPI_ID])
		return NL_OK;
	if (nla_get_u32(tb[NDG_A_QUEUE_TYPE]) > NDG_QUEUE_TYPE_TX)
		return NL_OK;
	c->err = c->err ?: add(c, (struct entry){
		.id = nla_get_u32(tb[NDG_A_QUEUE_ID]),
		.rx = nla_get_u32(tb[NDG_A_QUEUE_TYPE]) == NDG_QUEUE_TYPE_RX,
		.link = nla_get_u32(tb[NDG_A_QUEUE_NAPI_ID]),
	});
	return NL_OK;
}

/* A u32 attribute's value when present and positive (IRQ and PID are s32 there), else 0. */
static unsigned int positive(const struct nlattr *attr)
{
	return attr && (int32_t)nla_get_u32(attr) > 0 ? nla_get_u32(attr) : 0;
}

/* The netdev family's attribute of each &enum napi_cfg. */
static const int cfg_attr[NAPI_CFG_NR] = {
	[NAPI_CFG_DEFER_HARD_IRQS] = NDG_A_NAPI_DEFER_HARD_IRQS,
	[NAPI_CFG_GRO_FLUSH_TIMEOUT] = NDG_A_NAPI_GRO_FLUSH_TIMEOUT,
	[NAPI_CFG_IRQ_SUSPEND_TIMEOUT] = NDG_A_NAPI_IRQ_SUSPEND_TIMEOUT,
	[NAPI_CFG_THREADED] = NDG_A_NAPI_THREADED,
};

/* An unsigned attribute of 4 or 8 bytes (the family's "uint"), -1 when absent. */
static int64_t uint_attr(const struct nlattr *attr)
{
	if (!attr)
		return -1;
	return nla_len(attr) == 8 ? (int64_t)nla_get_u64(attr) : (int64_t)nla_get_u32(attr);
}

/* A NAPI: (id, IRQ, thread, settings). */
static int on_napi(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[NDG_A_NAPI_MAX + 1];
	struct collected *c = arg;
	struct entry e;
	unsigned int k;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, NDG_A_NAPI_MAX, NULL) || !tb[NDG_A_NAPI_ID])
		return NL_OK;
	e = (struct entry){
		.id = nla_get_u32(tb[NDG_A_NAPI_ID]),
		.link = positive(tb[NDG_A_NAPI_IRQ]),
		.pid = positive(tb[NDG_A_NAPI_PID]),
		.threaded = tb[NDG_A_NAPI_THREADED] ? (int)nla_get_u32(tb[NDG_A_NAPI_THREADED]) : -1,
	};
	for (k = 0; k < NAPI_CFG_NR; k++)
		e.cfg[k] = uint_attr(tb[cfg_attr[k]]);
	c->err = c->err ?: add(c, e);
	return NL_OK;
}

/* Dump @cmd of @family for @ifindex (in attribute @attr) into @c. */
static int dump(struct nl_sock *sk, int family, int cmd, int attr, unsigned int ifindex,
		nl_recvmsg_msg_cb_t fn, struct collected *c)
{
	struct nl_msg *msg = nlmsg_alloc();
	int err = -ENOMEM;

	if (msg && genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_DUMP, cmd, 1) &&
	    !nla_put_u32(msg, attr, ifindex)) {
		nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, fn, c);
		err = nl_send_auto(sk, msg);
		err = err < 0 ? -EIO : nl_recvmsgs_default(sk) < 0 ? -EIO : c->err;
	}
	nlmsg_free(msg);
	return err;
}

/* The NAPI with id @id among @napis, or NULL. */
static const struct entry *napi_of(const struct collected *napis, unsigned int id)
{
	unsigned int i;

	for (i = 0; i < napis->n; i++)
		if (napis->e[i].id == id)
			return &napis->e[i];
	return NULL;
}

/*
 * Both dumps of @ifindex into @queues and @napis (free their entries also
 * on error). A kernel without the family, its queue and NAPI dumps (6.5 to
 * 6.7) or their filter gives none: 0 then too.
 */
static int read_dumps(unsigned int ifindex, struct collected *queues, struct collected *napis)
{
	struct nl_sock *sk = nl_socket_alloc();
	int family, err;

	if (!sk)
		return -ENOMEM;
	family = genl_connect(sk) ? -1 : genl_ctrl_resolve(sk, NDG_FAMILY);
	err = family < 0 ? 0 :
	      dump(sk, family, NDG_CMD_QUEUE_GET, NDG_A_QUEUE_IFINDEX, ifindex, on_queue, queues) ?:
	      dump(sk, family, NDG_CMD_NAPI_GET, NDG_A_NAPI_IFINDEX, ifindex, on_napi, napis);
	nl_socket_free(sk);
	return err == -EIO ? 0 : err;
}

int direct_queue_links(unsigned int ifindex, struct queue_link **links, unsigned int *n)
{
	struct collected queues = { 0 }, napis = { 0 };
	const struct entry *napi;
	unsigned int i;
	int err;

	*links = NULL;
	*n = 0;
	err = read_dumps(ifindex, &queues, &napis);
	if (!err && queues.n) {
		*links = calloc(queues.n, sizeof(**links));
		err = *links ? 0 : -ENOMEM;
	}
	for (i = 0; !err && i < queues.n; i++) {
		napi = napi_of(&napis, queues.e[i].link);
		if (napi && napi->link)
			(*links)[(*n)++] = (struct queue_link){ queues.e[i].id, queues.e[i].rx,
								napi->link };
	}
	if (err) {
		free(*links);
		*links = NULL;
		*n = 0;
	}
	free(queues.e);
	free(napis.e);
	return err;
}

int direct_napis(unsigned int ifindex, struct napi_info **out, unsigned int *n)
{
	struct collected queues = { 0 }, napis = { 0 };
	struct napi_info *info;
	unsigned int i, k;
	int err;

	*out = NULL;
	*n = 0;
	err = read_dumps(ifindex, &queues, &napis);
	info = err || !napis.n ? NULL : calloc(napis.n, sizeof(*info));
	if (!err && napis.n && !info)
		err = -ENOMEM;
	for (i = 0; info && i < napis.n; i++) {
		info[i] = (struct napi_info){ .id = napis.e[i].id, .irq = napis.e[i].link,
					      .pid = napis.e[i].pid, .rx_queue = -1,
					      .threaded = napis.e[i].threaded };
		memcpy(info[i].cfg, napis.e[i].cfg, sizeof(info[i].cfg));
		for (k = 0; k < queues.n; k++)
			if (queues.e[k].rx && queues.e[k].link == info[i].id)
				info[i].rx_queue = queues.e[k].id;
	}
	if (info) {
		*out = info;
		*n = napis.n;
	}
	free(queues.e);
	free(napis.e);
	return err;
}

int direct_napi_set(unsigned int id, const int64_t *cfg)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = nlmsg_alloc();
	int family, err = -NLE_NOMEM;
	unsigned int k;

	if (!sk || !msg)
		goto out;
	family = genl_connect(sk) ? -NLE_FAILURE : genl_ctrl_resolve(sk, NDG_FAMILY);
	err = family < 0 ? family : -NLE_NOMEM;
	if (family < 0 || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_ACK,
				       NDG_CMD_NAPI_SET, 1) ||
	    nla_put_u32(msg, NDG_A_NAPI_ID, id))
		goto out;
	for (k = 0; k < NAPI_CFG_NR; k++) {
		if (cfg[k] < 0)
			continue;
		/* The two u32s of the family; the timeouts are its "uint". */
		if (k == NAPI_CFG_DEFER_HARD_IRQS || k == NAPI_CFG_THREADED ?
		    nla_put_u32(msg, cfg_attr[k], cfg[k]) : nla_put_u64(msg, cfg_attr[k], cfg[k]))
			goto out;
	}
	err = nl_send_auto(sk, msg);
	err = err < 0 ? err : nl_wait_for_ack(sk);
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return err < 0 ? err : 0;
}
