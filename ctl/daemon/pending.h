/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Devices waiting to have their rule applied: due now after an event, or
 * later while their queue IRQs do not exist yet, until a deadline.
 */
#ifndef NICTLCTL_PENDING_H
#define NICTLCTL_PENDING_H

#include <stdbool.h>

#include "conf/devkey.h"

struct pending_dev {
	dev_key key;
	long long due_ms;	/* CLOCK_MONOTONIC */
	long long deadline_ms;	/* give up waiting for IRQs after this */
	unsigned int delay_ms;	/* the next retry's, doubling */
};

struct pending {
	struct pending_dev *devs;
	unsigned int nr;
};

int pending_add(struct pending *p, dev_key key, long long now, unsigned int wait_ms);
void pending_del(struct pending *p, dev_key key);
bool pending_pop(struct pending *p, long long now, struct pending_dev *out);
bool pending_retry(struct pending *p, const struct pending_dev *dev, long long now);
int pending_timeout(const struct pending *p, long long now);
void pending_free(struct pending *p);

#endif /* NICTLCTL_PENDING_H */
