/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `bind --steer` as one transaction: before the IRQ bind, check that the
 * device can be steered and remember every value steering would replace;
 * after it, write the plan, and on the first failure put back every value
 * already written (the caller then restores the IRQs through the module).
 */
#ifndef NICTLCTL_STEER_TXN_H
#define NICTLCTL_STEER_TXN_H

#include <stdbool.h>

#include "dev.h"
#include "steer/knob.h"
#include "steer/part.h"
#include "steer/plan.h"

/* How many writes of a commit to let through before one fails: testing only. */
#define STEER_FAULT_ENV	"NICTL_FAULT_STEER_WRITE"

struct steer_txn {
	unsigned int ifindex;
	const char *ifname;		/* the device's, as DEV_GET named it */
	unsigned int rx_queues;
	unsigned int tx_queues;
	unsigned int parts;		/* &enum steer_part */
	bool xps;			/* XPS is set: asked for, and the device has the maps */
	struct knob_list old;		/* every queue value, in the order commit writes */
	unsigned int flow_entries;	/* net.core.rps_sock_flow_entries before */
};

int steer_prepare(const struct nictl_dev *dev, const struct cpuset *cpus, unsigned int parts,
		  struct steer_txn *t);
int steer_commit(const struct steer_txn *t, const struct steer_plan *plan, char *why,
		 size_t len);
void steer_txn_free(struct steer_txn *t);

#endif /* NICTLCTL_STEER_TXN_H */
