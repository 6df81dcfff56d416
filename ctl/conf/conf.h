/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemon's configuration file and its drop-ins (format: docs/config.md).
 * Parsing is all or nothing: one bad line in any of them yields no
 * configuration and a message "FILE:LINE: what is wrong", so a reload can
 * keep the old one.
 */
#ifndef NICTLCTL_CONF_H
#define NICTLCTL_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "policy.h"
#include "steer/part.h"

#define CONF_DEFAULT_PATH	"/etc/nictl/nictl.conf"
/* Drop-ins: the *.conf files in PATH.d, whose rules come before PATH's. */
#define CONF_DROPIN_SUFFIX	".d"

/*
 * What a rule matches on; each holds fnmatch(3) globs separated by spaces
 * (conf/match.h), any of which may match; NULL matches anything.
 */
enum rule_key {
	RULE_MATCH_NAME,	/* interface name */
	RULE_MATCH_PCI,		/* PCI address, e.g. 0000:80:00.0 */
	RULE_MATCH_MAC,		/* permanent MAC address */
	RULE_MATCH_DRIVER,	/* driver of the parent device */
	RULE_MATCH_NETNS,	/* the name of its network namespace (ip netns); without
				 * it a rule matches the initial namespace's devices */
	NR_RULE_MATCH,
};

struct rule {
	char *name;			/* [rule NAME] */
	char *file;			/* the file it is in: the main one or a drop-in */
	unsigned int line;		/* of its section header */
	char *match[NR_RULE_MATCH];
	struct bind_policy policy;
	unsigned int steer;		/* &enum steer_part to set after each bind */
	bool balance;			/* place its queues by measured load */
	unsigned int balance_interval_s;	/* at most one balance per interval */
	unsigned int balance_threshold_pct;	/* of the hottest CPU: the gain worth moves */
};

struct conf {
	struct rule *rules;		/* in file order: the first match wins */
	unsigned int nr_rules;
	unsigned int irq_wait_ms;	/* how long to wait for a device's queue IRQs */
	bool irqbalance_ban;		/* ask irqbalance to leave bound IRQs alone */
	bool banned_cpus;		/* keep off the CPUs irqbalance is told to (banned.h) */
	char *banned_cpus_file;		/* its environment file; NULL: the usual ones */
	char *metrics;			/* where to serve /metrics (metrics/addr.h); NULL: off */
};

int conf_parse(FILE *f, const char *path, struct conf *conf, char *err, size_t errlen);
int conf_load(const char *path, struct conf *conf, char *err, size_t errlen);
void conf_free(struct conf *conf);
void conf_ban(struct conf *conf, const struct cpuset *banned);
const char *conf_key_name(unsigned int key);

#endif /* NICTLCTL_CONF_H */
