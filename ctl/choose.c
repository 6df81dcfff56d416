// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU set of a bind. Interrupts on CPU 0 or on CPUs the administrator
 * isolated are what operators call nictl to get away from, so the default
 * sets avoid them; a list given with --cpus is taken as meant.
 *
 * Every function here prints the one line describing a failure itself and
 * then returns -1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choose.h"
#include "report.h"
#include "topology.h"
#include "util.h"

void cpu_choice_free(struct cpu_choice *choice)
{
	cpuset_free(&choice->cpus);
	free(choice->why);
	choice->why = NULL;
}

static int failed(int err)
{
	if (err == -ENOMEM)
		ctl_msg("out of memory");
	else
		ctl_msg("cannot read the CPU topology under %s: %s", topo_root(), strerror(-err));
	return -1;
}

/* Append one reason to choice->why, comma-separated. */
static __printf(2, 3) int note(struct cpu_choice *choice, const char *fmt, ...)
{
	char *part, *why;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&part, fmt, ap);
	va_end(ap);
	if (n < 0)
		return failed(-ENOMEM);
	n = asprintf(&why, "%s%s%s", choice->why ?: "", choice->why ? ", " : "", part);
	free(part);
	if (n < 0)
		return failed(-ENOMEM);
	free(choice->why);
	choice->why = why;
	return 0;
}

/* Like note(), for a reason that ends in the CPU set @cpus. */
static int note_cpus(struct cpu_choice *choice, const char *what, const struct cpuset *cpus)
{
	char *list = cpuset_format(cpus);
	int err;

	if (!list)
		return failed(-ENOMEM);
	err = note(choice, "%s %s", what, list);
	free(list);
	return err;
}

/*
 * Into @choice, the online CPUs of the nodes nearest to @node that have any
 * (the node of a device on a node with memory and no CPUs, or with its CPUs
 * offline), by the distances the firmware reports; the nodes and their
 * distance go into the reasons.
 */
static int nearest_cpus(int node, const struct cpuset *online, struct cpu_choice *choice)
{
	struct cpuset nodes = CPUSET_INIT, near = CPUSET_INIT, cpus = CPUSET_INIT;
	unsigned int distance, best = UINT_MAX;
	char *list = NULL;
	int n, err, ret;

	err = topo_online_nodes(&nodes);
	cpuset_for_each(n, &nodes) {
		if (err)
			break;
		cpuset_free(&cpus);
		err = topo_node_cpus(n, &cpus);
		cpuset_and(&cpus, online);
		if (err || n == node || cpuset_empty(&cpus))
			continue;
		err = topo_node_distance(node, n, &distance);
		if (err || distance > best)
			continue;
		if (distance < best) {
			cpuset_free(&near);
			cpuset_free(&choice->cpus);
			best = distance;
		}
		err = cpuset_add(&near, n) ?: cpuset_or(&choice->cpus, &cpus);
	}
	if (err) {
		ret = failed(err);
	} else if (cpuset_empty(&choice->cpus)) {
		ctl_msg("NUMA node %d has no online CPUs, and no other node has any", node);
		ret = -1;
	} else if (!(list = cpuset_format(&near))) {
		ret = failed(-ENOMEM);
	} else {
		ret = note(choice, "node %d has no online CPUs: nearest node%s %s (distance %u)",
			   node, cpuset_weight(&near) > 1 ? "s" : "", list, best);
	}
	free(list);
	cpuset_free(&cpus);
	cpuset_free(&near);
	cpuset_free(&nodes);
	return ret;
}

static int node_cpus(const struct cpu_request *req, struct cpu_choice *choice)
{
	struct cpuset online = CPUSET_INIT;
	int node = req->node, err;

	err = topo_node_cpus(node, &choice->cpus);
	if (err == -ENOENT) {
		ctl_msg("NUMA node %d does not exist; the nodes are listed in %s/devices/system/node",
			node, topo_root());
		return -1;
	}
	if (!err)
		err = topo_online_cpus(&online);
	cpuset_and(&choice->cpus, &online);
	if (!err && cpuset_empty(&choice->cpus) && req->nearest) {
		err = nearest_cpus(node, &online, choice);
		cpuset_free(&online);
		return err;
	}
	cpuset_free(&online);
	if (err)
		return failed(err);
	if (cpuset_empty(&choice->cpus)) {
		ctl_msg("NUMA node %d has no online CPUs; use --node N or --cpus LIST", node);
		return -1;
	}
	return note(choice, "node %d", node);
}

static int source_cpus(const struct cpu_request *req, struct cpu_choice *choice)
{
	int err;

	switch (req->source) {
	case CPUS_NODE:
		return node_cpus(req, choice);
	case CPUS_GIVEN:
		err = cpuset_or(&choice->cpus, &req->given);
		break;
	default:
		err = topo_online_cpus(&choice->cpus);
		break;
	}
	return err ? failed(err) : 0;
}

/*
 * Drop the isolated and nohz_full CPUs, then CPU 0, each only while other
 * CPUs remain. Isolated CPUs go first: the administrator reserved them, and
 * CPU 0 is the lesser evil when nothing else is left.
 */
