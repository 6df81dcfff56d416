/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting the rtnl_lock() calls made from nictl.ko's own code, with a
 * kprobe event on rtnl_lock() that records its caller: the kernel prints
 * a module's symbols with the module's name, so no help of the module is
 * needed and the count is the same for any build of it.
 */
#ifndef NICTL_TEST_RTNL_PROBE_H
#define NICTL_TEST_RTNL_PROBE_H

/* Add and enable the probe, with an empty trace: 0 or -errno. */
int rtnl_probe_start(void);
/* Empty the trace: 0 or -errno. */
int rtnl_probe_clear(void);
/* The calls from nictl since the trace was emptied, each printed: count or -errno. */
int rtnl_probe_count(void);
/* Disable and remove the probe. */
void rtnl_probe_stop(void);

#endif /* NICTL_TEST_RTNL_PROBE_H */
