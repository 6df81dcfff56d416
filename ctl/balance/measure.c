// SPDX-License-Identifier: GPL-2.0
/*
 * What each queue group of a set costs, from two samples of the module's
 * accounting: the NET_RX time of the NAPI instances serving its receive
 * queues with their share of the softirq's own work around the polls, and
 * per CPU the NET_RX time none of them accounts for (other devices, the
 * RPS backlog, their share of that work), which stays where it is whatever
 * the plan. Both are differences of counters that only grow,
 * so the window is whatever lay between the samples: the command's
 * --window, or the daemon's interval.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "balance/balance.h"
#include "report.h"
#include "topology.h"

/* 0, or -1 after printing why. */
int bal_sample(struct ctl_nl *nl, const struct bal_set *set, struct bal_sample *b)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	if (stats_read(nl, NULL, &b->s))
		return -1;
	b->napi_end = calloc(set->devs.nr, sizeof(*b->napi_end));
	if (!b->napi_end) {
		ctl_msg("out of memory");
		bal_sample_free(b);
		return -1;
	}
	for (i = 0; i < set->devs.nr; i++) {
		if (stats_read_napis(nl, &set->devs.devs[i], &b->s)) {
			bal_sample_free(b);
			return -1;
		}
		b->napi_end[i] = b->s.nr_napis;
	}
	b->nr_devs = set->devs.nr;
	return 0;
}

void bal_sample_free(struct bal_sample *b)
{
	stats_sample_free(&b->s);
	free(b->napi_end);
	memset(b, 0, sizeof(*b));
}

/* Device @i's NAPI instance @id in @b, or NULL. */
static const struct stats_napi *find_napi(const struct bal_sample *b, unsigned int i,
					  unsigned int id)
{
	unsigned int k = i ? b->napi_end[i - 1] : 0;

	for (; k < b->napi_end[i]; k++)
		if (b->s.napis[k].id == id)
			return &b->s.napis[k];
	return NULL;
}

static uint64_t napi_time_on(const struct stats_cpu *c, unsigned int id)
{
	const struct stats_napi_time *t = stats_find_napi_time(c, id);

	return t ? t->time_ns : 0;
}

