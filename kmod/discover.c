// SPDX-License-Identifier: GPL-2.0
/*
 * Finding a device's queue IRQs: the PCI function's vectors classified by name come first, and
 * the queue -> NAPI -> IRQ links (6.8+) fill in the queues no name covers. A link only says which
 * IRQ schedules the queue's NAPI (e1000e links its TX queue to its RX vector's NAPI, yet TX
 * completions come on "<ifname>-tx-0").
 */
#include <linux/msi.h>
#include <linux/pci.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "classify.h"
#include "fault.h"
#include "nictl.h"

/*
 * Parts of the PCI function above them, using its vectors: virtio, auxiliary (mlx5 SF, ice RDMA).
 * Not USB, SDIO or Thunderbolt: above them is a host controller whose vectors serve the bus.
 */
static bool nictl_part_of_function(const struct device *d)
{
	return d->bus && (!strcmp(d->bus->name, "virtio") || !strcmp(d->bus->name, "auxiliary"));
}

/**
 * nictl_pci_function() - the PCI function a device sits on
 * @netdev: the device
 *
 * Return: the parent PCI function, reached through parts of it (virtio,
 * auxiliary); NULL on another bus (a USB NIC behind xHCI) or none.
 */
struct device *nictl_pci_function(const struct net_device *netdev)
{
	struct device *d;

	if (nictl_fault_no_pci(netdev))
		return NULL;
	for (d = netdev->dev.parent; d; d = d->parent) {
		if (dev_is_pci(d))
			return d;
		if (!nictl_part_of_function(d))
			return NULL;
	}
	return NULL;
}

static int nictl_numa_node(struct net_device *netdev)
{
	struct device *d;

	for (d = netdev->dev.parent; d; d = d->parent)
		if (dev_to_node(d) != NUMA_NO_NODE)
			return dev_to_node(d);
	return NUMA_NO_NODE;
}

/* Vectors of queues beyond the active counts (after ethtool -L) are idle. */
static bool nictl_queue_active(const struct net_device *netdev, enum nictl_queue_kind kind,
			       unsigned int queue)
{
	switch (kind) {
	case NICTL_QUEUE_KIND_RX:
		return queue < netdev->real_num_rx_queues;
	case NICTL_QUEUE_KIND_TX:
		return queue < netdev->real_num_tx_queues;
	default:
		return queue < max(netdev->real_num_rx_queues, netdev->real_num_tx_queues);
	}
}

static void nictl_dev_add(struct nictl_dev *dev, unsigned int irq, unsigned int queue,
			  enum nictl_queue_kind kind, const char *name, bool managed, bool shared)
{
	struct nictl_qirq *q = &dev->irqs[dev->n_irqs++];

	q->irq = irq;
	q->queue = queue;
	q->kind = kind;
	q->managed = managed;
	q->shared = shared;
	q->target_cpu = -1;
	q->plan_cpu = -1;
	strscpy(q->name, name, sizeof(q->name));
}

/* Add an IRQ found other than by name (none if @irq <= 0); without an action, an empty name. */
static void nictl_dev_add_irq(struct nictl_dev *dev, int irq, unsigned int queue,
			      enum nictl_queue_kind kind)
{
	char name[NICTL_IRQ_NAME_LEN] = "";
	bool managed = false, shared = false;

	if (irq <= 0)
		return;
	nictl_irq_name(irq, name, sizeof(name), &managed, &shared);
	nictl_dev_add(dev, irq, queue, kind, name, managed, shared);
}

