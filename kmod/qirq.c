// SPDX-License-Identifier: GPL-2.0
/* nictl: merge a device's queue IRQs and group them (see qirq.h). */
#include "qirq.h"

#ifdef __KERNEL__
#include <linux/sort.h>
#include <linux/string.h>
#define nictl_sort(base, num, size, cmp)	sort(base, num, size, cmp, NULL)
#else
#include <stdlib.h>
#include <string.h>
#define nictl_sort(base, num, size, cmp)	qsort(base, num, size, cmp)
#endif

static int nictl_cmp_uint(unsigned int a, unsigned int b)
{
	return a < b ? -1 : a > b;
}

/* As found: by IRQ, so that the entries of one IRQ are adjacent. */
static int nictl_cmp_found(const void *a, const void *b)
{
	const struct nictl_qirq *x = a, *y = b;

	return nictl_cmp_uint(x->irq, y->irq) ?: nictl_cmp_uint(x->queue, y->queue) ?:
	       nictl_cmp_uint(x->kind, y->kind);
}

/* As shown: by queue, rx before tx before combined, then by IRQ. */
static int nictl_cmp_shown(const void *a, const void *b)
{
	const struct nictl_qirq *x = a, *y = b;

	return nictl_cmp_uint(x->queue, y->queue) ?: nictl_cmp_uint(x->kind, y->kind) ?:
	       nictl_cmp_uint(x->irq, y->irq);
}

static int nictl_cmp_key(const void *a, const void *b)
{
	const unsigned long long *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* Union-find over the IRQs' @group fields, which hold parent indices. */
static unsigned int nictl_find(struct nictl_qirq *irqs, unsigned int i)
{
	while (irqs[i].group != i) {
		irqs[i].group = irqs[irqs[i].group].group;
		i = irqs[i].group;
	}
	return i;
}

static void nictl_join(struct nictl_qirq *irqs, unsigned int a, unsigned int b)
{
	a = nictl_find(irqs, a);
	b = nictl_find(irqs, b);
	if (a < b)
		irqs[b].group = a;
	else if (b < a)
		irqs[a].group = b;
}

/* Collapse each IRQ's adjacent entries into its first; return the IRQs. */
static unsigned int nictl_collapse(struct nictl_qirq *irqs, unsigned int n, struct nictl_qref *refs)
{
	unsigned int i, u = 0, r = 0;
	struct nictl_qirq *cur = NULL;

	for (i = 0; i < n; i++) {
		if (!cur || irqs[i].irq != cur->irq) {
			cur = &irqs[u++];
			if (cur != &irqs[i])
				memcpy(cur, &irqs[i], sizeof(*cur));
			cur->first_ref = r;
			cur->n_refs = 0;
		} else if (irqs[i].queue == refs[r - 1].queue && irqs[i].kind == refs[r - 1].kind) {
			continue;
		} else if (irqs[i].kind != cur->kind) {
			cur->kind = NICTL_QUEUE_KIND_COMBINED;
		}
		refs[r].queue = irqs[i].queue;
		refs[r].kind = irqs[i].kind;
		r++;
		cur->n_refs++;
	}
	return u;
}

static bool nictl_serves(unsigned int kind, bool tx)
{
	return kind == NICTL_QUEUE_KIND_COMBINED ||
	       kind == (tx ? NICTL_QUEUE_KIND_TX : NICTL_QUEUE_KIND_RX);
}

/* Whether two IRQs among one queue's @n entries serve its @tx direction. */
static bool nictl_contested(const struct nictl_qirq *q, unsigned int n, bool tx)
{
	const struct nictl_qirq *first = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!nictl_serves(q[i].kind, tx))
			continue;
		if (first && q[i].irq != first->irq)
			return true;
		first = first ?: &q[i];
	}
	return false;
}

unsigned int nictl_qirqs_drop_contested(struct nictl_qirq *irqs, unsigned int n)
{
	unsigned int i, j, end, kept = 0;
	bool rx, tx;

	nictl_sort(irqs, n, sizeof(*irqs), nictl_cmp_shown);
	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && irqs[end].queue == irqs[i].queue; end++)
			;
		rx = nictl_contested(&irqs[i], end - i, false);
		tx = nictl_contested(&irqs[i], end - i, true);
		for (j = i; j < end; j++) {
			if ((rx && nictl_serves(irqs[j].kind, false)) ||
			    (tx && nictl_serves(irqs[j].kind, true)))
				continue;
			if (kept != j)
				memcpy(&irqs[kept], &irqs[j], sizeof(*irqs));
			kept++;
		}
	}
	return kept;
}

unsigned int nictl_qirqs_merge(struct nictl_qirq *irqs, unsigned int n, struct nictl_qref *refs,
			       unsigned long long *scratch, unsigned int *n_groups)
{
	unsigned long long *keys = scratch;
	unsigned int *label = (unsigned int *)scratch;
	unsigned int i, k, u, nkeys = 0, groups = 0;

	nictl_sort(irqs, n, sizeof(*irqs), nictl_cmp_found);
	u = nictl_collapse(irqs, n, refs);

	/* Keys (queue, IRQ index) sorted by queue: joining neighbours joins a queue's IRQs. */
	for (i = 0; i < u; i++) {
		irqs[i].group = i;
		for (k = 0; k < irqs[i].n_refs; k++)
			keys[nkeys++] = (unsigned long long)refs[irqs[i].first_ref + k].queue << 32 | i;
	}
	nictl_sort(keys, nkeys, sizeof(*keys), nictl_cmp_key);
	for (k = 1; k < nkeys; k++)
		if (keys[k] >> 32 == keys[k - 1] >> 32)
			nictl_join(irqs, (unsigned int)keys[k], (unsigned int)keys[k - 1]);
	for (i = 0; i < u; i++)
		irqs[i].group = nictl_find(irqs, i);

	/* Number the groups in display order, reusing the spent keys' room. */
	nictl_sort(irqs, u, sizeof(*irqs), nictl_cmp_shown);
	for (i = 0; i < u; i++)
		label[i] = ~0U;
	for (i = 0; i < u; i++) {
		if (label[irqs[i].group] == ~0U)
			label[irqs[i].group] = groups++;
		irqs[i].group = label[irqs[i].group];
	}
	*n_groups = groups;
	return u;
}

int nictl_qirqs_group_of(const struct nictl_qirq *irqs, unsigned int n,
			 const struct nictl_qref *refs, unsigned int queue)
{
	unsigned int i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < irqs[i].n_refs; k++)
			if (refs[irqs[i].first_ref + k].queue == queue)
				return irqs[i].group;
	return -1;
}

int nictl_qirqs_plan_group(struct nictl_qirq *irqs, unsigned int n, unsigned int group, int cpu)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (irqs[i].group == group && irqs[i].plan_cpu >= 0 && irqs[i].plan_cpu != cpu)
			return -1;
	for (i = 0; i < n; i++)
		if (irqs[i].group == group)
			irqs[i].plan_cpu = cpu;
	return 0;
}

enum nictl_irq_source nictl_qirqs_source(unsigned int named, unsigned int linked)
{
	if (named && linked)
		return NICTL_IRQ_SOURCE_MSI_NAPI;
	if (named)
		return NICTL_IRQ_SOURCE_MSI;
	return linked ? NICTL_IRQ_SOURCE_NAPI : NICTL_IRQ_SOURCE_NONE;
}
