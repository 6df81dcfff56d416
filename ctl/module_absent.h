/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why module nictl is not in the running kernel, and what to do about it:
 * read from the module tree, DKMS's tree, the kernel's signature policy and
 * its log, so that "load it with modprobe" is never the advice where
 * modprobe is what failed.
 */
#ifndef NICTLCTL_MODULE_ABSENT_H
#define NICTLCTL_MODULE_ABSENT_H

#include <stddef.h>

/* Why the module is absent and the fix, each a clause of one line. */
struct module_absence {
	char why[320];
	char fix[320];
};

/*
 * Fill @a for the running kernel. Paths are read below $NICTL_ROOT (the
 * module tree, DKMS's tree; default /) and the sysfs root (topology.h);
 * the kernel log from $NICTL_KMSG (default /dev/kmsg), where readable.
 */
void module_absence(struct module_absence *a);

#endif /* NICTLCTL_MODULE_ABSENT_H */