/* Add the linked IRQs of queues the first @n_named entries (by name, sorted by queue) miss. */
static void nictl_discover_links(struct nictl_dev *dev, unsigned int n_named)
{
	struct net_device *netdev = dev->netdev;
	unsigned int nrx = netdev->real_num_rx_queues, ntx = netdev->real_num_tx_queues;
	unsigned int q, i = 0, nq = max(nrx, ntx);
	bool rx_named, tx_named;
	int rx, tx;

	for (q = 0; q < nq; q++) {
		rx_named = false;
		tx_named = false;
		for (; i < n_named && dev->irqs[i].queue <= q; i++) {
			if (dev->irqs[i].queue < q)
				continue;
			rx_named |= dev->irqs[i].kind != NICTL_QUEUE_KIND_TX;
			tx_named |= dev->irqs[i].kind != NICTL_QUEUE_KIND_RX;
		}
		rx = q < nrx && !rx_named ? nictl_queue_napi_irq(netdev, q, true) : -1;
		tx = q < ntx && !tx_named ? nictl_queue_napi_irq(netdev, q, false) : -1;
		if (rx > 0 && rx == tx) {
			nictl_dev_add_irq(dev, rx, q, NICTL_QUEUE_KIND_COMBINED);
			continue;
		}
		nictl_dev_add_irq(dev, rx, q, NICTL_QUEUE_KIND_RX);
		nictl_dev_add_irq(dev, tx, q, NICTL_QUEUE_KIND_TX);
	}
}

static void nictl_add_msi_irq(struct nictl_dev *dev, const struct nictl_irq_ident *id,
			      unsigned int irq)
{
	char name[NICTL_IRQ_NAME_LEN];
	enum nictl_queue_kind kind;
	bool managed, shared;
	unsigned int queue;

	if (!nictl_irq_name(irq, name, sizeof(name), &managed, &shared))
		return;
	if (!nictl_classify_irq(id, name, &kind, &queue))
		return;
	if (nictl_queue_active(dev->netdev, kind, queue))
		nictl_dev_add(dev, irq, queue, kind, name, managed, shared);
}

/* Put @pci's named queue vectors into a new dev->irqs, with @room spare. */
static int nictl_discover_msi(struct nictl_dev *dev, struct device *pci, unsigned int room)
{
	struct device *parent = dev->netdev->dev.parent;
	struct nictl_irq_ident id = {
		.ifname = dev->netdev->name,
		.driver = dev->driver,
		.parent = parent ? dev_name(parent) : "",
		.bus_addr = dev->bus_addr,
		.rx_queues = dev->netdev->real_num_rx_queues,
	};
	bool names = pci && parent && nictl_fault_discovery_source() != NICTL_FAULT_LINKS_ONLY;
	struct msi_desc *desc;
	unsigned int n = 0, i;

	/* A function that never enabled MSI has no descriptor storage. */
	if (!names || !nictl_has_msi_descs(pci)) {
		dev->irqs = kvcalloc(room, sizeof(*dev->irqs), GFP_KERNEL);
		return dev->irqs ? 0 : -ENOMEM;
	}
	nictl_msi_descs_guard(pci);
	nictl_for_each_msi_desc(desc, pci)
		n += desc->nvec_used;
	dev->irqs = kvcalloc(n + room, sizeof(*dev->irqs), GFP_KERNEL);
	if (!dev->irqs)
		return -ENOMEM;
	nictl_for_each_msi_desc(desc, pci)
		for (i = 0; i < desc->nvec_used; i++)
			nictl_add_msi_irq(dev, &id, desc->irq + i);
	dev->n_irqs = nictl_qirqs_drop_contested(dev->irqs, dev->n_irqs);
	return 0;
}

/**
 * nictl_msi_vectors() - the IRQs of a PCI function's MSI and MSI-X vectors
 * @pci: the function
 * @irqs: receives the first @max of them, in vector order
 * @max: room in @irqs
 *
 * Requested or not: nictl may set their affinity between a driver's allocation and request.
 *
 * Context: rtnl held; takes the function's MSI descriptor lock.
 * Return: how many vectors the function has, which may be more than @max.
 */
