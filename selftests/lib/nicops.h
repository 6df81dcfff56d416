/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What an administrator does to a NIC that tests repeat on the guest's:
 * rebind its PCI function, give the new netdev its old name back, change
 * its channel count. Each returns 0 or -errno (or a tool's exit status) and
 * prints what failed.
 */
#ifndef NICTL_TEST_NICOPS_H
#define NICTL_TEST_NICOPS_H

#include <stdbool.h>
#include <stddef.h>

/* The driver bound to the PCI function at sysfs @pci_path, "" when none. */
void pci_driver_name(const char *pci_path, char *out, size_t len);
/* Bind (@bind) or unbind the PCI function @bdf to or from @driver. */
int pci_driver_bind(const char *driver, const char *bdf, bool bind);
/*
 * After a rebind of the PCI function at @pci_path (bound again to @driver
 * if it is not), wait for its netdev, name it @ifname and bring it up.
 */
int netdev_revive(const char *pci_path, const char *driver, const char *ifname);
/* ethtool -L @ifname combined @n. */
int netdev_set_channels(const char *ifname, unsigned int n);

#endif /* NICTL_TEST_NICOPS_H */
