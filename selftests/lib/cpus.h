/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU sets as the nictl protocol carries them: CPU n is bit (n % 8) of byte
 * (n / 8). One type serves the wire bitmaps and the kernel's cpulist files
 * (/proc/irq/N/smp_affinity_list), so tests compare the two directly.
 */
#ifndef NICTL_TEST_CPUS_H
#define NICTL_TEST_CPUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/nictl.h>

#define CPUS_MAX	(NICTL_CPUMASK_MAX_BYTES * 8)
/* Room for the longest cpulist tests print ("0-3,5,7-8191" and so on). */
#define CPUS_LIST_LEN	256

struct cpus {
	uint8_t bits[NICTL_CPUMASK_MAX_BYTES];
};

void cpus_zero(struct cpus *s);
void cpus_set(struct cpus *s, unsigned int cpu);
void cpus_clear(struct cpus *s, unsigned int cpu);
bool cpus_test(const struct cpus *s, unsigned int cpu);
unsigned int cpus_count(const struct cpus *s);
/* Lowest CPU in @s, or -1 when @s is empty. */
int cpus_first(const struct cpus *s);
/* Next CPU above @cpu in @s, or -1. */
int cpus_next(const struct cpus *s, int cpu);
bool cpus_equal(const struct cpus *a, const struct cpus *b);
bool cpus_subset(const struct cpus *sub, const struct cpus *super);
bool cpus_intersects(const struct cpus *a, const struct cpus *b);
/* Fewest bytes that still carry every set bit (0 for an empty set). */
size_t cpus_nbytes(const struct cpus *s);

/* "0-3,6": -EINVAL on a malformed list or a CPU >= CPUS_MAX. */
int cpus_parse(struct cpus *s, const char *list);
/* Copy a wire bitmap in: -EINVAL when it is longer than any set can be. */
int cpus_from_bytes(struct cpus *s, const void *data, size_t len);
/* The cpulist form ("" for an empty set); truncated to fit @len. */
void cpus_format(const struct cpus *s, char *buf, size_t len);

#define for_each_cpu(cpu, s) \
	for ((cpu) = cpus_first(s); (cpu) >= 0; (cpu) = cpus_next((s), (cpu)))

#endif /* NICTL_TEST_CPUS_H */
