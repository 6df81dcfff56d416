// SPDX-License-Identifier: GPL-2.0
#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>

#include "fault.h"
#include "nictl.h"

/* Each knob's MODULE_PARM_DESC documents its getter too. */
static unsigned int fault_fail_nth;
module_param(fault_fail_nth, uint, 0600);
MODULE_PARM_DESC(fault_fail_nth,
		 "test build only: fail the k-th affinity write of every apply with -EIO (0: off)");

static unsigned int fault_share_ifindex;
module_param(fault_share_ifindex, uint, 0600);
MODULE_PARM_DESC(fault_share_ifindex,
		 "test build only: this device's queues all use queue 0's IRQs (0: off)");

static unsigned int fault_extra_ifindex;
module_param(fault_extra_ifindex, uint, 0600);
MODULE_PARM_DESC(fault_extra_ifindex,
		 "test build only: this device's queue 0 is also served by fault_extra_irq (0: off)");

static unsigned int fault_extra_irq;
module_param(fault_extra_irq, uint, 0600);
MODULE_PARM_DESC(fault_extra_irq, "test build only: the IRQ fault_extra_ifindex shares");

static unsigned int fault_shared_irq;
module_param(fault_shared_irq, uint, 0600);
MODULE_PARM_DESC(fault_shared_irq,
		 "test build only: discovery sees this IRQ as shared with another handler (0: off)");

int nictl_fault_write(unsigned int nth)
{
	return READ_ONCE(fault_fail_nth) == nth ? -EIO : 0;
}

/* Every queue's IRQ becomes the IRQ of queue 0 of the same kind, as on ice. */
static void nictl_fault_share(struct nictl_dev *dev)
{
	struct nictl_qirq *q, *first;
	unsigned int i, j;

	for (i = 0; i < dev->n_irqs; i++) {
		q = &dev->irqs[i];
		for (j = 0; q->queue && j < dev->n_irqs; j++) {
			first = &dev->irqs[j];
			if (first->queue || first->kind != q->kind)
				continue;
			q->irq = first->irq;
			strscpy(q->name, first->name, sizeof(q->name));
			break;
		}
	}
}

/**
 * nictl_fault_discovery() - apply the sharing knobs before discovery merges the IRQs
 * @dev: a device being discovered
 *
 * Return: an IRQ of another device also serving @dev's queue 0 (as a PF's serves its SF's), or 0.
 */
unsigned int nictl_fault_discovery(struct nictl_dev *dev)
{
	unsigned int ifindex = dev->netdev->ifindex;
	unsigned int irq = READ_ONCE(fault_extra_irq), shared = READ_ONCE(fault_shared_irq);
	unsigned int i;

	if (ifindex == READ_ONCE(fault_share_ifindex))
		nictl_fault_share(dev);
	for (i = 0; shared && i < dev->n_irqs; i++)
		dev->irqs[i].shared |= dev->irqs[i].irq == shared;
	return ifindex == READ_ONCE(fault_extra_ifindex) ? irq : 0;
}

static unsigned int fault_discovery_source;
module_param(fault_discovery_source, uint, 0600);
MODULE_PARM_DESC(fault_discovery_source,
		 "test build only: find queue IRQs by 0: names and links, 1: links only, 2: names only");

enum nictl_fault_source nictl_fault_discovery_source(void)
{
	return READ_ONCE(fault_discovery_source);
}

static DECLARE_WAIT_QUEUE_HEAD(nictl_fault_stall_wq);
static atomic_t nictl_fault_stalled = ATOMIC_INIT(0);
static bool fault_stall;

static int nictl_fault_stall_set(const char *val, const struct kernel_param *kp)
{
	int err = param_set_bool(val, kp);

	wake_up_all(&nictl_fault_stall_wq);
	return err;
}

static const struct kernel_param_ops nictl_fault_stall_ops = {
	.set = nictl_fault_stall_set,
	.get = param_get_bool,
};
module_param_cb(fault_stall, &nictl_fault_stall_ops, &fault_stall, 0600);
MODULE_PARM_DESC(fault_stall,
		 "test build only: STATS_GET and NAPI_GET dumps wait while set, and attaching the "
		 "accounting (STATS_SET on, STATS_RESET) waits after its first probe");

static int nictl_fault_stalled_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&nictl_fault_stalled));
}

static const struct kernel_param_ops nictl_fault_stalled_ops = {
	.get = nictl_fault_stalled_get,
};
module_param_cb(fault_stalled, &nictl_fault_stalled_ops, NULL, 0444);
MODULE_PARM_DESC(fault_stalled, "test build only: operations waiting on fault_stall now");

/**
 * nictl_fault_stall() - wait while the fault_stall knob is set
 *
 * Stands for an operation's slow part (a tracepoint synchronisation, a huge dump), holding what
 * it holds there. A fatal signal ends the wait, so a test that dies leaves no stuck task.
 */
void nictl_fault_stall(void)
{
	atomic_inc(&nictl_fault_stalled);
	wait_event_killable(nictl_fault_stall_wq, !READ_ONCE(fault_stall));
	atomic_dec(&nictl_fault_stalled);
}

static unsigned int fault_dump_items;
module_param(fault_dump_items, uint, 0600);
MODULE_PARM_DESC(fault_dump_items,
		 "test build only: at most this many NAPIs or IRQs per NAPI_GET or DEV_GET dump message (0: no limit)");

unsigned int nictl_fault_dump_items(void)
{
	return READ_ONCE(fault_dump_items);
}

static bool fault_tsc_trusted;
module_param(fault_tsc_trusted, bool, 0444);
MODULE_PARM_DESC(fault_tsc_trusted,
		 "test build only: trust the TSC; only fault_tsc_unstable ends that");

bool nictl_fault_tsc_trusted(void)
{
	return fault_tsc_trusted;
}

static bool fault_tsc_unstable;
module_param(fault_tsc_unstable, bool, 0600);
MODULE_PARM_DESC(fault_tsc_unstable,
		 "test build only: the periodic clock check finds the TSC marked unstable");

bool nictl_fault_tsc_unstable(void)
{
	return READ_ONCE(fault_tsc_unstable);
}

static bool fault_one_identity;
module_param(fault_one_identity, bool, 0600);
MODULE_PARM_DESC(fault_one_identity,
		 "test build only: every device has the sticky identity pci:fault");

bool nictl_fault_one_identity(void)
{
	return READ_ONCE(fault_one_identity);
}

static unsigned int fault_no_pci_ifindex;
module_param(fault_no_pci_ifindex, uint, 0600);
MODULE_PARM_DESC(fault_no_pci_ifindex,
		 "test build only: this device has no PCI function (0: off)");

bool nictl_fault_no_pci(const struct net_device *netdev)
{
	return netdev->ifindex == READ_ONCE(fault_no_pci_ifindex);
}
