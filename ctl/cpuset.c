// SPDX-License-Identifier: GPL-2.0
/*
 * CPU sets: a bitmap of unsigned longs that grows on demand, so callers never
 * need to know nr_cpu_ids up front, plus the cpulist and wire conversions.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"

#define BITS_PER_WORD	(8 * sizeof(unsigned long))

void cpuset_free(struct cpuset *s)
{
	free(s->words);
	s->words = NULL;
	s->nwords = 0;
}

static int cpuset_grow(struct cpuset *s, unsigned int nwords)
{
	unsigned long *words;

	if (nwords <= s->nwords)
		return 0;
	words = realloc(s->words, nwords * sizeof(*words));
	if (!words)
		return -ENOMEM;
	memset(words + s->nwords, 0, (nwords - s->nwords) * sizeof(*words));
	s->words = words;
	s->nwords = nwords;
	return 0;
}

int cpuset_add(struct cpuset *s, unsigned int cpu)
{
	int err;

	if (cpu >= CPUSET_MAX_CPUS)
		return -ERANGE;
	err = cpuset_grow(s, cpu / BITS_PER_WORD + 1);
	if (err)
		return err;
	s->words[cpu / BITS_PER_WORD] |= 1UL << (cpu % BITS_PER_WORD);
	return 0;
}

void cpuset_del(struct cpuset *s, unsigned int cpu)
{
	if (cpu / BITS_PER_WORD < s->nwords)
		s->words[cpu / BITS_PER_WORD] &= ~(1UL << (cpu % BITS_PER_WORD));
}

bool cpuset_has(const struct cpuset *s, unsigned int cpu)
{
	if (cpu / BITS_PER_WORD >= s->nwords)
		return false;
	return s->words[cpu / BITS_PER_WORD] & (1UL << (cpu % BITS_PER_WORD));
}

bool cpuset_is_only(const struct cpuset *s, int cpu)
{
	return cpu >= 0 && cpuset_weight(s) == 1 && cpuset_has(s, cpu);
}

unsigned int cpuset_weight(const struct cpuset *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nwords; i++)
		n += __builtin_popcountl(s->words[i]);
	return n;
}

bool cpuset_empty(const struct cpuset *s)
{
	return cpuset_next(s, -1) < 0;
}

/* The lowest CPU above @prev (pass -1 to start), or -1 when there is none. */
int cpuset_next(const struct cpuset *s, int prev)
{
	unsigned int cpu = prev + 1;
	unsigned int i = cpu / BITS_PER_WORD;
	unsigned long word;

	if (i >= s->nwords)
		return -1;
	word = s->words[i] & (~0UL << (cpu % BITS_PER_WORD));
	while (!word) {
		if (++i >= s->nwords)
			return -1;
		word = s->words[i];
	}
	return i * BITS_PER_WORD + __builtin_ctzl(word);
}

int cpuset_or(struct cpuset *dst, const struct cpuset *src)
{
	unsigned int i;
	int err;

	err = cpuset_grow(dst, src->nwords);
	if (err)
		return err;
	for (i = 0; i < src->nwords; i++)
		dst->words[i] |= src->words[i];
	return 0;
}

void cpuset_and(struct cpuset *dst, const struct cpuset *src)
{
	unsigned int i;

	for (i = 0; i < dst->nwords; i++)
		dst->words[i] &= i < src->nwords ? src->words[i] : 0;
}

void cpuset_andnot(struct cpuset *dst, const struct cpuset *src)
{
	unsigned int i;

	for (i = 0; i < dst->nwords && i < src->nwords; i++)
		dst->words[i] &= ~src->words[i];
}

bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i;

	for (i = 0; i < a->nwords && i < b->nwords; i++)
		if (a->words[i] & b->words[i])
			return true;
	return false;
}

bool cpuset_equal(const struct cpuset *a, const struct cpuset *b)
{
	unsigned int i, n = a->nwords > b->nwords ? a->nwords : b->nwords;

	for (i = 0; i < n; i++)
		if ((i < a->nwords ? a->words[i] : 0) != (i < b->nwords ? b->words[i] : 0))
			return false;
	return true;
}

/* Read a CPU number; signs, blanks and other non-digits are syntax errors. */
static int parse_cpu(const char **p, unsigned int *cpu)
{
	unsigned int n = 0;

	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	while (isdigit((unsigned char)**p)) {
		n = n * 10 + (**p - '0');
		if (n >= CPUSET_MAX_CPUS)
			return -ERANGE;
		(*p)++;
	}
	*cpu = n;
	return 0;
}

