// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl: the controller of the nictl module. main() handles the global
 * options and hands the rest of the command line to one of the commands.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "json.h"
#include "netns.h"
#include "report.h"
#include "util.h"

#ifndef NICTL_VERSION
#error "build with -DNICTL_VERSION=\"x.y.z\" (the Makefile does)"
#endif

struct command {
	const char *name;
	const char *args;
	const char *summary;
	int (*run)(int argc, char **argv);
	bool in_netns;		/* acts on a device of the namespace -n selects */
	bool json;		/* has -j/--json, which the global -j turns on */
};

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
	{ "show", "[DEV]", "show devices and the CPUs their queue IRQs run on", cmd_show, true,
	  true },
	{ "bind", "DEV", "spread the queue IRQs of DEV over a set of CPUs", cmd_bind, true,
	  true },
	{ "restore", "DEV", "give DEV's queue IRQs back their old affinities", cmd_restore,
	  true, true },
	{ "stats", "[DEV]", "show where the network softirqs and DEV's queues run", cmd_stats,
	  true, true },
	{ "daemon", "[-c FILE]", "keep the rules of a configuration file applied", cmd_daemon,
	  false, false },
	{ "verify", "[-c FILE]", "exit 1 when a device is not as the configuration says",
	  cmd_verify, false, true },
	{ "plan", "[-c FILE]", "show what the configuration would do, changing nothing",
	  cmd_plan, false, true },
	{ "monitor", "[-j]", "print the module's events as they happen", cmd_monitor, false,
	  true },
	{ "balance", "[DEV...]", "move queue IRQs so no CPU carries more NET_RX work than it must",
	  cmd_balance, true, true },
	{ "doctor", "[DEV...]", "find what is wrong with the devices' IRQs, queues and drops",
	  cmd_doctor, false, true },
	{ "help", "[COMMAND]", "show this help, or that of COMMAND", cmd_help, false, false },
};

static void print_usage(void)
{
	char synopsis[32];
	size_t i;

	printf("Usage: %s [-h|--help] [-V|--version] [-j|--json] [-p|--pretty]\n"
	       "       [-n NAME|--netns PID|PATH] COMMAND [ARGS]\n"
	       "\n"
	       "Move all queue IRQs of a network device onto the right CPUs at once,\n"
	       "through the nictl kernel module.\n"
	       "\n"
	       "  -j, --json       print JSON, as the command's own -j does\n"
	       "  -p, --pretty     indent JSON output for people\n"
	       "  -V, --version    print the version and exit\n"
	       "  -n NAME          the device is in network namespace NAME (ip netns)\n"
	       "  --netns PID|PATH the device is in the network namespace of process PID,\n"
	       "                   or of the namespace file PATH\n"
	       "                   (show, bind, restore and stats; needs CAP_NET_ADMIN)\n"
	       "\n"
	       "Commands:\n", PROG_NAME);
	for (i = 0; i < ARRAY_SIZE(commands); i++) {
		snprintf(synopsis, sizeof(synopsis), "%s %s", commands[i].name, commands[i].args);
		printf("  %-18s%s\n", synopsis, commands[i].summary);
	}
	printf("\n"
	       "Run '%s COMMAND --help' for the options of a command.\n"
	       "Exit status: 0 success, 1 failure, 2 usage error, 69 could not look (doctor,\n"
	       "verify, plan), 78 configuration refused (daemon, verify, plan).\n", PROG_NAME);
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* The global -j: the command's own --json, given right after its name. */
static bool global_json;

/* Hand @argv (argv[0] naming the command) to the command's own getopt. */
static int run_command(int argc, char **argv)
{
	const struct command *cmd = find_command(argv[0]);
	char json_opt[] = "--json";
	char **args = argv;
	int ret;

	if (!cmd)
		return ctl_usage(NULL, "unknown command '%s'", argv[0]);
	if (ctl_netns_selected() && !cmd->in_netns)
		return ctl_usage(NULL, "-n and --netns apply to show, bind, restore and stats, "
				 "not to %s", cmd->name);
	if (global_json && !cmd->json)
		return ctl_usage(NULL, "-j: %s prints no JSON", cmd->name);
	if (global_json) {
		args = calloc(argc + 2, sizeof(*args));
		if (!args) {
			ctl_msg("out of memory");
			return EXIT_FAILURE;
		}
		args[0] = argv[0];
		args[1] = json_opt;
		memcpy(args + 2, argv + 1, (argc - 1) * sizeof(*args));
		argc++;
	}
	optind = 0;	/* glibc: start a fresh scan of the new argv */
	ret = cmd->run(argc, args);
	if (args != argv)
		free(args);
	return ret;
}

static int cmd_help(int argc, char **argv)
{
	char help_opt[] = "--help";
	char *help_argv[] = { argv[1], help_opt, NULL };

	if (argc > 2)
		return ctl_usage("help", "unexpected argument '%s'", argv[2]);
	if (argc == 1 || !strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		print_usage();
		return EXIT_SUCCESS;
	}
	return run_command(2, help_argv);
}

int main(int argc, char **argv)
{
	enum { OPT_NETNS = 0x100 };
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "netns", required_argument, NULL, OPT_NETNS },
		{ NULL, 0, NULL, 0 }
	};
	const char *shortopts = "+:hVjpn:";	/* '+': options after COMMAND are its own */
	int c, ret;

	opterr = 0;	/* every error is worded by ctl_bad_option() */
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_usage();
			return EXIT_SUCCESS;
		case 'V':
			printf("%s %s\n", PROG_NAME, NICTL_VERSION);
			return EXIT_SUCCESS;
		case 'j':
			global_json = true;
			break;
		case 'p':
			json_pretty = true;
			break;
		case 'n':
		case OPT_NETNS:
			ret = c == 'n' ? ctl_netns_select_name(optarg) : ctl_netns_select(optarg);
			if (ret)
				return ret;
			break;
		default:
			return ctl_bad_option(NULL, shortopts, c, argv);
		}
	}
	if (optind == argc)
		return ctl_usage(NULL, "missing command");
	return run_command(argc - optind, argv + optind);
}
