// SPDX-License-Identifier: GPL-2.0
/*
 * The balance command: measure what each queue of the devices costs in
 * NET_RX time over a window, plan where each queue group should run so no
 * CPU carries more than it must (place.c), and apply the plan through BIND's
 * explicit placement, per device, all or nothing. Without devices it
 * balances those the daemon's rules govern and those nictl holds bound.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/nictl.h>

#include "balance/balance.h"
#include "commands.h"
#include "duration.h"
#include "conf/conf.h"
#include "conf/rules.h"
#include "policy_opts.h"
#include "report.h"
#include "show.h"

#define WINDOW_DEFAULT_S	5
#define WINDOW_MAX_S		3600
#define THRESHOLD_DEFAULT_PCT	10

struct balance_args {
	struct policy_args p;
	const char *conf_path;
	bool conf_given;
	uint64_t window_ns;
	unsigned int threshold_pct;
	bool dry_run;
	bool json;
	char **devs;
	unsigned int nr_devs;
};

static const char balance_usage[] =
	"Usage: " PROG_NAME " balance [DEV...] [--window INTERVAL] [--threshold PCT] [--dry-run]\n"
	"                        [--numa-local | --node N | --cpus LIST] [--exclude LIST]\n"
	"                        [--allow-siblings] [-c FILE] [-j|--json]\n"
	"\n"
	"Measure the NET_RX time each receive queue of the devices costs over a window,\n"
	"then move their queue IRQs so that no CPU carries more of it than it must:\n"
	"heavy queues apart, light ones beside them, the queues of devices that share\n"
	"CPUs balanced together. Each device moves all or nothing, and a failure puts\n"
	"back the devices moved before it. Without DEV: every device a rule of the\n"
	"daemon's configuration governs, and every device nictl holds bound.\n"
	"\n"
	"A device's CPUs are those of its rule, else those of the options, else of\n"
	"its NUMA node (--numa-local). Each queue group gets a physical core of its\n"
	"own while there are enough cores, unless --allow-siblings. Nothing moves\n"
	"when the hottest CPU would be less than PCT % cooler, unless a queue now\n"
	"runs where its policy does not allow.\n"
	"\n"
	"Options:\n"
	"  --window INTERVAL how long to measure: 5, 0.5, 500ms, 1m (default 5)\n"
	"  --threshold PCT   the least gain, in percent of the hottest CPU's load,\n"
	"                    that is worth moving IRQs (default 10; 0: any gain)\n"
	"  --dry-run         show the plan, move nothing\n"
	"  --numa-local, --node N, --cpus LIST, --exclude LIST, --allow-siblings\n"
	"                    the CPUs, as bind takes them, for devices no rule governs\n"
	"                    (all devices when given)\n"
	"  -c, --config FILE the daemon's configuration, for its rules (default\n"
	"                    " CONF_DEFAULT_PATH "; none when it does not exist)\n"
	"  -j, --json        print the measurement and the plan as JSON\n"
	"  -h, --help        show this help\n";

enum {
	OPT_WINDOW = OPT_POLICY_END,
	OPT_THRESHOLD,
	OPT_DRY_RUN,
};

static int parse_number(const char *opt, const char *arg, unsigned int min, unsigned int max,
			unsigned int *out)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || n < min || n > max)
		return ctl_usage("balance", "%s '%s' is not a number from %u to %u", opt, arg, min,
				 max);
	*out = n;
	return 0;
}

static const char balance_shortopts[] = ":c:jh";

static int parse_option(struct balance_args *a, int c, char **argv)
{
	int ret = policy_option("balance", &a->p, c, optarg);

	if (ret >= 0)
		return ret;
	switch (c) {
	case OPT_WINDOW:
		return duration_parse("balance", "--window", optarg, WINDOW_MAX_S, &a->window_ns);
	case OPT_THRESHOLD:
		return parse_number("--threshold", optarg, 0, 100, &a->threshold_pct);
	case OPT_DRY_RUN:
		a->dry_run = true;
		return 0;
	case 'c':
		a->conf_path = optarg;
		a->conf_given = true;
		return 0;
	case 'j':
		a->json = true;
		return 0;
	default:
		return ctl_bad_option("balance", balance_shortopts, c, argv);
	}
}

/* Returns -1 when balance should go on, else the exit status. */
static int parse_args(int argc, char **argv, struct balance_args *a)
{
	static const struct option opts[] = {
		POLICY_LONGOPTS,
		{ "window", required_argument, NULL, OPT_WINDOW },
		{ "threshold", required_argument, NULL, OPT_THRESHOLD },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "config", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, ret;

	while ((c = getopt_long(argc, argv, balance_shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(balance_usage, stdout);
			return EXIT_SUCCESS;
		}
		ret = parse_option(a, c, argv);
		if (ret)
			return ret;
	}
	ret = policy_args_check("balance", &a->p);
	if (ret)
		return ret;
	a->devs = &argv[optind];
	a->nr_devs = argc - optind;
	return -1;
}

/* The rules, when there is a file; 0, or -1 after printing why. */
static int load_rules(const struct balance_args *a, struct conf *conf)
{
	char err[512];

	*conf = (struct conf){ 0 };
	if (!a->conf_given && access(a->conf_path, F_OK))
		return 0;
	if (!conf_load(a->conf_path, conf, err, sizeof(err)))
		return 0;
	ctl_msg("%s", err);
	return -1;
}

/*
 * The policy for @dev: the options' when any was given, else its rule's,
 * else its node's. NULL when neither governs it and @need_rule.
 */
static const struct bind_policy *policy_of(const struct balance_args *a,
					   const struct conf *conf,
					   const struct bind_policy *node_local,
					   const struct nictl_dev *dev, bool need_rule)
{
	const struct rule *rule;
	char *upper;

	if (a->p.given)
		return &a->p.policy;
	rule = rules_find_dev(conf, dev, &upper);
	free(upper);
	if (rule)
		return &rule->policy;
	return need_rule ? NULL : node_local;
}

/* The devices named on the command line, each with its policy. */
static int add_named(struct ctl_nl *nl, const struct balance_args *a, const struct conf *conf,
		     const struct bind_policy *node_local, struct bal_set *set)
{
	struct dev_list found;
	struct dev_ref ref;
	unsigned int i;
	int err = 0;

	for (i = 0; !err && i < a->nr_devs; i++) {
		err = dev_ref_parse("balance", a->devs[i], &ref) ? -1 : 0;
		if (!err)
			err = dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, &ref), "balance",
					   ref.name, &found);
		if (err)
			break;
		/* A stacked device's rule (or node) governs the devices beneath it. */
		err = bal_set_add(set, &found, policy_of(a, conf, node_local, &found.devs[0],
							 false));
		dev_list_free(&found);
	}
	return err;
}

