// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl plan: the configuration as a dry run. For every device the daemon
 * would see (namespaces that match-netns names included): the rule that
 * governs it and the match keys that make it so, the CPUs the rule offers
 * with what was kept out (isolated, excluded, banned, ...), and where the
 * kernel would put each queue IRQ, from a dry-run BIND: checked as a real
 * one is, applied nowhere (without the module, as a bind through /proc/irq
 * would place them). verify says whether the machine is so; plan
 * says what the daemon would make of it. Exit status 0 when every governed
 * device could be placed, 1 when the kernel or the CPU choice refused one,
 * 69 when the devices could not be listed, 78 for a refused configuration.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <linux/nictl.h>

#include "commands.h"
#include "daemon/banned.h"
#include "conf/conf.h"
#include "daemon/governed.h"
#include "direct/bind.h"
#include "json.h"
#include "report.h"
#include "show.h"
#include "steer/bind.h"

static const char plan_usage[] =
	"Usage: " PROG_NAME " plan [-c FILE] [-j|--json]\n"
	"\n"
	"Show, changing nothing, what the daemon would do with the configuration:\n"
	"for every device, the rule that governs it and by which match keys, the\n"
	"CPUs the rule offers and what was kept out, and the CPU the kernel would\n"
	"give each queue IRQ (a dry-run bind). Exit status 0 when every governed\n"
	"device could be placed, 1 when one could not, 69 when the devices could\n"
	"not be listed, 78 when the configuration is refused.\n"
	"\n"
	"Options:\n"
	"  -c, --config FILE  the configuration (default " CONF_DEFAULT_PATH ")\n"
	"  -j, --json         print one JSON document\n"
	"  -h, --help         show this help\n";

struct plan {
	struct ctl_nl nl;
	struct json j;
	bool json;
	unsigned int governed;
	unsigned int refused;	/* governed devices the dry run could not place */
};

/* Why @rule governs the device: its match keys, as the file writes them. */
static void text_match(const struct rule *rule, const char *upper)
{
	bool any = false;
	unsigned int k;

	if (upper) {
		printf(" by match-name = %s (%s, stacked on it)", rule->match[RULE_MATCH_NAME],
		       upper);
		return;
	}
	for (k = 0; k < NR_RULE_MATCH; k++)
		if (rule->match[k]) {
			printf("%s%s = %s", any ? ", " : " by ", conf_key_name(k), rule->match[k]);
			any = true;
		}
	if (!any)
		printf(", which matches every device");
}

static void json_match(struct json *j, const struct rule *rule)
{
	unsigned int k;

	json_obj_begin(j, "match");
	for (k = 0; k < NR_RULE_MATCH; k++)
		if (rule->match[k])
			json_str(j, conf_key_name(k), rule->match[k]);
	json_obj_end(j);
}

static void text_irqs(const struct nictl_dev *dev)
{
	const struct nictl_irq *irq;
	unsigned int i;

	for (i = 0; i < dev->nr_irqs; i++) {
		irq = &dev->irqs[i];
		printf("  IRQ %u (%s, %s %u): ", irq->irq, irq->name, show_kind_name(irq->kind),
		       irq->queue);
		if (irq->flags & NICTL_IRQ_F_MANAGED)
			printf("left to the kernel (managed)\n");
		else if (irq->owner_ifindex)
			printf("held by the binding of ifindex %u\n", irq->owner_ifindex);
		else if (irq->target_cpu < 0)
			printf("not placed\n");
		else
			printf("CPU %d\n", irq->target_cpu);
	}
}

static void text_dev(const struct nictl_dev *dev, const struct rule *rule, const char *upper,
		     const struct steered *s, bool placed)
{
	char *list;

	printf("%s: ", dev->ifname);
	if (!rule) {
		printf("no rule\n");
		return;
	}
	printf("rule %s (%s:%u)", rule->name, rule->file, rule->line);
	text_match(rule, upper);
	putchar('\n');
	list = s->choice.why ? cpuset_format(&s->choice.cpus) : NULL;
	if (list)
		printf("  CPUs %s (%s)\n", list, s->choice.why);
	free(list);
	if (upper)
		printf("  placed with the other devices beneath %s, as one\n", upper);
	else if (!dev->nr_irqs)
		printf("  no queue IRQs now (down?): the rule applies when they appear\n");
	else if (!placed)
		printf("  cannot be placed: see the message above\n");
	else
		text_irqs(&s->result.devs[0]);
}

