// SPDX-License-Identifier: GPL-2.0
/*
 * The message sink. On stderr every line names the program, as the one-line
 * errors of the commands always have; syslog adds the name itself.
 */
#include <stdbool.h>
#include <stdio.h>

#include "log.h"
#include "report.h"

static bool use_syslog;

/* From now on, send every message to syslog (facility daemon). */
void log_to_syslog(void)
{
	openlog(PROG_NAME, LOG_PID, LOG_DAEMON);
	use_syslog = true;
}

void log_vmsg(int prio, const char *fmt, va_list ap)
{
	if (use_syslog) {
		vsyslog(prio, fmt, ap);
		return;
	}
	fputs(PROG_NAME ": ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void log_msg(int prio, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(prio, fmt, ap);
	va_end(ap);
}
