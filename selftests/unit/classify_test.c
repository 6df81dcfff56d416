// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of kmod/classify.c, the IRQ-name classifier, built in userspace.
 *
 * One table: each FIXTURE_VARIANT_ADD below is a row {device, IRQ name,
 * expected answer} and runs as its own TAP test "classify.<row>.row", so a
 * failure names the row. The names are the ones the drivers of 5.10, 6.1,
 * 6.12 and 7.2 print (Debian's linux-source 5.10.223, 6.1.192, 6.12.117 and
 * 7.2.13): each row, or the comment above a group of rows, cites the
 * function that prints the name, file names relative to drivers/ (virtio)
 * or drivers/net/ethernet/, and the kernels, all four when none are named.
 * Rows without a citation are made up to test the matcher itself.
 * docs/irq-names.md has the table of every driver's names per kernel.
 */
#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "kselftest_harness.h"

#define ID(_ifname, _driver, _parent, _bus_addr)			\
	{ .ifname = (_ifname), .driver = (_driver),			\
	  .parent = (_parent), .bus_addr = (_bus_addr) }
/* The devices of the table */
#define VIRTIO3		ID("eth0", "virtio_net", "virtio3", "0000:00:03.0")
#define VIRTIO1		ID("eth0", "virtio_net", "virtio1", "0000:00:02.0")
#define VIRTIO10	ID("eth1", "virtio_net", "virtio10", "0000:00:0b.0")
#define VIRTIO_NOBUS	ID("eth0", "virtio_net", "virtio3", NULL)
#define I40E		ID("ens1f0", "i40e", "0000:3b:00.0", "0000:3b:00.0")
#define I40E_NOBUS	ID("ens1f0", "i40e", "0000:3b:00.0", NULL)
#define ICE		ID("ens2f0", "ice", "0000:5e:00.0", "0000:5e:00.0")
#define IAVF		ID("eth1", "iavf", "0000:3b:02.0", "0000:3b:02.0")
#define IXGBE		ID("eth0", "ixgbe", "0000:01:00.0", "0000:01:00.0")
#define IXGBEVF		ID("eth3", "ixgbevf", "0000:01:10.0", "0000:01:10.0")
#define IGB		ID("eno1", "igb", "0000:02:00.0", "0000:02:00.0")
#define IGB_LONG	ID("enx525400123456", "igb", "0000:02:00.0", "0000:02:00.0")
#define IGBVF		ID("eth4", "igbvf", "0000:02:10.0", "0000:02:10.0")
#define IGC		ID("enp3s0", "igc", "0000:03:00.0", "0000:03:00.0")
#define FM10K		ID("eth5", "fm10k", "0000:04:00.0", "0000:04:00.0")
#define E1000E		ID("eth0", "e1000e", "0000:00:02.0", "0000:00:02.0")
/* 10 characters: the longest name e1000e puts in "%.14s-rx-0" */
#define E1000E_10	ID("enp0s31f6x", "e1000e", "0000:00:1f.6", "0000:00:1f.6")
/* 15 characters (IFNAMSIZ - 1): e1000e names its vectors plain "<ifname>" */
#define E1000E_15	ID("enx525400123456", "e1000e", "0000:00:02.0", "0000:00:02.0")
#define MLX5		ID("ens3f0np0", "mlx5_core", "0000:af:00.0", "0000:af:00.0")
#define MLX5_NOBUS	ID("ens3f0np0", "mlx5_core", "0000:af:00.0", NULL)
#define MLX5_SF		ID("enp175s0f0s2", "mlx5_core.sf", "mlx5_core.sf.2", "0000:af:00.0")
#define BNXT		ID("ens4f0np0", "bnxt_en", "0000:17:00.0", "0000:17:00.0")
/* With 8 active rx queues: its tx vectors are numbered from 8 */
#define BNXT_RX8	{ .ifname = "ens4f0np0", .driver = "bnxt_en", .parent = "0000:17:00.0", \
			  .bus_addr = "0000:17:00.0", .rx_queues = 8 }
/* 9, 12 and 11 characters: 17-character names, whole or cut (5.10, 6.1) */
#define BNXT12		ID("enp94s0f0np0", "bnxt_en", "0000:5e:00.0", "0000:5e:00.0")
#define BNXT11		ID("enp4s0f0np0", "bnxt_en", "0000:04:00.0", "0000:04:00.0")
#define ENA		ID("ens5", "ena", "0000:00:05.0", "0000:00:05.0")
#define ENA_NOBUS	ID("ens5", "ena", "0000:00:05.0", NULL)
#define ENA_LONG	ID("enx525400123456", "ena", "0000:00:05.0", "0000:00:05.0")
#define IDPF		ID("ens6", "idpf", "0000:18:00.0", "0000:18:00.0")
#define IDPF_LONG	ID("enx525400123456", "idpf", "0000:18:00.0", "0000:18:00.0")
/* gve before register_netdev is "eth%d"; the netdev is named later */
#define GVE		ID("ens4", "gve", "0000:00:04.0", "0000:00:04.0")
/* An Azure VF: domain of four digits */
#define MANA		ID("enP30832s1", "mana", "7870:00:00.0", "7870:00:00.0")
/* Renamed while up (6.12, 7.2 allow it): the names keep "eth0" */
#define IXGBE_RENAMED	ID("lan0", "ixgbe", "0000:01:00.0", "0000:01:00.0")
#define I40E_RENAMED	ID("lan1", "i40e", "0000:3b:00.0", "0000:3b:00.0")
#define I40E_LONG	ID("enx525400123456", "i40e", "0000:3b:00.0", "0000:3b:00.0")
#define ICE_LONG	ID("enx525400123456", "ice", "0000:5e:00.0", "0000:5e:00.0")
#define IAVF_LONG	ID("enx525400123456", "iavf", "0000:3b:02.0", "0000:3b:02.0")
#define IXGBE_LONG	ID("enx525400123456", "ixgbe", "0000:01:00.0", "0000:01:00.0")
/* 10 characters: still "-rx-0"; 15: only the bare ifname */
#define IGBVF_10	ID("enp2s16f0x", "igbvf", "0000:02:10.0", "0000:02:10.0")
#define IGBVF_15	ID("enx525400123457", "igbvf", "0000:02:10.0", "0000:02:10.0")
#define OTHER		ID("eth2", "other_nic", "0000:06:00.0", "0000:06:00.0")
#define NODRIVER	ID("eth3", NULL, "0000:07:00.0", "0000:07:00.0")
#define NOIFNAME	ID(NULL, "ixgbe", "0000:01:00.0", "0000:01:00.0")
#define EMPTY		ID("", "", "", "")