static void json_dev(struct json *j, const struct nictl_dev *dev, const struct rule *rule,
		     const char *upper, const struct steered *s, bool placed)
{
	unsigned int i;

	json_obj_begin(j, NULL);
	json_str(j, "ifname", dev->ifname);
	json_int(j, "ifindex", dev->ifindex);
	if (!rule) {
		json_null(j, "rule");
		json_obj_end(j);
		return;
	}
	json_str(j, "rule", rule->name);
	json_str(j, "file", rule->file);
	json_int(j, "line", rule->line);
	json_match(j, rule);
	json_str(j, "upper", upper);
	if (s->choice.why) {
		show_json_cpus(j, "cpus", "cpus_list", &s->choice.cpus);
		json_str(j, "why", s->choice.why);
	}
	json_bool(j, "placed", placed);
	json_arr_begin(j, "irqs");
	for (i = 0; placed && i < s->result.devs[0].nr_irqs; i++) {
		json_obj_begin(j, NULL);
		show_json_irq_fields(j, &s->result.devs[0].irqs[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

/* One device of the walk: the rule's dry run, when one governs it. */
static void plan_dev(const struct nictl_dev *dev, const struct rule *rule, const char *upper,
		     void *arg)
{
	struct plan *p = arg;
	struct bind_policy policy;
	struct steered s = { 0 };
	bool placed = false;

	if (rule) {
		/* Messages of a refusal go to stderr: after what stdout has. */
		fflush(stdout);
		p->governed++;
		policy = rule->policy;
		policy.dry_run = true;
		if (upper || !dev->nr_irqs)
			placed = !policy_cpus(dev, &policy, &s.choice);
		else if (p->nl.family < 0)
			placed = !direct_plan_dev(dev, &policy, &s.choice, &s.result);
		else
			placed = !steer_bind(&p->nl, dev, &policy, 0, &s);
		p->refused += !placed;
		/* Stacked and IRQ-less devices show their CPUs, not a placement. */
		placed = placed && !upper && dev->nr_irqs;
	}
	if (p->json)
		json_dev(&p->j, dev, rule, upper, &s, placed);
	else
		text_dev(dev, rule, upper, &s, placed);
	if (rule)
		steered_free(&s);
}

/* The CPUs irqbalance is told to keep off, read once, for every rule. */
static int ban(struct conf *conf, struct banned *b)
{
	struct timespec ts;
	bool news;

	if (!conf->banned_cpus)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (banned_start(b, conf->banned_cpus_file, false) ||
	    banned_refresh(b, ts.tv_sec * 1000LL, &news)) {
		ctl_msg("plan: cannot read the banned CPUs: %s", b->error ?: "out of memory");
		return -1;
	}
	conf_ban(conf, &b->cpus);
	return 0;
}

static int plan_all(struct plan *p, const struct conf *conf)
{
	int err;

	if (governed_open(&p->nl, "Planned as a bind through /proc/irq would apply each rule"))
		return EXIT_UNAVAILABLE;
	if (p->json) {
		json_start(&p->j, stdout);
		json_obj_begin(&p->j, NULL);
		json_arr_begin(&p->j, "devices");
	}
	err = governed_each(&p->nl, conf, "plan", plan_dev, p);
	ctl_nl_close(&p->nl);
	if (p->json) {
		json_arr_end(&p->j);
		json_int(&p->j, "governed", p->governed);
		json_int(&p->j, "not_placed", p->refused);
		json_obj_end(&p->j);
		putchar('\n');
	} else {
		printf("%u device%s governed, %u could not be placed\n", p->governed,
		       p->governed == 1 ? "" : "s", p->refused);
	}
	if (p->refused)
		return EXIT_FAILURE;
	return err ? EXIT_UNAVAILABLE : EXIT_SUCCESS;
}

int cmd_plan(int argc, char **argv)
{
	struct plan p = { 0 };
	struct banned b;
	struct conf conf;
	int ret;

	ret = governed_start("plan", plan_usage, argc, argv, &conf, &p.json);
	if (ret >= 0)
		return ret;
	banned_init(&b);
	ret = ban(&conf, &b) ? EXIT_UNAVAILABLE : plan_all(&p, &conf);
	banned_free(&b);
	conf_free(&conf);
	return ret;
}
