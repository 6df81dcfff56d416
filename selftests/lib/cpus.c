// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpus.h"

void cpus_zero(struct cpus *s)
{
	memset(s->bits, 0, sizeof(s->bits));
}

void cpus_set(struct cpus *s, unsigned int cpu)
{
	s->bits[cpu / 8] |= 1U << (cpu % 8);
}

void cpus_clear(struct cpus *s, unsigned int cpu)
{
	s->bits[cpu / 8] &= ~(1U << (cpu % 8));
}

bool cpus_test(const struct cpus *s, unsigned int cpu)
{
	return cpu < CPUS_MAX && (s->bits[cpu / 8] & (1U << (cpu % 8)));
}

unsigned int cpus_count(const struct cpus *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(s->bits); i++)
		n += __builtin_popcount(s->bits[i]);
	return n;
}

int cpus_next(const struct cpus *s, int cpu)
{
	unsigned int i;

	for (i = cpu + 1; i < CPUS_MAX; i++)
		if (cpus_test(s, i))
			return i;
	return -1;
}

int cpus_first(const struct cpus *s)
{
	return cpus_next(s, -1);
}

bool cpus_equal(const struct cpus *a, const struct cpus *b)
{
	return !memcmp(a->bits, b->bits, sizeof(a->bits));
}

bool cpus_subset(const struct cpus *sub, const struct cpus *super)
{
	unsigned int i;

	for (i = 0; i < sizeof(sub->bits); i++)
		if (sub->bits[i] & ~super->bits[i])
			return false;
	return true;
}

bool cpus_intersects(const struct cpus *a, const struct cpus *b)
{
	unsigned int i;

	for (i = 0; i < sizeof(a->bits); i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

size_t cpus_nbytes(const struct cpus *s)
{
	size_t n = sizeof(s->bits);

	while (n && !s->bits[n - 1])
		n--;
	return n;
}

/* One decimal CPU number at *@p, advancing @p past it. */
static int parse_cpu(const char **p, unsigned int *cpu)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	errno = 0;
	v = strtoul(*p, &end, 10);
	if (errno || v >= CPUS_MAX)
		return -EINVAL;
	*p = end;
	*cpu = v;
	return 0;
}

int cpus_parse(struct cpus *s, const char *list)
{
	const char *p = list;
	unsigned int lo, hi, cpu;

	cpus_zero(s);
	while (*p && *p != '\n') {
		if (parse_cpu(&p, &lo))
			return -EINVAL;
		hi = lo;
		if (*p == '-') {
			p++;
			if (parse_cpu(&p, &hi) || hi < lo)
				return -EINVAL;
		}
		for (cpu = lo; cpu <= hi; cpu++)
			cpus_set(s, cpu);
		if (*p == ',' && isdigit((unsigned char)p[1]))
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int cpus_from_bytes(struct cpus *s, const void *data, size_t len)
{
	cpus_zero(s);
	if (len > sizeof(s->bits))
		return -EINVAL;
	memcpy(s->bits, data, len);
	return 0;
}

void cpus_format(const struct cpus *s, char *buf, size_t len)
{
	size_t used = 0;
	int lo, hi, n;

	if (len)
		buf[0] = '\0';
	lo = cpus_first(s);
	while (lo >= 0 && used < len) {
		hi = lo;
		while (cpus_test(s, hi + 1))
			hi++;
		if (hi == lo)
			n = snprintf(buf + used, len - used, "%s%d", used ? "," : "", lo);
		else
			n = snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", lo, hi);
		used += n;
		lo = cpus_next(s, hi);
	}
}
