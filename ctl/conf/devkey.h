/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How the daemon names a device: an ifindex is unique within its network
 * namespace only, so the key joins the id of the namespace to it. A device
 * of the initial namespace has its ifindex for key.
 */
#ifndef NICTLCTL_DEVKEY_H
#define NICTLCTL_DEVKEY_H

#include <stdint.h>

#include "dev.h"

typedef uint64_t dev_key;

/* The key of @ifindex in the namespace with id @netns_id, -1 for the initial one. */
static inline dev_key dev_key_make(int netns_id, unsigned int ifindex)
{
	return (uint64_t)(uint32_t)(netns_id + 1) << 32 | ifindex;
}

static inline unsigned int dev_key_ifindex(dev_key key)
{
	return (uint32_t)key;
}

/* The id of the key's namespace, -1 for the initial one. */
static inline int dev_key_netns(dev_key key)
{
	return (int)(uint32_t)(key >> 32) - 1;
}

static inline dev_key dev_key_of(const struct nictl_dev *dev)
{
	return dev_key_make(dev->other_netns ? dev->netns_id : -1, dev->ifindex);
}

#endif /* NICTLCTL_DEVKEY_H */