/* Every device a rule governs or nictl holds bound, with its policy. */
static int add_governed(struct ctl_nl *nl, const struct balance_args *a,
			const struct conf *conf, const struct bind_policy *node_local,
			struct bal_set *set)
{
	const struct bind_policy *policy;
	struct dev_list all, one;
	unsigned int i;
	int err;

	err = dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, NULL), "balance", NULL, &all);
	for (i = 0; !err && i < all.nr; i++) {
		policy = policy_of(a, conf, node_local, &all.devs[i],
				   !(all.devs[i].flags & NICTL_DEV_F_BOUND));
		if (!policy || !all.devs[i].nr_irqs)
			continue;
		one = (struct dev_list){ &all.devs[i], 1, NULL, 0 };
		err = bal_set_add(set, &one, policy);
	}
	dev_list_free(&all);
	if (!err && !set->devs.nr) {
		ctl_msg("balance: no device to balance: no rule governs one and nictl holds "
			"none bound; name the devices");
		err = -1;
	}
	return err;
}

/* Sample, wait, describe the devices again and sample: the set's problem. */
static int measure(struct ctl_nl *nl, const struct balance_args *a, struct bal_set *set)
{
	struct bal_sample t0, t1;
	char err[256];
	int ret;

	if (bal_sample(nl, set, &t0))
		return -1;
	if (!a->json)
		fprintf(stderr, "measuring the NET_RX time of %u device%s for %.3g s\n",
			set->devs.nr, set->devs.nr == 1 ? "" : "s", a->window_ns / 1e9);
	duration_sleep(a->window_ns);
	ret = bal_set_refresh(nl, set) ?: bal_sample(nl, set, &t1);
	if (ret) {
		bal_sample_free(&t0);
		return -1;
	}
	ret = bal_measure(set, &t0, &t1, err, sizeof(err));
	if (ret)
		ctl_msg("balance: %s", err);
	bal_sample_free(&t0);
	bal_sample_free(&t1);
	return ret;
}

