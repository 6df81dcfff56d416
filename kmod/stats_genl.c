// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink side of the accounting: STATS_GET (a dump, one message per
 * possible CPU), STATS_SET, STATS_RESET and NAPI_GET (a device's NAPI
 * instances with their polls, packets and CPUs).
 */
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>

#include "nictl.h"
#include "stats.h"

static int nictl_put_softirq(struct sk_buff *skb, unsigned int vec,
			     const struct nictl_softirq_acc *acc)
{
	struct nlattr *nest = nla_nest_start(skb, NICTL_A_SOFTIRQ);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICTL_A_SOFTIRQ_VEC, vec) ||
	    nla_put_u64_64bit(skb, NICTL_A_SOFTIRQ_COUNT, acc->count, NICTL_A_SOFTIRQ_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_SOFTIRQ_TIME_NS, acc->time_ns, NICTL_A_SOFTIRQ_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_SOFTIRQ_MAX_NS, acc->max_ns, NICTL_A_SOFTIRQ_PAD) ||
	    nla_put(skb, NICTL_A_SOFTIRQ_HIST, sizeof(acc->hist), acc->hist)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int nictl_put_cpu_stats(struct sk_buff *skb, struct netlink_callback *cb,
			       unsigned int cpu)
{
	struct nictl_softirq_acc vec[__NICTL_SOFTIRQ_MAX];
	unsigned int v;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, &nictl_family,
			  NLM_F_MULTI, NICTL_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	nictl_stats_read_vecs(cpu, vec);
	if (nla_put_u32(skb, NICTL_A_CPU, cpu) ||
	    nla_put_u8(skb, NICTL_A_STATS_ENABLED, nictl_stats_enabled()) ||
	    nla_put_u64_64bit(skb, NICTL_A_STATS_START_NS, nictl_stats_start_ns(), NICTL_A_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_STATS_NOW_NS, ktime_get_ns(), NICTL_A_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_NAPI_UNATTRIBUTED,
			      READ_ONCE(nictl_stats_cpu(cpu)->napi_unattributed), NICTL_A_PAD))
		goto cancel;
	for (v = 0; v < __NICTL_SOFTIRQ_MAX; v++)
		if (nictl_put_softirq(skb, v, &vec[v]))
			goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/**
 * nictl_stats_get_dumpit() - %NICTL_CMD_STATS_GET; cb->args[0] is the next CPU
 * @skb: the dump buffer
 * @cb: the dump
 *
 * Return: the bytes written, 0 when done.
 */
int nictl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int cpu;

	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++)
		if (cpu_possible(cpu) && nictl_put_cpu_stats(skb, cb, cpu))
			break;
	cb->args[0] = cpu;
	return skb->len;
}

/**
 * nictl_stats_set_doit() - %NICTL_CMD_STATS_SET
 * @skb: the request
 * @info: its parsed form
 *
 * Return: 0 or an errno.
 */
int nictl_stats_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, NICTL_A_STATS_ENABLED)) {
		NL_SET_ERR_MSG(info->extack, "the new state is needed: stats-enabled 0 or 1");
		return -EINVAL;
	}
	return nictl_stats_set(nla_get_u8(info->attrs[NICTL_A_STATS_ENABLED]));
}

/**
 * nictl_stats_reset_doit() - %NICTL_CMD_STATS_RESET
 * @skb: the request
 * @info: its parsed form
 *
 * Return: 0 or an errno.
 */
int nictl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	return nictl_stats_reset();
}

/**
 * struct nictl_napi - one NAPI instance of a device
 * @id: its id
 * @queue: the receive queue it serves, or -1 before that is known
 */
struct nictl_napi {
	unsigned int id;
	int queue;
};

