// SPDX-License-Identifier: GPL-2.0
/*
 * Balancing in the daemon. A round every balance-interval (the shortest
 * of the rules that balance) samples the module's accounting; the load is
 * what grew since the last round's sample, so the window is the interval
 * itself and nothing is measured twice. All balanced devices are planned
 * together, whatever rule governs them, so two rules never undo each
 * other's moves. A round moves queues only when the hottest CPU would be
 * cooler by the rule's balance-threshold (or a queue runs off its policy),
 * and never a queue it moved in the last round or within its rule's
 * interval: with the plan keeping what is as good as any other (place.c),
 * two equally good placements cannot make it oscillate. Each decision is
 * logged with the loads behind it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/balance.h"
#include "conf/rules.h"
#include "log.h"
#include "report.h"

/* The shortest balance-interval among the rules, in ms; 0 when none balances. */
static long long shortest_interval_ms(const struct conf *conf)
{
	long long ms = 0;
	unsigned int i;

	for (i = 0; i < conf->nr_rules; i++)
		if (conf->rules[i].balance &&
		    (!ms || conf->rules[i].balance_interval_s * 1000LL < ms))
			ms = conf->rules[i].balance_interval_s * 1000LL;
	return ms;
}

/* The next round, one interval from @now_ms; none when no rule balances. */
void balancer_schedule(struct balancer *b, const struct conf *conf, long long now_ms)
{
	long long ms = shortest_interval_ms(conf);

	b->next_ms = ms ? now_ms + ms : 0;
}

/*
 * Start over (the module came, the rules changed): the first round, at
 * once, only samples; the first decision comes one interval later.
 */
void balancer_start(struct balancer *b, const struct conf *conf, long long now_ms)
{
	balancer_reset(b);
	b->next_ms = shortest_interval_ms(conf) ? now_ms : 0;
}

/* For poll(): ms until the next round, -1 when none is due. */
int balancer_timeout(const struct balancer *b, long long now_ms)
{
	if (!b->next_ms)
		return -1;
	return b->next_ms > now_ms ? (int)(b->next_ms - now_ms) : 0;
}

/* Forget the last sample and the moves: the rules or the module changed. */
void balancer_reset(struct balancer *b)
{
	bal_sample_free(&b->prev);
	free(b->keys);
	free(b->moved);
	memset(b, 0, sizeof(*b));
}

static const struct rule *rule_of(const struct keeper *k, const struct nictl_dev *dev)
{
	const struct rule *rule;
	char *upper;

	rule = rules_find_dev(&k->conf, dev, &upper);
	free(upper);
	return rule;
}

/* Whether the last sample was of the same devices, in the same order. */
static bool same_devs(const struct balancer *b, const struct bal_set *set)
{
	unsigned int i;

	if (b->nr_keys != set->devs.nr)
		return false;
	for (i = 0; i < set->devs.nr; i++)
		if (b->keys[i] != dev_key_of(&set->devs.devs[i]))
			return false;
	return true;
}

/* Keep @now, of @set's devices, as the next round's starting point. */
static void keep_sample(struct balancer *b, const struct bal_set *set, struct bal_sample *now)
{
	dev_key *keys = calloc(set->devs.nr ?: 1, sizeof(*keys));
	unsigned int i;

	bal_sample_free(&b->prev);
	free(b->keys);
	b->keys = keys;
	b->nr_keys = 0;
	if (keys) {
		for (i = 0; i < set->devs.nr; i++)
			keys[i] = dev_key_of(&set->devs.devs[i]);
		b->nr_keys = set->devs.nr;
		b->prev = *now;
		memset(now, 0, sizeof(*now));
	}
	bal_sample_free(now);
}

/*
 * How long a queue a round moved stays put under @rule: its interval, and
 * half a round more, since rounds come exactly an interval apart and a pin
 * that ended at the next round would not hold it there at all.
 */
static long long pin_ms(const struct rule *rule, const struct conf *conf)
{
	return rule->balance_interval_s * 1000LL + shortest_interval_ms(conf) / 2;
}

/* Whether @key's group named by @queue was moved within @pin_ms of @now_ms. */
static bool moved_within(const struct balancer *b, dev_key key, unsigned int queue,
			 long long now_ms, long long pin_ms)
{
	unsigned int m;

	for (m = 0; m < b->nr_moved; m++)
		if (b->moved[m].key == key && b->moved[m].queue == queue &&
		    now_ms - b->moved[m].at_ms < pin_ms)
			return true;
	return false;
}

/*
 * Pin the groups moved within their rule's pin; the lowest threshold of
 * the rules. Each device's rule is looked up once (it reads sysfs).
 */
static unsigned int pin_recent(struct balancer *b, const struct keeper *k, struct bal_set *set,
			       long long now_ms)
{
	unsigned int g, i, threshold = 100;
	const struct rule *rule;
	dev_key key;

	for (i = 0; i < set->devs.nr; i++) {
		rule = rule_of(k, &set->devs.devs[i]);
		if (!rule)
			continue;
		if (rule->balance_threshold_pct < threshold)
			threshold = rule->balance_threshold_pct;
		key = dev_key_of(&set->devs.devs[i]);
		for (g = 0; g < set->nr_groups; g++)
			if (set->slots[g].dev == i &&
			    moved_within(b, key, set->slots[g].queue, now_ms,
					 pin_ms(rule, &k->conf)))
				set->groups[g].pinned = true;
	}
	return threshold;
}

