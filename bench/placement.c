// SPDX-License-Identifier: GPL-2.0
/* The queue IRQ placement of the benchmarks' helpers: see placement.h. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	bool ok = f && fgets(buf, len, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

const char *queue_key(const char *action)
{
	static const char *const kinds[] = { "-input.", "-output.", "-TxRx-", "-rx-", "-tx-" };
	const char *at;
	unsigned int i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		at = strstr(action, kinds[i]);
		if (at && isdigit((unsigned char)at[strlen(kinds[i])]))
			return at + 1;
	}
	return NULL;
}

/* The key of IRQ @irq, from the directory /proc/irq/N has for each action. */
static bool irq_key(unsigned int irq, char *key, size_t len)
{
	char path[64];
	const char *k;
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/irq/%u", irq);
	d = opendir(path);
	while (d && !found && (e = readdir(d))) {
		k = queue_key(e->d_name);
		if (k)
			found = snprintf(key, len, "%s", k) >= 0;
	}
	if (d)
		closedir(d);
	return found;
}

/* Version order, so that "TxRx-10" follows "TxRx-9". */
static int by_key(const void *a, const void *b)
{
	return strverscmp(((const struct queue_place *)a)->key,
			  ((const struct queue_place *)b)->key);
}

void placement_read(const char *bdf, struct placement *p)
{
	char path[128];
	struct queue_place *q;
	struct dirent *e;
	DIR *d;

	p->nr = 0;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/msi_irqs", bdf);
	d = opendir(path);
	while (d && p->nr < PLACEMENT_MAX && (e = readdir(d))) {
		q = &p->q[p->nr];
		q->irq = strtoul(e->d_name, NULL, 10);
		if (!q->irq || !irq_key(q->irq, q->key, sizeof(q->key)))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", q->irq);
		if (read_line(path, q->cpus, sizeof(q->cpus)))
			p->nr++;
	}
	if (d)
		closedir(d);
	qsort(p->q, p->nr, sizeof(p->q[0]), by_key);
}

void placement_parse(const char *arg, struct placement *p)
{
	char *copy, *item, *save, *eq;
	struct queue_place *q;

	p->nr = 0;
	if (!strcmp(arg, "-"))
		return;
	copy = strdup(arg);
	if (!copy)
		err(1, "strdup");
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		eq = strchr(item, '=');
		if (!eq || p->nr == PLACEMENT_MAX)
			errx(2, "bad placement '%s', want KEY=CPUS,...", arg);
		*eq = '\0';
		q = &p->q[p->nr++];
		snprintf(q->key, sizeof(q->key), "%s", item);
		q->irq = 0;
		snprintf(q->cpus, sizeof(q->cpus), "%s", eq + 1);
	}
	free(copy);
	qsort(p->q, p->nr, sizeof(p->q[0]), by_key);
}

const struct queue_place *placement_find(const struct placement *p, const char *key)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->q[i].key, key))
			return &p->q[i];
	return NULL;
}

bool placement_equal(const struct placement *a, const struct placement *b)
{
	unsigned int i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (strcmp(a->q[i].key, b->q[i].key) || strcmp(a->q[i].cpus, b->q[i].cpus))
			return false;
	return true;
}

void placement_print(const struct placement *p)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		printf("%s%s=%s", i ? "," : "", p->q[i].key, p->q[i].cpus);
	printf("%s\n", p->nr ? "" : "-");
}
