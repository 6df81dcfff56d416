// SPDX-License-Identifier: GPL-2.0
/*
 * bal_place(): where each group of queue IRQs goes so that the hottest CPU
 * carries as little as it must, with as few moves as that allows.
 *
 * Spreading jobs of known size over CPUs so that the largest sum is least is
 * NP-hard, so two cheap placements are made and the better one kept:
 *
 * - one derived from the current placement: each group stays where its
 *   policy lets it, the others go where the load is lowest;
 * - a fresh one by LPT (longest processing time first: the heaviest group
 *   to the least loaded CPU), within 4/3 of the optimum when every group
 *   may use every CPU.
 *
 * Both then improve by moving a group off the hottest CPU, or swapping it
 * with a lighter one, while that cools it. The fresh placement replaces the
 * derived one only when it is better by min_gain: an equal one would move
 * IRQs for nothing, and a daemon that took it would never settle.
 *
 * A policy that wants a physical core per group (exclusive) gets one when
 * the cores its groups may use are enough for them. Groups whose CPUs share
 * a core compete for it, so that is decided per connected component of such
 * groups. Whether every group of a component can have a core of its own is
 * a bipartite matching of groups to cores; the placements keep one such
 * matching for the groups not placed yet, so that no group is given the
 * last core another one could use.
 *
 * Loads are integers throughout: the plan is the same on every machine.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "balance/place.h"

/* Which core of a capped component each group is promised, and the reverse. */
struct bal_match {
	int *core;		/* per group, -1 for none */
	int *group;		/* per core (its lowest CPU), -1 for none */
};

/* A CPU as the local search orders them: by load, then its core's load. */
struct bal_cpu {
	uint64_t load;
	uint64_t core_load;
	int cpu;
};

/* A group as the placements order them: pinned first, then heaviest first. */
struct bal_rank {
	uint64_t load;
	unsigned int g;
	bool pinned;
};

/* The problem, digested once for both placements. */
struct bal_ctx {
	const struct bal_problem *p;
	bool *pinned;			/* per group: stays where it is */
	/* group g may run on elig[elig_at[g]] .. elig[elig_at[g + 1] - 1], ascending */
	unsigned int *elig_at;
	int *elig;
	/* and so on these physical cores, each once */
	unsigned int *gcore_at;
	int *gcore;
	/* the groups that may run on core k, by index */
	unsigned int *cgroup_at;
	unsigned int *cgroup;
	unsigned int *comp;		/* per group: its component, named by its lowest group */
	int *core_comp;			/* per core: the component its groups form, -1 for none */
	bool *capped;			/* per component: a core to each group */
	unsigned int *order;		/* the groups as struct bal_rank orders them */
	struct bal_match start;		/* the matching both placements start from */
	bool shared;
	/* scratch */
	unsigned int *tally;		/* 1 per CPU, or 2 per group */
	struct bal_rank *rank;
	bool *reach;			/* per core, for reachable() */
	int *via;			/* per core, for reachable() */
	int *queue;			/* of cores, for reachable() */
	struct bal_cpu *by_load;
};

/* One candidate placement. */
struct bal_try {
	int *cpu;			/* per group; -1 until placed */
	uint64_t *load;			/* per CPU: its base and its groups */
	uint64_t *core_load;		/* per core: the load of all its CPUs */
	unsigned int *users;		/* per core: the groups on its CPUs */
	struct bal_match m;		/* kept while placing, stale once all are placed */
};

/* A move of group @g off the hottest CPU to @to, or a swap with group @other there. */
struct bal_step {
	unsigned int g;
	int other;			/* -1 for a move */
	int to;				/* -1 for no step */
	uint64_t max;			/* the hotter of the two CPUs afterwards */
	uint64_t to_load;		/* @to's load afterwards */
	uint64_t to_core_load;		/* @to's core's load before */
};

/* calloc that never asks for nothing, so that NULL always means no memory. */
static void *zalloc(size_t n, size_t size, bool *failed)
{
	void *ptr = calloc(n ? n : 1, size);

	*failed |= !ptr;
	return ptr;
}

