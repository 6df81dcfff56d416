// SPDX-License-Identifier: GPL-2.0
/*
 * Device requests and the parsing of their replies into struct nictl_dev.
 * Replies are validated before use: a reply nictlctl cannot read is reported
 * as -EPROTO rather than shown half right.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include <linux/nictl.h>

#include "dev.h"
#include "netns.h"
#include "report.h"

/* libnl gives signed attributes no minimum length of their own. */
#define S32_POLICY	{ .type = NLA_S32, .minlen = sizeof(int32_t) }
#define CPUS_POLICY	{ .type = NLA_BINARY, .maxlen = NICTL_CPUMASK_MAX_BYTES }

static const struct nla_policy dev_policy[NICTL_A_MAX + 1] = {
	[NICTL_A_IFINDEX]	= { .type = NLA_U32 },
	[NICTL_A_IFNAME]	= { .type = NLA_STRING },
	[NICTL_A_DRIVER]	= { .type = NLA_STRING },
	[NICTL_A_BUS_ADDR]	= { .type = NLA_STRING },
	[NICTL_A_STICKY_ID]	= { .type = NLA_STRING },
	[NICTL_A_NUMA_NODE]	= S32_POLICY,
	[NICTL_A_RX_QUEUES]	= { .type = NLA_U32 },
	[NICTL_A_TX_QUEUES]	= { .type = NLA_U32 },
	[NICTL_A_DEV_FLAGS]	= { .type = NLA_U32 },
	[NICTL_A_IRQ]		= { .type = NLA_NESTED },
	[NICTL_A_SOURCE]	= { .type = NLA_U32 },
	[NICTL_A_UPPER]		= { .type = NLA_NESTED },
	[NICTL_A_LOWER]		= { .type = NLA_NESTED },
	[NICTL_A_KIND]		= { .type = NLA_STRING },
	[NICTL_A_NETNS_ID]	= S32_POLICY,
};

static const struct nla_policy link_policy[NICTL_A_LINK_MAX + 1] = {
	[NICTL_A_LINK_IFINDEX]	= { .type = NLA_U32 },
	[NICTL_A_LINK_IFNAME]	= { .type = NLA_STRING },
	[NICTL_A_LINK_KIND]	= { .type = NLA_STRING },
};

static const struct nla_policy irq_policy[NICTL_A_IRQ_MAX + 1] = {
	[NICTL_A_IRQ_NUM]	 = { .type = NLA_U32 },
	[NICTL_A_IRQ_NAME]	 = { .type = NLA_STRING },
	[NICTL_A_IRQ_QUEUE]	 = { .type = NLA_U32 },
	[NICTL_A_IRQ_KIND]	 = { .type = NLA_U32 },
	[NICTL_A_IRQ_AFFINITY]	 = CPUS_POLICY,
	[NICTL_A_IRQ_EFFECTIVE]	 = CPUS_POLICY,
	[NICTL_A_IRQ_FLAGS]	 = { .type = NLA_U32 },
	[NICTL_A_IRQ_NODE]	 = S32_POLICY,
	[NICTL_A_IRQ_TARGET_CPU] = { .type = NLA_U32 },
	[NICTL_A_IRQ_QUEUE_REF]	 = { .type = NLA_NESTED },
	[NICTL_A_IRQ_GROUP]	 = { .type = NLA_U32 },
	[NICTL_A_IRQ_OWNER]	 = { .type = NLA_U32 },
	[NICTL_A_IRQ_DRIFTS]	 = { .type = NLA_U32 },
	[NICTL_A_IRQ_DRIFT_NS]	 = { .type = NLA_U64 },
};

static const struct nla_policy qref_policy[NICTL_A_QREF_MAX + 1] = {
	[NICTL_A_QREF_QUEUE]	= { .type = NLA_U32 },
	[NICTL_A_QREF_KIND]	= { .type = NLA_U32 },
};

/*
 * The DEV argument of command @cmd: a number is an ifindex, anything else an
 * interface name. Returns 0, or EXIT_USAGE after saying what is wrong with a
 * name no device can have.
 */
