// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl verify: does the machine stand as the configuration says? For
 * every device a rule governs, matched as the daemon matches (namespaces
 * that match-netns names included): nictl holds it bound, sticky when the
 * rule says so, and each queue IRQ it binds is where its binding put it,
 * on a CPU the rule allows, and each NAPI thread on its IRQ's CPUs where
 * the device polls in threads. Without the module, bound means kept under
 * /run/nictl by a bind without it, and nothing is sticky. Nothing is
 * changed. The exit status is for configuration management and CI, as
 * tuned-adm verify's is: 0 when every governed device is as configured, 1
 * when one is not or a device could not be looked at, 78 for a
 * configuration that is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "commands.h"
#include "conf/conf.h"
#include "daemon/governed.h"
#include "dev.h"
#include "json.h"
#include "napi/place.h"
#include "policy.h"
#include "report.h"

/* Past this many, a device's problems are counted, not listed. */
#define MAX_PROBLEMS	8

static const char verify_usage[] =
	"Usage: " PROG_NAME " verify [-c FILE] [-j|--json]\n"
	"\n"
	"Check, without changing anything, that every device a rule of the\n"
	"configuration governs is as the rule says: bound by nictl, sticky when\n"
	"the rule says so, each queue IRQ on its binding's CPU and that CPU one the\n"
	"rule allows. Exit status 0 when all are, 1 when one is not, 69 when the\n"
	"devices could not be listed (and none differs), 78 when the configuration\n"
	"is refused.\n"
	"\n"
	"Options:\n"
	"  -c, --config FILE  the configuration (default " CONF_DEFAULT_PATH ")\n"
	"  -j, --json         print one JSON document\n"
	"  -h, --help         show this help\n";

struct verdict {
	const struct nictl_dev *dev;
	const struct rule *rule;
	char *problems[MAX_PROBLEMS];
	unsigned int nr;
	unsigned int more;	/* problems past MAX_PROBLEMS */
};

struct verify {
	const struct conf *conf;
	struct ctl_nl nl;
	struct json j;
	bool json;
	unsigned int governed;
	unsigned int off;	/* governed devices not as configured */
	int err;		/* a listing failed */
};

static __printf(2, 3) void problem(struct verdict *v, const char *fmt, ...)
{
	va_list ap;

	if (v->nr == MAX_PROBLEMS) {
		v->more++;
		return;
	}
	va_start(ap, fmt);
	if (vasprintf(&v->problems[v->nr], fmt, ap) >= 0)
		v->nr++;
	va_end(ap);
}

/* Each queue IRQ the binding holds: bound, on its target, the target allowed. */
static void check_irqs(struct verdict *v, const struct cpuset *allowed)
{
	const struct nictl_irq *irq;
	char *list;
	unsigned int i;

	for (i = 0; i < v->dev->nr_irqs; i++) {
		irq = &v->dev->irqs[i];
		/* The kernel places a managed IRQ; another device's binding holds a claimed one. */
		if ((irq->flags & NICTL_IRQ_F_MANAGED) || irq->owner_ifindex)
			continue;
		if (!(irq->flags & NICTL_IRQ_F_BOUND) || irq->target_cpu < 0) {
			problem(v, "IRQ %u (%s) is not bound", irq->irq, irq->name);
			continue;
		}
		if (!cpuset_has(allowed, irq->target_cpu)) {
			list = cpuset_format(allowed);
			problem(v, "IRQ %u is bound to CPU %d, not one of the rule's (%s)",
				irq->irq, irq->target_cpu, list ?: "?");
			free(list);
		}
		if (!cpuset_is_only(&irq->affinity, irq->target_cpu)) {
			list = cpuset_format(&irq->affinity);
			problem(v, "IRQ %u is on CPUs %s, its binding says %d", irq->irq,
				list ?: "?", irq->target_cpu);
			free(list);
		}
	}
}

/* Its NAPI threads where it polls in threads: each on its IRQ's CPUs, as bind put them. */
static void check_threads(struct verdict *v)
{
	char *what = napi_astray(v->dev);

	if (what)
		problem(v, "NAPI threads off their IRQs' CPUs: %s", what);
	free(what);
}

