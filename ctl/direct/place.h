/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a bind without the module puts each IRQ group, as the module's
 * nictl_place_on_set() does: the set's CPUs ordered every core's first
 * thread, then every second thread, and group i on the i-th, wrapping.
 */
#ifndef NICTLCTL_DIRECT_PLACE_H
#define NICTLCTL_DIRECT_PLACE_H

#include "cpuset.h"
#include "dev.h"
#include "direct/apply.h"

/*
 * One write per queue IRQ of @dev, in its order, to its group's CPU of
 * @cpus, in a new *@w of *@n. Returns 0, -EINVAL for an empty set, or
 * -ENOMEM.
 */
int direct_place(const struct nictl_dev *dev, const struct cpuset *cpus, struct direct_write **w,
		 unsigned int *n);

#endif /* NICTLCTL_DIRECT_PLACE_H */
