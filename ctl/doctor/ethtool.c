// SPDX-License-Identifier: GPL-2.0
/*
 * What the NIC itself says, through the ethtool ioctl (the interface every
 * driver implements, where the netlink one needs 5.6 and more): its drop
 * counters matched by name among its statistics, plus the generic ones of
 * /sys/class/net/DEV/statistics, its rx ring and its channels. What a
 * driver does not support is left unknown (0): no finding comes of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "doctor/doctor.h"
#include "topology.h"
#include "util.h"

/*
 * Driver counters of received packets lost for want of a buffer or a slot:
 * e1000e, igb and ixgbe rx_missed_errors, rx_no_buffer_count and
 * rx_no_dma_resources, mlx5 rx_out_of_buffer and rx_discards_phy, i40e
 * rx_dropped and port.rx_discards, virtio_net rx_queue_N_drops, bnxt
 * rx_total_discard_pkts, ena rx_drops. Case is ignored; counters about
 * transmitting are skipped.
 */
static const char *const drop_patterns[] = {
	"*missed*", "*rx*drop*", "*no_buf*", "*rx*discard*", "*rx_fifo*", "*out_of_buffer*",
	"*no_dma_resources*",
};

/*
 * The generic counters of NIC drops every driver may fill, read from sysfs.
 * Not rx_dropped: the stack counts its own drops there too (a full backlog,
 * which softnet-backlog-drops reports).
 */
static const char *const sysfs_counters[] = {
	"rx_missed_errors", "rx_fifo_errors",
};

bool doc_is_drop_counter(const char *name)
{
	size_t i;

	if (strcasestr(name, "tx"))
		return false;
	for (i = 0; i < ARRAY_SIZE(drop_patterns); i++)
		if (!fnmatch(drop_patterns[i], name, FNM_CASEFOLD))
			return true;
	return false;
}

static int ioctl_ethtool(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr = { .ifr_data = cmd };

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

static int add_counter(struct doc_dev *d, const char *name, uint64_t value)
{
	struct doc_counter *c = realloc(d->drops, (d->nr_drops + 1) * sizeof(*c));

	if (!c)
		return -ENOMEM;
	d->drops = c;
	c = &d->drops[d->nr_drops];
	c->name = strdup(name);
	c->value = value;
	if (!c->name)
		return -ENOMEM;
	d->nr_drops++;
	return 0;
}

static unsigned int stats_count(int fd, const char *ifname)
{
	struct {
		struct ethtool_sset_info info;
		uint32_t len;
	} req = { .info = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };

	if (ioctl_ethtool(fd, ifname, &req) || !(req.info.sset_mask & (1ULL << ETH_SS_STATS)))
		return 0;
	return req.len;
}

/* The driver's statistics whose names say they count dropped packets. */
static int read_stats(int fd, struct doc_dev *d)
{
	unsigned int n = stats_count(fd, d->ifname), i;
	struct ethtool_gstrings *names;
	struct ethtool_stats *values;
	char name[ETH_GSTRING_LEN + 1];
	int err = 0;

	if (!n)
		return 0;
	names = calloc(1, sizeof(*names) + n * ETH_GSTRING_LEN);
	values = calloc(1, sizeof(*values) + n * sizeof(uint64_t));
	if (!names || !values) {
		err = -ENOMEM;
		goto out;
	}
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = n;
	values->cmd = ETHTOOL_GSTATS;
	values->n_stats = n;
	/* The set can change between the calls (a queue count): then skip it. */
	if (ioctl_ethtool(fd, d->ifname, names) || ioctl_ethtool(fd, d->ifname, values) ||
	    names->len != n || values->n_stats != n)
		goto out;
	for (i = 0; i < n && !err; i++) {
		memcpy(name, names->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		name[ETH_GSTRING_LEN] = '\0';
		if (doc_is_drop_counter(name))
			err = add_counter(d, name, values->data[i]);
	}
out:
	free(names);
	free(values);
	return err;
}

static int read_sysfs(struct doc_dev *d)
{
	char path[512], label[64];
	unsigned long long v;
	size_t i;
	FILE *f;
	int ok, err = 0;

	for (i = 0; i < ARRAY_SIZE(sysfs_counters) && !err; i++) {
		snprintf(path, sizeof(path), "%s/class/net/%s/statistics/%s", topo_root(),
			 d->ifname, sysfs_counters[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		ok = fscanf(f, "%llu", &v) == 1;
		fclose(f);
		snprintf(label, sizeof(label), "sysfs:%s", sysfs_counters[i]);
		if (ok)
			err = add_counter(d, label, v);
	}
	return err;
}

static void read_ring(int fd, struct doc_dev *d)
{
	struct ethtool_ringparam ring = { .cmd = ETHTOOL_GRINGPARAM };

	if (ioctl_ethtool(fd, d->ifname, &ring))
		return;
	d->ring = ring.rx_pending;
	d->ring_max = ring.rx_max_pending;
}

/* Combined channels, or rx channels for a NIC that has separate ones. */
static void read_channels(int fd, struct doc_dev *d)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };

	if (ioctl_ethtool(fd, d->ifname, &ch))
		return;
	d->channels = ch.max_combined ? ch.combined_count : ch.rx_count;
	d->max_channels = ch.max_combined ?: ch.max_rx;
}

/* 0, or -ENOMEM; what the NIC cannot tell stays unknown. */
int doc_ethtool_read(struct doc_dev *d)
{
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return read_sysfs(d);
	err = read_stats(fd, d);
	read_ring(fd, d);
	read_channels(fd, d);
	close(fd);
	return err ?: read_sysfs(d);
}
