// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family as every message builder needs it: name,
 * version, multicast groups. nictl_genl_register() (genl.c) adds the ops,
 * which call those builders, just before registering it, so no file below
 * the ops refers up to them.
 */
#include <net/genetlink.h>

#include "nictl.h"

/*
 * "events" is open to every user, like DEV_GET: its events describe nothing
 * /proc hides. "audit" adds who asked for a bind or restore, which only an
 * administrator may learn.
 */
static const struct genl_multicast_group nictl_mcgrps[] = {
	[NICTL_MCGRP_EVENTS_ID] = { .name = NICTL_MCGRP_EVENTS },
#ifdef NICTL_HAVE_MCAST_CAP
	[NICTL_MCGRP_AUDIT_ID] = { .name = NICTL_MCGRP_AUDIT, .flags = GENL_MCAST_CAP_NET_ADMIN },
#endif
};

struct genl_family nictl_family __ro_after_init = {
	.name = NICTL_FAMILY_NAME,
	.version = NICTL_FAMILY_VERSION,
	.module = THIS_MODULE,
	/*
	 * No op needs genl_mutex, and none may hold it while it waits: a slow
	 * dump or tracepoint synchronisation would stall every other genl
	 * family. Each op takes what it needs (locking: nictl.h).
	 */
	.parallel_ops = true,
	.mcgrps = nictl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(nictl_mcgrps),
	NICTL_GENL_FAMILY_COMPAT
};
