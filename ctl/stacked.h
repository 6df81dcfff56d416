/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Binding a stacked device (a bond, a VLAN on it, a macvlan): the module
 * moves the queue IRQs of every physical device beneath it as one.
 */
#ifndef NICTLCTL_STACKED_H
#define NICTLCTL_STACKED_H

#include "dev.h"
#include "nl.h"
#include "policy.h"
#include "steer/bind.h"

int stacked_bind(struct ctl_nl *nl, const struct dev_list *found,
		 const struct bind_policy *policy, struct steered *s);

#endif /* NICTLCTL_STACKED_H */
