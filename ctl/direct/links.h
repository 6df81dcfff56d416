/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The queue -> NAPI -> IRQ links of netdev-genl (Linux 6.8+), read as the
 * module reads them in the kernel: which IRQ schedules each queue's NAPI,
 * and which thread polls it where the device polls in threads.
 */
#ifndef NICTLCTL_DIRECT_LINKS_H
#define NICTLCTL_DIRECT_LINKS_H

#include <stdbool.h>
#include <stdint.h>

/* One queue whose NAPI has an IRQ. */
struct queue_link {
	unsigned int queue;
	bool rx;
	unsigned int irq;
};

/*
 * Every linked queue of device @ifindex in a new *@links of *@n. A kernel
 * without the netdev family or its queue and NAPI dumps, or a driver that
 * links nothing, gives none. Returns 0 or -ENOMEM.
 */
int direct_queue_links(unsigned int ifindex, struct queue_link **links, unsigned int *n);

/*
 * The settings netdev-genl keeps per NAPI (6.13+, threaded 6.17+): NAPI_GET
 * shows them, NAPI_SET sets them.
 */
enum napi_cfg {
	NAPI_CFG_DEFER_HARD_IRQS,
	NAPI_CFG_GRO_FLUSH_TIMEOUT,	/* ns */
	NAPI_CFG_IRQ_SUSPEND_TIMEOUT,	/* ns */
	NAPI_CFG_THREADED,		/* &enum napi_threaded */
	NAPI_CFG_NR,
};

/* The values of %NAPI_CFG_THREADED (the kernel's enum netdev_napi_threaded). */
enum napi_threaded {
	NAPI_THREADED_OFF,
	NAPI_THREADED_ON,
	NAPI_THREADED_BUSY_POLL,	/* the thread busy-polls (6.18+) */
};

/* One NAPI instance with an id, as netdev-genl describes it. */
struct napi_info {
	unsigned int id;
	unsigned int irq;	/* the IRQ the driver linked to it, 0 for none */
	unsigned int pid;	/* its kernel thread, 0 for none */
	int rx_queue;		/* the receive queue linked to it, -1 for none */
	/*
	 * Whether the thread polls it: 0 no, else yes (2: busy polling there);
	 * -1 where the kernel does not say (before 6.17), the device's
	 * /sys/class/net/DEV/threaded does. A thread outlives threaded mode
	 * switched off: a pid alone says nothing.
	 */
	int threaded;
	int64_t cfg[NAPI_CFG_NR];	/* by &enum napi_cfg; -1 where the kernel has none */
};

/*
 * Every NAPI with an id of device @ifindex in a new *@napis of *@n, in the
 * kernel's order; none where direct_queue_links() would find no link for
 * want of the family. Returns 0 or -ENOMEM.
 */
int direct_napis(unsigned int ifindex, struct napi_info **napis, unsigned int *n);

/*
 * Give NAPI @id the settings of @cfg that are not -1 (netdev-genl NAPI_SET,
 * CAP_NET_ADMIN): 0, or libnl's negative error, which nl_geterror() names.
 */
int direct_napi_set(unsigned int id, const int64_t *cfg);

#endif /* NICTLCTL_DIRECT_LINKS_H */
