/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A listener of nictl's "events" multicast group on its own socket, with a
 * parser as strict as the reply parser: every attribute of an event must be
 * one the header defines, of the right type and length, and seen once.
 */
#ifndef NICTL_TEST_EVENTS_H
#define NICTL_TEST_EVENTS_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "nictl.h"

struct nictl_event_msg {
	uint32_t type;		/* enum nictl_event */
	uint64_t seq;
	uint64_t time_ns;
	/* The device attributes and NICTL_A_IRQ nests; present covers all attributes. */
	struct nictl_dev dev;
	char old_ifname[IFNAMSIZ];
	uint32_t old_rx_queues;
	uint32_t old_tx_queues;
	/* NICTL_A_OLD_IRQ entries: number, queue and kind only. */
	unsigned int n_old_irqs;
	struct nictl_irq old_irqs[NICTL_MAX_IRQS];
	uint32_t pid;		/* present: NICTL_A_PID in dev.present */
	uint32_t uid;
	uint32_t portid;
	uint32_t err;		/* NICTL_A_ERRNO */
	char message[128];	/* NICTL_A_MESSAGE */
	char link[IFNAMSIZ];	/* NICTL_A_LINK: the upper device linked or unlinked */
};

struct nictl_listener {
	struct nl_client nl;
	uint64_t last_seq;	/* of the last event received, 0 before the first */
	unsigned int gaps;	/* events whose seq was not last_seq + 1 */
};

/* Open a socket in the events group: 0 or -errno (-ENOENT: no module). */
int nictl_listen(struct nictl_listener *l);
/* The same in @group (NICTL_MCGRP_AUDIT: -EPERM without CAP_NET_ADMIN). */
int nictl_listen_group(struct nictl_listener *l, const char *group);
void nictl_unlisten(struct nictl_listener *l);

/* Parse one event message: 0 or -EPROTO (what is wrong printed). */
int nictl_parse_event(const struct nlmsghdr *nlh, struct nictl_event_msg *ev);

/*
 * The next event within @timeout_ms: 1 with @ev filled, 0 when none came,
 * -errno on a socket error or a malformed event. Counts sequence gaps.
 */
int nictl_next_event(struct nictl_listener *l, struct nictl_event_msg *ev, int timeout_ms);

/*
 * Wait up to @timeout_ms for an event of @type about @ifindex (0: any
 * device), printing the others it passes: 1 found, 0 not in time, -errno.
 */
int nictl_wait_event(struct nictl_listener *l, uint32_t type, uint32_t ifindex,
		     int timeout_ms, struct nictl_event_msg *ev);

/*
 * The same for a BOUND event about @ifindex in a namespace other than the
 * initial one (@in_netns: it carries NICTL_A_NETNS_ID) or in the initial
 * one, passing those of the other side.
 */
int nictl_wait_bound(struct nictl_listener *l, uint32_t ifindex, bool in_netns,
		     int timeout_ms, struct nictl_event_msg *ev);

/* Read and print every event that arrives within @quiet_ms of the last: how many, or -errno. */
int nictl_drain_events(struct nictl_listener *l, int quiet_ms);

/* "registered", "drift", ...; "?" for an unknown type. */
const char *nictl_event_name(uint32_t type);

#endif /* NICTL_TEST_EVENTS_H */
