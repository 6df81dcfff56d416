// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs reads CPU masks as the kernel prints them: hexadecimal 32-bit
 * groups, most significant first, separated by commas ("2,00000000" is
 * CPU 33). An empty set is "0", which turns RPS or XPS off for the queue.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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

/*
 * A mask as sysfs prints it into @cpus, emptied first. Read from the last
 * digit: every group but the first has all its 8 digits, so the commas can
 * be skipped. -EINVAL on anything but hex digits and commas.
 */
int steer_mask_parse(const char *mask, struct cpuset *cpus)
{
	unsigned int bit = 0, b, digit;
	const char *p;
	int err = 0;

	cpuset_free(cpus);
	for (p = mask + strlen(mask); p-- > mask && !err;) {
		if (*p == ',')
			continue;
		if (!isxdigit((unsigned char)*p))
			return -EINVAL;
		digit = isdigit((unsigned char)*p) ? *p - '0' : (*p | 0x20) - 'a' + 10;
		for (b = 0; b < 4 && !err; b++, bit++)
			if (digit & (1U << b))
				err = cpuset_add(cpus, bit);
	}
	return err;
}
