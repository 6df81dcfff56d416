// SPDX-License-Identifier: GPL-2.0
/*
 * keptnic: a test-only NIC whose queue IRQs' affinity the core keeps (netif_set_affinity_auto(),
 * as ice and idpf opt in since 6.15), which no NIC QEMU emulates. It has no hardware: each queue
 * IRQ comes from an irq_chip of its own that only records the affinity it is given, linked to
 * the queue's NAPI; nothing is sent or received.
 *
 * In its platform device's folder (/sys/bus/platform/devices/keptnic/):
 *   reset  written: what a driver does when its NIC resets. It frees the queue IRQs and their
 *          descriptors and allocates new ones, which start with the default affinity, as a
 *          driver that allocates its vectors again does; then enables the NAPIs, and the core
 *          puts back the affinity it kept. A number written is how many milliseconds the new
 *          IRQs keep the default affinity first, their NAPIs disabled, with rtnl dropped, as a
 *          driver whose reset sleeps in its own work does; nothing may take the device down
 *          meanwhile (its stop would wait for the disabled NAPIs).
 *   kept   read: one line per NAPI, its IRQ and the CPUs the core keeps for it.
 * Parameters: queues (4), node (-1), keep (1; 0 is a driver before 6.15, whose reset loses the
 * affinity).
 */
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/etherdevice.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/rtnetlink.h>
#include <net/netdev_queues.h>

#define KEPTNIC_MAX_QUEUES	16

static unsigned int queues = 4;
module_param(queues, uint, 0444);
MODULE_PARM_DESC(queues, "queue pairs, each with a NAPI and an IRQ (1-16)");

static int node = NUMA_NO_NODE;
module_param(node, int, 0444);
MODULE_PARM_DESC(node, "the NUMA node of the device (-1: none)");

static bool keep = true;
module_param(keep, bool, 0444);
MODULE_PARM_DESC(keep, "have the core keep the IRQs' affinity (netif_set_affinity_auto())");

struct keptnic {
	struct net_device *netdev;
	unsigned int base;	/* the first queue IRQ; queue i has base + i */
	char names[KEPTNIC_MAX_QUEUES][IFNAMSIZ + 8];
	struct napi_struct napi[KEPTNIC_MAX_QUEUES];
	struct mutex reset_lock;	/* one reset at a time: rtnl is dropped in a slow one */
};

static struct platform_device *keptnic_pdev;

static void keptnic_irq_nop(struct irq_data *d)
{
}