static bool eligible(const struct bal_problem *p, unsigned int g, int cpu)
{
	return cpu >= 0 && (unsigned int)cpu < p->nr_cpus && p->core[cpu] >= 0 &&
	       cpuset_has(p->groups[g].allowed, cpu);
}

static bool stays(const struct bal_problem *p, unsigned int g)
{
	return p->groups[g].pinned && eligible(p, g, p->groups[g].cpu);
}

/*
 * The CPUs @g may run on, into @out unless it is NULL, and how many: those
 * online that its policy allows. A pinned group may run on them too: it
 * competes for their cores all the same, and the cap of its component must
 * not come and go with its pin.
 */
static unsigned int list_eligible(const struct bal_problem *p, unsigned int g, int *out)
{
	unsigned int n = 0;
	int cpu;

	cpuset_for_each(cpu, p->groups[g].allowed) {
		if ((unsigned int)cpu >= p->nr_cpus)
			break;
		if (p->core[cpu] < 0)
			continue;
		if (out)
			out[n] = cpu;
		n++;
	}
	return n;
}

/* The CPUs the groups may use in all, or -EINVAL when a group may use none. */
static int count_eligible(const struct bal_problem *p, unsigned int *total)
{
	unsigned int g, n;
	int cpu;

	/* The per-core arrays are indexed by @core: it has to name a CPU. */
	for (cpu = 0; (unsigned int)cpu < p->nr_cpus; cpu++)
		if (p->core[cpu] < -1 || p->core[cpu] >= (int)p->nr_cpus)
			return -EINVAL;
	*total = 0;
	for (g = 0; g < p->nr_groups; g++) {
		n = list_eligible(p, g, NULL);
		if (!n)
			return -EINVAL;
		*total += n;
	}
	return 0;
}

static void ctx_free(struct bal_ctx *c)
{
	free(c->pinned);
	free(c->elig_at);
	free(c->elig);
	free(c->gcore_at);
	free(c->gcore);
	free(c->cgroup_at);
	free(c->cgroup);
	free(c->comp);
	free(c->core_comp);
	free(c->capped);
	free(c->order);
	free(c->start.core);
	free(c->start.group);
	free(c->tally);
	free(c->rank);
	free(c->reach);
	free(c->via);
	free(c->queue);
	free(c->by_load);
}

static int ctx_alloc(struct bal_ctx *c, unsigned int nr_elig)
{
	unsigned int n = c->p->nr_groups, nr_cpus = c->p->nr_cpus;
	bool failed = false;

	c->pinned = zalloc(n, sizeof(*c->pinned), &failed);
	c->elig_at = zalloc(n + 1, sizeof(*c->elig_at), &failed);
	c->elig = zalloc(nr_elig, sizeof(*c->elig), &failed);
	c->gcore_at = zalloc(n + 1, sizeof(*c->gcore_at), &failed);
	c->gcore = zalloc(nr_elig, sizeof(*c->gcore), &failed);
	c->cgroup_at = zalloc(nr_cpus + 1, sizeof(*c->cgroup_at), &failed);
	c->cgroup = zalloc(nr_elig, sizeof(*c->cgroup), &failed);
	c->comp = zalloc(n, sizeof(*c->comp), &failed);
	c->core_comp = zalloc(nr_cpus, sizeof(*c->core_comp), &failed);
	c->capped = zalloc(n, sizeof(*c->capped), &failed);
	c->order = zalloc(n, sizeof(*c->order), &failed);
	c->start.core = zalloc(n, sizeof(*c->start.core), &failed);
	c->start.group = zalloc(nr_cpus, sizeof(*c->start.group), &failed);
	c->tally = zalloc(2 * n + nr_cpus, sizeof(*c->tally), &failed);
	c->rank = zalloc(n, sizeof(*c->rank), &failed);
	c->reach = zalloc(nr_cpus, sizeof(*c->reach), &failed);
	c->via = zalloc(nr_cpus, sizeof(*c->via), &failed);
	c->queue = zalloc(nr_cpus, sizeof(*c->queue), &failed);
	c->by_load = zalloc(nr_cpus, sizeof(*c->by_load), &failed);
	return failed ? -ENOMEM : 0;
}

