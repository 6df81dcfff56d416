// SPDX-License-Identifier: GPL-2.0
/* Intervals (duration.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "duration.h"
#include "report.h"
#include "util.h"

static const struct {
	const char *suffix;
	double ns;
} units[] = {
	{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "m", 60e9 },
};

/**
 * duration_parse() - read an interval option
 * @cmd: the command, for the usage error
 * @opt: the option as the user typed it ("-i", "--window")
 * @arg: its value
 * @max_s: the longest interval that is not a typo
 * @ns: receives the interval, at least 1 ms
 *
 * Return: 0, or EXIT_USAGE after saying what the syntax is.
 */
int duration_parse(const char *cmd, const char *opt, const char *arg, unsigned int max_s,
		   uint64_t *ns)
{
	double v, scaled;
	unsigned int i;
	char *end;

	errno = 0;
	v = strtod(arg, &end);
	for (i = 0; end != arg && !errno && i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		scaled = v * units[i].ns;
		/* isfinite() also refuses "nan", which compares false to everything. */
		if (!isfinite(scaled) || scaled < 1e6 || scaled > max_s * 1e9)
			break;
		*ns = scaled + 0.5;
		return 0;
	}
	return ctl_usage(cmd, "%s '%s': give an interval from 1ms to %us, in seconds or with "
			 "a unit: 1, 0.5, 500ms, 2s, 1m", opt, arg, max_s);
}

/* Sleep @ns, however many signals come in between. */
void duration_sleep(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000, .tv_nsec = ns % 1000000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}
