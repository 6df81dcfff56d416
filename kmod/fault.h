/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the test build: fail the k-th affinity write of an
 * apply so that the suite can prove the rollback at every k; hold a stats
 * operation until released, so the suite can prove that nothing else waits
 * for it; split NAPI_GET dumps early; and make the raw TSC look trusted or
 * unstable. Production builds compile it away.
 */
#ifndef _NICTL_FAULT_H
#define _NICTL_FAULT_H

#include <linux/types.h>

#ifdef NICTL_FAULT_INJECT
int nictl_fault_write(unsigned int nth);
void nictl_fault_stall(void);
unsigned int nictl_fault_napis_per_msg(void);
bool nictl_fault_tsc_trusted(void);
bool nictl_fault_tsc_unstable(void);
#else
static inline int nictl_fault_write(unsigned int nth)
{
	return 0;
}

static inline void nictl_fault_stall(void)
{
}

static inline unsigned int nictl_fault_napis_per_msg(void)
{
	return 0;
}

static inline bool nictl_fault_tsc_trusted(void)
{
	return false;
}

static inline bool nictl_fault_tsc_unstable(void)
{
	return false;
}
#endif

#endif /* _NICTL_FAULT_H */
