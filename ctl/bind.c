// SPDX-License-Identifier: GPL-2.0
/*
 * The bind command: pick the CPUs in userspace, where the user's intent and
 * the sysfs topology are at hand, check them against the device, and let the
 * kernel place every queue IRQ of the device on them in one step.
 */
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/nictl.h>

#include "commands.h"
#include "dev.h"
#include "direct/bind.h"
#include "napi/place.h"
#include "netns.h"
#include "policy.h"
#include "policy_opts.h"
#include "report.h"
#include "show.h"
#include "stacked.h"
#include "steer/bind.h"
#include "steer/print.h"
#include "steer/txn.h"

struct bind_args {
	struct dev_ref ref;
	struct policy_args p;
	bool steer;
	bool json;
};

static const char bind_usage[] =
	"Usage: " PROG_NAME " bind DEV [--numa-local | --node N | --cpus LIST] [--exclude LIST]\n"
	"                     [--allow-siblings] [--take-over] [--allow-shared] [--sticky]\n"
	"                     [--steer] [--defer-hard-irqs N] [--gro-flush-timeout NS]\n"
	"                     [--irq-suspend-timeout NS] [--threaded off|on|busy-poll]\n"
	"                     [--dry-run] [-j|--json]\n"
	"\n"
	"Spread the queue IRQs of DEV (an interface name or ifindex) over a set of\n"
	"CPUs, all of them or none, and show the result. The set is:\n"
	"\n"
	"  (default)         all online CPUs\n"
	"  --numa-local      the online CPUs of DEV's NUMA node; the kernel then\n"
	"                    also refuses CPUs of other nodes\n"
	"  --node N          the online CPUs of NUMA node N\n"
	"  --cpus LIST       exactly the CPUs in LIST, a cpulist such as 4-7,12\n"
	"\n"
	"Unless LIST was given, CPU 0 and the isolcpus/nohz_full CPUs are left out\n"
	"as long as other CPUs remain.\n"
	"\n"
	"Without module nictl, the bind goes through /proc/irq, one IRQ at a time,\n"
	"every earlier write put back when one fails; restore undoes it.\n"
	"\n"
	"Options:\n"
	"  --exclude LIST    leave the CPUs in LIST out of the set\n"
	"  --allow-siblings  allow two queues on SMT siblings of one physical core\n"
	"                    (by default the set needs a core per queue; queues that\n"
	"                    share an IRQ count as one)\n"
	"  --take-over       move IRQs that another device's binding holds (an IRQ\n"
	"                    serving both devices); restore of DEV puts them back\n"
	"  --allow-shared    move IRQs that other handlers share, for all of them\n"
	"  --sticky          the kernel keeps this binding under DEV's PCI address (or\n"
	"                    permanent MAC) and applies it again by itself whenever\n"
	"                    DEV's queue IRQs appear or change: driver reload, open,\n"
	"                    queue changes; `restore DEV` drops it\n"
	"  --steer           also steer the protocol work after the IRQs: RPS spreads it\n"
	"                    over the set's CPUs on each queue IRQ's node when DEV has\n"
	"                    fewer rx queues than those cores, RFS follows the sockets,\n"
	"                    and XPS gives each CPU the tx queue whose IRQ is nearest;\n"
	"                    all or nothing with the bind; `restore DEV` puts it back\n"
	"  --defer-hard-irqs N, --gro-flush-timeout NS, --irq-suspend-timeout NS\n"
	"                    also give every NAPI of DEV that setting (netdev-genl\n"
	"                    napi-set, Linux 6.13+), all or nothing with the bind;\n"
	"                    `restore DEV` puts back what each had\n"
	"  --threaded MODE   poll every NAPI of DEV in a kernel thread (on), in the\n"
	"                    NET_RX softirq (off), or in a thread that busy-polls\n"
	"                    (busy-poll); per NAPI (Linux 6.17+), all or nothing with\n"
	"                    the bind, the threads placed on their IRQs' CPUs\n"
	"  --dry-run         show the placement the kernel would apply (and with --steer\n"
	"                    the steering plan), change nothing\n"
	"  -j, --json        print the result as JSON (an array of one device)\n"
	"  -h, --help        show this help\n";