static int nictl_napi_cmp(const void *a, const void *b)
{
	const struct nictl_napi *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Which queue each NAPI serves: the kernel's own queue -> NAPI link where the
 * driver sets it; otherwise the order the driver registered its NAPIs in,
 * which ids follow (virtio_net registers queue 0's first, and so on).
 */
static void nictl_napi_queues(struct net_device *netdev, struct nictl_napi *napis,
			      unsigned int n)
{
	unsigned int q, i;
	bool linked = false;
	int id;

	for (q = 0; q < netdev->real_num_rx_queues; q++) {
		id = nictl_rx_queue_napi_id(netdev, q);
		if (id <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (napis[i].id == (unsigned int)id) {
				napis[i].queue = q;
				linked = true;
			}
		}
	}
	if (linked)
		return;
	sort(napis, n, sizeof(*napis), nictl_napi_cmp, NULL);
	for (i = 0; i < n; i++)
		napis[i].queue = i;
}

/* The device's NAPIs that have an id, at most @max of them. */
static unsigned int nictl_napis_of(struct net_device *netdev, struct nictl_napi *napis,
				   unsigned int max)
{
	struct napi_struct *napi;
	unsigned int n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(napi, &netdev->napi_list, dev_list) {
		if (n == max)
			break;
		if (napi->napi_id)
			napis[n++] = (struct nictl_napi){ .id = napi->napi_id, .queue = -1 };
	}
	rcu_read_unlock();
	nictl_napi_queues(netdev, napis, n);
	return n;
}

static int nictl_put_napi(struct sk_buff *skb, const struct nictl_napi *napi,
			  struct cpumask *cpus)
{
	struct nictl_napi_slot *slot;
	u64 polls = 0, packets = 0, p;
	struct nlattr *nest;
	unsigned int cpu;

	cpumask_clear(cpus);
	for_each_possible_cpu(cpu) {
		slot = nictl_napi_slot(nictl_stats_cpu(cpu), napi->id, false);
		p = slot ? READ_ONCE(slot->polls) : 0;
		if (!p)
			continue;
		polls += p;
		packets += READ_ONCE(slot->packets);
		cpumask_set_cpu(cpu, cpus);
	}
	nest = nla_nest_start(skb, NICTL_A_NAPI);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICTL_A_NAPI_ID, napi->id) ||
	    (napi->queue >= 0 && nla_put_u32(skb, NICTL_A_NAPI_QUEUE, napi->queue)) ||
	    nla_put_u64_64bit(skb, NICTL_A_NAPI_POLLS, polls, NICTL_A_NAPI_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_NAPI_PACKETS, packets, NICTL_A_NAPI_PAD) ||
	    nictl_nla_put_cpumask(skb, NICTL_A_NAPI_CPUS, cpus)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Replies beyond this many NAPIs would not fit a message; no NIC has them. */
#define NICTL_MAX_NAPIS	256

static struct sk_buff *nictl_napi_reply(const struct genl_info *info, struct net_device *netdev,
					const struct nictl_napi *napis, unsigned int n)
{
	size_t size = nla_total_size(sizeof(u32)) + nla_total_size(IFNAMSIZ) +
		      n * (nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +
			   2 * nla_total_size_64bit(sizeof(u64)) + nictl_nla_cpumask_size());
	struct sk_buff *msg;
	cpumask_var_t cpus;
	unsigned int i;
	void *hdr;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return ERR_PTR(-ENOMEM);
	msg = genlmsg_new(size, GFP_KERNEL);
	if (!msg)
		goto nomem;
	hdr = genlmsg_put(msg, info->snd_portid, info->snd_seq, &nictl_family, 0,
			  NICTL_CMD_NAPI_GET);
	if (!hdr || nla_put_u32(msg, NICTL_A_IFINDEX, netdev->ifindex) ||
	    nla_put_string(msg, NICTL_A_IFNAME, netdev->name))
		goto toobig;
	for (i = 0; i < n; i++)
		if (nictl_put_napi(msg, &napis[i], cpus))
			goto toobig;
	genlmsg_end(msg, hdr);
	free_cpumask_var(cpus);
	return msg;
toobig:
	nlmsg_free(msg);
	free_cpumask_var(cpus);
	return ERR_PTR(-EMSGSIZE);
nomem:
	free_cpumask_var(cpus);
	return ERR_PTR(-ENOMEM);
}

/**
 * nictl_napi_get_doit() - %NICTL_CMD_NAPI_GET
 * @skb: the request
 * @info: its parsed form
 *
 * Return: 0 after the reply was sent, or an errno with extack set.
 */
int nictl_napi_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *netdev;
	struct nictl_napi *napis;
	struct sk_buff *msg;
	unsigned int n;

	napis = kcalloc(NICTL_MAX_NAPIS, sizeof(*napis), GFP_KERNEL);
	if (!napis)
		return -ENOMEM;
	rtnl_lock();
	netdev = nictl_netdev_lookup(info);
	if (IS_ERR(netdev)) {
		msg = ERR_CAST(netdev);
	} else {
		n = nictl_napis_of(netdev, napis, NICTL_MAX_NAPIS);
		msg = nictl_napi_reply(info, netdev, napis, n);
	}
	rtnl_unlock();
	kfree(napis);
	return IS_ERR(msg) ? PTR_ERR(msg) : genlmsg_reply(msg, info);
}