/* Where an MSI's would: on one online CPU of @mask. */
static int keptnic_irq_set_affinity(struct irq_data *d, const struct cpumask *mask, bool force)
{
	unsigned int cpu = cpumask_first_and(mask, cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		return -EINVAL;
	irq_data_update_effective_affinity(d, cpumask_of(cpu));
	return IRQ_SET_MASK_OK;
}

static struct irq_chip keptnic_chip = {
	.name			= "keptnic",
	.irq_mask		= keptnic_irq_nop,
	.irq_unmask		= keptnic_irq_nop,
	.irq_set_affinity	= keptnic_irq_set_affinity,
};

static irqreturn_t keptnic_interrupt(int irq, void *napi)
{
	napi_schedule(napi);
	return IRQ_HANDLED;
}

static int keptnic_poll(struct napi_struct *napi, int budget)
{
	napi_complete_done(napi, 0);
	return 0;
}

static void keptnic_irqs_free(struct keptnic *k)
{
	unsigned int i;

	for (i = 0; i < queues; i++) {
		netif_napi_set_irq(&k->napi[i], -1);
		free_irq(k->base + i, &k->napi[i]);
	}
	irq_free_descs(k->base, queues);
}

/*
 * New descriptors, the default affinity, requested and linked to the NAPIs; numbered from @at
 * (-1: any), as a driver's vectors allocated again may well be.
 */
static int keptnic_irqs_alloc(struct keptnic *k, int at)
{
	unsigned int i;
	int base, err;

	/* No owner: a requested IRQ would pin it, and only its exit frees them. */
	base = __irq_alloc_descs(at, 0, queues, node, NULL, NULL);
	if (base < 0)
		return base;
	k->base = base;
	for (i = 0; i < queues; i++) {
		irq_set_chip_and_handler(base + i, &keptnic_chip, handle_simple_irq);
		irq_clear_status_flags(base + i, IRQ_NOREQUEST | IRQ_NOPROBE);
		err = request_irq(base + i, keptnic_interrupt, 0, k->names[i], &k->napi[i]);
		if (err)
			goto unwind;
		netif_napi_set_irq(&k->napi[i], base + i);
	}
	return 0;
unwind:
	while (i--) {
		netif_napi_set_irq(&k->napi[i], -1);
		free_irq(base + i, &k->napi[i]);
	}
	irq_free_descs(base, queues);
	return err;
}

static int keptnic_open(struct net_device *netdev)
{
	struct keptnic *k = netdev_priv(netdev);
	unsigned int i;

	for (i = 0; i < queues; i++)
		napi_enable(&k->napi[i]);
	netif_tx_start_all_queues(netdev);
	return 0;
}

static int keptnic_stop(struct net_device *netdev)
{
	struct keptnic *k = netdev_priv(netdev);
	unsigned int i;

	netif_tx_stop_all_queues(netdev);
	for (i = 0; i < queues; i++)
		napi_disable(&k->napi[i]);
	return 0;
}

static netdev_tx_t keptnic_xmit(struct sk_buff *skb, struct net_device *netdev)
{
	dev_core_stats_tx_dropped_inc(netdev);
	dev_kfree_skb_any(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops keptnic_ops = {
	.ndo_open	= keptnic_open,
	.ndo_stop	= keptnic_stop,
	.ndo_start_xmit	= keptnic_xmit,
};

static ssize_t reset_store(struct device *dev, struct device_attribute *attr, const char *buf,
			   size_t len)
{
	struct keptnic *k = dev_get_drvdata(dev);
	unsigned int hold_ms = 0;
	bool running;
	int err;

	if (len && buf[0] != '\n' && kstrtouint(buf, 0, &hold_ms))
		return -EINVAL;
	mutex_lock(&k->reset_lock);
	rtnl_lock();
	running = netif_running(k->netdev);
	if (running)
		keptnic_stop(k->netdev);
	keptnic_irqs_free(k);
	err = keptnic_irqs_alloc(k, k->base);
	if (!err && hold_ms) {
		rtnl_unlock();
		msleep(hold_ms);
		rtnl_lock();
	}
	if (!err && running)
		keptnic_open(k->netdev);
	rtnl_unlock();
	mutex_unlock(&k->reset_lock);
	return err ?: len;
}
static DEVICE_ATTR_WO(reset);

static ssize_t kept_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct keptnic *k = dev_get_drvdata(dev);
	unsigned int i;
	int len = 0;

	netdev_lock(k->netdev);
	for (i = 0; i < queues; i++)
		len += sysfs_emit_at(buf, len, "%d %*pbl\n", k->napi[i].irq,
				     cpumask_pr_args(&k->napi[i].config->affinity_mask));
	netdev_unlock(k->netdev);
	return len;
}
static DEVICE_ATTR_RO(kept);

static struct attribute *keptnic_attrs[] = {
	&dev_attr_reset.attr,
	&dev_attr_kept.attr,
	NULL,
};
ATTRIBUTE_GROUPS(keptnic);

static int keptnic_probe(struct platform_device *pdev)
{
	struct net_device *netdev;
	struct keptnic *k;
	unsigned int i;
	int err;

	netdev = alloc_etherdev_mqs(sizeof(*k), queues, queues);
	if (!netdev)
		return -ENOMEM;
	SET_NETDEV_DEV(netdev, &pdev->dev);
	/* register_netdev() would, too late for netif_set_affinity_auto()'s spread. */
	set_dev_node(&netdev->dev, dev_to_node(&pdev->dev));
	strscpy(netdev->name, "kept%d");
	netdev->netdev_ops = &keptnic_ops;
	/* Locally administered and fixed: a reload is the same NIC, as a burned-in address says. */
	eth_hw_addr_set(netdev, (const u8[ETH_ALEN]){ 0x02, 'k', 'e', 'p', 't', 0 });
	k = netdev_priv(netdev);
	mutex_init(&k->reset_lock);
	k->netdev = netdev;
	if (keep)
		netif_set_affinity_auto(netdev);
	for (i = 0; i < queues; i++) {
		snprintf(k->names[i], sizeof(k->names[i]), "keptnic-q%u", i);
		netif_napi_add_config(netdev, &k->napi[i], keptnic_poll, i);
		netif_queue_set_napi(netdev, i, NETDEV_QUEUE_TYPE_RX, &k->napi[i]);
		netif_queue_set_napi(netdev, i, NETDEV_QUEUE_TYPE_TX, &k->napi[i]);
	}
	err = keptnic_irqs_alloc(k, -1);
	if (err)
		goto free;
	platform_set_drvdata(pdev, k);
	err = register_netdev(netdev);
	if (!err)
		return 0;
	keptnic_irqs_free(k);
free:
	for (i = 0; i < queues; i++)
		netif_napi_del(&k->napi[i]);
	free_netdev(netdev);
	return err;
}

static void keptnic_remove(struct platform_device *pdev)
{
	struct keptnic *k = platform_get_drvdata(pdev);
	unsigned int i;

	unregister_netdev(k->netdev);
	keptnic_irqs_free(k);
	for (i = 0; i < queues; i++)
		netif_napi_del(&k->napi[i]);
	free_netdev(k->netdev);
}

static struct platform_driver keptnic_driver = {
	.driver = {
		.name		= "keptnic",
		.dev_groups	= keptnic_groups,
	},
	.probe	= keptnic_probe,
	.remove	= keptnic_remove,
};

static int __init keptnic_init(void)
{
	int err;

	if (!queues || queues > KEPTNIC_MAX_QUEUES)
		return -EINVAL;
	err = platform_driver_register(&keptnic_driver);
	if (err)
		return err;
	keptnic_pdev = platform_device_alloc("keptnic", PLATFORM_DEVID_NONE);
	if (!keptnic_pdev) {
		err = -ENOMEM;
		goto unregister;
	}
	set_dev_node(&keptnic_pdev->dev, node);
	err = platform_device_add(keptnic_pdev);
	if (!err)
		return 0;
	platform_device_put(keptnic_pdev);
unregister:
	platform_driver_unregister(&keptnic_driver);
	return err;
}

static void __exit keptnic_exit(void)
{
	platform_device_unregister(keptnic_pdev);
	platform_driver_unregister(&keptnic_driver);
}

module_init(keptnic_init);
module_exit(keptnic_exit);
MODULE_DESCRIPTION("nictl's test NIC: queue IRQs whose affinity the core keeps");
MODULE_LICENSE("GPL");
