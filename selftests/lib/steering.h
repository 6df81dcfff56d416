/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A device's RPS, RFS and XPS values as sysfs holds them, and whether they
 * are what nictl's steering plan gives a device bound to one node.
 */
#ifndef NICTL_TEST_STEERING_H
#define NICTL_TEST_STEERING_H

#include <stdbool.h>
#include <stddef.h>

#include "cpus.h"
#include "nl.h"

#define FLOW_ENTRIES	"/proc/sys/net/core/rps_sock_flow_entries"
#define MAX_QUEUES	8
#define MASK_LEN	64

/* Every steering value of one device, as sysfs prints them. */
struct steering {
	unsigned int rx;
	unsigned int tx;
	bool xps;			/* one tx queue: no XPS maps */
	char rps_cpus[MAX_QUEUES][MASK_LEN];
	char flow_cnt[MAX_QUEUES][MASK_LEN];
	char xps_cpus[MAX_QUEUES][MASK_LEN];
};

int queue_file(char *path, size_t len, const char *ifname, const char *dir, unsigned int q,
	       const char *file);
/* The rx (@dir "rx") or tx ("tx") queues sysfs lists for @ifname. */
unsigned int count_queues(const char *ifname, const char *dir);
/* 0, -ERANGE for a device without rx queues or with more than MAX_QUEUES, -errno. */
int steering_read(const char *ifname, struct steering *s);
/* Whether @ifname's values are @want's now; says which are not on stderr. */
bool steering_is(const char *ifname, const struct steering *want);
/* A sysfs CPU mask ("f0", "1,00000000") as a set: 0 or -EINVAL. */
int mask_cpus(const char *mask, struct cpus *s);
/* net.core.rps_sock_flow_entries, -1 when unreadable. */
long flow_entries(void);

/*
 * Whether the steering of @ifname is the plan for its IRQs, as DEV_GET
 * describes them, on the steering CPUs @cpus, all of one node: RPS over
 * @cpus when it has fewer rx queues than @cpus has cores, else off; RFS
 * with the table at 32768 or more, split over the rx queues; XPS giving
 * every CPU of @cpus exactly one tx queue, each queue's IRQ CPU its own.
 * Says what is not, on stderr, when @loud.
 */
bool steering_follows(struct nl_client *nl, const char *ifname, const struct cpus *cpus,
		      bool loud);

#endif /* NICTL_TEST_STEERING_H */
