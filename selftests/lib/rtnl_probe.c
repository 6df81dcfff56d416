// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rtnl_probe.h"
#include "sys.h"

#define TRACEFS		"/sys/kernel/tracing"
#define PROBE_GROUP	"nictl_test"
#define PROBE_EVENT	"nictl_rtnl"
#define PROBE		PROBE_GROUP "/" PROBE_EVENT
#define PROBE_ENABLE	TRACEFS "/events/" PROBE "/enable"

/*
 * At the entry of rtnl_lock() the stack's top is the return address: the
 * caller, printed as "function+off/size [module]".
 */
#define PROBE_DEF	"p:" PROBE " rtnl_lock caller=+0($stack):symbol"

int rtnl_probe_clear(void)
{
	/* Opening the trace for writing with O_TRUNC empties it. */
	int fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int rtnl_probe_start(void)
{
	int ret;

	rtnl_probe_stop();
	/* Without O_TRUNC, kprobe_events keeps the probes others defined. */
	ret = write_str(TRACEFS "/kprobe_events", PROBE_DEF);
	if (!ret)
		ret = write_str(PROBE_ENABLE, "1");
	if (!ret)
		ret = rtnl_probe_clear();
	if (ret)
		fprintf(stderr, "# cannot set up the kprobe \"%s\": %s\n", PROBE_DEF,
			strerror(-ret));
	return ret;
}

int rtnl_probe_count(void)
{
	FILE *f = fopen(TRACEFS "/trace", "re");
	char line[512];
	int n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, PROBE_EVENT ":") && strstr(line, "[nictl]")) {
			fprintf(stderr, "# rtnl_lock() from nictl: %s", line);
			n++;
		}
	fclose(f);
	return n;
}

void rtnl_probe_stop(void)
{
	write_str(PROBE_ENABLE, "0");
	write_str(TRACEFS "/kprobe_events", "-:" PROBE);
}