/*
 * The eligible CPUs of each group, their cores, and the reverse: the groups
 * of each core, by counting sort so that they come by index.
 */
static void index_eligible(struct bal_ctx *c)
{
	const struct bal_problem *p = c->p;
	unsigned int *seen = c->tally, *fill = c->tally;	/* one after the other */
	unsigned int g, i, at = 0, nr_gcores = 0;
	int k;

	memset(seen, 0, p->nr_cpus * sizeof(*seen));
	for (g = 0; g < p->nr_groups; g++) {
		c->pinned[g] = stays(p, g);
		c->elig_at[g] = at;
		c->gcore_at[g] = nr_gcores;
		at += list_eligible(p, g, c->elig + at);
		for (i = c->elig_at[g]; i < at; i++) {
			k = p->core[c->elig[i]];
			if (seen[k] != g + 1) {
				seen[k] = g + 1;
				c->gcore[nr_gcores++] = k;
				c->cgroup_at[k + 1]++;
			}
		}
	}
	c->elig_at[p->nr_groups] = at;
	c->gcore_at[p->nr_groups] = nr_gcores;

	for (k = 0; (unsigned int)k < p->nr_cpus; k++)
		c->cgroup_at[k + 1] += c->cgroup_at[k];
	memcpy(fill, c->cgroup_at, p->nr_cpus * sizeof(*fill));
	for (g = 0; g < p->nr_groups; g++)
		for (i = c->gcore_at[g]; i < c->gcore_at[g + 1]; i++)
			c->cgroup[fill[c->gcore[i]]++] = g;
}

static unsigned int comp_root(unsigned int *parent, unsigned int g)
{
	while (parent[g] != g) {
		parent[g] = parent[parent[g]];
		g = parent[g];
	}
	return g;
}

/* Join the components of groups @a and @b; the lower root names the union. */
static void comp_join(unsigned int *parent, unsigned int a, unsigned int b)
{
	a = comp_root(parent, a);
	b = comp_root(parent, b);
	if (a < b)
		parent[b] = a;
	else
		parent[a] = b;
}

/*
 * Join the groups that may share a physical core into components, and cap
 * those with an exclusive group and no more groups than cores.
 */
static void split_components(struct bal_ctx *c)
{
	const struct bal_problem *p = c->p;
	unsigned int *groups = c->tally, *cores = c->tally + p->nr_groups;
	unsigned int g, i, r;
	int k;

	for (k = 0; (unsigned int)k < p->nr_cpus; k++)
		c->core_comp[k] = -1;
	for (g = 0; g < p->nr_groups; g++) {
		c->comp[g] = g;
		for (i = c->gcore_at[g]; i < c->gcore_at[g + 1]; i++) {
			k = c->gcore[i];
			if (c->core_comp[k] < 0)
				c->core_comp[k] = g;
			else
				comp_join(c->comp, c->core_comp[k], g);
		}
	}

	memset(c->tally, 0, 2 * p->nr_groups * sizeof(*c->tally));
	for (g = 0; g < p->nr_groups; g++) {
		r = comp_root(c->comp, g);
		c->comp[g] = r;
		groups[r]++;
		c->capped[r] |= p->groups[g].exclusive;
	}
	for (k = 0; (unsigned int)k < p->nr_cpus; k++) {
		if (c->core_comp[k] < 0)
			continue;
		c->core_comp[k] = c->comp[c->core_comp[k]];
		cores[c->core_comp[k]]++;
	}
	for (r = 0; r < p->nr_groups; r++) {
		if (c->capped[r] && groups[r] > cores[r]) {
			c->capped[r] = false;
			c->shared = true;
		}
	}
}

/* Whether @g may be placed on @cpu now: a pinned group only where it is. */
static bool may_run(const struct bal_ctx *c, unsigned int g, int cpu)
{
	return !c->pinned[g] || c->p->groups[g].cpu == cpu;
}