int dev_ref_parse(const char *cmd, const char *arg, struct dev_ref *ref)
{
	unsigned long long idx;

	ref->ifindex = 0;
	ref->name = arg;
	if (!*arg || strlen(arg) >= IFNAMSIZ)
		return ctl_usage(cmd, "invalid device '%s': give an ifindex or a name of 1-%d chars",
				 arg, IFNAMSIZ - 1);
	if (strspn(arg, "0123456789") != strlen(arg))
		return 0;
	idx = strtoull(arg, NULL, 10);	/* at most 15 digits: no overflow */
	if (!idx || idx > UINT32_MAX)
		return ctl_usage(cmd, "invalid device '%s': an ifindex lies between 1 and %u",
				 arg, UINT32_MAX);
	ref->ifindex = idx;
	return 0;
}

/*
 * A request for @cmd on @ref, or a dump of every device when @ref is NULL,
 * in the network namespace -n or --netns selected.
 */
struct nl_msg *dev_request(const struct ctl_nl *nl, uint8_t cmd, const struct dev_ref *ref)
{
	struct nl_msg *msg = ctl_nl_msg(nl, cmd, ref ? 0 : NLM_F_DUMP);
	int err;

	if (!msg)
		return msg;
	err = ctl_netns_put(msg);
	if (!err && ref && ref->ifindex)
		err = nla_put_u32(msg, NICTL_A_IFINDEX, ref->ifindex);
	else if (!err && ref)
		err = nla_put_string(msg, NICTL_A_IFNAME, ref->name);
	if (err) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

/*
 * A request for @cmd on @dev, a device a reply described, by its ifindex in
 * its own namespace: a port beneath a macvlan of a pod is in the initial one.
 */
struct nl_msg *dev_request_of(const struct ctl_nl *nl, uint8_t cmd, const struct nictl_dev *dev)
{
	struct nl_msg *msg = ctl_nl_msg(nl, cmd, 0);

