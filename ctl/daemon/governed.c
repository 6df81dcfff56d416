// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include <linux/nictl.h>

#include "daemon/governed.h"
#include "conf/rules.h"
#include "direct/apply.h"
#include "direct/discover.h"
#include "netns.h"
#include "report.h"

/**
 * governed_start() - parse -c FILE, -j and -h, then load the configuration
 * @cmd: the command (verify, plan)
 * @usage: its help
 * @argc: its argument count
 * @argv: its arguments
 * @conf: receives the configuration, for conf_free()
 * @json: set by -j
 *
 * Return: -1 when the command goes on with @conf, else its exit status: 0
 * after -h, %EXIT_USAGE, %EXIT_CONFIG for a refused file (said on stderr).
 */
int governed_start(const char *cmd, const char *usage, int argc, char **argv,
		   struct conf *conf, bool *json)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *shortopts = ":c:jh", *path = CONF_DEFAULT_PATH;
	char err[512];
	int c;

	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			path = optarg;
			break;
		case 'j':
			*json = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return EXIT_SUCCESS;
		default:
			return ctl_bad_option(cmd, shortopts, c, argv);
		}
	}
	if (optind < argc)
		return ctl_usage(cmd, "unexpected argument '%s'", argv[optind]);
	if (conf_load(path, conf, err, sizeof(err))) {
		ctl_msg("%s; %s did not run", err, cmd);
		return EXIT_CONFIG;
	}
	return -1;
}

struct walk {
	struct ctl_nl *nl;
	const struct conf *conf;
	const char *cmd;
	governed_fn fn;
	void *arg;
	int err;
};

/*
 * The devices of the namespace selected now, from the module or, where it
 * is absent (@w->nl's family < 0), from sysfs with what binds without it
 * kept; a listing that fails is reported.
 */
static void walk_listed(struct walk *w)
{
	struct ctl_nl_error e = { .err = -ENOMEM };
	struct dev_list list = { NULL, 0, NULL, 0 };
	const struct rule *rule;
	struct nl_msg *msg;
	unsigned int i;
	char *upper;

	if (w->nl->family < 0) {
		e.err = direct_discover_said(NULL, &list) ? -ENODEV : 0;
		for (i = 0; i < list.nr; i++)
			direct_saved_annotate(&list.devs[i]);
		w->err = e.err ? -1 : w->err;
	} else {
		msg = dev_request(w->nl, NICTL_CMD_DEV_GET, NULL);
		if (msg)
			ctl_nl_transact(w->nl, msg, dev_collect, &list, &e);
		if (e.err) {
			ctl_nl_report(w->cmd, NULL, &e);
			w->err = -1;
		}
	}
	for (i = 0; !e.err && i < list.nr; i++) {
		rule = rules_find_dev(w->conf, &list.devs[i], &upper);
		w->fn(&list.devs[i], rule, upper, w->arg);
		free(upper);
	}
	dev_list_free(&list);
}

static int walk_netns(const char *name, void *arg)
{
	struct walk *w = arg;

	if (!rules_want_netns(w->conf, name) || ctl_netns_select_name(name))
		return 0;
	walk_listed(w);
	ctl_netns_select_none();
	return 0;
}

int governed_open(struct ctl_nl *nl, const char *then)
{
	int ret = ctl_nl_open_or_absent(nl);

	if (ret <= 0)
		return ret;
	nl->family = -1;
	ctl_nl_module_absent(then);
	return 0;
}

/**
 * governed_each() - call @fn for every device listed, initial namespace first
 * @nl: an open nictl socket
 * @conf: the configuration whose rules govern
 * @cmd: the command, for the message of a listing that fails
 * @fn: called for each device
 * @arg: passed to @fn
 *
 * Return: 0, or -1 when a namespace's devices could not be listed (reported;
 * the others were walked).
 */
int governed_each(struct ctl_nl *nl, const struct conf *conf, const char *cmd, governed_fn fn,
		  void *arg)
{
	struct walk w = { nl, conf, cmd, fn, arg, 0 };

	walk_listed(&w);
	/* Without the module, nictlctl reaches the initial namespace only. */
	if (nl->family >= 0)
		ctl_netns_each(walk_netns, &w);
	return w.err;
}