/* The expected answers */
#define QUEUE(_kind, _queue)						\
	.is_queue = true, .kind = NICTL_QUEUE_KIND_##_kind, .queue = (_queue)
#define NOT_QUEUE	.is_queue = false

FIXTURE(classify) {
};

FIXTURE_VARIANT(classify) {
	struct nictl_irq_ident id;
	const char *name;
	bool is_queue;
	enum nictl_queue_kind kind;
	unsigned int queue;
};

FIXTURE_SETUP(classify)
{
}

FIXTURE_TEARDOWN(classify)
{
}

/*
 * virtio_net: named after the virtio device, "virtioN", so a renamed netdev
 * changes nothing. "%s-%s", dev_name, vq name: virtio_pci_common.c:
 * vp_find_vqs_msix (5.10, 6.1), vp_find_one_vq_msix (6.12, 7.2); the vq
 * names "input.%u", "output.%u": virtio_net.c:virtnet_find_vqs.
 */
FIXTURE_VARIANT_ADD(classify, virtio_input_0) {
	.id = VIRTIO3, .name = "virtio3-input.0", QUEUE(RX, 0) };
FIXTURE_VARIANT_ADD(classify, virtio_input_15) {
	.id = VIRTIO3, .name = "virtio3-input.15", QUEUE(RX, 15) };
FIXTURE_VARIANT_ADD(classify, virtio_output_0) {
	.id = VIRTIO3, .name = "virtio3-output.0", QUEUE(TX, 0) };
FIXTURE_VARIANT_ADD(classify, virtio_output_7) {
	.id = VIRTIO3, .name = "virtio3-output.7", QUEUE(TX, 7) };
FIXTURE_VARIANT_ADD(classify, virtio_no_bus_addr) {
	.id = VIRTIO_NOBUS, .name = "virtio3-input.2", QUEUE(RX, 2) };
/* virtio_pci_common.c:vp_request_msix_vectors "%s-config" */
FIXTURE_VARIANT_ADD(classify, virtio_config) {
	.id = VIRTIO3, .name = "virtio3-config", NOT_QUEUE };
/* virtio_net.c:virtnet_find_vqs "control" */
FIXTURE_VARIANT_ADD(classify, virtio_control) {
	.id = VIRTIO3, .name = "virtio3-control", NOT_QUEUE };
/* virtio_pci_common.c:vp_request_msix_vectors "%s-virtqueues" */
FIXTURE_VARIANT_ADD(classify, virtio_virtqueues) {
	.id = VIRTIO3, .name = "virtio3-virtqueues", NOT_QUEUE };
/* virtio_pci_common.c:vp_find_vqs_intx, dev_name */
FIXTURE_VARIANT_ADD(classify, virtio_intx) {
	.id = VIRTIO3, .name = "virtio3", NOT_QUEUE };
/* virtio_pci_common.c:vp_find_vqs_msix names the admin vq "avq.%u" (6.12, 7.2) */
FIXTURE_VARIANT_ADD(classify, virtio_admin_vq) {
	.id = VIRTIO3, .name = "virtio3-avq.1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio_other_device) {
	.id = VIRTIO3, .name = "virtio4-input.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio1_name_on_virtio10) {
	.id = VIRTIO10, .name = "virtio1-input.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio10_name_on_virtio1) {
	.id = VIRTIO1, .name = "virtio10-input.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio10_output_3) {
	.id = VIRTIO10, .name = "virtio10-output.3", QUEUE(TX, 3) };
FIXTURE_VARIANT_ADD(classify, virtio_ifname_not_parent) {
	.id = VIRTIO3, .name = "eth0-input.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio_no_digits) {
	.id = VIRTIO3, .name = "virtio3-input.", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio_no_dot) {
	.id = VIRTIO3, .name = "virtio3-input0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio_leading_zero) {
	.id = VIRTIO3, .name = "virtio3-input.01", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio_plus_sign) {
	.id = VIRTIO3, .name = "virtio3-input.+1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, virtio_minus_sign) {
	.id = VIRTIO3, .name = "virtio3-output.-1", NOT_QUEUE };

/*
 * i40e / ice / iavf: "<driver>-<ifname>-TxRx-N" ("%s-%s-%d", basename
 * "%s-%s" from i40e_main.c:i40e_vsi_open and ice_main.c:ice_vsi_open;
 * i40e_main.c:i40e_vsi_request_irq_msix, ice_main.c:ice_vsi_req_irq_msix)
 */
FIXTURE_VARIANT_ADD(classify, i40e_txrx_0) {
	.id = I40E, .name = "i40e-ens1f0-TxRx-0", QUEUE(COMBINED, 0) };
FIXTURE_VARIANT_ADD(classify, i40e_txrx_63) {
	.id = I40E, .name = "i40e-ens1f0-TxRx-63", QUEUE(COMBINED, 63) };
FIXTURE_VARIANT_ADD(classify, i40e_rx_2) {
	.id = I40E, .name = "i40e-ens1f0-rx-2", QUEUE(RX, 2) };
FIXTURE_VARIANT_ADD(classify, i40e_tx_2) {
	.id = I40E, .name = "i40e-ens1f0-tx-2", QUEUE(TX, 2) };
