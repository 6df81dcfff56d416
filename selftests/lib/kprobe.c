// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kprobe.h"
#include "sys.h"

#define TRACEFS		"/sys/kernel/tracing"
#define GROUP		"nictl_test"

/*
 * At the entry of rtnl_lock() the return address, which names the caller
 * as "function+off/size [module]", is the stack's top on x86 and the link
 * register on arm64.
 */
#ifdef __aarch64__
#define RETURN_ADDRESS	"%x30"
#else
#define RETURN_ADDRESS	"+0($stack)"
#endif
const struct kprobe_def rtnl_from_nictl = {
	.event = "nictl_rtnl",
	.def = "p:" GROUP "/nictl_rtnl rtnl_lock caller=" RETURN_ADDRESS ":symbol",
	.what = "rtnl_lock() from nictl",
	.match = "[nictl]",
};

const struct kprobe_def nictl_discovery = {
	.event = "nictl_discover",
	.def = "p:" GROUP "/nictl_discover nictl:nictl_dev_discover",
	.what = "nictl_dev_discover()",
	.match = "",
};

const struct kprobe_def nictl_look = {
	.event = "nictl_look",
	.def = "p:" GROUP "/nictl_look nictl:nictl_dev_look",
	.what = "nictl_dev_look()",
	.match = "",
};

static void enable_path(const struct kprobe_def *p, char *buf, size_t size)
{
	snprintf(buf, size, TRACEFS "/events/" GROUP "/%s/enable", p->event);
}

int kprobe_clear(void)
{
	/* Opening the trace for writing with O_TRUNC empties it. */
	int fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int kprobe_start(const struct kprobe_def *p)
{
	char enable[256];
	int ret;

	kprobe_stop(p);
	enable_path(p, enable, sizeof(enable));
	/* Without O_TRUNC, kprobe_events keeps the probes others defined. */
	ret = write_str(TRACEFS "/kprobe_events", p->def);
	if (!ret)
		ret = write_str(enable, "1");
	if (!ret)
		ret = kprobe_clear();
	if (ret)
		fprintf(stderr, "# cannot set up the kprobe \"%s\": %s\n", p->def, strerror(-ret));
	return ret;
}

int kprobe_count(const struct kprobe_def *p)
{
	FILE *f = fopen(TRACEFS "/trace", "re");
	char line[512], tag[64];
	int n = 0;

	if (!f)
		return -errno;
	snprintf(tag, sizeof(tag), "%s:", p->event);
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, tag) && strstr(line, p->match)) {
			fprintf(stderr, "# %s: %s", p->what, line);
			n++;
		}
	fclose(f);
	return n;
}

void kprobe_stop(const struct kprobe_def *p)
{
	char enable[256], remove[128];

	enable_path(p, enable, sizeof(enable));
	snprintf(remove, sizeof(remove), "-:" GROUP "/%s", p->event);
	write_str(enable, "0");
	write_str(TRACEFS "/kprobe_events", remove);
}