/* Whether @g may be promised core @k now: a pinned group only its own. */
static bool may_take(const struct bal_ctx *c, unsigned int g, int k)
{
	return !c->pinned[g] || c->p->core[c->p->groups[g].cpu] == k;
}

/*
 * Into c->reach: the cores of @g's component that @g could be promised while
 * every other group of it keeps one. Groups placed already (@cpu of them
 * set; @cpu NULL while nothing is) keep theirs; the others may trade. The
 * cores promised to nobody or to @g are reachable, and, backwards along
 * alternating paths, each core whose group could take a reachable one
 * instead; c->via of a core says which one its group would take.
 */
static void reachable(struct bal_ctx *c, const struct bal_match *m, const int *cpu,
		      unsigned int g)
{
	unsigned int comp = c->comp[g], head = 0, tail = 0, i, g2;
	int k, k2;

	for (k = 0; (unsigned int)k < c->p->nr_cpus; k++) {
		c->reach[k] = c->core_comp[k] == (int)comp &&
			      (m->group[k] < 0 || m->group[k] == (int)g);
		c->via[k] = -1;
		if (c->reach[k])
			c->queue[tail++] = k;
	}
	while (head < tail) {
		k = c->queue[head++];
		for (i = c->cgroup_at[k]; i < c->cgroup_at[k + 1]; i++) {
			g2 = c->cgroup[i];
			k2 = m->core[g2];
			if (g2 == g || k2 < 0 || (cpu && cpu[g2] >= 0) || c->reach[k2] ||
			    !may_take(c, g2, k))
				continue;
			c->reach[k2] = true;
			c->via[k2] = k;
			c->queue[tail++] = k2;
		}
	}
}

/* Promise core @k, which reachable() found for @g, to @g; its group moves along. */
static void promise(const struct bal_ctx *c, struct bal_match *m, unsigned int g, int k)
{
	int prev;

	if (m->core[g] >= 0)
		m->group[m->core[g]] = -1;
	for (;;) {
		prev = m->group[k];
		m->group[k] = g;
		m->core[g] = k;
		if (prev < 0)
			return;
		g = prev;
		k = c->via[k];
	}
}

/* Take back every promise made to the groups of component @r, and its cap. */
static void lift_cap(struct bal_ctx *c, unsigned int r)
{
	unsigned int g;

	c->capped[r] = false;
	c->shared = true;
	for (g = 0; g < c->p->nr_groups; g++) {
		if (c->comp[g] == r && c->start.core[g] >= 0) {
			c->start.group[c->start.core[g]] = -1;
			c->start.core[g] = -1;
		}
	}
}

/*
 * Promise every group of a capped component a core of its own, adding one
 * group at a time along augmenting paths. A group that finds none proves
 * that the component has no such matching: its cap is lifted.
 */
static void match_cores(struct bal_ctx *c)
{
	unsigned int g, i;
	int k;

	memset(c->start.core, -1, c->p->nr_groups * sizeof(*c->start.core));
	memset(c->start.group, -1, c->p->nr_cpus * sizeof(*c->start.group));
	for (g = 0; g < c->p->nr_groups; g++) {
		if (!c->capped[c->comp[g]])
			continue;
		reachable(c, &c->start, NULL, g);
		for (i = c->gcore_at[g]; i < c->gcore_at[g + 1]; i++) {
			k = c->gcore[i];
			if (c->reach[k] && may_take(c, g, k)) {
				promise(c, &c->start, g, k);
				break;
			}
		}
		if (c->start.core[g] < 0)
			lift_cap(c, c->comp[g]);
	}
}

static int rank_cmp(const void *a, const void *b)
{
	const struct bal_rank *x = a, *y = b;

	if (x->pinned != y->pinned)
		return x->pinned ? -1 : 1;
	if (x->load != y->load)
		return x->load > y->load ? -1 : 1;
	return (x->g > y->g) - (x->g < y->g);
}

