/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bind policy, the one thing `nictlctl bind` and the daemon's rules both
 * describe: the CPUs it offers a device and the request that binds it there.
 * steer/bind.c applies it, with or without steering.
 */
#ifndef NICTLCTL_POLICY_H
#define NICTLCTL_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "choose.h"
#include "dev.h"
#include "napi/config.h"
#include "nl.h"

struct bind_policy {
	struct cpu_request req;	/* with numa_local, req.node is the device's */
	bool numa_local;	/* the CPUs of the device's node, strictly */
	bool allow_siblings;
	bool dry_run;
	bool take_over;		/* IRQs another device's binding holds */
	bool allow_shared;	/* IRQs other handlers share */
	bool sticky;		/* the kernel keeps it and applies it again */
	struct napi_config napi;	/* set on every NAPI of the device with the bind */
};

void bind_policy_free(struct bind_policy *policy);
uint32_t policy_flags(const struct bind_policy *policy);
int policy_cpus(const struct nictl_dev *dev, const struct bind_policy *policy,
		struct cpu_choice *choice);
int policy_choose(const struct nictl_dev *dev, const struct bind_policy *policy,
		  struct cpu_choice *choice);
int policy_send(struct ctl_nl *nl, const struct nictl_dev *dev, const struct bind_policy *policy,
		const struct cpu_choice *choice, struct dev_list *result);

#endif /* NICTLCTL_POLICY_H */
