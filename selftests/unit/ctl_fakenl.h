/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The libnl half of a fake nictl module for whole-command tests: the test
 * binary defines the libnl calls through which nictlctl reaches the kernel
 * (the linker prefers them to libnl's), so the family lookup answers
 * fnl.family, requests are copied into fnl.req, and the callbacks nictlctl
 * registers are kept for the test to hand its replies to.
 */
#ifndef CTL_FAKENL_H
#define CTL_FAKENL_H

#include <stdlib.h>
#include <string.h>

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include <linux/nictl.h>

#include "util.h"

static struct {
	int family;				/* genl_ctrl_resolve() result */
	int family_later;			/* from the second lookup on, when not 0 */
	unsigned int lookups;
	struct nlmsghdr *req[16];		/* copies of the requests */
	unsigned int nr_req;
	nl_recvmsg_msg_cb_t cb[NL_CB_TYPE_MAX + 1];
	void *cb_arg[NL_CB_TYPE_MAX + 1];
	nl_recvmsg_err_cb_t err_cb;
	void *err_arg;
} fnl;

int genl_ctrl_resolve(struct nl_sock *sk, const char *name)
{
	(void)sk;
	if (strcmp(name, NICTL_FAMILY_NAME))
		return -NLE_OBJ_NOTFOUND;
	return fnl.lookups++ && fnl.family_later ? fnl.family_later : fnl.family;
}

int nl_cb_set(struct nl_cb *cb, enum nl_cb_type type, enum nl_cb_kind kind,
	      nl_recvmsg_msg_cb_t func, void *arg)
{
	(void)cb;
	(void)kind;
	fnl.cb[type] = func;
	fnl.cb_arg[type] = arg;
	return 0;
}

int nl_cb_err(struct nl_cb *cb, enum nl_cb_kind kind, nl_recvmsg_err_cb_t func, void *arg)
{
	(void)cb;
	(void)kind;
	fnl.err_cb = func;
	fnl.err_arg = arg;
	return 0;
}

int nl_send_auto(struct nl_sock *sk, struct nl_msg *msg)
{
	struct nlmsghdr *hdr = nlmsg_hdr(msg);

	(void)sk;
	if (fnl.nr_req == ARRAY_SIZE(fnl.req))
		abort();
	fnl.req[fnl.nr_req] = malloc(hdr->nlmsg_len);
	memcpy(fnl.req[fnl.nr_req++], hdr, hdr->nlmsg_len);
	return hdr->nlmsg_len;
}

/* Forget the requests and callbacks of the last command. */
static inline void fnl_reset(void)
{
	while (fnl.nr_req)
		free(fnl.req[--fnl.nr_req]);
	memset(&fnl, 0, sizeof(fnl));
}

#endif /* CTL_FAKENL_H */