static uint64_t grown(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

/* Where @irq runs: its effective CPU, else the one CPU it may use; -1. */
static int irq_cpu(const struct nictl_irq *irq)
{
	int cpu = cpuset_next(&irq->effective, -1);

	if (cpu < 0 && cpuset_weight(&irq->affinity) == 1)
		cpu = cpuset_next(&irq->affinity, -1);
	return cpu;
}

/*
 * One slot and one weightless group per placement group of each device. A
 * group is named by its lowest queue and runs where the IRQ of that queue
 * runs (its receive work does).
 */
static int make_groups(struct bal_set *set)
{
	const struct nictl_irq *irq;
	const struct nictl_dev *dev;
	unsigned int i, k, at, nr, first = 0;

	for (i = 0; i < set->devs.nr; i++)
		set->nr_groups += dev_group_count(&set->devs.devs[i]);
	set->slots = calloc(set->nr_groups, sizeof(*set->slots));
	set->groups = calloc(set->nr_groups, sizeof(*set->groups));
	if (!set->slots || !set->groups)
		return -ENOMEM;
	for (i = 0; i < set->devs.nr; i++) {
		dev = &set->devs.devs[i];
		nr = dev_group_count(dev);
		for (k = 0; k < nr; k++) {
			set->slots[first + k] = (struct bal_slot){ i, k, UINT_MAX };
			set->groups[first + k] = (struct bal_group){
				.cpu = -1, .allowed = &set->allowed[i],
				.exclusive = !set->policy[i]->allow_siblings,
			};
		}
		for (k = 0; k < dev->nr_irqs; k++) {
			irq = &dev->irqs[k];
			at = first + irq->group;
			if (irq->queue < set->slots[at].queue) {
				set->slots[at].queue = irq->queue;
				set->groups[at].cpu = irq_cpu(irq);
			}
		}
		first += nr;
	}
	return 0;
}

/* The group of @set's device @i that receives on queue @q, or -1. */
static int rx_group(const struct bal_set *set, unsigned int i, int q)
{
	const struct nictl_irq *irq;
	unsigned int g;

	if (q < 0)
		return -1;
	irq = dev_queue_irq(&set->devs.devs[i], q, true);
	for (g = 0; irq && g < set->nr_groups; g++)
		if (set->slots[g].dev == i && set->slots[g].group == irq->group)
			return g;
	return -1;
}

struct napi_ids {
	unsigned int *id;
	unsigned int *group;	/* the group each one serves */
	unsigned int nr;
};

/*
 * Weigh each group by the NET_RX time of the NAPI instances serving its
 * receive queues, collecting those instances in @ours; -ESRCH when one was
 * not there at @t0 (the device was reloaded in between).
 */
static int weigh_groups(struct bal_set *set, const struct bal_sample *t0,
			const struct bal_sample *t1, struct napi_ids *ours, unsigned int *changed)
{
	const struct stats_napi *now, *then;
	unsigned int i, k;
	int g;

	ours->id = calloc(t1->s.nr_napis ?: 1, sizeof(*ours->id));
	ours->group = calloc(t1->s.nr_napis ?: 1, sizeof(*ours->group));
	if (!ours->id || !ours->group)
		return -ENOMEM;
	for (i = 0, k = 0; i < set->devs.nr; i++) {
		for (; k < t1->napi_end[i]; k++) {
			now = &t1->s.napis[k];
			g = rx_group(set, i, now->queue);
			if (g < 0)
				continue;
			then = find_napi(t0, i, now->id);
			if (!then) {
				*changed = i;
				return -ESRCH;
			}
			set->groups[g].load += grown(now->time_ns, then->time_ns);
			ours->group[ours->nr] = g;
			ours->id[ours->nr++] = now->id;
		}
	}
	return 0;
}

/* What NAPI instance @id of @ours grew by on CPU @now (@then in the earlier sample). */
static uint64_t grown_on(const struct stats_cpu *now, const struct stats_cpu *then,
			 unsigned int id)
{
	return grown(napi_time_on(now, id), napi_time_on(then, id));
}

/*
 * Per CPU, the NET_RX time none of @ours took stays where it is, but for
 * the softirq's own work around the polls (the NET_RX time no poll
 * accounts for), which goes where the polls go: each of @ours takes the
 * share of it its poll time has of all polls there, into its group's load.
 * Left behind as base, a queue's own overhead would make a move to an idle
 * sibling look like a gain, and the daemon would chase it.
 */
static void weigh_base(struct bal_set *set, const struct bal_sample *t0,
		       const struct bal_sample *t1, const struct napi_ids *ours)
{
	const struct stats_cpu *now, *then;
	uint64_t all, polled, mine, overhead, share, t;
	unsigned int i, k, kind;

	for (i = 0; i < t1->s.nr_cpus; i++) {
		now = &t1->s.cpus[i];
		then = stats_find_cpu(&t0->s, now->cpu);
		if (!then)
			continue;
		all = grown(now->vec[NICTL_SOFTIRQ_NET_RX].time_ns,
			    then->vec[NICTL_SOFTIRQ_NET_RX].time_ns);
		polled = 0;
		for (kind = 0; kind < __NICTL_POLL_MAX; kind++)
			polled += grown(now->poll[kind].time_ns, then->poll[kind].time_ns);
		mine = 0;
		for (k = 0; k < ours->nr; k++)
			mine += grown_on(now, then, ours->id[k]);
		/*
		 * No poll time at all: a module that does not time polls by
		 * kind, and nothing to share. A NAPI polled in its thread
		 * counts in its own time, not in NET_RX's.
		 */
		if (polled && polled < mine)
			polled = mine;
		overhead = polled && all > polled ? all - polled : 0;
		for (k = 0; overhead && k < ours->nr; k++) {
			t = grown_on(now, then, ours->id[k]);
			share = (uint64_t)((double)overhead * t / polled);
			set->groups[ours->group[k]].load += share;
			mine += share;
		}
		set->base[now->cpu] = all > mine ? all - mine : 0;
	}
}

/*
 * Each CPU's physical core (its lowest sibling), -1 when offline. Without
 * the online list (sysfs unreadable) every CPU the module reported counts.
 */
static void map_cores(struct bal_set *set, const struct stats_sample *s)
{
	struct cpuset siblings = CPUSET_INIT;
	unsigned int i;
	int cpu;

	for (i = 0; i < set->nr_cpus; i++)
		set->core[i] = -1;
	for (i = 0; i < s->nr_cpus; i++) {
		cpu = s->cpus[i].cpu;
		if (!cpuset_empty(&s->online) && !cpuset_has(&s->online, cpu))
			continue;
		set->core[cpu] = cpu;
		if (!topo_cpu_siblings(cpu, &siblings) && cpuset_has(&siblings, cpu))
			set->core[cpu] = cpuset_next(&siblings, -1);
		cpuset_free(&siblings);
	}
}

/*
 * Turn two samples into the set's problem: groups, their loads and current
 * CPUs (from the set's devices, described after @t1), the base load and the
 * cores. 0, or -1 with the reason in @err.
 */
int bal_measure(struct bal_set *set, const struct bal_sample *t0, const struct bal_sample *t1,
		char *err, size_t errlen)
{
	const struct stats_cpu *c0 = t0->s.nr_cpus ? &t0->s.cpus[0] : NULL;
	const struct stats_cpu *c1 = t1->s.nr_cpus ? &t1->s.cpus[0] : NULL;
	struct napi_ids ours = { 0 };
	unsigned int i, changed = 0;
	int ret;

	if (!t0->s.enabled || !t1->s.enabled) {
		snprintf(err, errlen, "softirq accounting is off: switch it on with `nictlctl "
			 "stats --on`");
		return -1;
	}
	if (!c0 || !c1 || stats_restarted(&t0->s, &t1->s) || c1->now_ns <= c0->now_ns ||
	    t0->nr_devs != set->devs.nr || t1->nr_devs != set->devs.nr) {
		snprintf(err, errlen, "the counters were reset while the load was measured");
		return -1;
	}
	set->window_ns = c1->now_ns - c0->now_ns;
	for (i = 0; i < t1->s.nr_cpus; i++)
		if (t1->s.cpus[i].cpu + 1 > set->nr_cpus)
			set->nr_cpus = t1->s.cpus[i].cpu + 1;
	set->base = calloc(set->nr_cpus, sizeof(*set->base));
	set->core = calloc(set->nr_cpus, sizeof(*set->core));
	ret = set->base && set->core ? make_groups(set) : -ENOMEM;
	if (!ret)
		ret = weigh_groups(set, t0, t1, &ours, &changed);
	if (!ret) {
		weigh_base(set, t0, t1, &ours);
		map_cores(set, &t1->s);
	}
	free(ours.id);
	free(ours.group);
	if (ret == -ESRCH)
		snprintf(err, errlen, "%s changed its NAPI instances while its load was "
			 "measured (reloaded?)", set->devs.devs[changed].ifname);
	else if (ret)
		snprintf(err, errlen, "out of memory");
	return ret ? -1 : 0;
}

/*
 * Whether @cpu is one the balance is about: online, and some device may
 * use it or a queue group runs there now. A busy CPU no device may use
 * neither gains nor loses by the plan, so it must not decide it.
 */
bool bal_cpu_relevant(const struct bal_set *set, unsigned int cpu)
{
	unsigned int i;

	if (cpu >= set->nr_cpus || set->core[cpu] < 0)
		return false;
	for (i = 0; i < set->devs.nr; i++)
		if (cpuset_has(&set->allowed[i], cpu))
			return true;
	for (i = 0; i < set->nr_groups; i++)
		if (set->groups[i].cpu == (int)cpu)
			return true;
	return false;
}

/*
 * The problem bal_place() solves for a measured set. Moves that gain less
 * than half a percent of a CPU, or a twentieth of the hottest relevant CPU's load,
 * are the measurement's noise (under a virtual machine's scheduling a
 * queue's NET_RX time varies by that much from one window to the next),
 * and not worth moving an IRQ for.
 */
void bal_problem_of(const struct bal_set *set, struct bal_problem *p)
{
	uint64_t *now = calloc(set->nr_cpus ?: 1, sizeof(*now)), hottest = 0;
	unsigned int g, c;

	*p = (struct bal_problem){
		.groups = set->groups, .nr_groups = set->nr_groups, .base = set->base,
		.core = set->core, .nr_cpus = set->nr_cpus,
	};
	for (c = 0; now && c < set->nr_cpus; c++)
		now[c] = set->base[c];
	for (g = 0; now && g < set->nr_groups; g++)
		if (set->groups[g].cpu >= 0 && (unsigned int)set->groups[g].cpu < set->nr_cpus)
			now[set->groups[g].cpu] += set->groups[g].load;
	for (c = 0; now && c < set->nr_cpus; c++)
		if (bal_cpu_relevant(set, c) && now[c] > hottest)
			hottest = now[c];
	free(now);
	p->min_gain = set->window_ns / 200 > hottest / 20 ? set->window_ns / 200 : hottest / 20;
}