/* Drop the moves no rule's pin can hold any more. */
static void expire_moves(struct balancer *b, const struct conf *conf, long long now_ms)
{
	long long longest = 0;
	unsigned int i, n = 0;

	for (i = 0; i < conf->nr_rules; i++)
		if (conf->rules[i].balance && pin_ms(&conf->rules[i], conf) > longest)
			longest = pin_ms(&conf->rules[i], conf);
	for (i = 0; i < b->nr_moved; i++)
		if (now_ms - b->moved[i].at_ms < longest)
			b->moved[n++] = b->moved[i];
	b->nr_moved = n;
}

/* Remember the groups the plan moved, and give each device its placement. */
static void record_moves(struct balancer *b, struct keeper *k, const struct bal_set *set,
			 const struct bal_plan *plan, long long now_ms)
{
	struct bal_moved *moved;
	struct bal_placement pl;
	unsigned int g, i;

	expire_moves(b, &k->conf, now_ms);
	moved = realloc(b->moved, (b->nr_moved + set->nr_groups + 1) * sizeof(*moved));
	if (moved)
		b->moved = moved;
	for (g = 0; moved && g < set->nr_groups; g++)
		if (plan->cpu[g] != set->groups[g].cpu)
			moved[b->nr_moved++] = (struct bal_moved){
				dev_key_of(&set->devs.devs[set->slots[g].dev]),
				set->slots[g].queue, now_ms,
			};
	for (i = 0; i < set->devs.nr; i++) {
		if (bal_placement_of(set, plan->cpu, i, &pl))
			break;
		keeper_placed(k, dev_key_of(&set->devs.devs[i]), &pl);
	}
	if (!moved || i < set->devs.nr)
		ctl_msg("out of memory");
}

/* One line: the decision, the moves and the loads behind them. */
static void log_round(const struct bal_set *set, const struct bal_plan *plan, const char *held,
		      unsigned int threshold)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		ctl_msg("out of memory");
		return;
	}
	if (held) {
		fprintf(f, "balance: %s (hottest CPU %u%% cooler, threshold %u%%)", held,
			bal_gain_pct(set, plan), threshold);
	} else {
		fprintf(f, "balance: moved ");
		bal_print_moves(f, set, plan, ", ");
		fprintf(f, "%s", plan->off_policy ? " (queues ran off their policy)" : "");
	}
	fprintf(f, "; NET_RX over %.0f s, now -> planned: ", (double)set->window_ns / 1e9);
	bal_print_loads(f, set, plan);
	if (fclose(f)) {
		free(text);
		ctl_msg("out of memory");
		return;
	}
	log_info("%s", text);
	free(text);
}

/* Plan @set and apply the plan when it is worth it. */
static int decide(struct balancer *b, struct keeper *k, struct bal_set *set, long long now_ms)
{
	unsigned int threshold = pin_recent(b, k, set, now_ms);
	struct dev_list result;
	struct bal_problem p;
	struct bal_plan plan;
	const char *held;
	int err;

	bal_problem_of(set, &p);
	err = bal_place(&p, &plan);
	if (err) {
		log_err("balance: no plan: %s", err == -EINVAL ?
			"a rule's policy leaves a device's queues no online CPU" : strerror(-err));
		return err;
	}
	held = bal_verdict(set, &plan, threshold);
	if (!held && bal_apply(&k->nl, set, &plan, &result)) {
		log_err("balance: not applied; the devices stay as they were");
		err = -1;
	} else {
		log_round(set, &plan, held, threshold);
		if (!held) {
			record_moves(b, k, set, &plan, now_ms);
			dev_list_free(&result);
		}
	}
	bal_plan_free(&plan);
	return err;
}

/*
 * A round: sample the balanced devices and, when the last round sampled the
 * same devices, plan and maybe move them. 0; -ENOENT when the module went
 * away; -1 on another failure (logged; the next round tries again).
 */
int balancer_round(struct balancer *b, struct keeper *k, long long now_ms)
{
	struct bal_set set = { 0 };
	struct bal_sample now;
	char why[256];
	int err;

	balancer_schedule(b, &k->conf, now_ms);
	err = keeper_balanced(k, &set);
	if (!err && !set.devs.nr) {
		balancer_reset(b);
		balancer_schedule(b, &k->conf, now_ms);
	} else if (!err && !bal_sample(&k->nl, &set, &now)) {
		if (same_devs(b, &set) && !bal_measure(&set, &b->prev, &now, why, sizeof(why)))
			err = decide(b, k, &set, now_ms);
		else if (same_devs(b, &set))
			log_warn("balance: %s; measuring again", why);
		keep_sample(b, &set, &now);
	} else if (!err) {
		err = -1;
	}
	bal_set_free(&set);
	return err;
}