FIXTURE_VARIANT_ADD(classify, i40e_no_bus_addr_queue) {
	.id = I40E_NOBUS, .name = "i40e-ens1f0-TxRx-1", QUEUE(COMBINED, 1) };
/* 15 characters: the 32-byte buffers hold "i40e-<15>-TxRx-NNNN" whole */
FIXTURE_VARIANT_ADD(classify, i40e_long_ifname) {
	.id = I40E_LONG, .name = "i40e-enx525400123456-TxRx-63", QUEUE(COMBINED, 63) };
/* Renamed while up: the names keep the old ifname until the next open */
FIXTURE_VARIANT_ADD(classify, i40e_renamed_old_name) {
	.id = I40E_RENAMED, .name = "i40e-ens1f0-TxRx-0", NOT_QUEUE };
/* i40e_main.c:i40e_probe "%s-%s:misc" */
FIXTURE_VARIANT_ADD(classify, i40e_misc) {
	.id = I40E, .name = "i40e-0000:3b:00.0:misc", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, i40e_misc_no_bus_addr) {
	.id = I40E_NOBUS, .name = "i40e-0000:3b:00.0:misc", NOT_QUEUE };
/* i40e_main.c:i40e_vsi_open "%s-%s:fdir", then i40e_vsi_request_irq_msix */
FIXTURE_VARIANT_ADD(classify, i40e_fdir) {
	.id = I40E, .name = "i40e-0000:3b:00.0:fdir", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, i40e_fdir_queue_vector) {
	.id = I40E, .name = "i40e-0000:3b:00.0:fdir-TxRx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, i40e_other_function_misc) {
	.id = I40E, .name = "i40e-0000:3b:00.1:misc", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, i40e_other_interface) {
	.id = I40E, .name = "i40e-ens1f1-TxRx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, i40e_other_driver_prefix) {
	.id = I40E, .name = "ice-ens1f0-TxRx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, i40e_bare_ifname) {
	.id = I40E, .name = "ens1f0", NOT_QUEUE };
/* ice_main.c:ice_vsi_req_irq_msix, basename from ice_vsi_open */
FIXTURE_VARIANT_ADD(classify, ice_txrx_5) {
	.id = ICE, .name = "ice-ens2f0-TxRx-5", QUEUE(COMBINED, 5) };
FIXTURE_VARIANT_ADD(classify, ice_rx_1) {
	.id = ICE, .name = "ice-ens2f0-rx-1", QUEUE(RX, 1) };
FIXTURE_VARIANT_ADD(classify, ice_long_ifname) {
	.id = ICE_LONG, .name = "ice-enx525400123456-TxRx-255", QUEUE(COMBINED, 255) };
/* ice_main.c:ice_req_irq_msix_misc "%s-%s:misc" */
FIXTURE_VARIANT_ADD(classify, ice_misc) {
	.id = ICE, .name = "ice-0000:5e:00.0:misc", NOT_QUEUE };
/* ice_main.c:ice_vsi_open_ctrl "%s-%s:ctrl", then ice_vsi_req_irq_msix */
FIXTURE_VARIANT_ADD(classify, ice_ctrl) {
	.id = ICE, .name = "ice-0000:5e:00.0:ctrl", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, ice_ctrl_queue_vector) {
	.id = ICE, .name = "ice-0000:5e:00.0:ctrl-TxRx-0", NOT_QUEUE };
/* ice_main.c:ice_req_irq_msix_misc "%s-%s:ll_ts" (6.12, 7.2) */
FIXTURE_VARIANT_ADD(classify, ice_ll_ts) {
	.id = ICE, .name = "ice-0000:5e:00.0:ll_ts", NOT_QUEUE };
/* iavf_main.c:iavf_request_traffic_irqs "iavf-%s-TxRx-%d" (5.10), "%u" (6.1+) */
FIXTURE_VARIANT_ADD(classify, iavf_txrx_3) {
	.id = IAVF, .name = "iavf-eth1-TxRx-3", QUEUE(COMBINED, 3) };
FIXTURE_VARIANT_ADD(classify, iavf_tx_0) {
	.id = IAVF, .name = "iavf-eth1-tx-0", QUEUE(TX, 0) };
/* q_vector->name[IFNAMSIZ + 15]: 30 characters, "iavf-<15>-TxRx-255" is 29 */
FIXTURE_VARIANT_ADD(classify, iavf_long_ifname) {
	.id = IAVF_LONG, .name = "iavf-enx525400123456-TxRx-255", QUEUE(COMBINED, 255) };
/* iavf_main.c:iavf_request_misc_irq "iavf-%s:mbx" */
FIXTURE_VARIANT_ADD(classify, iavf_mbx) {
	.id = IAVF, .name = "iavf-0000:3b:02.0:mbx", NOT_QUEUE };

/*
 * ixgbe / igb / igc / ixgbevf / igbvf / fm10k: "<ifname>-TxRx-N", the other
 * vector plain netdev->name: ixgbe_main.c:ixgbe_request_msix_irqs,
 * igb_main.c:igb_request_msix, igc_main.c:igc_request_msix,
 * ixgbevf_main.c:ixgbevf_request_msix_irqs, fm10k_pci.c:fm10k_qv_request_irq
 */
FIXTURE_VARIANT_ADD(classify, ixgbe_txrx_7) {
	.id = IXGBE, .name = "eth0-TxRx-7", QUEUE(COMBINED, 7) };
FIXTURE_VARIANT_ADD(classify, ixgbe_rx_1) {
	.id = IXGBE, .name = "eth0-rx-1", QUEUE(RX, 1) };
FIXTURE_VARIANT_ADD(classify, ixgbe_tx_1) {
	.id = IXGBE, .name = "eth0-tx-1", QUEUE(TX, 1) };
