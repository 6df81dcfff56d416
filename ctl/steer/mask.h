/* SPDX-License-Identifier: GPL-2.0 */
/* CPU sets in the form sysfs bitmaps (rps_cpus, xps_cpus) are read and written in. */
#ifndef NICTLCTL_STEER_MASK_H
#define NICTLCTL_STEER_MASK_H

#include <stddef.h>

#include "cpuset.h"

/* Room for the mask of CPUSET_MAX_CPUS: a 32-bit group takes 9 characters. */
#define STEER_MASK_LEN	(CPUSET_MAX_CPUS / 32 * 9 + 1)

int steer_mask_format(const struct cpuset *cpus, char *buf, size_t len);
int steer_mask_parse(const char *mask, struct cpuset *cpus);

#endif /* NICTLCTL_STEER_MASK_H */
