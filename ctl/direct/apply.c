// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/irq writes all or nothing, as far as userspace can: each IRQ's
 * affinity read before its write, and put back when a later write fails.
 * The kept file is written whole (rundir.h).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "direct/apply.h"
#include "fault.h"
#include "procirq.h"
#include "rundir.h"
#include "topology.h"

void direct_writes_free(struct direct_write *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; w && i < n; i++) {
		cpuset_free(&w[i].target);
		cpuset_free(&w[i].saved);
	}
	free(w);
}

static void irq_file(char *buf, size_t len, unsigned int irq)
{
	snprintf(buf, len, "%s/irq/%u/smp_affinity_list", proc_root(), irq);
}

/* One write(2) of the whole list, as the kernel takes it: -errno on refusal. */
static int write_affinity(unsigned int irq, const struct cpuset *cpus)
{
	char path[512], *list = cpuset_format(cpus);
	ssize_t n;
	int fd, err = 0;

	if (!list)
		return -ENOMEM;
	irq_file(path, sizeof(path), irq);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0) {
		err = -errno;
	} else {
		n = write(fd, list, strlen(list));
		err = n < 0 ? -errno : 0;
		if (close(fd) && !err)
			err = -errno;
	}
	free(list);
	return err;
}

int direct_apply(struct direct_write *w, unsigned int n, char *why, size_t len)
{
	unsigned int i, fault = fault_at(DIRECT_FAULT_ENV);
	int err = 0;

	for (i = 0; !err && i < n; i++) {
		err = procirq_cpus(w[i].irq, "smp_affinity_list", &w[i].saved);
		if (!err)
			err = fault == i + 1 ? -EIO : write_affinity(w[i].irq, &w[i].target);
	}
	if (!err)
		return 0;
	snprintf(why, len, "IRQ %u (%s): %s%s", w[i - 1].irq, w[i - 1].name ?: "?", strerror(-err),
		 err == -EIO ? " (a managed IRQ, or the chip refused it)" : "");
	/* w[i - 1] failed: its write did not happen, or changed nothing worth keeping. */
	direct_undo(w, i - 1);
	return err;
}

void direct_undo(const struct direct_write *w, unsigned int n)
{
	while (n--)
		if (!cpuset_empty(&w[n].saved))
			write_affinity(w[n].irq, &w[n].saved);
}

static void saved_file(char *buf, size_t len, unsigned int ifindex)
{
	snprintf(buf, len, "%s/irq-%u", run_dir(), ifindex);
}

int direct_saved_load(unsigned int ifindex, struct direct_write **w, unsigned int *n)
{
	char path[512], *line = NULL, list[4096];
	struct direct_write *grown;
	unsigned int irq;
	size_t size = 0;
	int target, err = 0;
	FILE *f;

	*w = NULL;
	*n = 0;
	saved_file(path, sizeof(path), ifindex);
	f = fopen(path, "r");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (!err && getline(&line, &size, f) > 0) {
		if (line[0] == '#' || sscanf(line, "%u %4095s %d", &irq, list, &target) != 3)
			continue;
		grown = realloc(*w, (*n + 1) * sizeof(**w));
		if (!grown) {
			err = -ENOMEM;
			break;
		}
		*w = grown;
		grown[*n] = (struct direct_write){ .irq = irq };
		/* "-": the IRQ had an empty affinity, which no write can give back. */
		err = strcmp(list, "-") ? cpuset_parse(&grown[*n].saved, list) : 0;
		if (!err && target >= 0)
			err = cpuset_add(&grown[*n].target, target);
		(*n)++;
	}
	free(line);
	fclose(f);
	return err;
}

/* The kept entry of @irq in @w, or NULL. */
static struct direct_write *find(struct direct_write *w, unsigned int n, unsigned int irq)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (w[i].irq == irq)
			return &w[i];
	return NULL;
}

static int put_entry(FILE *f, unsigned int irq, const struct cpuset *saved,
		     const struct cpuset *target)
{
	char *list = cpuset_format(saved);
	int cpu = cpuset_next(target, -1);

	if (!list)
		return -ENOMEM;
	fprintf(f, "%u %s %d\n", irq, *list ? list : "-", cpu);
	free(list);
	return 0;
}

int direct_saved_keep(const struct nictl_dev *dev, const struct direct_write *w, unsigned int n)
{
	struct direct_write *old, *o;
	char path[512], *text = NULL;
	unsigned int n_old, i;
	size_t size = 0;
	FILE *f;
	int err;

	err = direct_saved_load(dev->ifindex, &old, &n_old);
	if (err)
		return err;
	f = open_memstream(&text, &size);
	if (!f) {
		direct_writes_free(old, n_old);
		return -ENOMEM;
	}
	fprintf(f, "# %s: IRQ, affinity before nictlctl bind without the module, its target\n",
		dev->ifname);
	/* The first bind's originals stay; every IRQ gets this bind's target. */
	for (i = 0; !err && i < n; i++) {
		o = find(old, n_old, w[i].irq);
		err = put_entry(f, w[i].irq, o ? &o->saved : &w[i].saved, &w[i].target);
	}
	for (i = 0; !err && i < n_old; i++)
		if (!find((struct direct_write *)w, n, old[i].irq))
			err = put_entry(f, old[i].irq, &old[i].saved, &old[i].target);
	if (fclose(f) && !err)
		err = -ENOMEM;
	saved_file(path, sizeof(path), dev->ifindex);
	err = err ?: run_file_write(path, text);
	free(text);
	direct_writes_free(old, n_old);
	return err;
}

int direct_saved_remove(unsigned int ifindex)
{
	char path[512];

	saved_file(path, sizeof(path), ifindex);
	return unlink(path) && errno != ENOENT ? -errno : 0;
}

unsigned int direct_saved_prune(void)
{
	char ifname[IF_NAMESIZE], tail;
	DIR *dir = opendir(run_dir());
	unsigned int ifindex, n = 0;
	struct dirent *e;

	while (dir && (e = readdir(dir)))
		if (sscanf(e->d_name, "irq-%u%c", &ifindex, &tail) == 1 &&
		    !if_indextoname(ifindex, ifname) && errno == ENXIO &&
		    !direct_saved_remove(ifindex))
			n++;
	if (dir)
		closedir(dir);
	return n;
}

void direct_saved_annotate(struct nictl_dev *dev)
{
	struct direct_write *w, *kept;
	unsigned int n, i;

	if (direct_saved_load(dev->ifindex, &w, &n))
		return;
	for (i = 0; i < dev->nr_irqs; i++) {
		kept = find(w, n, dev->irqs[i].irq);
		if (!kept)
			continue;
		dev->flags |= NICTL_DEV_F_BOUND;
		dev->irqs[i].flags |= NICTL_IRQ_F_BOUND;
		dev->irqs[i].target_cpu = cpuset_next(&kept->target, -1);
	}
	direct_writes_free(w, n);
}