FIXTURE_VARIANT_ADD(classify, ixgbe_other) {
	.id = IXGBE, .name = "eth0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, ixgbe_other_interface) {
	.id = IXGBE, .name = "eth1-TxRx-0", NOT_QUEUE };
/* q_vector->name[IFNAMSIZ + 9]: 24 characters, "<15>-TxRx-63" is 23 */
FIXTURE_VARIANT_ADD(classify, ixgbe_long_ifname) {
	.id = IXGBE_LONG, .name = "enx525400123456-TxRx-63", QUEUE(COMBINED, 63) };
/*
 * Renamed while up (6.12, 7.2): the queue vectors keep the name written at
 * open; the other vector's name is netdev->name itself, renamed with it.
 */
FIXTURE_VARIANT_ADD(classify, ixgbe_renamed_old_queue_name) {
	.id = IXGBE_RENAMED, .name = "eth0-TxRx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, ixgbe_renamed_other) {
	.id = IXGBE_RENAMED, .name = "lan0", NOT_QUEUE };
/* After the next down and up, ixgbe_open names them anew */
FIXTURE_VARIANT_ADD(classify, ixgbe_renamed_reopened) {
	.id = IXGBE_RENAMED, .name = "lan0-TxRx-0", QUEUE(COMBINED, 0) };
FIXTURE_VARIANT_ADD(classify, ixgbevf_txrx_1) {
	.id = IXGBEVF, .name = "eth3-TxRx-1", QUEUE(COMBINED, 1) };
/* igb_main.c:igb_request_msix: the number is the ring's queue_index */
FIXTURE_VARIANT_ADD(classify, igb_txrx_0) {
	.id = IGB, .name = "eno1-TxRx-0", QUEUE(COMBINED, 0) };
FIXTURE_VARIANT_ADD(classify, igb_rx_3) {
	.id = IGB, .name = "eno1-rx-3", QUEUE(RX, 3) };
FIXTURE_VARIANT_ADD(classify, igb_tx_3) {
	.id = IGB, .name = "eno1-tx-3", QUEUE(TX, 3) };
FIXTURE_VARIANT_ADD(classify, igb_unused) {
	.id = IGB, .name = "eno1-unused", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, igb_other) {
	.id = IGB, .name = "eno1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, igb_longer_ifname) {
	.id = IGB, .name = "eno10-TxRx-0", NOT_QUEUE };
/* sprintf into name[IFNAMSIZ + 9]: "<15>-TxRx-7" fits (igb has 8 queues) */
FIXTURE_VARIANT_ADD(classify, igb_long_ifname) {
	.id = IGB_LONG, .name = "enx525400123456-TxRx-7", QUEUE(COMBINED, 7) };
FIXTURE_VARIANT_ADD(classify, igb_cut_name_is_not_igb) {
	.id = IGB_LONG, .name = "enx52540012345-rx-0", NOT_QUEUE };
/* igbvf/netdev.c:igbvf_request_msix "%s-rx-0", "%s-tx-0" below 11 characters */
FIXTURE_VARIANT_ADD(classify, igbvf_rx_0) {
	.id = IGBVF, .name = "eth4-rx-0", QUEUE(RX, 0) };
FIXTURE_VARIANT_ADD(classify, igbvf_10_chars_tx) {
	.id = IGBVF_10, .name = "enp2s16f0x-tx-0", QUEUE(TX, 0) };
/* ... and plain "<ifname>" for both (memcpy) from 11 characters on */
FIXTURE_VARIANT_ADD(classify, igbvf_15_chars_bare) {
	.id = IGBVF_15, .name = "enx525400123457", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, igc_txrx_3) {
	.id = IGC, .name = "enp3s0-TxRx-3", QUEUE(COMBINED, 3) };
FIXTURE_VARIANT_ADD(classify, igc_other) {
	.id = IGC, .name = "enp3s0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, fm10k_txrx_2) {
	.id = FM10K, .name = "eth5-TxRx-2", QUEUE(COMBINED, 2) };
/* fm10k_pci.c:fm10k_mbx_request_irq_pf, at probe: netdev->name itself */
FIXTURE_VARIANT_ADD(classify, fm10k_mbx) {
	.id = FM10K, .name = "eth5", NOT_QUEUE };

/*
 * e1000e/netdev.c:e1000_request_msix: "%.14s-rx-0", "%.14s-tx-0" for
 * ifnames of 10 characters or fewer, plain "<ifname>" for both (memcpy)
 * from 11 on; the other vector, and e1000_request_irq's MSI / INTx, plain
 * netdev->name.
 */
FIXTURE_VARIANT_ADD(classify, e1000e_rx) {
	.id = E1000E, .name = "eth0-rx-0", QUEUE(RX, 0) };
FIXTURE_VARIANT_ADD(classify, e1000e_tx) {
	.id = E1000E, .name = "eth0-tx-0", QUEUE(TX, 0) };
FIXTURE_VARIANT_ADD(classify, e1000e_other) {
	.id = E1000E, .name = "eth0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, e1000e_10_chars_rx) {
	.id = E1000E_10, .name = "enp0s31f6x-rx-0", QUEUE(RX, 0) };
FIXTURE_VARIANT_ADD(classify, e1000e_15_chars_bare) {
	.id = E1000E_15, .name = "enx525400123456", NOT_QUEUE };
/* Names no kernel prints: the precision would cut them, the guard never lets it */
FIXTURE_VARIANT_ADD(classify, e1000e_15_chars_cut_rx) {
	.id = E1000E_15, .name = "enx52540012345-rx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, e1000e_15_chars_cut_tx) {
	.id = E1000E_15, .name = "enx52540012345-tx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, e1000e_15_chars_cut_bare) {
	.id = E1000E_15, .name = "enx52540012345", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, e1000e_15_chars_cut_more) {
	.id = E1000E_15, .name = "enx5254001234-rx-0", NOT_QUEUE };

