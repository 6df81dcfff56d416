/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nictl: tell queue vectors from control vectors by IRQ name, where no queue -> NAPI -> IRQ link
 * does. Builds in the kernel and in userspace (selftests/unit/); only the include block differs.
 */
#ifndef _NICTL_CLASSIFY_H
#define _NICTL_CLASSIFY_H

#ifdef __KERNEL__
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <ctype.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#endif

#include <linux/nictl.h>

/* Never a queue at this length (bounds the work): no driver names one so long (virtio_pci: 256). */
#define NICTL_CLASSIFY_NAME_MAX	256

/**
 * struct nictl_irq_ident - what identifies a NIC in its vectors' names
 * @ifname: netdev name
 * @driver: driver of netdev->dev.parent; NULL or "" when unknown (only generic rules apply)
 * @parent: dev_name(netdev->dev.parent): "virtio3" for virtio_net, the BDF for PCI NICs
 * @bus_addr: PCI BDF of the function, or NULL
 * @rx_queues: real_num_rx_queues, for drivers that number their tx vectors after the rx ones
 *
 * A NULL or empty member never matches.
 */
struct nictl_irq_ident {
	const char *ifname;
	const char *driver;
	const char *parent;
	const char *bus_addr;
	unsigned int rx_queues;
};

/**
 * nictl_classify_irq() - classify one vector of a NIC by its IRQ name
 * @id: the NIC the vector belongs to
 * @name: name of the vector's irqaction (as in /proc/interrupts)
 * @kind: set to the queue kind; may be NULL
 * @queue: set to the queue (pair) index; may be NULL
 *
 * Pure: no allocation, recursion, locking or global state; bounded work. @queue is the number in
 * the name, but bnxt_en with separate rx and tx rings numbers its tx vectors after its R rx ones
 * (R = @id->rx_queues, bnxt.c:bnxt_setup_msix): tx queue = number - R, none below R.
 * Caveats for the caller:
 *  - a name cut short by its driver (bnxt_en before 6.12) reads as another queue's: see
 *    nictl_qirqs_drop_contested().
 *  - i40e, ice, iavf, ixgbe, ixgbevf, fm10k and idpf number the vectors that have rings: vector
 *    N serves queue N only with a vector per queue (pair), their default; with fewer, each
 *    serves several (i40e, ice: a block of consecutive queues, maybe not queue N at all).
 *  - mlx5_core's "mlx5_compN" is completion vector N, channel N's unless Socket Direct remaps
 *    it (en_main.c:mlx5e_open_channel); the function may have more comp vectors than the
 *    netdev has channels (RDMA).
 *
 * Return: true, with *@kind and *@queue set, when @name is a queue vector of @id's device;
 * false (outputs untouched) otherwise, or when @id or @name is NULL.
 */
bool nictl_classify_irq(const struct nictl_irq_ident *id, const char *name,
			enum nictl_queue_kind *kind, unsigned int *queue);

#endif /* _NICTL_CLASSIFY_H */
