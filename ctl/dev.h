/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network device and its queue IRQs as NICTL_CMD_DEV_GET describes them
 * (bind and restore reply in the same shape), and the requests that return
 * such descriptions.
 */
#ifndef NICTLCTL_DEV_H
#define NICTLCTL_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include "cpuset.h"
#include "nl.h"

/* One queue an IRQ serves. */
struct irq_queue {
	unsigned int queue;
	unsigned int kind;		/* enum nictl_queue_kind */
};

struct nictl_irq {
	unsigned int queue;		/* the lowest it serves */
	unsigned int kind;		/* of all it serves: rx, tx or combined */
	struct irq_queue *queues;	/* every queue it serves, by queue */
	unsigned int nr_queues;
	unsigned int group;		/* IRQs of a group go to one CPU */
	unsigned int owner_ifindex;	/* another device's binding holds it, or 0 */
	unsigned int drifts;		/* times moved off its target */
	uint64_t drift_ns;		/* CLOCK_MONOTONIC of the last, 0 if none */
	unsigned int irq;
	char *name;
	struct cpuset affinity;
	struct cpuset effective;
	int node;			/* -1 when unknown */
	unsigned int flags;		/* enum nictl_irq_flags */
	int target_cpu;			/* -1 when nictl placed it nowhere */
};

struct nictl_dev {
	unsigned int ifindex;
	char *ifname;
	char *driver;			/* NULL when absent */
	char *bus_addr;			/* NULL when not on PCI */
	char *sticky_id;		/* NULL when no sticky binding */
	int numa_node;			/* -1 when unknown */
	bool other_netns;		/* outside the initial network namespace */
	int netns_id;			/* then the id of its namespace */
	unsigned int rx_queues;
	unsigned int tx_queues;
	unsigned int flags;		/* enum nictl_dev_flags */
	unsigned int source;		/* enum nictl_irq_source */
	struct nictl_irq *irqs;
	unsigned int nr_irqs;
	char *uppers;			/* devices stacked on it, "bond0,bond0.100"; or NULL */
	bool direct;			/* found without the module (direct/) */
};

/*
 * Devices as replies describe them. A reply about a stacked device (a
 * bond, VLAN, macvlan) describes its physical devices, in @devs, and
 * names it in @stacked.
 */
struct dev_list {
	struct nictl_dev *devs;
	unsigned int nr;
	char *stacked;			/* the stacked device, or NULL */
	unsigned int stacked_ifindex;
};

/* How the user named a device: by ifindex when non-zero, else by name. */
struct dev_ref {
	unsigned int ifindex;
	const char *name;
};

int dev_ref_parse(const char *cmd, const char *arg, struct dev_ref *ref);
struct nl_msg *dev_request(const struct ctl_nl *nl, uint8_t cmd, const struct dev_ref *ref);
struct nl_msg *dev_request_of(const struct ctl_nl *nl, uint8_t cmd, const struct nictl_dev *dev);
int dev_collect(struct nlmsghdr *hdr, void *list);
const char *dev_link_name(struct nlattr *nest);
int dev_exchange(struct ctl_nl *nl, struct nl_msg *msg, const char *cmd, const char *dev,
		 struct dev_list *out);
void dev_release(struct nictl_dev *dev);
void dev_list_free(struct dev_list *list);
int dev_list_take(struct dev_list *dst, struct dev_list *src);
void dev_list_swap_dev(struct dev_list *list, unsigned int i, struct dev_list *other);
unsigned int dev_group_count(const struct nictl_dev *dev);
unsigned int dev_queue_count(const struct nictl_dev *dev);
const struct nictl_irq *dev_queue_irq(const struct nictl_dev *dev, unsigned int q, bool rx);
const struct nictl_irq *dev_find_irq(const struct nictl_dev *dev, unsigned int irq);
/* Placed by nictl, but its affinity is not its target CPU alone now. */
bool dev_irq_off_target(const struct nictl_irq *irq);
int dev_queue_cpu(const struct nictl_dev *dev, unsigned int q, bool rx);
int dev_irq_cpu(const struct nictl_irq *irq);

#endif /* NICTLCTL_DEV_H */
