/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics. Every line nictlctl writes to stderr goes through here so that
 * each one names the program and each failure is exactly one line.
 */
#ifndef NICTLCTL_REPORT_H
#define NICTLCTL_REPORT_H

#include "util.h"

#define PROG_NAME	"nictlctl"

/* Exit statuses: 0 is EXIT_SUCCESS, 1 EXIT_FAILURE. */
#define EXIT_USAGE	2
/*
 * sysexits.h's EX_UNAVAILABLE: doctor or verify could not look (nictl not
 * loaded, the devices unreadable), so 1 keeps meaning "found something".
 */
#define EXIT_UNAVAILABLE	69
/* sysexits.h's EX_CONFIG: a configuration file refused, which no restart fixes. */
#define EXIT_CONFIG	78

__printf(1, 2) void ctl_msg(const char *fmt, ...);
__printf(2, 3) int ctl_usage(const char *cmd, const char *fmt, ...);
int ctl_bad_option(const char *cmd, const char *shortopts, int c, char **argv);

#endif /* NICTLCTL_REPORT_H */
