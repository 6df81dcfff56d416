// SPDX-License-Identifier: GPL-2.0
/*
 * NAPI threads the kernel makes after a bind: threaded NAPI switched on
 * later, a driver reload or new channels make new threads, which start on
 * the kernel's default CPUs, and no event of nictl's or of the kernel says
 * so. Once a second the daemon looks at each device it keeps that polls in
 * threads (its sysfs "threaded" is not 0, or one of its NAPIs' own switch
 * is on; the look costs a file read and a NAPI dump for the others) and
 * re-applies its rule when a thread is not on its IRQ's CPUs: the bind
 * moves the threads with the IRQs (napi/place.h).
 */
#include <net/if.h>
#include <stdlib.h>

#include <linux/nictl.h>

#include "daemon/apply.h"
#include "direct/discover.h"
#include "napi/place.h"

/* @ref's device as the module or, without it, sysfs describes it: 0 or -1. */
static int describe(struct keeper *k, const struct dev_ref *ref, struct dev_list *list)
{
	if (k->nl.family < 0)
		return direct_discover(ref, list) ? -1 : 0;
	return dev_exchange(&k->nl, dev_request(&k->nl, NICTL_CMD_DEV_GET, ref), "daemon",
			    ref->name, list) ? -1 : 0;
}

/* Call @fn for @list's device when one of its threads is astray. */
static void check_dev(const struct dev_list *list, keeper_drift_fn fn, void *arg)
{
	char *what = napi_astray(&list->devs[0]);

	if (what)
		fn(arg, &list->devs[0], what);
	free(what);
}

void keeper_check_threads(struct keeper *k, keeper_drift_fn fn, void *arg)
{
	char ifname[IF_NAMESIZE];
	struct dev_list list;
	struct dev_ref ref;
	unsigned int i;

	for (i = 0; i < k->nr_owned; i++) {
		/* Another namespace's threads are not this one's netdev-genl's to name. */
		if (!k->owned[i].irqs.nr || dev_key_netns(k->owned[i].key) >= 0)
			continue;
		ref = (struct dev_ref){ .ifindex = dev_key_ifindex(k->owned[i].key), .name = ifname };
		if (!if_indextoname(ref.ifindex, ifname) || !napi_some_threaded(ref.ifindex, ifname) ||
		    describe(k, &ref, &list))
			continue;
		check_dev(&list, fn, arg);
		dev_list_free(&list);
	}
}
