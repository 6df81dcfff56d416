/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The devices a configuration speaks of, found as the daemon finds them: a
 * DEV_GET dump of the initial network namespace, then of each named one
 * (/run/netns) that a match-netns rule wants. verify and plan walk them.
 */
#ifndef NICTLCTL_GOVERNED_H
#define NICTLCTL_GOVERNED_H

#include "conf/conf.h"
#include "dev.h"
#include "nl.h"

/*
 * Called for each device listed, with the rule that governs it (NULL: none)
 * and, when that rule matched a device stacked on it, that device's name
 * (else NULL). The device's namespace is selected meanwhile.
 */
typedef void (*governed_fn)(const struct nictl_dev *dev, const struct rule *rule,
			    const char *upper, void *arg);

int governed_start(const char *cmd, const char *usage, int argc, char **argv,
		   struct conf *conf, bool *json);
/*
 * Open @nl for governed_each(): to the module, or where it is not loaded,
 * after one line that says why and @then, with its family < 0 (sysfs).
 * 0, or -1 after saying why neither works.
 */
int governed_open(struct ctl_nl *nl, const char *then);
int governed_each(struct ctl_nl *nl, const struct conf *conf, const char *cmd, governed_fn fn,
		  void *arg);

#endif /* NICTLCTL_GOVERNED_H */
