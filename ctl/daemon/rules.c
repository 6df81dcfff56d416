// SPDX-License-Identifier: GPL-2.0
/*
 * Matching devices to rules: every key a rule sets must match, as an
 * fnmatch(3) glob; the first rule of the file that matches wins, so a
 * specific rule placed before a general one overrides it. A rule matches
 * devices of other network namespaces only with match-netns, and then
 * those of the namespaces it names only.
 */
#define _GNU_SOURCE
#include <fnmatch.h>

#include "daemon/rules.h"

/* Hex digits of MAC and PCI addresses match in either case. */
static int match_flags(enum rule_key key)
{
	return key == RULE_MATCH_MAC || key == RULE_MATCH_PCI ? FNM_CASEFOLD : 0;
}

bool rule_matches(const struct rule *rule, const struct dev_facts *facts)
{
	int k;

	/* Without match-netns a rule is the initial namespace's. */
	if (!rule->match[RULE_MATCH_NETNS] && facts->other_netns)
		return false;
	for (k = 0; k < NR_RULE_MATCH; k++) {
		if (!rule->match[k])
			continue;
		if (!facts->value[k] || fnmatch(rule->match[k], facts->value[k], match_flags(k)))
			return false;
	}
	return true;
}

/* Whether a rule of @conf may match devices of the namespace named @name. */
bool rules_want_netns(const struct conf *conf, const char *name)
{
	unsigned int i;

	for (i = 0; i < conf->nr_rules; i++)
		if (conf->rules[i].match[RULE_MATCH_NETNS] &&
		    !fnmatch(conf->rules[i].match[RULE_MATCH_NETNS], name, 0))
			return true;
	return false;
}

/* The first rule of @conf that matches, or NULL. */
const struct rule *rules_find(const struct conf *conf, const struct dev_facts *facts)
{
	unsigned int i;

	for (i = 0; i < conf->nr_rules; i++)
		if (rule_matches(&conf->rules[i], facts))
			return &conf->rules[i];
	return NULL;
}