static void order_groups(struct bal_ctx *c)
{
	unsigned int g;

	for (g = 0; g < c->p->nr_groups; g++)
		c->rank[g] = (struct bal_rank){
			.load = c->p->groups[g].load, .g = g, .pinned = c->pinned[g],
		};
	qsort(c->rank, c->p->nr_groups, sizeof(*c->rank), rank_cmp);
	for (g = 0; g < c->p->nr_groups; g++)
		c->order[g] = c->rank[g].g;
}

static int ctx_init(struct bal_ctx *c, const struct bal_problem *p)
{
	unsigned int nr_elig;
	int err;

	memset(c, 0, sizeof(*c));
	c->p = p;
	err = count_eligible(p, &nr_elig);
	if (err)
		return err;
	err = ctx_alloc(c, nr_elig);
	if (err) {
		ctx_free(c);
		return err;
	}
	index_eligible(c);
	split_components(c);
	match_cores(c);
	order_groups(c);
	return 0;
}

static void try_free(struct bal_try *t)
{
	free(t->cpu);
	free(t->load);
	free(t->core_load);
	free(t->users);
	free(t->m.core);
	free(t->m.group);
}

/* An empty placement: the base loads only, and the matching to start from. */
static int try_init(struct bal_try *t, const struct bal_ctx *c)
{
	unsigned int n = c->p->nr_groups, nr_cpus = c->p->nr_cpus, cpu;
	bool failed = false;

	t->cpu = zalloc(n, sizeof(*t->cpu), &failed);
	t->load = zalloc(nr_cpus, sizeof(*t->load), &failed);
	t->core_load = zalloc(nr_cpus, sizeof(*t->core_load), &failed);
	t->users = zalloc(nr_cpus, sizeof(*t->users), &failed);
	t->m.core = zalloc(n, sizeof(*t->m.core), &failed);
	t->m.group = zalloc(nr_cpus, sizeof(*t->m.group), &failed);
	if (failed) {
		try_free(t);
		return -ENOMEM;
	}
	memset(t->cpu, -1, n * sizeof(*t->cpu));
	memcpy(t->m.core, c->start.core, n * sizeof(*t->m.core));
	memcpy(t->m.group, c->start.group, nr_cpus * sizeof(*t->m.group));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		t->load[cpu] = c->p->base[cpu];
		if (c->p->core[cpu] >= 0)
			t->core_load[c->p->core[cpu]] += c->p->base[cpu];
	}
	return 0;
}

static void settle(const struct bal_ctx *c, struct bal_try *t, unsigned int g, int cpu)
{
	uint64_t w = c->p->groups[g].load;
	int k = c->p->core[cpu];

	t->cpu[g] = cpu;
	t->load[cpu] += w;
	t->core_load[k] += w;
	t->users[k]++;
}

static void unsettle(const struct bal_ctx *c, struct bal_try *t, unsigned int g)
{
	uint64_t w = c->p->groups[g].load;
	int cpu = t->cpu[g], k = c->p->core[cpu];

	t->cpu[g] = -1;
	t->load[cpu] -= w;
	t->core_load[k] -= w;
	t->users[k]--;
}

/* Before @g is placed in a capped component: which cores it may take. */
static void prepare(struct bal_ctx *c, struct bal_try *t, unsigned int g)
{
	if (c->capped[c->comp[g]])
		reachable(c, &t->m, t->cpu, g);
}

/* Whether @g may take core @k, after prepare(). */
static bool core_open(const struct bal_ctx *c, unsigned int g, int k)
{
	return !c->capped[c->comp[g]] || c->reach[k];
}

/* Place @g on @cpu, after prepare() and with core_open() true for its core. */
static void put(const struct bal_ctx *c, struct bal_try *t, unsigned int g, int cpu)
{
	if (c->capped[c->comp[g]])
		promise(c, &t->m, g, c->p->core[cpu]);
	settle(c, t, g, cpu);
}

/*
 * Whether @g would rather go to @cpu than to @best: a less loaded CPU, then
 * a less loaded core (a thread whose sibling idles runs faster), then where
 * @g runs now; else the lower CPU, which comes first.
 */
