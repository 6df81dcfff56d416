/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nictl: tell a NIC's queue vectors from its control vectors by IRQ name.
 *
 * Where the kernel gives no queue -> NAPI -> IRQ link, nictl walks the MSI /
 * MSI-X vectors of the NIC's PCI function and asks nictl_classify_irq()
 * about the name of each vector's irqaction. The answer comes from a
 * per-driver table of name patterns taken from the drivers' own format
 * strings (see classify.c), then from generic rules that apply to every
 * driver.
 *
 * This file and classify.c build both in the kernel and in userspace (the
 * unit test in selftests/unit/ compiles classify.c as is): only the include
 * block below differs.
 */
#ifndef _NICTL_CLASSIFY_H
#define _NICTL_CLASSIFY_H

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#endif

#include <linux/nictl.h>

/*
 * NICTL_CLASSIFY_NAME_MAX - names this long or longer are never a queue
 *
 * Bounds the work per name. The longest vector name a driver builds is far
 * shorter (virtio_pci's msix_names[] entries are 256 bytes with the NUL).
 */
#define NICTL_CLASSIFY_NAME_MAX	256

/**
 * struct nictl_irq_ident - what identifies a NIC in its vectors' names
 * @ifname: netdev name, e.g. "eth0"
 * @driver: driver of netdev->dev.parent, e.g. "virtio_net", "e1000e",
 *	"i40e", "mlx5_core"; NULL or "" when unknown (only the generic rules
 *	then apply)
 * @parent: dev_name(netdev->dev.parent): "virtio3" for virtio_net, the BDF
 *	for PCI NICs
 * @bus_addr: PCI BDF of the function ("0000:3b:00.0"), or NULL
 * @rx_queues: active receive queues of the netdev (real_num_rx_queues),
 *	for drivers that number their tx vectors after the rx ones
 *
 * A NULL or empty member never matches: a rule that needs it does not
 * apply.
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
 * @kind: set to the queue kind when the vector is a queue vector; may be
 *	NULL
 * @queue: set to the queue index when the vector is a queue vector; may
 *	be NULL
 *
 * Pure function: no allocation, no recursion, no locking, no global state.
 * The work is bounded: per table entry one pass over the name, or, for an
 * entry with a "%*" run, one pass per possible end of that run; names of
 * %NICTL_CLASSIFY_NAME_MAX characters or more are refused outright.
 *
 * @queue is the queue (pair) index. For every driver in the table but one
 * that is the number the driver printed in the name:
 *  - bnxt_en with separate rx and tx rings numbers its vectors by
 *    completion ring: "<if>-rx-0".."<if>-rx-(R-1)", then "<if>-tx-R"..
 *    (bnxt.c:bnxt_setup_msix), so the tx queue is the number minus R,
 *    @id->rx_queues; a tx number below R is no queue.
 * Three caveats for the caller:
 *  - a name its driver's buffer cut short reads as another queue's (bnxt_en
 *    before 6.12 keeps 17 characters: "enp94s0f0np0-rx-12" is
 *    "enp94s0f0np0-rx-1"); the classifier sees one name, so discovery drops
 *    every queue that the names of several IRQs claim
 *    (nictl_qirqs_drop_contested()).
 *  - i40e, ice, iavf, ixgbe, ixgbevf, fm10k and idpf number the vectors
 *    that have rings, not the queues: vector N serves queue N while the
 *    device has a vector per queue (pair), their default; with fewer
 *    vectors than queues each serves several (i40e and ice: a block of
 *    consecutive queues, so vector N may not serve queue N at all).
 *  - mlx5_core's "mlx5_compN" is completion vector N, which channel N uses
 *    unless Socket Direct remaps it (en_main.c:mlx5e_open_channel,
 *    mlx5_sd_ch_ix_get_vec_ix()); the PCI function may have more comp
 *    vectors than the netdev has channels (RDMA uses them too).
 *
 * Return: true, with *@kind and *@queue set, when @name is a queue vector
 * of the device described by @id; false (outputs untouched) for control
 * and misc vectors, for vectors of another device, for names not
 * recognised, and when @id or @name is NULL.
 */
bool nictl_classify_irq(const struct nictl_irq_ident *id, const char *name,
			enum nictl_queue_kind *kind, unsigned int *queue);

#endif /* _NICTL_CLASSIFY_H */
