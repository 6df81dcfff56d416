// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family, as every message builder needs it: name,
 * version and multicast groups. Its ops, which call those builders, are
 * added by nictl_genl_register() (genl.c) just before it registers the
 * family, so no file below the ops refers up to them.
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
	 * dump or a tracepoint synchronisation would stall every other genl
	 * family. Each op takes what it needs: rtnl (-> cpus_read_lock) for
	 * devices and bindings, the stats mutex for accounting.
	 */
	.parallel_ops = true,
	.mcgrps = nictl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(nictl_mcgrps),
	NICTL_GENL_FAMILY_COMPAT
};