	if (msg && ((dev->other_netns && nla_put_s32(msg, NICTL_A_NETNS_ID, dev->netns_id)) ||
		    nla_put_u32(msg, NICTL_A_IFINDEX, dev->ifindex))) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

static int dup_string(char **dst, const struct nlattr *attr)
{
	if (!attr)
		return 0;
	*dst = strdup(nla_get_string((struct nlattr *)attr));
	return *dst ? 0 : -ENOMEM;
}

static int get_cpus(struct cpuset *dst, const struct nlattr *attr)
{
	if (!attr)
		return 0;
	return cpuset_from_bytes(dst, nla_data(attr), nla_len(attr));
}

/*
 * The queues an IRQ serves. A module that sends none (older than the IRQ as
 * the unit) has the IRQ serve its one queue, in a group of the queue.
 */
static int parse_irq_queues(struct nictl_irq *irq, struct nlattr *nest)
{
	struct nlattr *tb[NICTL_A_QREF_MAX + 1], *attr;
	unsigned int n = 0;
	int rem;

	nla_for_each_nested(attr, nest, rem)
		n += nla_type(attr) == NICTL_A_IRQ_QUEUE_REF;
	irq->queues = calloc(n ?: 1, sizeof(*irq->queues));
	if (!irq->queues)
		return -ENOMEM;
	if (!n) {
		irq->queues[irq->nr_queues++] = (struct irq_queue){ irq->queue, irq->kind };
		return 0;
	}
	nla_for_each_nested(attr, nest, rem) {
		if (nla_type(attr) != NICTL_A_IRQ_QUEUE_REF)
			continue;
		if (nla_parse_nested(tb, NICTL_A_QREF_MAX, attr, qref_policy) ||
		    !tb[NICTL_A_QREF_QUEUE] || !tb[NICTL_A_QREF_KIND])
			return -EPROTO;
		irq->queues[irq->nr_queues++] = (struct irq_queue){
			nla_get_u32(tb[NICTL_A_QREF_QUEUE]), nla_get_u32(tb[NICTL_A_QREF_KIND])
		};
	}
	return 0;
}

static unsigned int get_u32_or(const struct nlattr *attr, unsigned int none)
{
	return attr ? nla_get_u32((struct nlattr *)attr) : none;
}

static int parse_irq(struct nictl_irq *irq, struct nlattr *nest)
{
	struct nlattr *tb[NICTL_A_IRQ_MAX + 1];
	int err;

	if (nla_parse_nested(tb, NICTL_A_IRQ_MAX, nest, irq_policy) ||
	    !tb[NICTL_A_IRQ_NUM] || !tb[NICTL_A_IRQ_QUEUE] || !tb[NICTL_A_IRQ_KIND])
		return -EPROTO;
	irq->irq = nla_get_u32(tb[NICTL_A_IRQ_NUM]);
	irq->queue = nla_get_u32(tb[NICTL_A_IRQ_QUEUE]);
	irq->kind = nla_get_u32(tb[NICTL_A_IRQ_KIND]);
	irq->node = tb[NICTL_A_IRQ_NODE] ? nla_get_s32(tb[NICTL_A_IRQ_NODE]) : -1;
	irq->flags = get_u32_or(tb[NICTL_A_IRQ_FLAGS], 0);
	irq->group = get_u32_or(tb[NICTL_A_IRQ_GROUP], irq->queue);
	irq->owner_ifindex = get_u32_or(tb[NICTL_A_IRQ_OWNER], 0);
	irq->drifts = get_u32_or(tb[NICTL_A_IRQ_DRIFTS], 0);
	irq->drift_ns = tb[NICTL_A_IRQ_DRIFT_NS] ? nla_get_u64(tb[NICTL_A_IRQ_DRIFT_NS]) : 0;
	irq->target_cpu = -1;
	if (tb[NICTL_A_IRQ_TARGET_CPU]) {
		if (nla_get_u32(tb[NICTL_A_IRQ_TARGET_CPU]) >= CPUSET_MAX_CPUS)
			return -EPROTO;
		irq->target_cpu = nla_get_u32(tb[NICTL_A_IRQ_TARGET_CPU]);
	}
	err = dup_string(&irq->name, tb[NICTL_A_IRQ_NAME]);
	if (!err)
		err = parse_irq_queues(irq, nest);
	if (!err)
		err = get_cpus(&irq->affinity, tb[NICTL_A_IRQ_AFFINITY]);
	if (!err)
		err = get_cpus(&irq->effective, tb[NICTL_A_IRQ_EFFECTIVE]);
	return err == -ERANGE ? -EPROTO : err;
}

static int parse_irqs(struct nictl_dev *dev, struct nlattr *head, int len)
{
	struct nlattr *attr;
	unsigned int n = 0;
	int rem, err;

	nla_for_each_attr(attr, head, len, rem)
		n += nla_type(attr) == NICTL_A_IRQ;
	if (!n)
		return 0;
	dev->irqs = calloc(n, sizeof(*dev->irqs));
	if (!dev->irqs)
		return -ENOMEM;
	nla_for_each_attr(attr, head, len, rem) {
		if (nla_type(attr) != NICTL_A_IRQ)
			continue;
		/* Count before parsing: dev_release() then frees only what exists. */
		err = parse_irq(&dev->irqs[dev->nr_irqs++], attr);
		if (err)
			return err;
	}
	return 0;
}

/* The name a NICTL_A_UPPER or NICTL_A_LINK nest gives; NULL when it is malformed. */
const char *dev_link_name(struct nlattr *nest)
{
	struct nlattr *tb[NICTL_A_LINK_MAX + 1];

	if (nla_parse_nested(tb, NICTL_A_LINK_MAX, nest, (struct nla_policy *)link_policy) ||
	    !tb[NICTL_A_LINK_IFNAME])
		return NULL;
	return nla_get_string(tb[NICTL_A_LINK_IFNAME]);
}

/* The names of the devices stacked on this one, joined by commas. */
static int parse_uppers(struct nictl_dev *dev, struct nlattr *head, int len)
{
	size_t used = 0, size = 1;
	struct nlattr *attr;
	const char *name;
	char *grown;
	int rem;

	nla_for_each_attr(attr, head, len, rem) {
		if (nla_type(attr) != NICTL_A_UPPER)
			continue;
		name = dev_link_name(attr);
		if (!name)
			return -EPROTO;
		size += strlen(name) + 1;
		grown = realloc(dev->uppers, size);
		if (!grown)
			return -ENOMEM;
		dev->uppers = grown;
		used += sprintf(dev->uppers + used, "%s%s", used ? "," : "", name);
	}
	return 0;
}

static int parse_dev(struct nictl_dev *dev, struct nlattr *head, int len)
{
	struct nlattr *tb[NICTL_A_MAX + 1];
	int err;

	if (nla_parse(tb, NICTL_A_MAX, head, len, dev_policy) ||
	    !tb[NICTL_A_IFINDEX] || !tb[NICTL_A_IFNAME])
		return -EPROTO;
	dev->ifindex = nla_get_u32(tb[NICTL_A_IFINDEX]);
	dev->numa_node = tb[NICTL_A_NUMA_NODE] ? nla_get_s32(tb[NICTL_A_NUMA_NODE]) : -1;
	dev->other_netns = tb[NICTL_A_NETNS_ID];
	dev->netns_id = dev->other_netns ? nla_get_s32(tb[NICTL_A_NETNS_ID]) : 0;
	dev->rx_queues = tb[NICTL_A_RX_QUEUES] ? nla_get_u32(tb[NICTL_A_RX_QUEUES]) : 0;
	dev->tx_queues = tb[NICTL_A_TX_QUEUES] ? nla_get_u32(tb[NICTL_A_TX_QUEUES]) : 0;
	dev->flags = tb[NICTL_A_DEV_FLAGS] ? nla_get_u32(tb[NICTL_A_DEV_FLAGS]) : 0;
	dev->source = tb[NICTL_A_SOURCE] ? nla_get_u32(tb[NICTL_A_SOURCE]) :
		      NICTL_IRQ_SOURCE_NONE;
	err = dup_string(&dev->ifname, tb[NICTL_A_IFNAME]);
	if (!err)
		err = dup_string(&dev->driver, tb[NICTL_A_DRIVER]);
	if (!err)
		err = dup_string(&dev->bus_addr, tb[NICTL_A_BUS_ADDR]);
	if (!err)
		err = dup_string(&dev->sticky_id, tb[NICTL_A_STICKY_ID]);
	if (!err)
		err = parse_uppers(dev, head, len);
	if (!err)
		err = parse_irqs(dev, head, len);
	return err;
}

void dev_release(struct nictl_dev *dev)
{
	unsigned int i;

	for (i = 0; i < dev->nr_irqs; i++) {
		free(dev->irqs[i].name);
		free(dev->irqs[i].queues);
		cpuset_free(&dev->irqs[i].affinity);
		cpuset_free(&dev->irqs[i].effective);
	}
	free(dev->irqs);
	free(dev->ifname);
	free(dev->driver);
	free(dev->bus_addr);
	free(dev->sticky_id);
	free(dev->uppers);
}

void dev_list_free(struct dev_list *list)
{
	unsigned int i;

	for (i = 0; i < list->nr; i++)
		dev_release(&list->devs[i]);
	free(list->devs);
	free(list->stacked);
	*list = (struct dev_list){ NULL, 0, NULL, 0 };
}

/*
 * Move the devices of @src to the end of @dst; @src keeps nothing but its
 * stacked name, for dev_list_free(). 0 or -ENOMEM (both unchanged).
 */
int dev_list_take(struct dev_list *dst, struct dev_list *src)
{
	struct nictl_dev *devs;

	if (!src->nr)
		return 0;
	devs = realloc(dst->devs, (dst->nr + src->nr) * sizeof(*devs));
	if (!devs)
		return -ENOMEM;
	dst->devs = devs;
	memcpy(&devs[dst->nr], src->devs, src->nr * sizeof(*devs));
	dst->nr += src->nr;
	free(src->devs);
	src->devs = NULL;
	src->nr = 0;
	return 0;
}

/* Exchange device @i of @list with the one device @other describes (fresher). */
void dev_list_swap_dev(struct dev_list *list, unsigned int i, struct dev_list *other)
{
	struct nictl_dev dev = list->devs[i];

	list->devs[i] = other->devs[0];
	other->devs[0] = dev;
}

static int append_dev(struct dev_list *list, struct nlattr *head, int len)
{
	struct nictl_dev *devs;

	devs = realloc(list->devs, (list->nr + 1) * sizeof(*devs));
	if (!devs)
		return -ENOMEM;
	list->devs = devs;
	memset(&devs[list->nr], 0, sizeof(*devs));
	/* Counted even when parsing fails, so that dev_list_free() frees it. */
	return parse_dev(&devs[list->nr++], head, len);
}

/*
 * Join the part of a device that @list ends with to the part before it, if
 * both describe one device: a device whose IRQs do not fit one LOWER nest
 * continues in the next.
 */
static int join_parts(struct dev_list *list)
{
	struct nictl_dev *prev, *last;
	struct nictl_irq *irqs;

	if (list->nr < 2)
		return 0;
	prev = &list->devs[list->nr - 2];
	last = &list->devs[list->nr - 1];
	if (prev->ifindex != last->ifindex)
		return 0;
	irqs = realloc(prev->irqs, (prev->nr_irqs + last->nr_irqs) * sizeof(*irqs));
	if (!irqs && prev->nr_irqs + last->nr_irqs)
		return -ENOMEM;
	prev->irqs = irqs;
	memcpy(&irqs[prev->nr_irqs], last->irqs, last->nr_irqs * sizeof(*irqs));
	prev->nr_irqs += last->nr_irqs;
	last->nr_irqs = 0;
	dev_release(last);
	list->nr--;
	return 0;
}

/* A stacked device: its name, then each physical device beneath it. */
static int append_lowers(struct dev_list *list, struct nlattr *head, int len,
			 struct nlattr **tb)
{
	struct nlattr *attr;
	int rem, err = 0;

