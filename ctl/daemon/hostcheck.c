// SPDX-License-Identifier: GPL-2.0
/* Rules against this host's CPUs and nodes (hostcheck.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/hostcheck.h"
#include "report.h"
#include "topology.h"
#include "util.h"

struct host {
	struct cpuset present;
	struct cpuset nodes;
};

/* Say "FILE:LINE: rule 'NAME': " and the rest in @err; returns -1. */
static __printf(4, 5) int refuse(const struct rule *r, char *err, size_t errlen,
				 const char *fmt, ...)
{
	int n = snprintf(err, errlen, "%s:%u: rule '%s': ", r->file, r->line, r->name);
	va_list ap;

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* @s as a CPU list, "none" when empty; free() it. */
static char *list(const struct cpuset *s)
{
	return cpuset_empty(s) ? strdup("none") : cpuset_format(s);
}

static int missing_cpus(const struct rule *r, const struct host *h,
			const struct cpuset *missing, char *err, size_t errlen)
{
	char *gone = list(missing), *have = list(&h->present);

	refuse(r, err, errlen, "cpus: %s %s %s not on this host (it has %s)",
	       cpuset_weight(missing) == 1 ? "CPU" : "CPUs", gone ?: "?",
	       cpuset_weight(missing) == 1 ? "is" : "are", have ?: "?");
	free(gone);
	free(have);
	return -1;
}

/* The CPUs a rule can use on this host before its exclude, into @cpus. */
static int rule_cpus(const struct rule *r, const struct host *h, struct cpuset *cpus,
		     char *err, size_t errlen)
{
	const struct cpu_request *req = &r->policy.req;
	struct cpuset missing = CPUSET_INIT;
	char *nodes;
	int ret;

	if (req->source == CPUS_GIVEN) {
		ret = cpuset_or(&missing, &req->given);
		cpuset_andnot(&missing, &h->present);
		if (!ret && !cpuset_empty(&missing))
			ret = missing_cpus(r, h, &missing, err, errlen);
		cpuset_free(&missing);
		return ret ?: cpuset_or(cpus, &req->given);
	}
	if (req->source == CPUS_NODE && !r->policy.numa_local) {
		if (cpuset_has(&h->nodes, req->node))
			return topo_node_cpus(req->node, cpus);
		nodes = list(&h->nodes);
		refuse(r, err, errlen, "cpus: NUMA node %d is not on this host (its nodes: %s)",
		       req->node, nodes ?: "?");
		free(nodes);
		return -1;
	}
	/* numa-local and all: any CPU of the host may be one of its. */
	return cpuset_or(cpus, &h->present);
}

static int check_rule(const struct rule *r, const struct host *h, char *err, size_t errlen)
{
	struct cpuset cpus = CPUSET_INIT;
	char *had;
	int ret;

	ret = rule_cpus(r, h, &cpus, err, errlen);
	if (!ret && !cpuset_empty(&cpus)) {
		had = list(&cpus);
		cpuset_andnot(&cpus, &r->policy.req.exclude);
		if (cpuset_empty(&cpus))
			ret = refuse(r, err, errlen, "exclude leaves none of its CPUs (%s)",
				     had ?: "?");
		free(had);
	}
	cpuset_free(&cpus);
	return ret;
}

/**
 * conf_check_host() - can every rule of @conf apply on this host?
 * @conf: a parsed configuration
 * @err: receives "PATH:LINE: rule 'NAME': why" for the first that cannot
 * @errlen: size of @err
 *
 * Return: 0 (also where sysfs shows no CPUs, after saying so), -1 for a rule
 * that cannot apply, another -errno when the topology cannot be read; @err
 * says which.
 */
int conf_check_host(const struct conf *conf, char *err, size_t errlen)
{
	struct host h = { CPUSET_INIT, CPUSET_INIT };
	unsigned int i;
	int ret;

	ret = topo_present_cpus(&h.present);
	/* A chroot or an image build without /sys: nothing to judge by, and said so. */
	if (ret == -ENOENT) {
		ctl_msg("%s shows no CPUs here (a chroot or a container?): the rules were not "
			"checked against this host", topo_root());
		return 0;
	}
	if (!ret) {
		ret = topo_online_nodes(&h.nodes);
		/* A kernel without NUMA has no node directory: no node to name. */
		if (ret == -ENOENT)
			ret = 0;
	}
	for (i = 0; !ret && i < conf->nr_rules; i++)
		ret = check_rule(&conf->rules[i], &h, err, errlen);
	/* A refusal is -1 with @err said; the rest are the topology's errors. */
	if (ret < -1)
		snprintf(err, errlen, "cannot read the CPU topology under %s: %s", topo_root(),
			 strerror(-ret));
	cpuset_free(&h.present);
	cpuset_free(&h.nodes);
	return ret;
}
