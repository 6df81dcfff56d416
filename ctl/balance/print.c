// SPDX-License-Identifier: GPL-2.0
/*
 * What a balance tells: each CPU's NET_RX load now and as the plan
 * predicts it, as a share of one CPU over the window, and each queue group
 * that moves, with its own load. The same words go to the daemon's log.
 * JSON gives loads in nanoseconds of NET_RX time over the window.
 */
#include <stdio.h>
#include <stdlib.h>

#include "balance/balance.h"
#include "json.h"

/* @ns of the window as a percentage of one CPU, to a tenth. */
static double pct(const struct bal_set *set, uint64_t ns)
{
	return set->window_ns ? 100.0 * (double)ns / (double)set->window_ns : 0;
}

/*
 * The hottest CPU the balance is about (bal_cpu_relevant()) by @load, the
 * lowest-numbered of equals; -1 when there is none.
 */
int bal_hottest(const struct bal_set *set, const uint64_t *load)
{
	unsigned int cpu;
	int hot = -1;

	for (cpu = 0; cpu < set->nr_cpus; cpu++)
		if (bal_cpu_relevant(set, cpu) && (hot < 0 || load[cpu] > load[hot]))
			hot = cpu;
	return hot;
}

/* How much lower the plan's hottest CPU is than the hottest now, in percent of it. */
unsigned int bal_gain_pct(const struct bal_set *set, const struct bal_plan *plan)
{
	int hot_before = bal_hottest(set, plan->load_before);
	int hot_after = bal_hottest(set, plan->load_after);
	uint64_t before, after;

	if (hot_before < 0 || hot_after < 0)
		return 0;
	before = plan->load_before[hot_before];
	after = plan->load_after[hot_after];
	return before > after ? (unsigned int)((before - after) * 100 / before) : 0;
}

void bal_print_table(FILE *f, const struct bal_set *set, const struct bal_plan *plan)
{
	int before = bal_hottest(set, plan->load_before);
	int after = bal_hottest(set, plan->load_after);
	unsigned int cpu;

	fprintf(f, "%-5s %10s %10s\n", "CPU", "NET_RX now", "planned");
	for (cpu = 0; cpu < set->nr_cpus; cpu++)
		if (bal_cpu_relevant(set, cpu))
			fprintf(f, "%-5u %9.1f%% %9.1f%%\n", cpu,
				pct(set, plan->load_before[cpu]), pct(set, plan->load_after[cpu]));
	if (before >= 0 && after >= 0)
		fprintf(f, "hottest CPU %d at %.1f%% now, CPU %d at %.1f%% planned (%u%% lower)\n",
			before, pct(set, plan->load_before[before]), after,
			pct(set, plan->load_after[after]), bal_gain_pct(set, plan));
}

/* The table's rows on one line, for the log: "CPU 4 61.0% -> 30.5%, CPU 5 ...". */
void bal_print_loads(FILE *f, const struct bal_set *set, const struct bal_plan *plan)
{
	unsigned int cpu, n = 0;

	for (cpu = 0; cpu < set->nr_cpus; cpu++)
		if (bal_cpu_relevant(set, cpu))
			fprintf(f, "%sCPU %u %.1f%% -> %.1f%%", n++ ? ", " : "", cpu,
				pct(set, plan->load_before[cpu]), pct(set, plan->load_after[cpu]));
}

/* "vnode1 queue 1 (2.5%) CPU 4 -> 6", one per moving group, @sep between them. */
void bal_print_moves(FILE *f, const struct bal_set *set, const struct bal_plan *plan,
		     const char *sep)
{
	const struct bal_slot *slot;
	unsigned int g, n = 0;

	for (g = 0; g < set->nr_groups; g++) {
		if (plan->cpu[g] == set->groups[g].cpu)
			continue;
		slot = &set->slots[g];
		fprintf(f, "%s%s queue %u (%.1f%%) ", n++ ? sep : "",
			set->devs.devs[slot->dev].ifname, slot->queue,
			pct(set, set->groups[g].load));
		if (set->groups[g].cpu < 0)
			fprintf(f, "-> CPU %d", plan->cpu[g]);
		else
			fprintf(f, "CPU %d -> %d", set->groups[g].cpu, plan->cpu[g]);
	}
}

struct json_args {
	const struct bal_set *set;
	const struct bal_plan *plan;
	bool applied;
};

static void json_cpus(struct json *j, const struct bal_set *set, const struct bal_plan *plan)
{
	unsigned int cpu;

	json_arr_begin(j, "cpus");
	for (cpu = 0; cpu < set->nr_cpus; cpu++) {
		if (!bal_cpu_relevant(set, cpu))
			continue;
		json_obj_begin(j, NULL);
		json_int(j, "cpu", cpu);
		json_int(j, "now_ns", plan->load_before[cpu]);
		json_int(j, "planned_ns", plan->load_after[cpu]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_groups(struct json *j, const struct bal_set *set, const struct bal_plan *plan)
{
	const struct bal_slot *slot;
	unsigned int g;

	json_arr_begin(j, "queues");
	for (g = 0; g < set->nr_groups; g++) {
		slot = &set->slots[g];
		json_obj_begin(j, NULL);
		json_str(j, "ifname", set->devs.devs[slot->dev].ifname);
		json_int(j, "queue", slot->queue);
		json_int(j, "load_ns", set->groups[g].load);
		json_int(j, "cpu", set->groups[g].cpu);
		json_int(j, "planned_cpu", plan->cpu[g]);
		json_bool(j, "alone", plan->alone[g]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static int write_json(struct json *j, const void *arg)
{
	const struct json_args *a = arg;

	json_obj_begin(j, NULL);
	json_int(j, "window_ns", a->set->window_ns);
	json_int(j, "hot_cpu", bal_hottest(a->set, a->plan->load_before));
	json_int(j, "planned_hot_cpu", bal_hottest(a->set, a->plan->load_after));
	json_int(j, "gain_pct", bal_gain_pct(a->set, a->plan));
	json_int(j, "moves", a->plan->moves);
	json_bool(j, "off_policy", a->plan->off_policy);
	json_bool(j, "shared_cores", a->plan->shared);
	json_bool(j, "applied", a->applied);
	json_cpus(j, a->set, a->plan);
	json_groups(j, a->set, a->plan);
	json_obj_end(j);
	return 0;
}

int bal_print_json(FILE *f, const struct bal_set *set, const struct bal_plan *plan, bool applied)
{
	const struct json_args a = { set, plan, applied };

	return json_print_doc(f, write_json, &a);
}