static int parse_item(struct cpuset *s, const char **p)
{
	unsigned int first, last, cpu;
	int err;

	err = parse_cpu(p, &first);
	if (err)
		return err;
	last = first;
	if (**p == '-') {
		(*p)++;
		err = parse_cpu(p, &last);
		if (err)
			return err;
		if (last < first)
			return -EINVAL;
	}
	for (cpu = first; cpu <= last; cpu++) {
		err = cpuset_add(s, cpu);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Add the CPUs of a cpulist ("0-3,8") to @s. Surrounding blanks are allowed
 * because sysfs ends its lists with a newline; an empty list adds nothing
 * (sysfs writes one for an empty mask). Returns -EINVAL on a syntax error,
 * -ERANGE for a CPU the protocol cannot carry.
 */
int cpuset_parse(struct cpuset *s, const char *list)
{
	const char *p = list;
	int err;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return 0;
	for (;;) {
		err = parse_item(s, &p);
		if (err)
			return err;
		if (*p != ',')
			break;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	return *p ? -EINVAL : 0;
}

/*
 * Add the CPUs of a hex mask, as /proc/irq/default_smp_affinity and
 * irqbalance's IRQBALANCE_BANNED_CPUS write it ("ff", "00000000,00000050")
 * to @s. As the kernel's bitmap_parse() reads it: the last digit holds CPUs
 * 0-3, and commas split it into chunks of up to 8 digits, each of exactly
 * 32 bits. Blanks around it and a leading 0x are allowed. Returns -EINVAL
 * on a syntax error, -ERANGE for a CPU the protocol cannot carry.
 */
int cpuset_parse_mask(struct cpuset *s, const char *mask)
{
	unsigned int chunk = 0, digits = 0, bit;
	const char *first, *last, *p;
	int value, err;

	while (isspace((unsigned char)*mask))
		mask++;
	if (mask[0] == '0' && (mask[1] == 'x' || mask[1] == 'X'))
		mask += 2;
	first = mask;
	for (last = first; isxdigit((unsigned char)*last) || *last == ','; last++)
		;
	for (p = last; isspace((unsigned char)*p); p++)
		;
	if (*p || last == first)
		return -EINVAL;
	for (p = last - 1; p >= first; p--) {
		if (*p == ',') {
			if (!digits)
				return -EINVAL;
			chunk++;
			digits = 0;
			continue;
		}
		if (digits++ == 8)
			return -EINVAL;
		value = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
		for (bit = 0; bit < 4; bit++) {
			if (!(value & (1 << bit)))
				continue;
			if (chunk * 32 + (digits - 1) * 4 + bit >= CPUSET_MAX_CPUS)
				return -ERANGE;
			err = cpuset_add(s, chunk * 32 + (digits - 1) * 4 + bit);
			if (err)
				return err;
		}
	}
	return digits ? 0 : -EINVAL;
}

/*
 * The set as a cpulist the way the kernel prints it: runs of two or more CPUs
 * become ranges. Returns a malloc'ed string ("" when empty), NULL on ENOMEM.
 */
char *cpuset_format(const struct cpuset *s)
{
	char *buf = NULL;
	size_t size = 0;
	const char *sep = "";
	int first, last;
	FILE *f;

	f = open_memstream(&buf, &size);
	if (!f)
		return NULL;
	first = cpuset_next(s, -1);
	while (first >= 0) {
		last = first;
		while (cpuset_has(s, last + 1))
			last++;
		if (last > first)
			fprintf(f, "%s%d-%d", sep, first, last);
		else
			fprintf(f, "%s%d", sep, first);
		sep = ",";
		first = cpuset_next(s, last);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Replace @s by the protocol bitmap @buf: CPU n is bit (n % 8) of byte n / 8. */
int cpuset_from_bytes(struct cpuset *s, const uint8_t *buf, size_t len)
{
	unsigned int bit;
	size_t i;
	int err;

	cpuset_free(s);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			if (!(buf[i] & (1U << bit)))
				continue;
			err = cpuset_add(s, i * 8 + bit);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Bytes the protocol bitmap of @s needs: requests may omit trailing zeroes. */
size_t cpuset_bytes_len(const struct cpuset *s)
{
	int cpu, last = -1;

	cpuset_for_each(cpu, s)
		last = cpu;
	return last < 0 ? 0 : last / 8 + 1;
}

/* Write @s as a protocol bitmap of @len bytes; CPUs beyond @len are dropped. */
void cpuset_to_bytes(const struct cpuset *s, uint8_t *buf, size_t len)
{
	int cpu;

	memset(buf, 0, len);
	cpuset_for_each(cpu, s) {
		if ((size_t)cpu / 8 >= len)
			break;
		buf[cpu / 8] |= 1U << (cpu % 8);
	}
}