static bool better(const struct bal_ctx *c, const struct bal_try *t, unsigned int g, int cpu,
		   int best)
{
	const int *core = c->p->core;
	int now = c->p->groups[g].cpu;

	if (t->load[cpu] != t->load[best])
		return t->load[cpu] < t->load[best];
	if (t->core_load[core[cpu]] != t->core_load[core[best]])
		return t->core_load[core[cpu]] < t->core_load[core[best]];
	return cpu == now && best != now;
}

/*
 * The derived placement's start: every group stays where it runs if its
 * policy and the cap let it, the heaviest deciding first, as it would gain
 * the most from a core of its own.
 */
static void keep_current(struct bal_ctx *c, struct bal_try *t)
{
	unsigned int i, g;
	int cpu;

	for (i = 0; i < c->p->nr_groups; i++) {
		g = c->order[i];
		cpu = c->p->groups[g].cpu;
		if (!eligible(c->p, g, cpu))
			continue;
		prepare(c, t, g);
		if (core_open(c, g, c->p->core[cpu]))
			put(c, t, g, cpu);
	}
}

/* LPT: each group not placed yet, heaviest first, to the least loaded CPU it may use. */
static void fill(struct bal_ctx *c, struct bal_try *t)
{
	unsigned int i, j, g;
	int cpu, best;

	for (i = 0; i < c->p->nr_groups; i++) {
		g = c->order[i];
		if (t->cpu[g] >= 0)
			continue;
		prepare(c, t, g);
		best = -1;
		for (j = c->elig_at[g]; j < c->elig_at[g + 1]; j++) {
			cpu = c->elig[j];
			if (may_run(c, g, cpu) && core_open(c, g, c->p->core[cpu]) &&
			    (best < 0 || better(c, t, g, cpu, best)))
				best = cpu;
		}
		/* The core promised to @g is open to it, and holds its CPU if pinned. */
		put(c, t, g, best);
	}
}

/* The hottest online CPU of @load, the lowest of equals; -1 when none is online. */
static int hottest(const struct bal_problem *p, const uint64_t *load)
{
	int cpu, hot = -1;

	for (cpu = 0; (unsigned int)cpu < p->nr_cpus; cpu++)
		if (p->core[cpu] >= 0 && (hot < 0 || load[cpu] > load[hot]))
			hot = cpu;
	return hot;
}

