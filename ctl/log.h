/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where nictlctl's messages go: stderr, as "nictlctl: ..." lines, or syslog
 * once the daemon runs in the background. Every diagnostic (ctl_msg()) and
 * every line the daemon logs passes through log_vmsg(), so one switch moves
 * them all.
 */
#ifndef NICTLCTL_LOG_H
#define NICTLCTL_LOG_H

#include <stdarg.h>
#include <syslog.h>

#include "util.h"

void log_to_syslog(void);
void log_vmsg(int prio, const char *fmt, va_list ap);
__printf(2, 3) void log_msg(int prio, const char *fmt, ...);

#define log_err(...)	log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LOG_WARNING, __VA_ARGS__)
#define log_info(...)	log_msg(LOG_INFO, __VA_ARGS__)

#endif /* NICTLCTL_LOG_H */
