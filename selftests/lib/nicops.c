// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env.h"
#include "netdev.h"
#include "nicops.h"
#include "run.h"
#include "sys.h"
#include "traffic.h"

static int step(const char *what, int ret)
{
	if (ret)
		fprintf(stderr, "# %s: %s\n", what, strerror(-ret));
	return ret;
}

void pci_driver_name(const char *pci_path, char *out, size_t len)
{
	char path[PATH_MAX];

	if (pathf(path, sizeof(path), "%s/driver", pci_path) || link_basename(path, out, len))
		out[0] = '\0';
}

int pci_driver_bind(const char *driver, const char *bdf, bool bind)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/%s", driver,
		 bind ? "bind" : "unbind");
	return write_str(path, bdf);
}

int netdev_revive(const char *pci_path, const char *driver, const char *ifname)
{
	char name[IFNAMSIZ], bound[64];
	const char *bdf = strrchr(pci_path, '/');
	int tries, ret = -ENOENT;

	pci_driver_name(pci_path, bound, sizeof(bound));
	if (!bound[0] && step("bind the PCI function", pci_driver_bind(driver, bdf + 1, true)))
		return -ENODEV;
	/* Probing is synchronous, but give a slow guest a few seconds. */
	for (tries = 0; tries < 50 && ret; tries++) {
		ret = netdev_of_pci(pci_path, name, sizeof(name));
		if (ret)
			usleep(100 * 1000);
	}
	if (step("find the new netdev", ret))
		return ret;
	if (strcmp(name, ifname) && step("rename", netdev_rename(name, ifname)))
		return -EIO;
	/*
	 * The new IRQs' first moves may wait for their first interrupt; fire
	 * them, so that what DEV_GET and /proc show does not change between
	 * the two reads a comparison takes.
	 */
	return step("bring it up", netdev_set_up(ifname, true)) ?:
	       step("traffic to settle IRQ moves", traffic_burst(test_nics));
}

int netdev_set_channels(const char *ifname, unsigned int n)
{
	struct run_result *r = malloc(sizeof(*r));
	char count[16];
	const char *argv[] = { "ethtool", "-L", ifname, "combined", count, NULL };
	int ret;

	if (!r)
		return -ENOMEM;
	snprintf(count, sizeof(count), "%u", n);
	ret = run_cmd(r, false, NULL, argv) ?: r->status;
	if (ret)
		fprintf(stderr, "# ethtool -L %s combined %u: %d: %s", ifname, n, ret, r->err);
	free(r);
	return ret;
}
