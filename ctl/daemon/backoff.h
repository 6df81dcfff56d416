/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When the daemon answers a foreign change of a device (drift, someone
 * else's bind): at once, or later when someone keeps undoing its re-applies
 * (irqbalance, a driver, a second daemon), so that a fight costs a bounded
 * number of binds instead of one per change.
 */
#ifndef NICTLCTL_BACKOFF_H
#define NICTLCTL_BACKOFF_H

#include <stdbool.h>

#include "conf/devkey.h"

/* A change this soon after a re-apply that answered one is a fight. */
#define BACKOFF_FIGHT_WINDOW_MS	15000	/* irqbalance rebalances every 10 s */
#define BACKOFF_FIRST_MS	1000
#define BACKOFF_MAX_MS		(5 * 60 * 1000)

struct backoff_dev {
	dev_key key;
	bool answering;		/* the next apply answers a foreign change */
	bool applied;		/* ... and one did, at applied_ms */
	long long applied_ms;	/* CLOCK_MONOTONIC */
	unsigned int delay_ms;	/* the wait in force; 0 when not fighting */
};

struct backoff {
	struct backoff_dev *devs;
	unsigned int nr;
};

int backoff_change(struct backoff *b, dev_key key, long long now,
		   unsigned int *delay_ms, bool *started);
void backoff_applied(struct backoff *b, dev_key key, long long now);
bool backoff_fighting(const struct backoff *b, dev_key key);
void backoff_forget(struct backoff *b, dev_key key);
void backoff_free(struct backoff *b);

#endif /* NICTLCTL_BACKOFF_H */
