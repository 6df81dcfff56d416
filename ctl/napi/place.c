// SPDX-License-Identifier: GPL-2.0
/*
 * The moves of napi/place.h. Threads move with sched_setaffinity(), which
 * the kernel allows on NAPI threads (they are not bound to a CPU). The CPUs
 * from before are kept under /run/nictl before the first move, so a crash
 * between moves leaves `restore` what it needs.
 *
 * $NICTL_FAULT_NAPI_WRITE=k makes the k-th move of a bind fail with EIO
 * without moving, so a test can prove the rollback.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "direct/bind.h"
#include "fault.h"
#include "napi/config.h"
#include "napi/kept.h"
#include "napi/place.h"
#include "report.h"

/* The threads one bind moves: each as it was (@m), and where it goes (@to). */
struct napi_txn {
	struct napi_moved *m;
	const struct cpuset **to;
	unsigned int n;
	bool created;		/* the bind made the device's file under /run/nictl */
};

static int thread_move(unsigned int pid, const struct cpuset *cpus)
{
	int cpu, last = -1, err = 0;
	cpu_set_t *set;
	size_t size;

	cpuset_for_each(cpu, cpus)
		last = cpu;
	if (last < 0)
		return -EINVAL;
	set = CPU_ALLOC(last + 1);
	if (!set)
		return -ENOMEM;
	size = CPU_ALLOC_SIZE(last + 1);
	CPU_ZERO_S(size, set);
	cpuset_for_each(cpu, cpus)
		CPU_SET_S(cpu, size, set);
	if (sched_setaffinity(pid, size, set))
		err = -errno;
	CPU_FREE(set);
	return err;
}

/* The CPUs @dev's IRQ @irq has: where its thread goes; NULL for no such IRQ. */
static const struct cpuset *irq_cpus(const struct nictl_dev *dev, unsigned int irq)
{
	const struct nictl_irq *found = dev_find_irq(dev, irq);

	return found ? &found->affinity : NULL;
}

/* Put back the first @n threads of @t; 0 or the first error, named in @failed. */
static int put_back(const struct napi_txn *t, unsigned int n, const struct napi_moved **failed)
{
	int err, first = 0;

	while (n--) {
		err = thread_move(t->m[n].pid, &t->m[n].before);
		/* A thread that ended has nothing to put back. */
		if (err && err != -ESRCH && !first) {
			first = err;
			*failed = &t->m[n];
		}
	}
	return first;
}

/*
 * Record in @t each thread of @threads whose CPUs the bind changes: to
 * @bound's IRQ's CPUs, or @set for a thread tied to no IRQ.
 */
static int plan(const struct nictl_dev *bound, const struct cpuset *set,
		const struct napi_threads *threads, struct napi_txn *t)
{
	const struct cpuset *to;
	struct napi_moved *e;
	unsigned int i;

	t->m = calloc(threads->n ?: 1, sizeof(*t->m));
	t->to = calloc(threads->n ?: 1, sizeof(*t->to));
	if (!t->m || !t->to)
		return -ENOMEM;
	for (i = 0; i < threads->n; i++) {
		to = irq_cpus(bound, threads->t[i].irq) ?: set;
		if (cpuset_equal(&threads->t[i].cpus, to))
			continue;
		e = &t->m[t->n];
		e->pid = threads->t[i].pid;
		snprintf(e->name, sizeof(e->name), "%s", threads->t[i].name);
		e->before = (struct cpuset)CPUSET_INIT;
		t->to[t->n++] = to;
		if (cpuset_or(&e->before, &threads->t[i].cpus))
			return -ENOMEM;
	}
	return 0;
}

/* Move each planned thread; on a failure put back those moved. 0 or -1 (said). */
static int move_all(const struct nictl_dev *bound, const struct napi_txn *t)
{
	unsigned int fault = fault_at(NAPI_FAULT_ENV), moved;
	const struct napi_moved *unput = NULL;
	int err = 0, undo_err;
	char *list;

	for (moved = 0; moved < t->n; moved++) {
		err = moved + 1 == fault ? -EIO : thread_move(t->m[moved].pid, t->to[moved]);
		/* A thread that ended since (threaded switched off) has nowhere to go. */
		if (err && err != -ESRCH)
			break;
		err = 0;
	}
	if (!err)
		return 0;
	list = cpuset_format(t->to[moved]);
	ctl_msg("cannot move NAPI thread %s (pid %u) of %s to CPUs %s: %s", t->m[moved].name,
		t->m[moved].pid, bound->ifname, list ?: "?", strerror(-err));
	free(list);
	undo_err = put_back(t, moved, &unput);
	if (undo_err)
		ctl_msg("could not put back NAPI thread %s (pid %u): %s", unput->name, unput->pid,
			strerror(-undo_err));
	return -1;
}