enum {
	OPT_DRY_RUN = OPT_POLICY_END,
	OPT_TAKE_OVER,
	OPT_ALLOW_SHARED,
	OPT_STICKY,
	OPT_STEER,
	OPT_DEFER_HARD_IRQS,		/* one per &enum napi_cfg, in its order */
	OPT_GRO_FLUSH_TIMEOUT,
	OPT_IRQ_SUSPEND_TIMEOUT,
	OPT_THREADED,
};

/* A NAPI setting's value: 0 .. @max, or -1 after saying why not. */
static int64_t napi_value(const char *opt, const char *arg, uint64_t max)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || arg[0] == '-' || v > max) {
		ctl_usage("bind", "--%s takes a number from 0 to %llu, not '%s'", opt,
			  (unsigned long long)max, arg);
		return -1;
	}
	return v;
}

static const char bind_shortopts[] = ":jh";

/* One option other than -h; returns 0, or the exit status when it is bad. */
static int parse_option(struct bind_args *args, int c, char **argv)
{
	int ret = policy_option("bind", &args->p, c, optarg);
	unsigned int k;

	if (ret >= 0)
		return ret;
	switch (c) {
	case OPT_DRY_RUN:
		args->p.policy.dry_run = true;
		return 0;
	case OPT_TAKE_OVER:
		args->p.policy.take_over = true;
		return 0;
	case OPT_ALLOW_SHARED:
		args->p.policy.allow_shared = true;
		return 0;
	case OPT_STICKY:
		args->p.policy.sticky = true;
		return 0;
	case OPT_STEER:
		args->steer = true;
		return 0;
	case OPT_DEFER_HARD_IRQS:
	case OPT_GRO_FLUSH_TIMEOUT:
	case OPT_IRQ_SUSPEND_TIMEOUT:
		k = c - OPT_DEFER_HARD_IRQS;
		args->p.policy.napi.v[k] = napi_value(napi_cfg_names[k], optarg,
						      k == NAPI_CFG_DEFER_HARD_IRQS ? INT32_MAX :
						      INT64_MAX);
		args->p.policy.napi.set[k] = true;
		return args->p.policy.napi.v[k] < 0 ? EXIT_USAGE : 0;
	case OPT_THREADED:
		args->p.policy.napi.v[NAPI_CFG_THREADED] = napi_threaded_parse(optarg);
		args->p.policy.napi.set[NAPI_CFG_THREADED] = true;
		if (args->p.policy.napi.v[NAPI_CFG_THREADED] >= 0)
			return 0;
		ctl_usage("bind", "--threaded takes off, on or busy-poll, not '%s'", optarg);
		return EXIT_USAGE;
	case 'j':
		args->json = true;
		return 0;
	default:
		return ctl_bad_option("bind", bind_shortopts, c, argv);
	}
}

