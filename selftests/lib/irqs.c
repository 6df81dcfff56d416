// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "irqs.h"
#include "sys.h"

/*
 * The number of "CPUn" columns of the header line (online CPUs only), and
 * the first @max of their CPU numbers into @cpus, when not NULL.
 */
static unsigned int cpu_columns(const char *header, int *cpus, unsigned int max)
{
	unsigned int n = 0;
	const char *p = header;

	while ((p = strstr(p, "CPU"))) {
		p += 3;
		if (cpus && n < max)
			cpus[n] = atoi(p);
		n++;
	}
	return n;
}

/* Skip @n whitespace-separated words of @p. */
static const char *skip_words(const char *p, unsigned int n)
{
	while (n--) {
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* The sum of the @n counts at @p. */
static unsigned long long sum_counts(const char *p, unsigned int n)
{
	unsigned long long sum = 0;
	char *end;

	while (n--) {
		sum += strtoull(p, &end, 10);
		p = end;
	}
	return sum;
}

static void set_label(struct proc_irq *pi)
{
	const char *end = pi->tail + strlen(pi->tail), *start;

	start = end;
	while (start > pi->tail && !isspace((unsigned char)start[-1]))
		start--;
	snprintf(pi->label, sizeof(pi->label), "%.*s", (int)(end - start), start);
}

static int parse_line(const char *line, unsigned int ncpus, struct proc_irq *pi)
{
	char *end;
	unsigned long irq;
	size_t len;

	while (isspace((unsigned char)*line))
		line++;
	irq = strtoul(line, &end, 10);
	if (end == line || *end != ':')
		return 0;	/* NMI:, LOC: and the like are not IRQs */
	pi->irq = irq;
	pi->count = sum_counts(end + 1, ncpus);
	line = skip_words(end + 1, ncpus);
	len = strcspn(line, "\n");
	while (len && isspace((unsigned char)line[len - 1]))
		len--;
	if (len >= sizeof(pi->tail))
		return -E2BIG;
	memcpy(pi->tail, line, len);
	pi->tail[len] = '\0';
	set_label(pi);
	return 1;
}

int proc_interrupts_parse(FILE *f, struct proc_irqs *out)
{
	char line[4096];
	unsigned int ncpus;
	int ret;

	out->n = 0;
	if (!fgets(line, sizeof(line), f))
		return -EINVAL;
	ncpus = cpu_columns(line, NULL, 0);
	while (fgets(line, sizeof(line), f)) {
		if (out->n >= PROC_IRQS_MAX)
			return -E2BIG;
		ret = parse_line(line, ncpus, &out->irq[out->n]);
		if (ret < 0)
			return ret;
		out->n += ret;
	}
	return 0;
}

int proc_interrupts(struct proc_irqs *out)
{
	FILE *f = fopen("/proc/interrupts", "re");
	int ret;

	if (!f)
		return -errno;
	ret = proc_interrupts_parse(f, out);
	fclose(f);
	return ret;
}

int irq_fired_on(unsigned int irq, struct cpus *on)
{
	FILE *f = fopen("/proc/interrupts", "re");
	char line[4096], *p, *end;
	int cpus[CPUS_MAX];
	unsigned int n, i;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	cpus_zero(on);
	n = fgets(line, sizeof(line), f) ? cpu_columns(line, cpus, CPUS_MAX) : 0;
	n = n < CPUS_MAX ? n : CPUS_MAX;
	while (n && ret == -ENOENT && fgets(line, sizeof(line), f)) {
		if (strtoul(line, &end, 10) != irq || *end != ':')
			continue;
		for (p = end + 1, i = 0; i < n; i++, p = end)
			if (strtoull(p, &end, 10))
				cpus_set(on, cpus[i]);
		ret = 0;
	}
	fclose(f);
	return ret;
}

const struct proc_irq *proc_irqs_find(const struct proc_irqs *p, unsigned int irq)
{
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (p->irq[i].irq == irq)
			return &p->irq[i];
	return NULL;
}

bool proc_irq_has_name(const struct proc_irq *p, const char *name)
{
	size_t len = strlen(name);
	const char *w = p->tail;

	while (*(w = skip_words(w, 0))) {
		size_t wlen = strcspn(w, " \t");

		/* Shared IRQs list their actions as "a, b". */
		if (wlen && w[wlen - 1] == ',')
			wlen--;
		if (wlen == len && !strncmp(w, name, len))
			return true;
		w = skip_words(w, 1);
	}
	return false;
}

int irq_count(unsigned int irq, unsigned long long *count)
{
	struct proc_irqs *p = malloc(sizeof(*p));
	const struct proc_irq *pi;
	int ret;

	if (!p)
		return -ENOMEM;
	ret = proc_interrupts(p);
	pi = ret ? NULL : proc_irqs_find(p, irq);
	if (pi)
		*count = pi->count;
	else if (!ret)
		ret = -ENOENT;
	free(p);
	return ret;
}

/*
 * How often an empty smp_affinity_list is read before it counts. The kernel
 * never keeps an IRQ's affinity empty, but while a change waits for the
 * IRQ's next interrupt (x86 MSI without interrupt remapping) the file shows
 * desc->pending_mask, read without the descriptor's lock: the move
 * (irq_move_masked_irq()) clears the pending flag and then that mask, and a
 * write sets the flag and then copies the mask, so a read between the two
 * prints an empty line. Whoever holds the lock finishes within microseconds,
 * but a vCPU can be held in between for a while: the reads wait 1, 2, 4 and
 * 8 ms between them, as ctl/procirq.c's do.
 */
#define AFFINITY_TRIES	5

/* /proc/irq/@irq/smp_affinity_list into @buf: 0, -EAGAIN if it stays empty, or -errno. */
static int read_list(unsigned int irq, char *buf, size_t len)
{
	unsigned int tries = 0;
	char path[128];
	int ret;

	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
	for (;;) {
		ret = read_str(path, buf, len);
		if (ret || *buf)
			return ret;
		if (++tries == AFFINITY_TRIES)
			return -EAGAIN;
		nanosleep(&(struct timespec){ 0, 1000000L << (tries - 1) }, NULL);
	}
}

int irq_affinity(unsigned int irq, struct cpus *mask, struct cpus *effective)
{
	char path[128], list[CPUS_LIST_LEN];
	int ret;

	ret = read_list(irq, list, sizeof(list)) ?: cpus_parse(mask, list);
	if (ret || !effective)
		return ret;
	snprintf(path, sizeof(path), "/proc/irq/%u/effective_affinity_list", irq);
	return read_cpus(path, effective);
}

int irq_set_affinity(unsigned int irq, const struct cpus *mask)
{
	char path[128], list[CPUS_LIST_LEN];

	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
	cpus_format(mask, list, sizeof(list));
	return write_str(path, list);
}

int irq_affinity_hint(unsigned int irq, char *buf, size_t len)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/irq/%u/affinity_hint", irq);
	return read_str(path, buf, len);
}

int irq_snapshot_take(struct irq_snapshot *s)
{
	struct proc_irqs *p = malloc(sizeof(*p));
	unsigned int i;
	int ret;

	if (!p)
		return -ENOMEM;
	s->n = 0;
	ret = proc_interrupts(p);
	for (i = 0; !ret && i < p->n; i++) {
		s->e[s->n].irq = p->irq[i].irq;
		memcpy(s->e[s->n].label, p->irq[i].label, sizeof(s->e[s->n].label));
		ret = read_list(p->irq[i].irq, s->e[s->n].list, sizeof(s->e[s->n].list));
		/* An IRQ freed since /proc/interrupts was read is not an error. */
		if (ret == -ENOENT)
			ret = 0;
		else if (!ret)
			s->n++;
	}
	free(p);
	return ret;
}

static int irq_snapshot_diff(const struct irq_snapshot *before, const struct irq_snapshot *now)
{
	unsigned int i, j;
	int changed = 0;

	for (i = 0; i < before->n; i++) {
		for (j = 0; j < now->n; j++)
			if (now->e[j].irq == before->e[i].irq)
				break;
		if (j == now->n) {
			fprintf(stderr, "# IRQ %u (%s) is gone\n", before->e[i].irq,
				before->e[i].label);
			changed++;
		} else if (strcmp(before->e[i].list, now->e[j].list)) {
			fprintf(stderr, "# IRQ %u (%s) affinity changed: %s -> %s\n",
				before->e[i].irq, before->e[i].label, before->e[i].list,
				now->e[j].list);
			changed++;
		}
	}
	return changed;
}

int irq_snapshot_changes(const struct irq_snapshot *before)
{
	struct irq_snapshot *now = malloc(sizeof(*now));
	int ret;

	if (!now)
		return -ENOMEM;
	ret = irq_snapshot_take(now);
	if (!ret)
		ret = irq_snapshot_diff(before, now);
	free(now);
	return ret;
}

int irq_snapshot_restore(const struct irq_snapshot *s)
{
	struct irq_snapshot *now = malloc(sizeof(*now));
	char path[128];
	unsigned int i, j;
	int ret, first = 0;

	if (!now)
		return -ENOMEM;
	ret = irq_snapshot_take(now);
	for (i = 0; !ret && i < s->n; i++) {
		for (j = 0; j < now->n; j++)
			if (now->e[j].irq == s->e[i].irq)
				break;
		/* Gone, or reused by another action since: nothing of ours. */
		if (j == now->n || strcmp(now->e[j].label, s->e[i].label) ||
		    !strcmp(now->e[j].list, s->e[i].list))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", s->e[i].irq);
		ret = write_str(path, s->e[i].list);
		if (ret) {
			fprintf(stderr, "# cannot restore IRQ %u (%s) to %s: %s\n",
				s->e[i].irq, s->e[i].label, s->e[i].list, strerror(-ret));
			if (!first)
				first = ret;
			ret = 0;
		}
	}
	free(now);
	return ret ? ret : first;
}