	if (!tb[NICTL_A_IFINDEX] || !tb[NICTL_A_IFNAME])
		return -EPROTO;
	free(list->stacked);
	list->stacked = strdup(nla_get_string(tb[NICTL_A_IFNAME]));
	if (!list->stacked)
		return -ENOMEM;
	list->stacked_ifindex = nla_get_u32(tb[NICTL_A_IFINDEX]);
	nla_for_each_attr(attr, head, len, rem)
		if (!err && nla_type(attr) == NICTL_A_LOWER)
			err = append_dev(list, nla_data(attr), nla_len(attr)) ?: join_parts(list);
	return err;
}

/* A ctl_nl_reply_fn: append the device(s) a reply describes to @arg, a dev_list. */
int dev_collect(struct nlmsghdr *hdr, void *arg)
{
	struct genlmsghdr *gnlh = nlmsg_data(hdr);
	struct nlattr *head = genlmsg_attrdata(gnlh, 0);
	int len = genlmsg_attrlen(gnlh, 0);
	struct nlattr *tb[NICTL_A_MAX + 1];

	if (nla_parse(tb, NICTL_A_MAX, head, len, dev_policy))
		return -EPROTO;
	if (tb[NICTL_A_DEV_FLAGS] && nla_get_u32(tb[NICTL_A_DEV_FLAGS]) & NICTL_DEV_F_STACKED)
		return append_lowers(arg, head, len, tb);
	return append_dev(arg, head, len);
}

/* A reply collected by dev_exchange(): it must carry its request's command. */
struct exchange {
	struct dev_list *list;
	uint8_t cmd;
	unsigned int replies;
};

static int exchange_collect(struct nlmsghdr *hdr, void *arg)
{
	struct exchange *x = arg;
	const struct genlmsghdr *gnlh = nlmsg_data(hdr);

	if (!genlmsg_valid_hdr(hdr, 0) || gnlh->cmd != x->cmd)
		return -EPROTO;
	x->replies++;
	return dev_collect(hdr, x->list);
}

/*
 * Send @msg (consumed; NULL stands for a request that could not be built)
 * and collect the devices of the replies into @out. Every reply must carry
 * the request's command, and a request that is not a dump must bring back
 * exactly one reply: one device, or the devices beneath a stacked one. On
 * failure print the one line about @cmd on @dev and return -1.
 */
int dev_exchange(struct ctl_nl *nl, struct nl_msg *msg, const char *cmd, const char *dev,
		 struct dev_list *out)
{
	struct ctl_nl_error e = { .err = -ENOMEM, .msg = "" };
	struct exchange x = { out, 0, 0 };
	bool dump;

