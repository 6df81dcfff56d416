// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs reads CPU masks as the kernel prints them: hexadecimal 32-bit
 * groups, most significant first, separated by commas ("2,00000000" is
 * CPU 33). An empty set is "0", which turns RPS or XPS off for the queue.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include "steer/mask.h"

static uint32_t group_bits(const struct cpuset *cpus, unsigned int group)
{
	uint32_t bits = 0;
	unsigned int b;

	for (b = 0; b < 32; b++)
		if (cpuset_has(cpus, group * 32 + b))
			bits |= 1U << b;
	return bits;
}

/* @cpus as a sysfs mask into @buf: 0, or -ENAMETOOLONG when @len is short. */
int steer_mask_format(const struct cpuset *cpus, char *buf, size_t len)
{
	int cpu, last = 0;
	unsigned int group;
	size_t n;

	cpuset_for_each(cpu, cpus)
		last = cpu;
	group = last / 32;
	n = snprintf(buf, len, "%x", group_bits(cpus, group));
	while (group-- && n < len)
		n += snprintf(buf + n, len - n, ",%08x", group_bits(cpus, group));
	return n < len ? 0 : -ENAMETOOLONG;
}
