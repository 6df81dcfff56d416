// SPDX-License-Identifier: GPL-2.0
/* A discovered device with what nictl holds of it: claims on its IRQs, its sticky identity. */
#include <linux/rtnetlink.h>
#include <linux/slab.h>

#include "nictl.h"

/**
 * nictl_dev_discover() - describe a device, its queue IRQs and the binding claiming each
 * @netdev: the device
 * @dev: filled in; release with nictl_dev_release()
 *
 * Context: as nictl_dev_scan().
 * Return: as nictl_dev_scan().
 */
int nictl_dev_discover(struct net_device *netdev, struct nictl_dev *dev)
{
	int err = nictl_dev_scan(netdev, dev);

	if (err)
		return err;
	dev->sticky_id = nictl_sticky_of(netdev);
	nictl_binding_annotate(dev);
	return 0;
}

/**
 * nictl_dev_claims() - whether the holders of some of a device's IRQs still serve them
 * @dev: the device, discovered
 * @held: devices whose instance locks the caller holds (a bind's members)
 * @n_held: how many
 *
 * Each holder is discovered once, under its instance lock; @dev's must not be held unless in @held.
 *
 * Context: rtnl held.
 * Return: a new array (kvfree it): per IRQ of @dev, 1 when another device's binding holds it and
 * that device still serves it, 0 when the claim is stale (the vector freed, its number gone to
 * @dev, as igb's when VFs are made), -1 when no other binding holds it; or ERR_PTR(-ENOMEM).
 */
s8 *nictl_dev_claims(const struct nictl_dev *dev, struct net_device *const *held,
		     unsigned int n_held)
{
	struct net_device *owner;
	struct nictl_dev other;
	unsigned int i, k;
	bool locked;
	s8 *serves;
	int err;

	serves = kvcalloc(max(dev->n_irqs, 1U), sizeof(*serves), GFP_KERNEL);
	if (!serves)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < dev->n_irqs; i++)
		serves[i] = -1;
	for (i = 0; i < dev->n_irqs; i++) {
		owner = nictl_binding_owner(dev->irqs[i].irq);
		if (!owner || owner == dev->netdev || serves[i] >= 0)
			continue;
		for (k = 0, locked = false; k < n_held && !locked; k++)
			locked = held[k] == owner;
		if (!locked)
			nictl_netdev_lock_nested(owner);
		err = nictl_dev_discover(owner, &other);
		if (!locked)
			netdev_unlock(owner);
		if (err) {
			kvfree(serves);
			return ERR_PTR(err);
		}
		for (k = i; k < dev->n_irqs; k++)
			if (nictl_binding_owner(dev->irqs[k].irq) == owner)
				serves[k] = !!nictl_dev_irq(&other, dev->irqs[k].irq);
		nictl_dev_release(&other);
	}
	return serves;
}

/**
 * nictl_dev_look() - discover a device unlocked, showing stale claims as nobody's
 * @netdev: the device
 * @dev: filled in; release with nictl_dev_release()
 * @forget_stale: also drop stale claims (the periodic check); a reader (DEV_GET) changes nothing
 *
 * Context: rtnl held; takes and drops the instance locks of @netdev and of its IRQs' holders.
 * Return: as nictl_dev_discover().
 */
int nictl_dev_look(struct net_device *netdev, struct nictl_dev *dev, bool forget_stale)
{
	unsigned int i;
	s8 *serves;
	int err;

	netdev_lock(netdev);
	err = nictl_dev_discover(netdev, dev);
	netdev_unlock(netdev);
	if (err)
		return err;
	serves = nictl_dev_claims(dev, NULL, 0);
	if (IS_ERR(serves)) {
		nictl_dev_release(dev);
		return PTR_ERR(serves);
	}
	for (i = 0; i < dev->n_irqs; i++) {
		if (serves[i])
			continue;
		if (forget_stale)
			nictl_binding_forget_irq(nictl_binding_owner(dev->irqs[i].irq),
						 dev->irqs[i].irq);
		dev->irqs[i].owner_ifindex = 0;
	}
	kvfree(serves);
	return 0;
}
