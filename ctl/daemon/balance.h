/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's balance = yes: every balance interval, the load measured
 * since the last round decides whether the queues of the balanced devices
 * move, all of those devices planned together.
 */
#ifndef NICTLCTL_DAEMON_BALANCE_H
#define NICTLCTL_DAEMON_BALANCE_H

#include "balance/balance.h"
#include "daemon/apply.h"
#include "conf/devkey.h"

/* A queue group a round moved, and when: it stays put for its rule's interval. */
struct bal_moved {
	dev_key key;
	unsigned int queue;
	long long at_ms;
};

struct balancer {
	long long next_ms;		/* the next round, CLOCK_MONOTONIC; 0: none due */
	struct bal_sample prev;		/* the last round's sample, of the devices in @keys */
	dev_key *keys;
	unsigned int nr_keys;
	struct bal_moved *moved;
	unsigned int nr_moved;
};

void balancer_start(struct balancer *b, const struct conf *conf, long long now_ms);
void balancer_schedule(struct balancer *b, const struct conf *conf, long long now_ms);
int balancer_timeout(const struct balancer *b, long long now_ms);
int balancer_round(struct balancer *b, struct keeper *k, long long now_ms);
void balancer_reset(struct balancer *b);

#endif /* NICTLCTL_DAEMON_BALANCE_H */
