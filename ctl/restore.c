// SPDX-License-Identifier: GPL-2.0
/* The restore command: undo nictl's binding of one device. */
#include <getopt.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdlib.h>

#include <linux/nictl.h>

#include "commands.h"
#include "dev.h"
#include "napi/config.h"
#include "napi/place.h"
#include "netns.h"
#include "report.h"
#include "show.h"
#include "steer/undo.h"

static const char restore_usage[] =
	"Usage: " PROG_NAME " restore DEV [-j|--json]\n"
	"\n"
	"Give the queue IRQs of DEV (an interface name or ifindex) back the\n"
	"affinities they had before nictl first bound them, its NAPI threads the\n"
	"CPUs and its NAPIs the settings they had before, and its queues the RPS,\n"
	"RFS and XPS values from before nictl first steered them; make nictl\n"
	"forget the device, and show the result.\n"
	"\n"
	"Options:\n"
	"  -j, --json    print the result as JSON (an array of one device)\n"
	"  -h, --help    show this help\n";

int cmd_restore(int argc, char **argv)
{
	struct dev_ref ref;
	unsigned int ifindex;
	int ret, steered = 0;
	bool json;

	ret = show_opts(argc, argv, restore_usage, &json);
	if (ret >= 0)
		return ret;
	if (optind == argc)
		return ctl_usage("restore", "missing DEV");
	if (argc - optind > 1)
		return ctl_usage("restore", "unexpected argument '%s'", argv[optind + 1]);
	ret = dev_ref_parse("restore", argv[optind], &ref);
	if (ret)
		return ret;
	/*
	 * The steering and NAPI threads first: they need no module, and a
	 * failure keeps their files. A device in another namespace was never
	 * steered (bind refuses it) and its threads never moved (napi/place.h).
	 */
	if (!ctl_netns_selected()) {
		ifindex = ref.ifindex ?: if_nametoindex(ref.name);
		steered = steer_undo(ifindex) | napi_put_back(ifindex);
	}
	ret = show_run(NICTL_CMD_RESTORE, "restore", &ref, json, false);
	return steered ? EXIT_FAILURE : ret;
}