/* Why the plan is not applied, or NULL when it is to be. */
static const char *hold_back(const struct balance_args *a, const struct bal_set *set,
			     const struct bal_plan *plan)
{
	const char *why = bal_verdict(set, plan, a->threshold_pct);

	if (!why && a->dry_run)
		why = "dry run: nothing moved";
	return why;
}

static int report(const struct balance_args *a, const struct bal_set *set,
		  const struct bal_plan *plan, const char *held, const struct dev_list *result)
{
	if (a->json)
		return bal_print_json(stdout, set, plan, !held);
	bal_print_table(stdout, set, plan);
	if (plan->shared)
		printf("not enough physical cores for a queue each: some share a core\n");
	if (plan->moves) {
		printf("%s: ", held ? "planned" : "moved");
		bal_print_moves(stdout, set, plan, ", ");
		printf("\n");
	}
	if (held) {
		printf("%s\n", held);
		return 0;
	}
	return result->nr ? show_table(stdout, result) : 0;
}

static int balance(struct ctl_nl *nl, const struct balance_args *a, struct bal_set *set)
{
	struct dev_list result = { NULL, 0, NULL, 0 };
	struct bal_plan plan = { 0 };
	struct bal_problem p;
	const char *held;
	int err;

	bal_problem_of(set, &p);
	err = bal_place(&p, &plan);
	if (err) {
		ctl_msg("balance: %s", err == -EINVAL ? "a device's policy leaves its queues no "
			"online CPU" : strerror(-err));
		return -1;
	}
	held = hold_back(a, set, &plan);
	err = held ? 0 : bal_apply(nl, set, &plan, &result);
	if (!err)
		err = report(a, set, &plan, held, &result);
	dev_list_free(&result);
	bal_plan_free(&plan);
	return err;
}

static int run(const struct balance_args *a)
{
	struct bind_policy node_local = {
		.req = { .source = CPUS_NODE, .given = CPUSET_INIT, .exclude = CPUSET_INIT },
		.numa_local = true,
	};
	struct bal_set set = { 0 };
	struct ctl_nl nl;
	struct conf conf;
	int err;

	if (load_rules(a, &conf))
		return -1;
	err = ctl_nl_open(&nl);
	if (!err) {
		err = a->nr_devs ? add_named(&nl, a, &conf, &node_local, &set) :
				   add_governed(&nl, a, &conf, &node_local, &set);
		if (!err)
			err = measure(&nl, a, &set);
		if (!err)
			err = balance(&nl, a, &set);
		ctl_nl_close(&nl);
	}
	bal_set_free(&set);
	conf_free(&conf);
	return err;
}

int cmd_balance(int argc, char **argv)
{
	struct balance_args a = {
		.p = POLICY_ARGS_INIT, .conf_path = CONF_DEFAULT_PATH,
		.window_ns = WINDOW_DEFAULT_S * 1000000000ULL, .threshold_pct = THRESHOLD_DEFAULT_PCT,
	};
	int ret;

	ret = parse_args(argc, argv, &a);
	if (ret < 0)
		ret = run(&a) ? EXIT_FAILURE : EXIT_SUCCESS;
	bind_policy_free(&a.p.policy);
	return ret;
}
