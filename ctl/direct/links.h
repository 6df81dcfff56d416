/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The queue -> NAPI -> IRQ links of netdev-genl (Linux 6.8+), read as the
 * module reads them in the kernel: which IRQ schedules each queue's NAPI.
 */
#ifndef NICTLCTL_DIRECT_LINKS_H
#define NICTLCTL_DIRECT_LINKS_H

#include <stdbool.h>

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

#endif /* NICTLCTL_DIRECT_LINKS_H */
