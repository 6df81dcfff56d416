/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the test build: fail the k-th affinity write of an
 * apply so that the suite can prove the rollback at every k. Production
 * builds compile it away.
 */
#ifndef _NICTL_FAULT_H
#define _NICTL_FAULT_H

#ifdef NICTL_FAULT_INJECT
int nictl_fault_write(unsigned int nth);
#else
static inline int nictl_fault_write(unsigned int nth)
{
	return 0;
}
#endif

#endif /* _NICTL_FAULT_H */