static uint64_t hot_load(const struct bal_problem *p, const uint64_t *load)
{
	int hot = hottest(p, load);

	return hot < 0 ? 0 : load[hot];
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static int cpu_cmp(const void *a, const void *b)
{
	const struct bal_cpu *x = a, *y = b;

	if (x->load != y->load)
		return x->load < y->load ? -1 : 1;
	if (x->core_load != y->core_load)
		return x->core_load < y->core_load ? -1 : 1;
	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

/* The online CPUs into c->by_load, in the order a move prefers them; how many. */
static unsigned int sort_by_load(struct bal_ctx *c, const struct bal_try *t)
{
	const struct bal_problem *p = c->p;
	unsigned int nr = 0;
	int cpu;

	for (cpu = 0; (unsigned int)cpu < p->nr_cpus; cpu++)
		if (p->core[cpu] >= 0)
			c->by_load[nr++] = (struct bal_cpu){
				.load = t->load[cpu], .core_load = t->core_load[p->core[cpu]],
				.cpu = cpu,
			};
	qsort(c->by_load, nr, sizeof(*c->by_load), cpu_cmp);
	return nr;
}

/*
 * Whether step @a cools more than step @b: a lower maximum, then a cooler
 * target CPU, then a cooler target core, then the lower target.
 */
static bool step_beats(const struct bal_step *a, const struct bal_step *b)
{
	if (a->max != b->max)
		return a->max < b->max;
	if (a->to_load != b->to_load)
		return a->to_load < b->to_load;
	if (a->to_core_load != b->to_core_load)
		return a->to_core_load < b->to_core_load;
	return a->to < b->to;
}

/*
 * Take @cand over @best if it cools hottest CPU @hot by min_gain, and by
 * more than @best. The callers try the groups by index: among equal steps
 * the lowest group's is kept.
 */
static void consider(const struct bal_ctx *c, const struct bal_try *t, int hot,
		     const struct bal_step *cand, struct bal_step *best)
{
	uint64_t now = t->load[hot];

	if (cand->max < now && now - cand->max >= c->p->min_gain &&
	    (best->to < 0 || step_beats(cand, best)))
		*best = *cand;
}

/* Whether the cap lets @g leave @from for @to: the same core, or one nobody uses. */
static bool cap_allows(const struct bal_ctx *c, const struct bal_try *t, unsigned int g,
		       int from, int to)
{
	int k = c->p->core[to];

	return !c->capped[c->comp[g]] || k == c->p->core[from] || !t->users[k];
}

/*
 * The best move of a group off @hot. For each group, the first CPU of
 * by_load it may go to is the best for it: its load is the least.
 */
static void best_move(struct bal_ctx *c, const struct bal_try *t, int hot, struct bal_step *best)
{
	unsigned int nr = sort_by_load(c, t), g, i;
	struct bal_step cand;
	uint64_t w;
	int to;

	for (g = 0; g < c->p->nr_groups; g++) {
		if (t->cpu[g] != hot || c->pinned[g])
			continue;
		w = c->p->groups[g].load;
		for (i = 0; i < nr; i++) {
			to = c->by_load[i].cpu;
			if (to == hot || !eligible(c->p, g, to) || !cap_allows(c, t, g, hot, to))
				continue;
			cand = (struct bal_step){
				.g = g, .other = -1, .to = to,
				.max = max_u64(t->load[hot] - w, t->load[to] + w),
				.to_load = t->load[to] + w,
				.to_core_load = c->by_load[i].core_load,
			};
			consider(c, t, hot, &cand, best);
			break;
		}
	}
}

/*
 * The best swap of a group on @hot with a lighter one elsewhere. Each may
 * run where the other does, so both are of one component, and in a capped
 * one each just takes over the other's core: the cap holds.
 */
static void best_swap(const struct bal_ctx *c, const struct bal_try *t, int hot,
		      struct bal_step *best)
{
	const struct bal_problem *p = c->p;
	unsigned int g, g2;
	struct bal_step cand;
	uint64_t w, d;
	int to;

	for (g = 0; g < p->nr_groups; g++) {
		if (t->cpu[g] != hot || c->pinned[g])
			continue;
		w = p->groups[g].load;
		for (g2 = 0; g2 < p->nr_groups; g2++) {
			to = t->cpu[g2];
			if (to == hot || c->pinned[g2] || p->groups[g2].load >= w)
				continue;
			/* @hot cools by @d: only @to can end up too hot, test that first. */
			d = w - p->groups[g2].load;
			if (t->load[to] + d >= t->load[hot] || !eligible(p, g, to) ||
			    !eligible(p, g2, hot))
				continue;
			cand = (struct bal_step){
				.g = g, .other = g2, .to = to,
				.max = max_u64(t->load[hot] - d, t->load[to] + d),
				.to_load = t->load[to] + d,
				.to_core_load = t->core_load[p->core[to]],
			};
			consider(c, t, hot, &cand, best);
		}
	}
}

static void take_step(const struct bal_ctx *c, struct bal_try *t, int hot,
		      const struct bal_step *step)
{
	unsettle(c, t, step->g);
	if (step->other >= 0) {
		unsettle(c, t, step->other);
		settle(c, t, step->other, hot);
	}
	settle(c, t, step->g, step->to);
}

/*
 * Cool the hottest CPU while a move or a swap can. Each step lowers the
 * hottest CPU it touches and raises none above it, so the loads sorted
 * from the top fall at every step and it ends; the bound is only a guard.
 */
static void improve(struct bal_ctx *c, struct bal_try *t)
{
	unsigned int round, rounds = 4 * c->p->nr_groups + 64;
	struct bal_step step;
	int hot;

	for (round = 0; round < rounds; round++) {
		hot = hottest(c->p, t->load);
		if (hot < 0)
			return;
		step.to = -1;
		best_move(c, t, hot, &step);
		if (step.to < 0)
			best_swap(c, t, hot, &step);
		if (step.to < 0)
			return;
		take_step(c, t, hot, &step);
	}
}

/*
 * Whether the current placement breaks the policy: a group runs nowhere
 * known or where its policy does not allow, or shares a core with another
 * in a component that the plan gives a core per group.
 */
static bool off_policy_now(struct bal_ctx *c)
{
	const struct bal_problem *p = c->p;
	unsigned int *users = c->tally, g;

	memset(users, 0, p->nr_cpus * sizeof(*users));
	for (g = 0; g < p->nr_groups; g++) {
		if (!eligible(p, g, p->groups[g].cpu))
			return true;
		users[p->core[p->groups[g].cpu]]++;
	}
	for (g = 0; g < p->nr_groups; g++)
		if (c->capped[c->comp[g]] && users[p->core[p->groups[g].cpu]] > 1)
			return true;
	return false;
}

static int plan_alloc(struct bal_plan *plan, const struct bal_problem *p)
{
	bool failed = false;

	plan->cpu = zalloc(p->nr_groups, sizeof(*plan->cpu), &failed);
	plan->alone = zalloc(p->nr_groups, sizeof(*plan->alone), &failed);
	plan->load_before = zalloc(p->nr_cpus, sizeof(*plan->load_before), &failed);
	plan->load_after = zalloc(p->nr_cpus, sizeof(*plan->load_after), &failed);
	if (failed) {
		bal_plan_free(plan);
		return -ENOMEM;
	}
	return 0;
}

static void plan_fill(struct bal_plan *plan, struct bal_ctx *c, const struct bal_try *t)
{
	const struct bal_problem *p = c->p;
	unsigned int g;
	int now;

	memcpy(plan->load_before, p->base, p->nr_cpus * sizeof(*plan->load_before));
	memcpy(plan->load_after, t->load, p->nr_cpus * sizeof(*plan->load_after));
	for (g = 0; g < p->nr_groups; g++) {
		now = p->groups[g].cpu;
		if (now >= 0 && (unsigned int)now < p->nr_cpus)
			plan->load_before[now] += p->groups[g].load;
		plan->cpu[g] = t->cpu[g];
		plan->alone[g] = t->users[p->core[t->cpu[g]]] == 1;
		plan->moves += t->cpu[g] != now;
	}
	plan->hot_before = hottest(p, plan->load_before);
	plan->hot_after = hottest(p, plan->load_after);
	plan->off_policy = off_policy_now(c);
	plan->shared = c->shared;
}

/*
 * The fresh placement wins only when it cools the hottest CPU by min_gain,
 * so that an equally good placement is kept as it is.
 */
static bool fresh_wins(const struct bal_problem *p, const struct bal_try *derived,
		       const struct bal_try *fresh)
{
	uint64_t derived_hot = hot_load(p, derived->load), fresh_hot = hot_load(p, fresh->load);

	return fresh_hot < derived_hot && derived_hot - fresh_hot >= p->min_gain;
}

int bal_place(const struct bal_problem *p, struct bal_plan *plan)
{
	struct bal_try derived, fresh;
	struct bal_ctx c;
	int err;

	memset(plan, 0, sizeof(*plan));
	err = ctx_init(&c, p);
	if (err)
		return err;
	err = try_init(&derived, &c);
	if (err)
		goto out_ctx;
	err = try_init(&fresh, &c);
	if (err)
		goto out_derived;
	err = plan_alloc(plan, p);
	if (err)
		goto out_fresh;

	keep_current(&c, &derived);
	fill(&c, &derived);
	improve(&c, &derived);
	fill(&c, &fresh);
	improve(&c, &fresh);
	plan_fill(plan, &c, fresh_wins(p, &derived, &fresh) ? &fresh : &derived);

out_fresh:
	try_free(&fresh);
out_derived:
	try_free(&derived);
out_ctx:
	ctx_free(&c);
	return err;
}

void bal_plan_free(struct bal_plan *plan)
{
	free(plan->cpu);
	free(plan->alone);
	free(plan->load_before);
	free(plan->load_after);
	memset(plan, 0, sizeof(*plan));
}
