// SPDX-License-Identifier: GPL-2.0
/*
 * One-line diagnostics on stderr: "nictlctl: what happened[; what to do]".
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "report.h"

/* A failure: on stderr, or in syslog when the daemon runs in the background. */
void ctl_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_ERR, fmt, ap);
	va_end(ap);
}

/*
 * A usage error of command @cmd (NULL for the global options): the message
 * plus where to read the synopsis. Returns EXIT_USAGE for the caller to exit
 * with.
 */
int ctl_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs(PROG_NAME ": ", stderr);
	if (cmd)
		fprintf(stderr, "%s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; see: %s%s%s --help\n", PROG_NAME, cmd ? " " : "", cmd ?: "");
	return EXIT_USAGE;
}

/*
 * Turn getopt_long's '?' or ':' into a usage error; the caller runs getopt
 * with opterr off and ':' leading @shortopts. getopt sets optopt to the
 * character of a bad short option, to 0 for an unknown long one and to the
 * option's value when a long option misses its argument or gets one it does
 * not take; a long option is then the argument getopt just stepped over.
 */
int ctl_bad_option(const char *cmd, const char *shortopts, int c, char **argv)
{
	const char *arg = argv[optind - 1];
	int len = strcspn(arg, "=");

	if (c == ':')
		return ctl_usage(cmd, "option %.*s needs an argument", len, arg);
	if (!optopt)
		return ctl_usage(cmd, "unknown option %.*s", len, arg);
	if (optopt > 0xff || strchr(shortopts, optopt))
		return ctl_usage(cmd, "option %.*s takes no argument", len, arg);
	return ctl_usage(cmd, "unknown option -%c", optopt);
}
