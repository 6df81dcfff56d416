/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options that describe a bind policy on the command line, shared by
 * the commands that take one (bind, balance): --numa-local, --node, --cpus,
 * --exclude and --allow-siblings.
 */
#ifndef NICTLCTL_POLICY_OPTS_H
#define NICTLCTL_POLICY_OPTS_H

#include <getopt.h>

#include "policy.h"

/* Long-only options get values outside the character range. */
enum {
	OPT_NUMA_LOCAL = 0x100,
	OPT_NODE,
	OPT_CPUS,
	OPT_EXCLUDE,
	OPT_ALLOW_SIBLINGS,
	OPT_POLICY_END,		/* a command's own long options start here */
};

#define POLICY_LONGOPTS \
	{ "numa-local", no_argument, NULL, OPT_NUMA_LOCAL }, \
	{ "node", required_argument, NULL, OPT_NODE }, \
	{ "cpus", required_argument, NULL, OPT_CPUS }, \
	{ "exclude", required_argument, NULL, OPT_EXCLUDE }, \
	{ "allow-siblings", no_argument, NULL, OPT_ALLOW_SIBLINGS }

/* What a command parses its policy into. */
struct policy_args {
	struct bind_policy policy;
	unsigned int nr_sources;	/* of --numa-local, --node, --cpus */
	bool given;			/* any policy option was given */
};

#define POLICY_ARGS_INIT \
	{ .policy.req = { .source = CPUS_ONLINE, .given = CPUSET_INIT, .exclude = CPUSET_INIT } }

int policy_option(const char *cmd, struct policy_args *a, int c, const char *arg);
int policy_args_check(const char *cmd, const struct policy_args *a);

#endif /* NICTLCTL_POLICY_OPTS_H */
