/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sysfs says about a network device, computed independently of the
 * module: the expectations discovery tests hold nictl's replies to.
 */
#ifndef NICTL_TEST_NETDEV_H
#define NICTL_TEST_NETDEV_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "irqs.h"

struct netdev_info {
	uint32_t ifindex;
	char driver[64];	/* driver of the parent device */
	char pci_path[256];	/* sysfs directory of its PCI function, "" for none */
	char bus_addr[64];	/* its name, "" when not on PCI */
	int numa_node;		/* numa_node of the nearest PCI device */
	unsigned int rx_queues;
	unsigned int tx_queues;
	bool up;
	/*
	 * What the queue IRQ names start with: virtio_net names them after
	 * the virtio device (virtioK-input.N), others after the interface.
	 */
	char irq_prefix[64];
};

int netdev_info(const char *ifname, struct netdev_info *info);
/*
 * Whether @name is a queue vector of a device whose IRQ names start with
 * @prefix (<prefix>-input.N, -output.N, -rx-N, -tx-N, -TxRx-N); if so
 * sets its queue index and enum nictl_queue_kind.
 */
bool queue_irq_name(const char *name, const char *prefix, uint32_t *queue, uint32_t *kind);

/* The queue IRQs /proc/interrupts shows for a device, in nictl's order. */
struct queue_irq {
	unsigned int irq;
	char name[IRQ_NAME_LEN];
	uint32_t queue;
	uint32_t kind;
};

int proc_queue_irqs(const struct proc_irqs *p, const char *prefix, struct queue_irq *out,
		    unsigned int max, unsigned int *n);

int netdev_set_up(const char *ifname, bool up);
int netdev_rename(const char *from, const char *to);
/* The interface of the PCI function at sysfs @pci_path, once it has one. */
int netdev_of_pci(const char *pci_path, char *ifname, size_t len);

#endif /* NICTL_TEST_NETDEV_H */
