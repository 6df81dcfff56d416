/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What tells the daemon that a device changed while module nictl is not
 * loaded: rtnetlink's link messages (registered, up, renamed, gone) and
 * ethtool's channel notifications (queues changed). The module's events
 * say the same, and more, once it is here.
 */
#ifndef NICTLCTL_DAEMON_LINKS_H
#define NICTLCTL_DAEMON_LINKS_H

#include <stdbool.h>

#include <netlink/netlink.h>

enum link_change {
	LINK_CHANGED,	/* registered, up or down, renamed, queues changed */
	LINK_GONE,	/* unregistered */
	LINK_LOST,	/* messages were lost: every device may have changed */
};

typedef void (*link_fn)(void *arg, enum link_change what, unsigned int ifindex);

struct links {
	struct nl_sock *rt;	/* RTNLGRP_LINK; NULL while not watching */
	int ethtool;		/* ethtool's family id, -1 where the kernel has none */
	int ethtool_grp;	/* its monitor group, joined on the caller's genl socket */
	link_fn fn;
	void *arg;
};

#define LINKS_INIT { .rt = NULL, .ethtool = -1, .ethtool_grp = -1 }

/*
 * Start watching: a route socket of our own, and ethtool's monitor group,
 * looked up on the blocking request socket @ask, joined on @genl (the
 * non-blocking events socket, whose messages the caller hands to
 * links_genl_message()). 0 or a libnl error.
 */
int links_start(struct links *l, struct nl_sock *ask, struct nl_sock *genl, link_fn fn,
		void *arg);
void links_stop(struct links *l, struct nl_sock *genl);
/* The route socket's descriptor to poll, -1 while not watching. */
int links_fd(const struct links *l);
/* Read every queued route message, calling fn for each change. */
void links_read(struct links *l);
/* True when @hdr, of the genl socket, is ethtool's (fn called if a channel change). */
bool links_genl_message(struct links *l, struct nlmsghdr *hdr);

#endif /* NICTLCTL_DAEMON_LINKS_H */