/* Queue number parsing */
FIXTURE_VARIANT_ADD(classify, parse_overflow) {
	.id = IXGBE, .name = "eth0-TxRx-99999999999", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_uint_max) {
	.id = IXGBE, .name = "eth0-TxRx-4294967295", QUEUE(COMBINED, 4294967295U) };
FIXTURE_VARIANT_ADD(classify, parse_uint_max_plus_1) {
	.id = IXGBE, .name = "eth0-TxRx-4294967296", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_trailing_garbage) {
	.id = IXGBE, .name = "eth0-rx-1x", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_trailing_space) {
	.id = IXGBE, .name = "eth0-rx-1 ", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_leading_garbage) {
	.id = IXGBE, .name = "eth0-rx-x1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_leading_space) {
	.id = IXGBE, .name = "eth0-rx- 1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_plus_sign) {
	.id = IXGBE, .name = "eth0-rx-+1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_minus_sign) {
	.id = IXGBE, .name = "eth0-rx--1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_leading_zero) {
	.id = IXGBE, .name = "eth0-rx-01", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_hex) {
	.id = IXGBE, .name = "eth0-rx-0x1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_no_number) {
	.id = IXGBE, .name = "eth0-TxRx-", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, parse_no_dash) {
	.id = IXGBE, .name = "eth0-TxRx", NOT_QUEUE };

/* Empty and missing strings */
FIXTURE_VARIANT_ADD(classify, empty_name) {
	.id = IXGBE, .name = "", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, null_name) {
	.id = IXGBE, .name = NULL, NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, empty_ident_dash_number) {
	.id = EMPTY, .name = "-TxRx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, empty_ident_number) {
	.id = EMPTY, .name = "-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, empty_ident_empty_name) {
	.id = EMPTY, .name = "", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, null_ifname) {
	.id = NOIFNAME, .name = "eth0-TxRx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, null_driver_generic) {
	.id = NODRIVER, .name = "eth3-TxRx-2", QUEUE(COMBINED, 2) };
FIXTURE_VARIANT_ADD(classify, null_driver_not_virtio) {
	.id = NODRIVER, .name = "virtio3-input.0", NOT_QUEUE };

/*
 * mlx5_core: "mlx5_comp<N>@pci:<bdf>" ("%s@pci:%s"), pci_irq.c:irq_set_name
 * from request_irqs (5.10) or mlx5_irq_alloc (6.1, 6.12, 7.2)
 */
FIXTURE_VARIANT_ADD(classify, mlx5_comp_0) {
	.id = MLX5, .name = "mlx5_comp0@pci:0000:af:00.0", QUEUE(COMBINED, 0) };
FIXTURE_VARIANT_ADD(classify, mlx5_comp_62) {
	.id = MLX5, .name = "mlx5_comp62@pci:0000:af:00.0", QUEUE(COMBINED, 62) };
FIXTURE_VARIANT_ADD(classify, mlx5_comp_other_function) {
	.id = MLX5, .name = "mlx5_comp0@pci:0000:af:00.1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mlx5_comp_no_bus_addr) {
	.id = MLX5_NOBUS, .name = "mlx5_comp0@pci:0000:af:00.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mlx5_comp_trailing_garbage) {
	.id = MLX5, .name = "mlx5_comp0@pci:0000:af:00.0x", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mlx5_comp_no_number) {
	.id = MLX5, .name = "mlx5_comp@pci:0000:af:00.0", NOT_QUEUE };
/* pci_irq.c:irq_set_name "mlx5_async" (5.10) */
FIXTURE_VARIANT_ADD(classify, mlx5_async_510) {
	.id = MLX5, .name = "mlx5_async@pci:0000:af:00.0", NOT_QUEUE };
/* pci_irq.c:irq_set_name "mlx5_async%d": the pool's last index (6.1) */
FIXTURE_VARIANT_ADD(classify, mlx5_async_61) {
	.id = MLX5, .name = "mlx5_async63@pci:0000:af:00.0", NOT_QUEUE };
/* pci_irq.c:irq_set_name "mlx5_async%d": index 0 (6.12, 7.2) */
FIXTURE_VARIANT_ADD(classify, mlx5_async) {
	.id = MLX5, .name = "mlx5_async0@pci:0000:af:00.0", NOT_QUEUE };
/* pci_irq.c:irq_set_name "mlx5_combined%d" (6.1, 6.12, 7.2) */
FIXTURE_VARIANT_ADD(classify, mlx5_combined) {
	.id = MLX5, .name = "mlx5_combined0@pci:0000:af:00.0", NOT_QUEUE };
/* pci_irq.c:irq_sf_set_name "%s%d", pool "mlx5_sf_comp"/"mlx5_sf_ctrl" (6.1, 6.12, 7.2) */
FIXTURE_VARIANT_ADD(classify, mlx5_sf_comp) {
	.id = MLX5, .name = "mlx5_sf_comp3@pci:0000:af:00.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mlx5_sf_ctrl) {
	.id = MLX5, .name = "mlx5_sf_ctrl0@pci:0000:af:00.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mlx5_sf_netdev_sf_comp) {
	.id = MLX5_SF, .name = "mlx5_sf_comp3@pci:0000:af:00.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mlx5_sf_netdev_pf_comp) {
	.id = MLX5_SF, .name = "mlx5_comp0@pci:0000:af:00.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mlx5_name_on_other_driver) {
	.id = IXGBE, .name = "mlx5_comp0@pci:0000:01:00.0", NOT_QUEUE };

/* bnxt_en: "<ifname>-TxRx-N", "-rx-N", "-tx-N", bnxt.c:bnxt_setup_msix */
FIXTURE_VARIANT_ADD(classify, bnxt_txrx_0) {
	.id = BNXT, .name = "ens4f0np0-TxRx-0", QUEUE(COMBINED, 0) };
FIXTURE_VARIANT_ADD(classify, bnxt_rx_3) {
	.id = BNXT, .name = "ens4f0np0-rx-3", QUEUE(RX, 3) };
