// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor command: observe the machine twice, SECONDS apart, and report
 * what is wrong with the network devices' queue IRQs, steering, softnet
 * budget and NIC (rules.c), worst first, each finding with its evidence and
 * the command that fixes it. Nothing is changed unless --fix is given.
 * Exit status: 0 when no finding is a warning or an error (info ones are
 * explanations), 1 when one is, 2 on a usage error, 69 when it could not
 * look or could not report: automation alerts on 1 and on 69 differently.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "commands.h"
#include "conf/conf.h"
#include "doctor/doctor.h"
#include "duration.h"
#include "report.h"

/* Long enough for counters to move under load, short enough to wait for. */
#define DEFAULT_INTERVAL_S	3
/* Past an hour the interval is a typo, and a sleep nobody wants. */
#define MAX_INTERVAL_S		3600

static const char doctor_usage[] =
	"Usage: " PROG_NAME " doctor [-i INTERVAL] [-j] [--fix] [-c FILE] [DEV...]\n"
	"\n"
	"Observe the machine for an interval and report what is wrong with the\n"
	"network devices (DEV..., default all): queue IRQ placement, what moves\n"
	"the IRQs, queues and steering, hot CPUs, softnet budget and backlog,\n"
	"NIC drops and rings; worst first, each with its evidence and its fix.\n"
	"\n"
	"Options:\n"
	"  -i, --interval INTERVAL observe for INTERVAL: 3, 0.5, 500ms, 1m (default 3)\n"
	"  -j, --json              print one JSON document\n"
	"      --fix               apply the safe fixes, the placements (a bind\n"
	"                          with steering), after printing them\n"
	"  -c, --config FILE       the daemon's configuration, for its rules\n"
	"                          (default " CONF_DEFAULT_PATH ")\n"
	"  -h, --help              show this help\n"
	"\n"
	"Exit status: 0 nothing wrong (info findings do not count), 1 something\n"
	"is, 2 usage error, 69 could not look (nictl not loaded, the machine\n"
	"unreadable) or could not print the report.\n";

static const char doctor_shortopts[] = ":i:jc:h";

struct doctor_args {
	struct doc_read_args read;
	uint64_t interval_ns;
	bool json;
	bool fix;
};

/* Bind as the findings suggest, off the CPUs @s finds kept for other work. */
static void fix(struct ctl_nl *nl, struct doc_findings *fs, const struct doc_sample *s)
{
	struct cpuset avoid = CPUSET_INIT;

	if (doc_avoid_cpus(s, &avoid))
		ctl_msg("out of memory");
	else
		doc_fix(nl, fs, &avoid);
	cpuset_free(&avoid);
}

static int report(const struct doctor_args *a, const struct doc_findings *fs)
{
	int err = a->json ? doc_print_json(stdout, fs) : doc_print_text(stdout, fs);

	if (fflush(stdout) || err) {
		ctl_msg("doctor: cannot write the report");
		return EXIT_UNAVAILABLE;
	}
	return doc_problems(fs) ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int diagnose(struct ctl_nl *nl, const struct doctor_args *a)
{
	struct doc_sample prev, cur;
	struct doc_findings fs;
	int ret = EXIT_UNAVAILABLE;

	if (doc_sample_read(nl, &a->read, &prev))
		return EXIT_UNAVAILABLE;
	duration_sleep(a->interval_ns);
	if (doc_sample_read(nl, &a->read, &cur)) {
		doc_sample_free(&prev);
		return EXIT_UNAVAILABLE;
	}
	if (doc_rules(&prev, &cur, &fs)) {
		ctl_msg("out of memory");
	} else {
		/* A failed bind was reported; its findings stay problems. */
		if (a->fix)
			fix(nl, &fs, &cur);
		ret = report(a, &fs);
		doc_findings_free(&fs);
	}
	doc_sample_free(&prev);
	doc_sample_free(&cur);
	return ret;
}

int cmd_doctor(int argc, char **argv)
{
	enum { OPT_FIX = 0x100 };
	static const struct option opts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "fix", no_argument, NULL, OPT_FIX },
		{ "config", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct doctor_args a = {
		.read.conf = CONF_DEFAULT_PATH, .interval_ns = DEFAULT_INTERVAL_S * 1000000000ULL,
	};
	struct ctl_nl nl;
	int c, ret, absent;

	while ((c = getopt_long(argc, argv, doctor_shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			fputs(doctor_usage, stdout);
			return EXIT_SUCCESS;
		case 'i':
			if (duration_parse("doctor", "-i", optarg, MAX_INTERVAL_S, &a.interval_ns))
				return EXIT_USAGE;
			break;
		case 'j':
			a.json = true;
			break;
		case OPT_FIX:
			a.fix = true;
			break;
		case 'c':
			a.read.conf = optarg;
			break;
		default:
			return ctl_bad_option("doctor", doctor_shortopts, c, argv);
		}
	}
	a.read.devs = argv + optind;
	a.read.nr_devs = argc - optind;
	absent = ctl_nl_open_or_absent(&nl);
	if (absent < 0)
		return EXIT_UNAVAILABLE;
	if (absent && a.fix) {
		ctl_nl_module_absent("doctor --fix needs it: its fix binds with --steer");
		return EXIT_UNAVAILABLE;
	}
	/* Without the module, the doctor reads what userspace can (module-absent finding). */
	ret = diagnose(absent ? NULL : &nl, &a);
	if (!absent)
		ctl_nl_close(&nl);
	return ret;
}
