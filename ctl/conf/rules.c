// SPDX-License-Identifier: GPL-2.0
/*
 * Matching devices to rules: every key a rule sets must match, by one of
 * its globs (match.h); the first rule of the file that matches wins, so a
 * specific rule placed before a general one overrides it. A rule matches
 * devices of other network namespaces only with match-netns, and then
 * those of the namespaces it names only.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "conf/mac.h"
#include "conf/match.h"
#include "conf/rules.h"
#include "netns.h"

bool rule_matches(const struct rule *rule, const struct dev_facts *facts)
{
	int k;

	/* Without match-netns a rule is the initial namespace's. */
	if (!rule->match[RULE_MATCH_NETNS] && facts->other_netns)
		return false;
	for (k = 0; k < NR_RULE_MATCH; k++) {
		if (!rule->match[k])
			continue;
		if (!match_any(k, rule->match[k], facts->value[k]))
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
		    match_any(RULE_MATCH_NETNS, conf->rules[i].match[RULE_MATCH_NETNS], name))
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

/*
 * The rule that governs @dev: the first of the file that matches the device
 * itself, or by name a device stacked on it (match-name = bond0 governs the
 * bond's ports). @upper: that stacked device's name (free it), or NULL
 * when the rule matched @dev itself.
 */
const struct rule *rules_find_dev(const struct conf *conf, const struct nictl_dev *dev,
				  char **upper)
{
	struct dev_facts facts = { .value = {
		[RULE_MATCH_NAME] = dev->ifname, [RULE_MATCH_PCI] = dev->bus_addr,
		[RULE_MATCH_DRIVER] = dev->driver,
	}, .other_netns = dev->other_netns };
	const struct rule *rule, *found;
	char mac[MAC_STR_LEN], ns[256], *names, *name, *save = NULL;

	*upper = NULL;
	/* sysfs, where the MAC is read, shows the initial namespace's devices. */
	if (dev->other_netns && !ctl_netns_name_of(dev->netns_id, ns, sizeof(ns)))
		facts.value[RULE_MATCH_NETNS] = ns;
	else if (!dev->other_netns && !mac_of(dev->ifname, mac, sizeof(mac)))
		facts.value[RULE_MATCH_MAC] = mac;
	rule = rules_find(conf, &facts);
	/* An upper is in the port's namespace; only its name is matched. */
	facts.value[RULE_MATCH_PCI] = facts.value[RULE_MATCH_DRIVER] = NULL;
	facts.value[RULE_MATCH_MAC] = NULL;
	names = dev->uppers ? strdup(dev->uppers) : NULL;
	for (name = names ? strtok_r(names, ",", &save) : NULL; name;
	     name = strtok_r(NULL, ",", &save)) {
		facts.value[RULE_MATCH_NAME] = name;
		found = rules_find(conf, &facts);
		if (found && (!rule || found < rule)) {
			rule = found;
			free(*upper);
			*upper = strdup(name);
		}
	}
	free(names);
	return rule;
}