static int keep_off(struct cpu_choice *choice)
{
	struct cpuset isolated = CPUSET_INIT;
	int err;

	err = topo_isolated_cpus(&isolated);
	if (err) {
		cpuset_free(&isolated);
		return failed(err);
	}
	cpuset_and(&isolated, &choice->cpus);
	if (cpuset_empty(&isolated))
		err = 0;
	else if (cpuset_weight(&isolated) == cpuset_weight(&choice->cpus))
		err = note(choice, "all of them isolated/nohz_full");
	else {
		cpuset_andnot(&choice->cpus, &isolated);
		err = note_cpus(choice, "kept off isolated/nohz_full CPUs", &isolated);
	}
	cpuset_free(&isolated);
	if (err || !cpuset_has(&choice->cpus, 0))
		return err;
	if (cpuset_weight(&choice->cpus) == 1)
		return note(choice, "CPU 0 is the only one left");
	cpuset_del(&choice->cpus, 0);
	return note(choice, "kept off CPU 0");
}

static int apply_exclude(const struct cpu_request *req, struct cpu_choice *choice)
{
	const char *name = req->exclude_name ?: "--exclude";
	char what[64];

	if (!cpuset_intersects(&choice->cpus, &req->exclude))
		return 0;
	cpuset_andnot(&choice->cpus, &req->exclude);
	if (cpuset_empty(&choice->cpus)) {
		ctl_msg("%s leaves no CPU to bind to; exclude fewer CPUs", name);
		return -1;
	}
	snprintf(what, sizeof(what), "without %s", name);
	return note_cpus(choice, what, &req->exclude);
}

/*
 * Keep off the banned CPUs whatever the source, a list given too: a
 * container runtime reserved them for latency-critical work. With nothing
 * left there is no bind: one on them would break the reservation.
 */
static int apply_banned(const struct cpuset *banned, struct cpu_choice *choice)
{
	struct cpuset hit = CPUSET_INIT;
	char *list;
	int err;

	if (!banned || !cpuset_intersects(&choice->cpus, banned))
		return 0;
	if (cpuset_or(&hit, &choice->cpus))
		return failed(-ENOMEM);
	cpuset_and(&hit, banned);
	cpuset_andnot(&choice->cpus, banned);
	if (cpuset_empty(&choice->cpus)) {
		list = cpuset_format(&hit);
		ctl_msg("every CPU it may use (%s) is banned, kept free of IRQs for other work; "
			"give it other CPUs", list ?: "?");
		free(list);
		err = -1;
	} else {
		err = note_cpus(choice, "kept off banned CPUs", &hit);
	}
	cpuset_free(&hit);
	return err;
}

/*
 * Fill @choice with the CPUs for @req and the reasons for them. On failure
 * print one line saying why and return -1.
 */
int cpus_choose(const struct cpu_request *req, struct cpu_choice *choice)
{
	int err;

	*choice = (struct cpu_choice){ CPUSET_INIT, NULL };
	err = source_cpus(req, choice);
	if (!err)
		err = apply_exclude(req, choice);
	if (!err)
		err = apply_banned(req->banned, choice);
	if (!err && req->source != CPUS_GIVEN)
		err = keep_off(choice);
	if (!err && !choice->why)
		err = note(choice, req->source == CPUS_GIVEN ? "as given" : "all online CPUs");
	if (err)
		cpu_choice_free(choice);
	return err;
}

/* True when every CPU of @cpus is online (and so has a topology to read). */
static int all_online(const struct cpuset *cpus, bool *yes)
{
	struct cpuset offline = CPUSET_INIT, online = CPUSET_INIT;
	int err;

	err = cpuset_or(&offline, cpus);
	if (!err)
		err = topo_online_cpus(&online);
	cpuset_andnot(&offline, &online);
	*yes = cpuset_empty(&offline);
	cpuset_free(&offline);
	cpuset_free(&online);
	return err;
}

/*
 * Refuse, in a line that gives both numbers, a set with fewer physical cores
 * than @dev has placement groups (@queues queues, @groups groups: a queue's
 * rx and tx IRQ, and queues that share an IRQ, go to one CPU): SMT siblings
 * share a core's cycles, so two groups on one core would not get the
 * parallelism a bind promises. A set with a CPU that is offline or does not
 * exist is left to the kernel, whose refusal names that CPU.
 */
int cpus_check_cores(const struct cpu_choice *choice, const char *dev, unsigned int queues,
		     unsigned int groups)
{
	unsigned int cores;
	bool online;
	char *list;
	int err;

	err = all_online(&choice->cpus, &online);
	if (err)
		return failed(err);
	if (!online)
		return 0;
	err = topo_count_cores(&choice->cpus, &cores);
	if (err)
		return failed(err);
	if (groups <= cores)
		return 0;
	list = cpuset_format(&choice->cpus);
	if (!list)
		return failed(-ENOMEM);
	if (groups == queues)
		ctl_msg("%s has %u queues but CPUs %s have only %u physical core%s; "
			"add CPUs or pass --allow-siblings", dev, queues, list, cores,
			cores == 1 ? "" : "s");
	else
		ctl_msg("%s has %u queues on %u groups of shared IRQs but CPUs %s have only %u "
			"physical core%s; add CPUs or pass --allow-siblings", dev, queues, groups,
			list, cores, cores == 1 ? "" : "s");
	free(list);
	return -1;
}
