// SPDX-License-Identifier: GPL-2.0
/* The buffers the compat header's formatted extack messages take turns in. */
#include <linux/atomic.h>

#include "nictl.h"

static char nictl_extack_bufs[NICTL_EXTACK_BUFS][NICTL_EXTACK_LEN];
static atomic_t nictl_extack_next = ATOMIC_INIT(0);

/* The next buffer of the ring: %NICTL_EXTACK_LEN bytes, the last one NUL. */
char *nictl_extack_buf(void)
{
	unsigned int i = (unsigned int)atomic_inc_return(&nictl_extack_next) % NICTL_EXTACK_BUFS;

	return nictl_extack_bufs[i];
}