	*out = (struct dev_list){ NULL, 0, NULL, 0 };
	if (msg) {
		dump = nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP;
		x.cmd = ((struct genlmsghdr *)nlmsg_data(nlmsg_hdr(msg)))->cmd;
		ctl_nl_transact(nl, msg, exchange_collect, &x, &e);
		if (!e.err && !dump && (x.replies != 1 || !out->nr))
			e.err = -EPROTO;
	}
	if (!e.err)
		return 0;
	ctl_nl_report(cmd, dev, &e);
	dev_list_free(out);
	return -1;
}

/* The number of placement groups among the device's IRQs: what a bind puts on a CPU each. */
unsigned int dev_group_count(const struct nictl_dev *dev)
{
	unsigned int i, n = 0;

	for (i = 0; i < dev->nr_irqs; i++)
		n = dev->irqs[i].group + 1 > n ? dev->irqs[i].group + 1 : n;
	return n;
}

/* The number of queues the device's IRQs serve: active queues count from 0 up. */
unsigned int dev_queue_count(const struct nictl_dev *dev)
{
	unsigned int i, k, n = 0;

	for (i = 0; i < dev->nr_irqs; i++)
		for (k = 0; k < dev->irqs[i].nr_queues; k++)
			if (dev->irqs[i].queues[k].queue + 1 > n)
				n = dev->irqs[i].queues[k].queue + 1;
	return n;
}

bool dev_irq_off_target(const struct nictl_irq *irq)
{
	return irq->target_cpu >= 0 && !cpuset_is_only(&irq->affinity, irq->target_cpu);
}

/* @dev's queue IRQ number @irq, NULL when it has none (or @irq is 0). */
const struct nictl_irq *dev_find_irq(const struct nictl_dev *dev, unsigned int irq)
{
	unsigned int i;

	for (i = 0; irq && i < dev->nr_irqs; i++)
		if (dev->irqs[i].irq == irq)
			return &dev->irqs[i];
	return NULL;
}

/*
 * The IRQ serving queue @q: its receive side when @rx, else its transmit
 * side (a combined IRQ serves both). NULL when no IRQ serves it.
 */
const struct nictl_irq *dev_queue_irq(const struct nictl_dev *dev, unsigned int q, bool rx)
{
	unsigned int unwanted = rx ? NICTL_QUEUE_KIND_TX : NICTL_QUEUE_KIND_RX;
	const struct irq_queue *served;
	unsigned int i, k;

	for (i = 0; i < dev->nr_irqs; i++) {
		for (k = 0; k < dev->irqs[i].nr_queues; k++) {
			served = &dev->irqs[i].queues[k];
			if (served->queue == q && served->kind != unwanted)
				return &dev->irqs[i];
		}
	}
	return NULL;
}

/*
 * Where @irq interrupts: the CPU nictl placed it on; else its effective CPU
 * when that is one. -1 when it interrupts several CPUs, which no node check
 * can judge.
 */
int dev_irq_cpu(const struct nictl_irq *irq)
{
	if (irq->target_cpu >= 0)
		return irq->target_cpu;
	return cpuset_weight(&irq->effective) == 1 ? cpuset_next(&irq->effective, -1) : -1;
}

/* The CPU nictl placed that IRQ on; -1 when it placed none. */
int dev_queue_cpu(const struct nictl_dev *dev, unsigned int q, bool rx)
{
	const struct nictl_irq *irq = dev_queue_irq(dev, q, rx);

	return irq ? irq->target_cpu : -1;
}
