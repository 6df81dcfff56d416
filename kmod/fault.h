/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the test build, compiled away in production: fail the k-th affinity
 * write (rollback at every k); share IRQs as drivers the guests lack do (ice, an mlx5
 * sub-function); one discovery source only, to compare the two; hold stats operations (nothing
 * else waits for them); split dumps early; a trusted or unstable TSC; one sticky identity for
 * all devices; hide a PCI function, as for a device whose IRQs only NAPI links name.
 */
#ifndef _NICTL_FAULT_H
#define _NICTL_FAULT_H

#include <linux/types.h>

struct nictl_dev;
struct net_device;

/* fault_discovery_source: which of discovery's two sources to use. */
enum nictl_fault_source {
	NICTL_FAULT_BOTH,
	NICTL_FAULT_LINKS_ONLY,
	NICTL_FAULT_NAMES_ONLY,
};

#ifdef NICTL_FAULT_INJECT
/* Room discovery leaves for the IRQ nictl_fault_discovery() may add. */
#define NICTL_FAULT_EXTRA_IRQS	1

int nictl_fault_write(unsigned int nth);
unsigned int nictl_fault_discovery(struct nictl_dev *dev);
enum nictl_fault_source nictl_fault_discovery_source(void);
void nictl_fault_stall(void);
unsigned int nictl_fault_dump_items(void);
bool nictl_fault_tsc_trusted(void);
bool nictl_fault_tsc_unstable(void);
bool nictl_fault_one_identity(void);
bool nictl_fault_no_pci(const struct net_device *netdev);
#else
#define NICTL_FAULT_EXTRA_IRQS	0

static inline int nictl_fault_write(unsigned int nth)
{
	return 0;
}

static inline unsigned int nictl_fault_discovery(struct nictl_dev *dev)
{
	return 0;
}

static inline enum nictl_fault_source nictl_fault_discovery_source(void)
{
	return NICTL_FAULT_BOTH;
}

static inline void nictl_fault_stall(void)
{
}

static inline unsigned int nictl_fault_dump_items(void)
{
	return 0;
}

static inline bool nictl_fault_tsc_trusted(void)
{
	return false;
}

static inline bool nictl_fault_tsc_unstable(void)
{
	return false;
}

static inline bool nictl_fault_one_identity(void)
{
	return false;
}

static inline bool nictl_fault_no_pci(const struct net_device *netdev)
{
	return false;
}
#endif

#endif /* _NICTL_FAULT_H */