static void check_dev(struct verdict *v)
{
	const struct bind_policy *policy = &v->rule->policy;
	bool sticky = v->dev->flags & NICTL_DEV_F_STICKY;
	struct cpu_choice choice;

	if (!(v->dev->flags & NICTL_DEV_F_BOUND)) {
		problem(v, "not bound by nictl");
		return;
	}
	/* Without the module nothing is sticky: the daemon re-applies instead. */
	if (policy->sticky != sticky && !v->dev->direct)
		problem(v, "its binding is%s sticky, the rule says sticky = %s",
			sticky ? "" : " not", policy->sticky ? "yes" : "no");
	if (policy_cpus(v->dev, policy, &choice)) {
		problem(v, "the rule's CPUs cannot be chosen for it");
		return;
	}
	check_irqs(v, &choice.cpus);
	check_threads(v);
	cpu_choice_free(&choice);
}

static void print_verdict(struct verify *vf, const struct verdict *v)
{
	unsigned int i;

	if (vf->json) {
		json_obj_begin(&vf->j, NULL);
		json_str(&vf->j, "ifname", v->dev->ifname);
		json_int(&vf->j, "ifindex", v->dev->ifindex);
		json_str(&vf->j, "rule", v->rule->name);
		json_str(&vf->j, "file", v->rule->file);
		json_int(&vf->j, "line", v->rule->line);
		json_bool(&vf->j, "as_configured", !v->nr);
		json_arr_begin(&vf->j, "problems");
		for (i = 0; i < v->nr; i++)
			json_str(&vf->j, NULL, v->problems[i]);
		json_arr_end(&vf->j);
		json_int(&vf->j, "more_problems", v->more);
		json_obj_end(&vf->j);
		return;
	}
	printf("%s: rule %s (%s:%u): %s", v->dev->ifname, v->rule->name, v->rule->file,
	       v->rule->line, v->nr ? v->problems[0] : "as configured");
	for (i = 1; i < v->nr; i++)
		printf("; %s", v->problems[i]);
	if (v->more)
		printf("; and %u more", v->more);
	putchar('\n');
}

/* One device of the walk: judged when a rule governs it. */
static void verify_dev(const struct nictl_dev *dev, const struct rule *rule, const char *upper,
		       void *arg)
{
	struct verdict v = { .dev = dev, .rule = rule };
	struct verify *vf = arg;
	unsigned int k;

	(void)upper;
	if (!rule)
		return;
	check_dev(&v);
	vf->governed++;
	vf->off += !!v.nr;
	print_verdict(vf, &v);
	for (k = 0; k < v.nr; k++)
		free(v.problems[k]);
}

static int verify_all(struct verify *vf)
{
	if (governed_open(&vf->nl, "Checked against sysfs, /proc/irq and what binds without it "
			  "kept under /run/nictl"))
		return EXIT_UNAVAILABLE;
	if (vf->json) {
		json_start(&vf->j, stdout);
		json_obj_begin(&vf->j, NULL);
		json_arr_begin(&vf->j, "devices");
	}
	vf->err = governed_each(&vf->nl, vf->conf, "verify", verify_dev, vf);
	ctl_nl_close(&vf->nl);
	if (vf->json) {
		json_arr_end(&vf->j);
		json_int(&vf->j, "governed", vf->governed);
		json_int(&vf->j, "not_as_configured", vf->off);
		json_obj_end(&vf->j);
		putchar('\n');
	} else if (!vf->governed) {
		printf("no device is governed by a rule\n");
	} else {
		printf("%u device%s governed, %u not as configured\n", vf->governed,
		       vf->governed == 1 ? "" : "s", vf->off);
	}
	if (vf->off)
		return EXIT_FAILURE;
	return vf->err ? EXIT_UNAVAILABLE : EXIT_SUCCESS;
}

int cmd_verify(int argc, char **argv)
{
	struct verify vf = { 0 };
	struct conf conf;
	int ret;

	ret = governed_start("verify", verify_usage, argc, argv, &conf, &vf.json);
	if (ret >= 0)
		return ret;
	vf.conf = &conf;
	ret = verify_all(&vf);
	conf_free(&conf);
	return ret;
}
