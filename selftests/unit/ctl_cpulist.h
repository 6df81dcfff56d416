/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU set as the cpulist users read, for tests to compare with
 * EXPECT_STREQ.
 */
#ifndef CTL_CPULIST_H
#define CTL_CPULIST_H

#include <stdio.h>
#include <stdlib.h>

#include "cpuset.h"

/* The cpulist of @s in a static buffer, overwritten by the next call. */
static inline const char *cpulist_of(const struct cpuset *s)
{
	static char buf[256];
	char *list = cpuset_format(s);

	snprintf(buf, sizeof(buf), "%s", list ?: "(no memory)");
	free(list);
	return buf;
}

#endif /* CTL_CPULIST_H */