/* Returns -1 when bind should go on, else the exit status. */
static int parse_args(int argc, char **argv, struct bind_args *args)
{
	static const struct option opts[] = {
		POLICY_LONGOPTS,
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "take-over", no_argument, NULL, OPT_TAKE_OVER },
		{ "allow-shared", no_argument, NULL, OPT_ALLOW_SHARED },
		{ "sticky", no_argument, NULL, OPT_STICKY },
		{ "steer", no_argument, NULL, OPT_STEER },
		{ "defer-hard-irqs", required_argument, NULL, OPT_DEFER_HARD_IRQS },
		{ "gro-flush-timeout", required_argument, NULL, OPT_GRO_FLUSH_TIMEOUT },
		{ "irq-suspend-timeout", required_argument, NULL, OPT_IRQ_SUSPEND_TIMEOUT },
		{ "threaded", required_argument, NULL, OPT_THREADED },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, ret;

	while ((c = getopt_long(argc, argv, bind_shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(bind_usage, stdout);
			return EXIT_SUCCESS;
		}
		ret = parse_option(args, c, argv);
		if (ret)
			return ret;
	}
	ret = policy_args_check("bind", &args->p);
	if (ret)
		return ret;
	/* Steering lives in sysfs, which shows the initial namespace's devices only. */
	if (args->steer && ctl_netns_selected())
		return ctl_usage("bind", "--steer does not reach a device in another network "
				 "namespace");
	if (optind == argc)
		return ctl_usage("bind", "missing DEV");
	if (argc - optind > 1)
		return ctl_usage("bind", "unexpected argument '%s'", argv[optind + 1]);
	return dev_ref_parse("bind", argv[optind], &args->ref) ?: -1;
}

/* Tell the user which CPUs were offered and why. */
static int report_choice(const struct bind_args *args, const struct cpu_choice *choice)
{
	char *list = cpuset_format(&choice->cpus);

	if (!list) {
		ctl_msg("out of memory");
		return -1;
	}
	ctl_msg("using CPUs %s (%s)", list, choice->why);
	free(list);
	if (args->p.policy.dry_run)
		ctl_msg("dry run: nothing changed; shown is the placement bind would apply");
	return 0;
}

/* The device as the bind left it, and with --steer the plan written. */
static int report_bind(const struct bind_args *args, const struct steered *s)
{
	if (report_choice(args, &s->choice))
		return -1;
	if (!s->parts)
		return show_devs(&s->result, args->json);
	if (args->json)
		return steer_print_json(stdout, &s->result.devs[0], &s->plan, s->xps);
	return show_table(stdout, &s->result) ?: steer_print_table(stdout, &s->plan, s->xps);
}

/*
 * The bind, with --steer all of the steering in the same transaction
 * (steer/bind.c); 0 or -1 (reported).
 */
static int bind_dev(struct ctl_nl *nl, struct bind_args *args, const struct nictl_dev *dev)
{
	struct steered s;
	int err;

	err = steer_bind(nl, dev, &args->p.policy, args->steer ? STEER_ALL : 0, &s);
	if (!err)
		err = report_bind(args, &s);
	steered_free(&s);
	return err;
}

/* Every device beneath a stacked one, bound as one: 0 or -1 (reported). */
static int bind_stacked(struct ctl_nl *nl, struct bind_args *args, const struct dev_list *found)
{
	struct steered s;
	int err;

	err = stacked_bind(nl, found, &args->p.policy, &s);
	if (!err)
		err = report_bind(args, &s);
	steered_free(&s);
	return err;
}

/* DEV_GET, then the bind: 0 or -1 (reported). */
static int bind_ref(struct ctl_nl *nl, struct bind_args *args)
{
	struct dev_list found;
	int err;

	err = dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, &args->ref), "bind",
			   args->ref.name, &found);
	if (err)
		return err;
	if (!found.stacked) {
		err = bind_dev(nl, args, &found.devs[0]);
	} else if (args->steer) {
		ctl_msg("cannot steer %s, which is stacked on %u devices: bind it, then bind "
			"--steer each device beneath it", found.stacked, found.nr);
		err = -1;
	} else {
		err = bind_stacked(nl, args, &found);
	}
	dev_list_free(&found);
	return err;
}

/* Without the module (direct/bind.c): 0 or -1 (reported). */
static int bind_direct(struct bind_args *args)
{
	struct cpu_choice choice = { CPUSET_INIT, NULL };
	struct dev_list result;
	int err;

	struct nictl_dev named = { .ifindex = args->ref.ifindex, .ifname = (char *)args->ref.name };
	char ifname[IF_NAMESIZE];

	if (args->steer) {
		ctl_nl_module_absent("bind --steer needs it: steer after a bind with the module");
		return -1;
	}
	/* The NAPI settings are checked first, as with the module: a refusal changes nothing. */
	if (!named.ifindex)
		named.ifindex = if_nametoindex(args->ref.name);
	else if (!named.ifname)
		named.ifname = if_indextoname(named.ifindex, ifname);
	if (named.ifindex && named.ifname && napi_config_check(&named, &args->p.policy.napi))
		return -1;
	err = direct_bind(&args->ref, &args->p.policy, &choice, &result);
	if (!err && !args->p.policy.dry_run)
		err = napi_follow_direct(&result, &choice.cpus, &args->p.policy.napi);
	if (!err)
		err = report_choice(args, &choice) ?: show_devs(&result, args->json);
	cpu_choice_free(&choice);
	dev_list_free(&result);
	return err;
}

int cmd_bind(int argc, char **argv)
{
	struct bind_args args = { .p = POLICY_ARGS_INIT };
	struct ctl_nl nl;
	int ret;

	ret = parse_args(argc, argv, &args);
	if (ret < 0) {
		ret = ctl_nl_open_or_absent(&nl);
		if (ret > 0) {
			ret = bind_direct(&args) ? EXIT_FAILURE : EXIT_SUCCESS;
		} else if (!ret) {
			ret = bind_ref(&nl, &args) ? EXIT_FAILURE : EXIT_SUCCESS;
			ctl_nl_close(&nl);
		} else {
			ret = EXIT_FAILURE;
		}
	}
	bind_policy_free(&args.p.policy);
	return ret;
}
