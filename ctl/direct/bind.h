/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bind and restore where module nictl is not loaded: the module's checks
 * that userspace can make (online CPUs, the node with --numa-local, a core
 * per group unless --allow-siblings, shared IRQs), its spreading, and the
 * writes through /proc/irq (direct/apply.h), after one line that says why
 * the module is absent and what the change lacks without it.
 */
#ifndef NICTLCTL_DIRECT_BIND_H
#define NICTLCTL_DIRECT_BIND_H

#include "choose.h"
#include "dev.h"
#include "policy.h"

/*
 * Bind the device @ref names by @policy; @choice gets the CPU set, @result
 * the device as the bind left it (as the dry run would leave it). 0, or -1
 * after one line that says why nothing changed.
 */
int direct_bind(const struct dev_ref *ref, const struct bind_policy *policy,
		struct cpu_choice *choice, struct dev_list *result);

/*
 * Bind @dev, as direct_discover() found it, by @policy as direct_bind()
 * does, with no word of the module (the daemon said it once): 0, or -1
 * after one line. No dry run.
 */
int direct_bind_dev(const struct nictl_dev *dev, const struct bind_policy *policy,
		    struct cpu_choice *choice, struct dev_list *result);

/* Put back what direct_bind() replaced on @ref's device: as direct_bind(). */
int direct_restore(const struct dev_ref *ref, struct dev_list *result);

/* Where direct_bind_dev() would put each IRQ of @dev (its target_cpu in @result), writing nothing. */
int direct_plan_dev(const struct nictl_dev *dev, const struct bind_policy *policy,
		    struct cpu_choice *choice, struct dev_list *result);

/*
 * Put back what binds without the module replaced on @dev, silently when
 * they replaced nothing: 0 or -1 (said).
 */
int direct_restore_dev(const struct nictl_dev *dev);

#endif /* NICTLCTL_DIRECT_BIND_H */