/*
 * tx numbers follow the rx ones (bnxt.c:bnxt_setup_msix, 6.12 lines
 * 10904-10916): after `ethtool -L rx 8 tx 8`, "-tx-8" is tx queue 0 and
 * "-tx-15" tx queue 7; a tx number below the rx count is no queue.
 */
FIXTURE_VARIANT_ADD(classify, bnxt_tx_8_after_8_rx) {
	.id = BNXT_RX8, .name = "ens4f0np0-tx-8", QUEUE(TX, 0) };
FIXTURE_VARIANT_ADD(classify, bnxt_tx_15_after_8_rx) {
	.id = BNXT_RX8, .name = "ens4f0np0-tx-15", QUEUE(TX, 7) };
FIXTURE_VARIANT_ADD(classify, bnxt_rx_7_of_8) {
	.id = BNXT_RX8, .name = "ens4f0np0-rx-7", QUEUE(RX, 7) };
FIXTURE_VARIANT_ADD(classify, bnxt_tx_among_rx_numbers) {
	.id = BNXT_RX8, .name = "ens4f0np0-tx-3", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, bnxt_other_interface) {
	.id = BNXT, .name = "ens4f1np1-TxRx-0", NOT_QUEUE };
/*
 * bnxt.h:struct bnxt_irq name[IFNAMSIZ + 2] (5.10, 6.1): bnxt_setup_msix's
 * snprintf keeps 17 characters, so rx queues 1 and 10 to 19 of an
 * "enp94s0f0np0" are all "enp94s0f0np0-rx-1". One name reads as one queue;
 * telling the cut ones apart is discovery's (nictl_qirqs_drop_contested(),
 * qirq_test). name[IFNAMSIZ + BNXT_IRQ_NAME_EXTRA] (6.12, 7.2): 32
 * characters, never cut.
 */
FIXTURE_VARIANT_ADD(classify, bnxt_17_chars_rx_1) {
	.id = BNXT12, .name = "enp94s0f0np0-rx-1", QUEUE(RX, 1) };
FIXTURE_VARIANT_ADD(classify, bnxt_17_chars_txrx_12) {
	.id = BNXT, .name = "ens4f0np0-TxRx-12", QUEUE(COMBINED, 12) };
FIXTURE_VARIANT_ADD(classify, bnxt_uncut_txrx_9) {
	.id = BNXT, .name = "ens4f0np0-TxRx-9", QUEUE(COMBINED, 9) };
FIXTURE_VARIANT_ADD(classify, bnxt_uncut_rx_99) {
	.id = BNXT, .name = "ens4f0np0-rx-99", QUEUE(RX, 99) };
FIXTURE_VARIANT_ADD(classify, bnxt_18_chars_rx_12) {
	.id = BNXT12, .name = "enp94s0f0np0-rx-12", QUEUE(RX, 12) };
/* 11 characters: cut, every TxRx vector is "enp4s0f0np0-TxRx-" (5.10, 6.1) */
FIXTURE_VARIANT_ADD(classify, bnxt_cut_txrx_no_number) {
	.id = BNXT11, .name = "enp4s0f0np0-TxRx-", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, bnxt_11_chars_txrx_0) {
	.id = BNXT11, .name = "enp4s0f0np0-TxRx-0", QUEUE(COMBINED, 0) };

/* ena: ena_netdev.c:ena_setup_io_intr "%s-Tx-Rx-%d" */
FIXTURE_VARIANT_ADD(classify, ena_txrx_0) {
	.id = ENA, .name = "ens5-Tx-Rx-0", QUEUE(COMBINED, 0) };
FIXTURE_VARIANT_ADD(classify, ena_txrx_31) {
	.id = ENA, .name = "ens5-Tx-Rx-31", QUEUE(COMBINED, 31) };
/* name[ENA_IRQNAME_SIZE], 40 bytes: never cut */
FIXTURE_VARIANT_ADD(classify, ena_long_ifname) {
	.id = ENA_LONG, .name = "enx525400123456-Tx-Rx-31", QUEUE(COMBINED, 31) };
/* ena_netdev.c:ena_setup_mgmnt_intr "ena-mgmnt@pci:%s" */
FIXTURE_VARIANT_ADD(classify, ena_mgmnt) {
	.id = ENA, .name = "ena-mgmnt@pci:0000:00:05.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, ena_mgmnt_no_bus_addr) {
	.id = ENA_NOBUS, .name = "ena-mgmnt@pci:0000:00:05.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, ena_other_interface) {
	.id = ENA, .name = "ens50-Tx-Rx-0", NOT_QUEUE };

/*
 * idpf (6.12, 7.2): idpf_txrx.c:idpf_vport_intr_req_irq "%s-%s-%s-%d",
 * driver, ifname, "TxRx"/"Rx"/"Tx", vector; kasprintf, never cut
 */
FIXTURE_VARIANT_ADD(classify, idpf_txrx_0) {
	.id = IDPF, .name = "idpf-ens6-TxRx-0", QUEUE(COMBINED, 0) };
FIXTURE_VARIANT_ADD(classify, idpf_rx_2) {
	.id = IDPF, .name = "idpf-ens6-Rx-2", QUEUE(RX, 2) };
FIXTURE_VARIANT_ADD(classify, idpf_tx_3) {
	.id = IDPF, .name = "idpf-ens6-Tx-3", QUEUE(TX, 3) };
FIXTURE_VARIANT_ADD(classify, idpf_long_ifname) {
	.id = IDPF_LONG, .name = "idpf-enx525400123456-TxRx-127", QUEUE(COMBINED, 127) };
FIXTURE_VARIANT_ADD(classify, idpf_other_vport) {
	.id = IDPF, .name = "idpf-ens7-TxRx-0", NOT_QUEUE };
