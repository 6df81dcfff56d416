// SPDX-License-Identifier: GPL-2.0
/* The genl family without its ops (genl.c adds them), so message builders need not refer up. */
#include <net/genetlink.h>

#include "nictl.h"

/* "events" tells any user what /proc would; "audit" adds who bound or restored: admins only. */
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
	/* No op needs genl_mutex: a slow op holding it would stall every other genl family. */
	.parallel_ops = true,
	.mcgrps = nictl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(nictl_mcgrps),
	NICTL_GENL_FAMILY_COMPAT
};
