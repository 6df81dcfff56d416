/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic-netlink conversation with the nictl module: one socket, one
 * request at a time, replies handed to a callback, failures turned into the
 * one line the user reads.
 */
#ifndef NICTLCTL_NL_H
#define NICTLCTL_NL_H

#include <stddef.h>
#include <stdint.h>

#include <netlink/genl/genl.h>

struct ctl_nl {
	struct nl_sock *sk;
	int family;
};

/* Why a request failed. */
struct ctl_nl_error {
	int err;		/* negative errno, 0 on success */
	char msg[256];		/* what happened in words, "" when unknown */
};

/* Called for each reply message; returns 0 or a negative errno. */
typedef int (*ctl_nl_reply_fn)(struct nlmsghdr *hdr, void *arg);

int ctl_nl_connect(struct ctl_nl *nl);
int ctl_nl_open(struct ctl_nl *nl);
int ctl_nl_open_or_absent(struct ctl_nl *nl);
void ctl_nl_module_absent(const char *then);
void ctl_nl_close(struct ctl_nl *nl);
struct nl_msg *ctl_nl_msg(const struct ctl_nl *nl, uint8_t cmd, int flags);
int ctl_nl_transact(struct ctl_nl *nl, struct nl_msg *msg, ctl_nl_reply_fn fn, void *arg,
		    struct ctl_nl_error *e);
void ctl_nl_report(const char *cmd, const char *dev, const struct ctl_nl_error *e);
void ctl_nl_extack(const struct nlmsghdr *hdr, char *buf, size_t size);

#endif /* NICTLCTL_NL_H */
