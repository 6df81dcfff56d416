// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/nictl.h>

#include "netdev.h"
#include "sys.h"

/*
 * Walk up from @dev (a sysfs device directory) to the first PCI device,
 * into @out. *@own tells whether it is the device's own PCI function, as
 * the module sees it (kmod/discover.c): reached through no bus but virtio
 * and auxiliary, whose devices are parts of a function. A USB NIC's is its
 * host controller's.
 */
static int find_pci_function(const char *dev, char *out, size_t len, bool *own)
{
	char path[PATH_MAX], link[PATH_MAX], subsys[64];

	if (!realpath(dev, path))
		return -errno;
	*own = true;
	while (strcmp(path, "/sys/devices") && strcmp(path, "/")) {
		if (!pathf(link, sizeof(link), "%s/subsystem", path) &&
		    !link_basename(link, subsys, sizeof(subsys))) {
			if (!strcmp(subsys, "pci"))
				return pathf(out, len, "%s", path);
			*own &= !strcmp(subsys, "virtio") || !strcmp(subsys, "auxiliary");
		}
		*strrchr(path, '/') = '\0';
	}
	return -ENODEV;
}

/* The number of @prefix-N entries in the directory @dir. */
static int count_entries(const char *dir, const char *prefix, unsigned int *n)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -errno;
	*n = 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			(*n)++;
	closedir(d);
	return 0;
}

int netdev_info(const char *ifname, struct netdev_info *info)
{
	char path[PATH_MAX], dev[PATH_MAX], real[PATH_MAX];
	bool own = false;
	long v;
	int ret;

	memset(info, 0, sizeof(*info));
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", ifname);
	ret = read_long(path, &v);
	if (ret)
		return ret;
	info->ifindex = v;
	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", ifname);
	ret = read_long(path, &v);
	if (ret)
		return ret;
	info->up = v & IFF_UP;
	snprintf(dev, sizeof(dev), "/sys/class/net/%s/device", ifname);
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", ifname);
	/* The node is the nearest PCI device's, the host controller's for USB. */
	ret = link_basename(path, info->driver, sizeof(info->driver)) ?:
	      find_pci_function(dev, real, sizeof(real), &own) ?:
	      pathf(path, sizeof(path), "%s/numa_node", real) ?:
	      read_long(path, &v);
	if (ret)
		return ret;
	info->numa_node = v;
	if (own && (pathf(info->pci_path, sizeof(info->pci_path), "%s", real) ||
		    pathf(info->bus_addr, sizeof(info->bus_addr), "%s", basename(real))))
		return -ENAMETOOLONG;
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	ret = count_entries(path, "rx-", &info->rx_queues) ?:
	      count_entries(path, "tx-", &info->tx_queues);
	if (ret)
		return ret;
	if (!strcmp(info->driver, "virtio_net")) {
		if (!realpath(dev, real))
			return -errno;
		return pathf(info->irq_prefix, sizeof(info->irq_prefix), "%s", basename(real));
	}
	return pathf(info->irq_prefix, sizeof(info->irq_prefix), "%s", ifname);
}

bool queue_irq_name(const char *name, const char *prefix, uint32_t *queue, uint32_t *kind)
{
	static const struct {
		const char *infix;
		uint32_t kind;
	} forms[] = {
		{ "-input.", NICTL_QUEUE_KIND_RX },
		{ "-output.", NICTL_QUEUE_KIND_TX },
		{ "-rx-", NICTL_QUEUE_KIND_RX },
		{ "-tx-", NICTL_QUEUE_KIND_TX },
		{ "-TxRx-", NICTL_QUEUE_KIND_COMBINED },
	};
	size_t plen = strlen(prefix), ilen;
	const char *num;
	unsigned int i;
	char *end;

	if (strncmp(name, prefix, plen))
		return false;
	for (i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		ilen = strlen(forms[i].infix);
		if (strncmp(name + plen, forms[i].infix, ilen))
			continue;
		num = name + plen + ilen;
		if (*num < '0' || *num > '9')
			return false;
		*queue = strtoul(num, &end, 10);
		*kind = forms[i].kind;
		return !*end;
	}
	return false;
}

/* nictl's order: queue index, then rx before tx. */
static int queue_irq_cmp(const void *a, const void *b)
{
	const struct queue_irq *x = a, *y = b;

	if (x->queue != y->queue)
		return x->queue < y->queue ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

int proc_queue_irqs(const struct proc_irqs *p, const char *prefix, struct queue_irq *out,
		    unsigned int max, unsigned int *n)
{
	struct queue_irq q;
	unsigned int i;

	*n = 0;
	for (i = 0; i < p->n; i++) {
		if (!queue_irq_name(p->irq[i].label, prefix, &q.queue, &q.kind))
			continue;
		if (*n >= max)
			return -E2BIG;
		q.irq = p->irq[i].irq;
		snprintf(q.name, sizeof(q.name), "%s", p->irq[i].label);
		out[(*n)++] = q;
	}
	qsort(out, *n, sizeof(*out), queue_irq_cmp);
	return 0;
}

/* Run one interface ioctl on a throwaway socket. */
static int if_ioctl(unsigned long req, struct ifreq *ifr)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, req, ifr))
		ret = -errno;
	close(fd);
	return ret;
}

int netdev_set_up(const char *ifname, bool up)
{
	struct ifreq ifr = { 0 };
	int ret;

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ret = if_ioctl(SIOCGIFFLAGS, &ifr);
	if (ret)
		return ret;
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return if_ioctl(SIOCSIFFLAGS, &ifr);
}

int netdev_rename(const char *from, const char *to)
{
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", from);
	snprintf(ifr.ifr_newname, sizeof(ifr.ifr_newname), "%s", to);
	return if_ioctl(SIOCSIFNAME, &ifr);
}

/* The first entry of directory @dir other than . and .., into @name. */
static int first_entry(const char *dir, char *name, size_t len)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = -ENOENT;

	if (!d)
		return -errno;
	while (ret && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(name, len, "%s", de->d_name);
			ret = 0;
		}
	closedir(d);
	return ret;
}

int netdev_of_pci(const char *pci_path, char *ifname, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret;

	if (pathf(path, sizeof(path), "%s/net", pci_path))
		return -ENAMETOOLONG;
	if (!first_entry(path, ifname, len))
		return 0;
	/* virtio_net hangs its netdev off the virtio child of the function. */
	d = opendir(pci_path);
	if (!d)
		return -errno;
	ret = -ENOENT;
	while (ret && (de = readdir(d))) {
		if (strncmp(de->d_name, "virtio", 6))
			continue;
		ret = pathf(path, sizeof(path), "%s/%s/net", pci_path, de->d_name) ?:
		      first_entry(path, ifname, len);
	}
	closedir(d);
	return ret;
}
