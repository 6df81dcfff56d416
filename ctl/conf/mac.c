// SPDX-License-Identifier: GPL-2.0
/*
 * A device's permanent MAC address, the one the NIC was made with
 * (ethtool -P): it survives a driver reload and any address the
 * administrator sets, so a rule keyed on it keeps matching. A device without
 * one (all zeroes) is matched by its current address instead.
 */
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "conf/mac.h"

#define ETH_ALEN	6

static void format_mac(const unsigned char *a, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2], a[3], a[4], a[5]);
}

static bool all_zero(const unsigned char *a)
{
	static const unsigned char zero[ETH_ALEN];

	return !memcmp(a, zero, ETH_ALEN);
}

/* SIOCETHTOOL with @cmd (ETHTOOL_GPERMADDR) or SIOCGIFHWADDR when @cmd is 0. */
static int read_mac(int fd, const char *ifname, unsigned int cmd, unsigned char *out)
{
	struct {
		struct ethtool_perm_addr hdr;
		unsigned char data[32];	/* MAX_ADDR_LEN */
	} perm = { .hdr = { .cmd = cmd, .size = sizeof(perm.data) } };
	struct ifreq ifr = { 0 };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (!cmd) {
		if (ioctl(fd, SIOCGIFHWADDR, &ifr))
			return -errno;
		memcpy(out, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
		return 0;
	}
	ifr.ifr_data = (void *)&perm;
	if (ioctl(fd, SIOCETHTOOL, &ifr))
		return -errno;
	if (perm.hdr.size != ETH_ALEN)
		return -EOPNOTSUPP;
	memcpy(out, perm.data, ETH_ALEN);
	return 0;
}

/* The MAC of @ifname as "aa:bb:..." in @buf (MAC_STR_LEN); 0 or -errno. */
int mac_of(const char *ifname, char *buf, size_t len)
{
	unsigned char addr[ETH_ALEN];
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	err = read_mac(fd, ifname, ETHTOOL_GPERMADDR, addr);
	if (err || all_zero(addr))
		err = read_mac(fd, ifname, 0, addr);
	close(fd);
	if (!err)
		format_mac(addr, buf, len);
	return err;
}
