/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A growable set of CPU numbers, with the two text and wire forms nictl uses:
 * the kernel's cpulist ("0-3,8") and the byte-wise bitmap of the protocol.
 */
#ifndef NICTLCTL_CPUSET_H
#define NICTLCTL_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/nictl.h>

/* The protocol cannot carry more; refusing larger numbers bounds the set. */
#define CPUSET_MAX_CPUS		(NICTL_CPUMASK_MAX_BYTES * 8)

struct cpuset {
	unsigned long *words;
	unsigned int nwords;
};

#define CPUSET_INIT		{ NULL, 0 }

void cpuset_free(struct cpuset *s);
int cpuset_add(struct cpuset *s, unsigned int cpu);
void cpuset_del(struct cpuset *s, unsigned int cpu);
bool cpuset_has(const struct cpuset *s, unsigned int cpu);
/* @s is @cpu alone: an IRQ placed on that CPU (false for a @cpu < 0). */
bool cpuset_is_only(const struct cpuset *s, int cpu);
unsigned int cpuset_weight(const struct cpuset *s);
bool cpuset_empty(const struct cpuset *s);
int cpuset_next(const struct cpuset *s, int prev);
int cpuset_or(struct cpuset *dst, const struct cpuset *src);
void cpuset_and(struct cpuset *dst, const struct cpuset *src);
void cpuset_andnot(struct cpuset *dst, const struct cpuset *src);
bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b);
bool cpuset_equal(const struct cpuset *a, const struct cpuset *b);

/* Iterate over the CPUs of @s in ascending order; @cpu must be an int. */
#define cpuset_for_each(cpu, s) \
	for ((cpu) = cpuset_next((s), -1); (cpu) >= 0; (cpu) = cpuset_next((s), (cpu)))

int cpuset_parse(struct cpuset *s, const char *list);
int cpuset_parse_mask(struct cpuset *s, const char *mask);
char *cpuset_format(const struct cpuset *s);

int cpuset_from_bytes(struct cpuset *s, const uint8_t *buf, size_t len);
size_t cpuset_bytes_len(const struct cpuset *s);
void cpuset_to_bytes(const struct cpuset *s, uint8_t *buf, size_t len);

#endif /* NICTLCTL_CPUSET_H */
