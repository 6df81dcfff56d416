/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bind and its steering as one transaction, for `bind --steer` and the
 * daemon's rules alike: nothing half-applied.
 */
#ifndef NICTLCTL_STEER_BIND_H
#define NICTLCTL_STEER_BIND_H

#include <stdbool.h>

#include "dev.h"
#include "nl.h"
#include "policy.h"
#include "steer/part.h"
#include "steer/plan.h"

/* What a steered bind did, for its caller to report. */
struct steered {
	struct cpu_choice choice;	/* the CPUs the policy gave */
	struct dev_list result;		/* the device as the bind left it */
	struct steer_plan plan;		/* empty when no part was asked for */
	unsigned int parts;		/* &enum steer_part, as asked */
	bool xps;			/* XPS set: asked for, and the device has the maps */
};

int steer_bind(struct ctl_nl *nl, const struct nictl_dev *dev, const struct bind_policy *policy,
	       unsigned int parts, struct steered *s);
void steered_free(struct steered *s);
/* Give @dev's NAPI threads and IRQs back what they had before nictl: a later step failed. */
void steer_unbind(struct ctl_nl *nl, const struct nictl_dev *dev);

#endif /* NICTLCTL_STEER_BIND_H */
