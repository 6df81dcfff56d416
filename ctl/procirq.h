/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU lists of /proc/irq/N/ (smp_affinity_list, effective_affinity_list),
 * below $NICTL_PROCFS as the rest of /proc (topology.h: proc_root()).
 */
#ifndef NICTLCTL_PROCIRQ_H
#define NICTLCTL_PROCIRQ_H

#include "cpuset.h"

/*
 * Add the CPU list in /proc/irq/@irq/@file to @out: 0 or -errno (-EIO: an
 * empty file). An empty smp_affinity_list, which the kernel shows for a
 * moment while an affinity move is pending, is read again: -EAGAIN if it
 * stays so.
 */
int procirq_cpus(unsigned int irq, const char *file, struct cpuset *out);

#endif /* NICTLCTL_PROCIRQ_H */
