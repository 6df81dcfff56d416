/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one syntax of every interval a command samples over (stats -i,
 * doctor -i, balance --window): a number of seconds, with a fraction or
 * a unit, "1", "0.5", "500ms", "2s", "1m".
 */
#ifndef NICTLCTL_DURATION_H
#define NICTLCTL_DURATION_H

#include <stdint.h>

int duration_parse(const char *cmd, const char *opt, const char *arg, unsigned int max_s,
		   uint64_t *ns);
void duration_sleep(uint64_t ns);

#endif /* NICTLCTL_DURATION_H */