unsigned int nictl_msi_vectors(struct device *pci, unsigned int *irqs, unsigned int max)
{
	struct msi_desc *desc;
	unsigned int n = 0, i;

	if (!nictl_has_msi_descs(pci))
		return 0;
	nictl_msi_descs_guard(pci);
	nictl_for_each_msi_desc(desc, pci)
		for (i = 0; i < desc->nvec_used; i++, n++)
			if (n < max)
				irqs[n] = desc->irq + i;
	return n;
}

static int nictl_dev_merge(struct nictl_dev *dev)
{
	unsigned long long *scratch;

	if (!dev->n_irqs)
		return 0;
	dev->refs = kvcalloc(dev->n_irqs, sizeof(*dev->refs), GFP_KERNEL);
	scratch = kvcalloc(dev->n_irqs, sizeof(*scratch), GFP_KERNEL);
	if (!dev->refs || !scratch) {
		kvfree(scratch);
		return -ENOMEM;
	}
	dev->n_irqs = nictl_qirqs_merge(dev->irqs, dev->n_irqs, dev->refs, scratch,
					&dev->n_groups);
	kvfree(scratch);
	return 0;
}

/**
 * nictl_dev_init() - describe a device without its queue IRQs
 * @netdev: the device
 * @dev: filled in, with no IRQs; needs no release
 *
 * Context: rtnl held, for as long as @dev is used.
 */
void nictl_dev_init(struct net_device *netdev, struct nictl_dev *dev)
{
	struct device *parent = netdev->dev.parent;
	struct device *pci = nictl_pci_function(netdev);

	memset(dev, 0, sizeof(*dev));
	dev->netdev = netdev;
	dev->ifname = netdev->name;
	dev->driver = parent && parent->driver ? parent->driver->name : "";
	dev->bus_addr = pci ? dev_name(pci) : NULL;
	dev->node = nictl_numa_node(netdev);
}

/**
 * nictl_dev_scan() - describe a device and its queue IRQs, without nictl's claims (claims.c)
 * @netdev: the device
 * @dev: filled in; release with nictl_dev_release()
 *
 * Context: rtnl and the instance lock held, so the device and its IRQs and NAPI links stay put.
 * Return: 0 or -ENOMEM. A device without queue IRQs is not an error.
 */
int nictl_dev_scan(struct net_device *netdev, struct nictl_dev *dev)
{
	struct device *pci = nictl_pci_function(netdev);
	unsigned int nq, n_named, extra;
	int err;

	ASSERT_RTNL();
	nictl_dev_init(netdev, dev);

	nq = max(netdev->real_num_rx_queues, netdev->real_num_tx_queues);
	err = nictl_discover_msi(dev, pci, 2 * nq + NICTL_FAULT_EXTRA_IRQS);
	if (!err) {
		n_named = dev->n_irqs;
		if (nictl_fault_discovery_source() != NICTL_FAULT_NAMES_ONLY)
			nictl_discover_links(dev, n_named);
		dev->source = nictl_qirqs_source(n_named, dev->n_irqs - n_named);
	}
	if (!err && dev->irqs) {
		extra = nictl_fault_discovery(dev);
		if (extra)
			nictl_dev_add_irq(dev, extra, 0, NICTL_QUEUE_KIND_COMBINED);
		err = nictl_dev_merge(dev);
	}
	if (err)
		nictl_dev_release(dev);
	return err;
}

void nictl_dev_release(struct nictl_dev *dev)
{
	kvfree(dev->irqs);
	kvfree(dev->refs);
	dev->irqs = NULL;
	dev->refs = NULL;
	dev->n_irqs = 0;
	dev->n_groups = 0;
}

/**
 * nictl_dev_irq() - find an IRQ among a discovered device's queue IRQs
 * @dev: the device
 * @irq: the IRQ number
 *
 * Return: its entry in @dev->irqs, or NULL when @irq is not one of them.
 */
const struct nictl_qirq *nictl_dev_irq(const struct nictl_dev *dev, unsigned int irq)
{
	unsigned int i;

	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].irq == irq)
			return &dev->irqs[i];
	return NULL;
}
