/* SPDX-License-Identifier: GPL-2.0 */
/* Which rule of the configuration, if any, governs a device. */
#ifndef NICTLCTL_RULES_H
#define NICTLCTL_RULES_H

#include <stdbool.h>

#include "conf/conf.h"
#include "dev.h"

/* What rules match on; NULL when the device has no such property. */
struct dev_facts {
	const char *value[NR_RULE_MATCH];	/* indexed by enum rule_key */
	bool other_netns;	/* the device is outside the initial network namespace */
};

bool rule_matches(const struct rule *rule, const struct dev_facts *facts);
const struct rule *rules_find(const struct conf *conf, const struct dev_facts *facts);
const struct rule *rules_find_dev(const struct conf *conf, const struct nictl_dev *dev,
				  char **upper);
bool rules_want_netns(const struct conf *conf, const char *name);

#endif /* NICTLCTL_RULES_H */
