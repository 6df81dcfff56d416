// SPDX-License-Identifier: GPL-2.0
/* The policy options of bind and balance, parsed one at a time. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "policy_opts.h"
#include "report.h"

static int parse_cpus_arg(const char *cmd, const char *opt, const char *arg, struct cpuset *cpus)
{
	int err = cpuset_parse(cpus, arg);

	if (err == -ERANGE)
		return ctl_usage(cmd, "%s %s: CPU numbers go up to %d", opt, arg,
				 CPUSET_MAX_CPUS - 1);
	if (err == -ENOMEM) {
		ctl_msg("out of memory");
		return EXIT_FAILURE;
	}
	if (err)
		return ctl_usage(cmd, "%s '%s' is not a CPU list; write one like 0-3,8,10-11",
				 opt, arg);
	return 0;
}

static int parse_node_arg(const char *cmd, const char *arg, int *node)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || n > INT_MAX)
		return ctl_usage(cmd, "--node '%s' is not a NUMA node number", arg);
	*node = n;
	return 0;
}

/*
 * Option @c (getopt's) with argument @arg into @a: 0, the exit status when
 * it is bad, or -1 when @c is not a policy option.
 */
int policy_option(const char *cmd, struct policy_args *a, int c, const char *arg)
{
	struct bind_policy *policy = &a->policy;

	switch (c) {
	case OPT_NUMA_LOCAL:
		policy->numa_local = true;
		policy->req.source = CPUS_NODE;
		a->nr_sources++;
		break;
	case OPT_NODE:
		policy->req.source = CPUS_NODE;
		a->nr_sources++;
		a->given = true;
		return parse_node_arg(cmd, arg, &policy->req.node);
	case OPT_CPUS:
		if (!*arg)
			return ctl_usage(cmd, "--cpus needs at least one CPU");
		policy->req.source = CPUS_GIVEN;
		a->nr_sources++;
		a->given = true;
		return parse_cpus_arg(cmd, "--cpus", arg, &policy->req.given);
	case OPT_EXCLUDE:
		a->given = true;
		return parse_cpus_arg(cmd, "--exclude", arg, &policy->req.exclude);
	case OPT_ALLOW_SIBLINGS:
		policy->allow_siblings = true;
		break;
	default:
		return -1;
	}
	a->given = true;
	return 0;
}

/* After the last option: 0, or the exit status of a usage error. */
int policy_args_check(const char *cmd, const struct policy_args *a)
{
	if (a->nr_sources > 1)
		return ctl_usage(cmd, "give only one of --numa-local, --node and --cpus");
	return 0;
}
