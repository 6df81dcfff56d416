// SPDX-License-Identifier: GPL-2.0
/*
 * doctor --fix: the safe subset of the fixes, the placement ones, which
 * `nictlctl bind DEV --numa-local --steer` undoes with `restore DEV`, kept
 * off the CPUs reserved or banned for other work as the text's --exclude says. Each
 * device is bound once, through the same transaction as `bind --steer`
 * (steer/bind.c), after saying so on stderr; the other fixes (ethtool,
 * sysctl, the configuration file) stay suggestions for a person to weigh.
 */
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor.h"
#include "report.h"
#include "steer/bind.h"

/* One bind serves every finding of @dev: mark them fixed, or tried when it failed. */
static void mark(struct doc_findings *fs, const char *dev, bool fixed)
{
	unsigned int i;

	for (i = 0; i < fs->nr; i++) {
		if (!fs->f[i].bind_fix || !fs->f[i].dev || strcmp(fs->f[i].dev, dev))
			continue;
		fs->f[i].fixed = fixed;
		fs->f[i].bind_fix = false;
	}
}

static int bind_one(struct ctl_nl *nl, const struct doc_finding *f, const struct cpuset *avoid)
{
	struct bind_policy policy = {
		.req = { .source = CPUS_ONLINE, .given = CPUSET_INIT, .exclude = CPUSET_INIT },
	};
	struct dev_ref ref = { .name = f->dev };
	struct dev_list found;
	struct steered s;
	char *cpus;
	int err;

	ctl_msg("doctor --fix: %s", f->fix);
	err = cpuset_or(&policy.req.exclude, avoid);
	if (err) {
		ctl_msg("out of memory");
		return err;
	}
	err = dev_exchange(nl, dev_request(nl, NICTL_CMD_DEV_GET, &ref), "doctor --fix", f->dev,
			   &found);
	if (err) {
		bind_policy_free(&policy);
		return err;
	}
	if (found.devs[0].numa_node >= 0) {
		policy.numa_local = true;
		policy.req.source = CPUS_NODE;
	}
	err = steer_bind(nl, &found.devs[0], &policy, STEER_ALL, &s);
	if (!err) {
		cpus = cpuset_format(&s.choice.cpus);
		ctl_msg("doctor --fix: %s bound to CPUs %s (%s), steered", f->dev, cpus ?: "?",
			s.choice.why);
		free(cpus);
	}
	steered_free(&s);
	dev_list_free(&found);
	bind_policy_free(&policy);
	return err;
}

/*
 * Apply the bind fixes of @fs, a device at a time, marking what was fixed.
 * Returns 0, or -1 when a bind failed (reported; the others still ran).
 */
int doc_fix(struct ctl_nl *nl, struct doc_findings *fs, const struct cpuset *avoid)
{
	unsigned int i;
	int err, ret = 0;

	for (i = 0; i < fs->nr; i++) {
		if (!fs->f[i].bind_fix || !fs->f[i].dev)
			continue;
		err = bind_one(nl, &fs->f[i], avoid);
		if (err)
			ret = -1;
		mark(fs, fs->f[i].dev, !err);
	}
	return ret;
}