/* idpf_lib.c:idpf_mb_intr_req_irq "%s-%s-%d", driver, "Mailbox", 0 */
FIXTURE_VARIANT_ADD(classify, idpf_mailbox) {
	.id = IDPF, .name = "idpf-Mailbox-0", NOT_QUEUE };

/*
 * gve: gve_main.c:gve_alloc_notify_blocks, at probe, "%s-mgmnt" and
 * "%s-ntfy-block.%d" with dev->name: "eth%d" before register_netdev, the
 * ifname after a reset (5.10, 6.1); "gve-mgmnt@pci:%s" and
 * "gve-ntfy-blk%d@pci:%s" (6.12, 7.2). A block is a tx or an rx queue by a
 * split no name tells: never a queue.
 */
FIXTURE_VARIANT_ADD(classify, gve_61_block_template) {
	.id = GVE, .name = "eth%d-ntfy-block.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, gve_61_mgmnt_template) {
	.id = GVE, .name = "eth%d-mgmnt", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, gve_61_block_after_reset) {
	.id = GVE, .name = "ens4-ntfy-block.3", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, gve_61_mgmnt_after_reset) {
	.id = GVE, .name = "ens4-mgmnt", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, gve_612_block) {
	.id = GVE, .name = "gve-ntfy-blk3@pci:0000:00:04.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, gve_612_mgmnt) {
	.id = GVE, .name = "gve-mgmnt@pci:0000:00:04.0", NOT_QUEUE };
/* Not a gve name: the generic rules would take it, the gve entry does not */
FIXTURE_VARIANT_ADD(classify, gve_generic_shape) {
	.id = GVE, .name = "ens4-rx-3", NOT_QUEUE };

/*
 * mana: gdma_main.c:mana_gd_setup_irqs "mana_hwc@pci:%s", "mana_q%d@pci:%s"
 * (6.1, 6.12); gdma_main.c:mana_gd_get_gic "mana_msi%d@pci:%s" (7.2)
 */
FIXTURE_VARIANT_ADD(classify, mana_hwc) {
	.id = MANA, .name = "mana_hwc@pci:7870:00:00.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mana_61_q0) {
	.id = MANA, .name = "mana_q0@pci:7870:00:00.0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, mana_72_msi1) {
	.id = MANA, .name = "mana_msi1@pci:7870:00:00.0", NOT_QUEUE };

/* Generic rules, any driver: "<ifname>-N", "<ifname>-<middle>-N" */
FIXTURE_VARIANT_ADD(classify, generic_number_only) {
	.id = OTHER, .name = "eth2-3", QUEUE(COMBINED, 3) };
FIXTURE_VARIANT_ADD(classify, generic_fp) {
	.id = OTHER, .name = "eth2-fp-1", QUEUE(COMBINED, 1) };
FIXTURE_VARIANT_ADD(classify, generic_rx) {
	.id = OTHER, .name = "eth2-rx-4", QUEUE(RX, 4) };
FIXTURE_VARIANT_ADD(classify, generic_rx_mixed_case) {
	.id = OTHER, .name = "eth2-Rx-4", QUEUE(RX, 4) };
FIXTURE_VARIANT_ADD(classify, generic_rx_upper_case) {
	.id = OTHER, .name = "eth2-RX-4", QUEUE(RX, 4) };
FIXTURE_VARIANT_ADD(classify, generic_tx) {
	.id = OTHER, .name = "eth2-tx-5", QUEUE(TX, 5) };
FIXTURE_VARIANT_ADD(classify, generic_tx_upper_case) {
	.id = OTHER, .name = "eth2-TX-5", QUEUE(TX, 5) };
FIXTURE_VARIANT_ADD(classify, generic_rxtx) {
	.id = OTHER, .name = "eth2-rxtx-6", QUEUE(COMBINED, 6) };
FIXTURE_VARIANT_ADD(classify, generic_txrx_mixed_case) {
	.id = OTHER, .name = "eth2-TxRx-6", QUEUE(COMBINED, 6) };
FIXTURE_VARIANT_ADD(classify, generic_tx_dash_rx) {
	.id = OTHER, .name = "eth2-Tx-Rx-7", QUEUE(COMBINED, 7) };
FIXTURE_VARIANT_ADD(classify, generic_rx_queue_word) {
	.id = OTHER, .name = "eth2-rx-q-8", QUEUE(RX, 8) };
FIXTURE_VARIANT_ADD(classify, generic_misc) {
	.id = OTHER, .name = "eth2-misc-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_async) {
	.id = OTHER, .name = "eth2-Async-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_bus_addr) {
	.id = OTHER, .name = "eth2-0000:06:00.0-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_empty_token) {
	.id = OTHER, .name = "eth2--rx-1", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_longer_ifname) {
	.id = OTHER, .name = "eth20-rx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_ifname_not_first) {
	.id = OTHER, .name = "xeth2-rx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_ifname_inside) {
	.id = OTHER, .name = "foo-eth2-rx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_ifname_case) {
	.id = OTHER, .name = "ETH2-rx-0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_bare_ifname) {
	.id = OTHER, .name = "eth2", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_no_number) {
	.id = OTHER, .name = "eth2-rx", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_no_dash_before_number) {
	.id = OTHER, .name = "eth2-rx0", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_trailing_dash) {
	.id = OTHER, .name = "eth2-rx-0-", NOT_QUEUE };
FIXTURE_VARIANT_ADD(classify, generic_on_known_driver) {
	.id = IXGBE, .name = "eth0-fp-2", QUEUE(COMBINED, 2) };

static const char *show(const char *s)
{
	return s ? s : "(null)";
}

static const char *kind_name(enum nictl_queue_kind kind)
{
	switch (kind) {
	case NICTL_QUEUE_KIND_RX:
		return "rx";
	case NICTL_QUEUE_KIND_TX:
		return "tx";
	case NICTL_QUEUE_KIND_COMBINED:
		return "combined";
	default:
		return "(unset)";
	}
}