int napi_follow_threads(const struct nictl_dev *bound, const struct cpuset *set,
			const struct napi_threads *threads)
{
	struct napi_txn t = { .n = 0 };
	int err;

	err = plan(bound, set, threads, &t);
	if (!err && t.n) {
		err = napi_kept_add(bound->ifindex, bound->ifname, t.m, t.n, &t.created);
		if (err)
			ctl_msg("cannot keep the CPUs of %s's NAPI threads under /run/nictl: %s",
				bound->ifname, strerror(-err));
		else
			err = move_all(bound, &t);
		if (err && t.created)
			napi_kept_remove(bound->ifindex);
	} else if (err) {
		ctl_msg("out of memory");
	}
	napi_moved_free(t.m, t.n);
	free(t.to);
	return err ? -1 : 0;
}

int napi_follow(const struct nictl_dev *bound, const struct cpuset *set)
{
	struct napi_threads threads;
	int err;

	/* Another namespace's NAPIs are not this one's netdev-genl's to name. */
	if (bound->other_netns)
		return 0;
	err = napi_threads_of(bound, &threads);
	if (err)
		ctl_msg("cannot read the NAPI threads of %s: %s", bound->ifname, strerror(-err));
	else
		err = napi_follow_threads(bound, set, &threads);
	napi_threads_release(&threads);
	return err ? -1 : 0;
}

int napi_apply(const struct nictl_dev *bound, const struct cpuset *set,
	       const struct napi_config *c)
{
	return napi_config_apply(bound, c) ?: napi_follow(bound, set);
}

int napi_put_back(unsigned int ifindex)
{
	int threads = napi_restore(ifindex), settings = napi_config_restore(ifindex);

	return threads || settings ? -1 : 0;
}

int napi_follow_direct(const struct dev_list *bound, const struct cpuset *set,
		       const struct napi_config *c)
{
	if (!napi_apply(&bound->devs[0], set, c))
		return 0;
	napi_put_back(bound->devs[0].ifindex);
	direct_restore_dev(&bound->devs[0]);
	return -1;
}

/* Describe in @f each thread of @threads off its IRQ's CPUs; how many. */
static unsigned int astray(const struct nictl_dev *dev, const struct napi_threads *threads,
			   FILE *f)
{
	const struct cpuset *want;
	unsigned int i, n = 0;
	char *has, *wanted;

	for (i = 0; i < threads->n; i++) {
		want = irq_cpus(dev, threads->t[i].irq);
		if (!want || cpuset_equal(want, &threads->t[i].cpus))
			continue;
		has = cpuset_format(&threads->t[i].cpus);
		wanted = cpuset_format(want);
		fprintf(f, "%s%s (pid %u) on CPUs %s, its IRQ %u on %s", n++ ? ", " : "",
			threads->t[i].name, threads->t[i].pid, has ?: "?", threads->t[i].irq,
			wanted ?: "?");
		free(has);
		free(wanted);
	}
	return n;
}

char *napi_astray(const struct nictl_dev *dev)
{
	struct napi_threads threads;
	char *what = NULL;
	unsigned int n = 0;
	size_t len;
	FILE *f;

	if (dev->other_netns || napi_threads_of(dev, &threads)) {
		napi_threads_release(&threads);
		return NULL;
	}
	f = open_memstream(&what, &len);
	if (f) {
		n = astray(dev, &threads, f);
		fclose(f);
	}
	napi_threads_release(&threads);
	if (!n) {
		free(what);
		what = NULL;
	}
	return what;
}

/* Put @e back where it still runs under its name; 0 or -errno. */
static int restore_one(const struct napi_moved *e)
{
	char name[64];
	int err;

	if (napi_thread_comm(e->pid, name, sizeof(name)) || strcmp(name, e->name))
		return 0;
	err = thread_move(e->pid, &e->before);
	return err == -ESRCH ? 0 : err;
}

int napi_restore(unsigned int ifindex)
{
	struct napi_moved *m;
	unsigned int n, i;
	int err;

	err = napi_kept_load(ifindex, &m, &n);
	if (err == -ENOENT)
		return 0;
	if (err) {
		ctl_msg("cannot read the NAPI threads' CPUs kept under /run/nictl: %s",
			strerror(-err));
		return -1;
	}
	for (i = 0; !err && i < n; i++)
		err = restore_one(&m[i]);
	if (err)
		ctl_msg("cannot put back NAPI thread %s (pid %u): %s; run restore again",
			m[i - 1].name, m[i - 1].pid, strerror(-err));
	else
		napi_kept_remove(ifindex);
	napi_moved_free(m, n);
	return err ? -1 : 0;
}
