/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's events (NICTL_CMD_EVENT on the NICTL_MCGRP_EVENTS group) and
 * the generic-netlink controller's notices of families coming and going.
 */
#ifndef NICTLCTL_EVENT_H
#define NICTLCTL_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "dev.h"

struct ctl_event {
	unsigned int type;		/* enum nictl_event */
	uint64_t seq;
	uint32_t portid;		/* BOUND, RESTORED: the requester's socket */
	bool who;			/* pid and uid known (the audit group) */
	uint32_t pid;			/* ... then who asked; 0 otherwise */
	uint32_t uid;
	struct dev_list dev;		/* one device, with the event's IRQ nests */
	/*
	 * Per IRQ of dev.devs[0]: the affinity before the change, i.e.
	 * EXPECTED of a DRIFT or OLD_AFFINITY of a BOUND/RESTORED; empty
	 * when the event has none.
	 */
	struct cpuset *was;
	uint64_t time_ns;		/* CLOCK_MONOTONIC when the module noticed */
	uint8_t perm_addr[32];		/* the permanent MAC; perm_addr_len 0 if none */
	unsigned int perm_addr_len;
	char *old_ifname;		/* RENAMED: the name before, if known */
	int old_rx_queues;		/* QUEUES_CHANGED: the counts before; -1 otherwise */
	int old_tx_queues;
	unsigned int *old_irqs;		/* QUEUES_CHANGED: the queue IRQs before */
	unsigned int nr_old_irqs;
	unsigned int err;		/* STICKY_FAILED: the errno; 0 otherwise */
	char *message;			/* ... and why, as a bind would say */
	char *link;			/* LINKED, UNLINKED: the upper device */
};

/* What a message of the controller's "notify" group says about a family. */
enum family_notice {
	FAMILY_OTHER,
	FAMILY_NEW,
	FAMILY_DEL,
};

int ctl_event_parse(struct nlmsghdr *hdr, struct ctl_event *ev);
void ctl_event_free(struct ctl_event *ev);
const char *ctl_event_name(unsigned int type);
enum family_notice ctl_family_notice(struct nlmsghdr *hdr, const char *name);
int ctl_events_socket(struct nl_sock **sk);
int ctl_events_join(struct ctl_nl *nl, struct nl_sock *sk);

#endif /* NICTLCTL_EVENT_H */