/* Typed, so that the harness's EXPECT_EQ compares like with like */
#define KIND(_kind)	((enum nictl_queue_kind)NICTL_QUEUE_KIND_##_kind)
#define UNSET_KIND	((enum nictl_queue_kind)__NICTL_QUEUE_KIND_MAX)
#define UNSET_QUEUE	0xdeadbeefU

TEST_F(classify, row)
{
	enum nictl_queue_kind kind = UNSET_KIND;
	unsigned int queue = UNSET_QUEUE;
	bool got;

	got = nictl_classify_irq(&variant->id, variant->name, &kind, &queue);

	ASSERT_EQ(variant->is_queue, got) {
		TH_LOG("\"%s\" on if=%s drv=%s parent=%s bus=%s: want %s, got %s %s %u",
		       show(variant->name), show(variant->id.ifname),
		       show(variant->id.driver), show(variant->id.parent),
		       show(variant->id.bus_addr),
		       variant->is_queue ? "a queue" : "not a queue",
		       got ? "queue" : "not a queue", kind_name(kind), queue);
	}
	if (variant->is_queue) {
		EXPECT_EQ(variant->kind, kind) {
			TH_LOG("\"%s\": want kind %s, got %s", variant->name,
			       kind_name(variant->kind), kind_name(kind));
		}
		EXPECT_EQ(variant->queue, queue) {
			TH_LOG("\"%s\": want queue %u, got %u", variant->name,
			       variant->queue, queue);
		}
	} else {
		/* A "no" leaves the outputs alone. */
		EXPECT_EQ(UNSET_KIND, kind);
		EXPECT_EQ(UNSET_QUEUE, queue);
	}
}

TEST(null_ident)
{
	enum nictl_queue_kind kind = UNSET_KIND;
	unsigned int queue = UNSET_QUEUE;

	EXPECT_FALSE(nictl_classify_irq(NULL, "eth0-TxRx-0", &kind, &queue));
	EXPECT_FALSE(nictl_classify_irq(NULL, NULL, &kind, &queue));
	EXPECT_EQ(UNSET_KIND, kind);
	EXPECT_EQ(UNSET_QUEUE, queue);
}

TEST(null_outputs)
{
	const struct nictl_irq_ident id = IXGBE;
	enum nictl_queue_kind kind = UNSET_KIND;
	unsigned int queue = UNSET_QUEUE;

	EXPECT_TRUE(nictl_classify_irq(&id, "eth0-rx-3", NULL, NULL));
	EXPECT_TRUE(nictl_classify_irq(&id, "eth0-rx-3", &kind, NULL));
	EXPECT_EQ(KIND(RX), kind);
	EXPECT_TRUE(nictl_classify_irq(&id, "eth0-rx-3", NULL, &queue));
	EXPECT_EQ(3U, queue);
	EXPECT_FALSE(nictl_classify_irq(&id, "eth0", NULL, NULL));
}

/*
 * NICTL_CLASSIFY_NAME_MAX - 1 characters are classified, NICTL_CLASSIFY_NAME_MAX
 * are not, and nothing reads past the name's NUL.
 */
TEST(name_length_limit)
{
	const struct nictl_irq_ident id = OTHER;
	char name[NICTL_CLASSIFY_NAME_MAX + 16];
	enum nictl_queue_kind kind;
	unsigned int queue;
	size_t len;

	for (len = NICTL_CLASSIFY_NAME_MAX - 1; len <= NICTL_CLASSIFY_NAME_MAX; len++) {
		/* "eth2-" "aaa...a" "-rx-9" */
		memset(name, 'a', sizeof(name));
		memcpy(name, "eth2-", 5);
		memcpy(name + len - 5, "-rx-9", 5);
		name[len] = '\0';
		kind = UNSET_KIND;
		queue = UNSET_QUEUE;
		if (len < NICTL_CLASSIFY_NAME_MAX) {
			ASSERT_TRUE(nictl_classify_irq(&id, name, &kind, &queue))
				TH_LOG("length %zu", len);
			EXPECT_EQ(KIND(RX), kind);
			EXPECT_EQ(9U, queue);
		} else {
			EXPECT_FALSE(nictl_classify_irq(&id, name, &kind, &queue))
				TH_LOG("length %zu", len);
		}
	}
}

/*
 * Worst cases for the %* search: long names that almost match. They must
 * all be refused, quickly (the harness's timeout catches a runaway).
 */
TEST(adversarial_names)
{
	static const struct nictl_irq_ident ids[] = {
		OTHER, IXGBE, I40E, MLX5, VIRTIO3, ENA,
	};
	char name[NICTL_CLASSIFY_NAME_MAX];
	unsigned int i, round;

	for (round = 0; round < 4; round++) {
		size_t len = sizeof(name) - 1;

		switch (round) {
		case 0:		/* "eth2-" then dashes */
			memset(name, '-', len);
			memcpy(name, "eth2", 4);
			break;
		case 1:		/* dashes and digits, no end */
			for (i = 0; i < len; i++)
				name[i] = i % 2 ? '-' : '1';
			memcpy(name, "eth2-", 5);
			name[len - 1] = 'x';
			break;
		case 2:		/* the Intel per-function prefix, then junk */
			memset(name, ':', len);
			memcpy(name, "i40e-0000:3b:00.0:", 18);
			name[len - 1] = '-';
			break;
		default:	/* digits that overflow */
			memset(name, '9', len);
			memcpy(name, "eth2-rx-", 8);
			break;
		}
		name[len] = '\0';
		for (i = 0; i < ARRAY_SIZE(ids); i++) {
			bool got = nictl_classify_irq(&ids[i], name, NULL, NULL);

			/* round 2 is "not a queue" for i40e by its catch-all */
			EXPECT_FALSE(got) TH_LOG("round %u, device %u", round, i);
		}
	}
}

TEST_HARNESS_MAIN
