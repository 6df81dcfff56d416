// SPDX-License-Identifier: GPL-2.0
/*
 * STATS_GET (a dump, one message per possible CPU), STATS_SET, STATS_RESET and NAPI_GET (do or
 * dump). The stats mutex orders STATS_SET/RESET and the NAPI slots' readers, rtnl the devices;
 * per-CPU counters and NAPI times are read locklessly.
 */
#include <linux/bsearch.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>

#include "fault.h"
#include "nictl.h"
#include "stats.h"

/* Bucket @b counts runs of [2^(b-1), 2^b) us, see %NICTL_HIST_BUCKETS. */
static int nictl_put_hist_bucket(struct sk_buff *skb, unsigned int b, u64 count)
{
	struct nlattr *nest = nla_nest_start(skb, NICTL_A_SOFTIRQ_HIST);
	u32 low = b ? BIT(b - 1) * NSEC_PER_USEC : 0;

	if (!nest || nla_put_u32(skb, NICTL_A_HIST_BUCKET_LOW_NS, low) ||
	    (b < NICTL_HIST_BUCKETS - 1 &&
	     nla_put_u32(skb, NICTL_A_HIST_BUCKET_HIGH_NS, BIT(b) * NSEC_PER_USEC)) ||
	    nla_put_u64_64bit(skb, NICTL_A_HIST_BUCKET_COUNT, count, NICTL_A_HIST_BUCKET_PAD))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int nictl_put_softirq(struct sk_buff *skb, unsigned int vec,
			     const struct nictl_softirq_acc *acc)
{
	struct nlattr *nest = nla_nest_start(skb, NICTL_A_SOFTIRQ);
	unsigned int b;
	int err;

	if (!nest)
		return -EMSGSIZE;
	err = nla_put_u32(skb, NICTL_A_SOFTIRQ_VEC, vec) ||
	      nla_put_u64_64bit(skb, NICTL_A_SOFTIRQ_COUNT, acc->count, NICTL_A_SOFTIRQ_PAD) ||
	      nla_put_u64_64bit(skb, NICTL_A_SOFTIRQ_TIME_NS, acc->time_ns, NICTL_A_SOFTIRQ_PAD) ||
	      nla_put_u64_64bit(skb, NICTL_A_SOFTIRQ_MAX_NS, acc->max_ns, NICTL_A_SOFTIRQ_PAD) ?
	      -EMSGSIZE : 0;
	for (b = 0; !err && b < NICTL_HIST_BUCKETS; b++)
		err = nictl_put_hist_bucket(skb, b, acc->hist[b]);
	if (err) {
		nla_nest_cancel(skb, nest);
		return err;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int nictl_put_poll(struct sk_buff *skb, unsigned int kind,
			  const struct nictl_poll_acc *acc)
{
	struct nlattr *nest = nla_nest_start(skb, NICTL_A_POLL);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICTL_A_POLL_KIND, kind) ||
	    nla_put_u64_64bit(skb, NICTL_A_POLL_POLLS, acc->polls, NICTL_A_POLL_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_POLL_PACKETS, acc->packets, NICTL_A_POLL_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_POLL_TIME_NS, acc->time_ns, NICTL_A_POLL_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_POLL_UNTIMED, acc->untimed, NICTL_A_POLL_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_POLL_BUSY_POLLS, acc->busy_polls, NICTL_A_POLL_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_POLL_BUSY_NS, acc->busy_ns, NICTL_A_POLL_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * A %NICTL_A_NAPI nest: NAPI_GET's sums over @cpus, the CPUs that polled it, and @queue unless
 * negative; or, with @cpus NULL, one CPU's slot in STATS_GET: only the id and the times.
 */
static int nictl_put_napi(struct sk_buff *skb, const struct nictl_napi_slot *slot, int queue,
			  const struct cpumask *cpus)
{
	struct nlattr *nest = nla_nest_start(skb, NICTL_A_NAPI);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, NICTL_A_NAPI_ID, slot->napi_id) ||
	    (queue >= 0 && nla_put_u32(skb, NICTL_A_NAPI_QUEUE, queue)) ||
	    (cpus && (nla_put_u64_64bit(skb, NICTL_A_NAPI_POLLS, slot->polls, NICTL_A_NAPI_PAD) ||
		      nla_put_u64_64bit(skb, NICTL_A_NAPI_PACKETS, slot->packets,
					NICTL_A_NAPI_PAD) ||
		      nictl_nla_put_cpumask(skb, NICTL_A_NAPI_CPUS, cpus))) ||
	    nla_put_u64_64bit(skb, NICTL_A_NAPI_TIME_NS, slot->time_ns, NICTL_A_NAPI_PAD) ||
	    nla_put_u64_64bit(skb, NICTL_A_NAPI_BUSY_NS, slot->busy_ns, NICTL_A_NAPI_PAD)) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* No stats mutex: a reclaim meanwhile restarts the copy. */
static int nictl_put_cpu_napis(struct sk_buff *skb, unsigned int cpu)
{
	const struct nictl_napi_slot *slots = nictl_stats_cpu(cpu)->napi;
	unsigned char *mark = skb_tail_pointer(skb);
	struct nictl_napi_slot slot = {};
	unsigned int seq, i;

	do {
		nlmsg_trim(skb, mark);
		seq = nictl_stats_read_begin(cpu);
		for (i = 0; i < NICTL_NAPI_SLOTS; i++) {
			slot.napi_id = READ_ONCE(slots[i].napi_id);
			if (!slot.napi_id)
				continue;
			slot.time_ns = READ_ONCE(slots[i].time_ns);
			slot.busy_ns = READ_ONCE(slots[i].busy_ns);
			if (nictl_put_napi(skb, &slot, -1, NULL))
				return -EMSGSIZE;
		}
	} while (nictl_stats_read_retry(cpu, seq));
	return 0;
}

static int nictl_put_cpu_stats(struct sk_buff *skb, struct netlink_callback *cb,
			       unsigned int cpu)
{
	struct nictl_softirq_acc vec[__NICTL_SOFTIRQ_MAX];
	struct nictl_poll_acc poll[__NICTL_POLL_MAX];
	unsigned int v;
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq, &nictl_family,
			  NLM_F_MULTI, NICTL_CMD_STATS_GET);
	if (!hdr)
		return -EMSGSIZE;
	nictl_stats_read_vecs(cpu, vec, poll);
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
	for (v = 0; v < __NICTL_POLL_MAX; v++)
		if (nictl_put_poll(skb, v, &poll[v]))
			goto cancel;
	if (nictl_put_cpu_napis(skb, cpu))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* The most nictl_put_cpu_stats() puts: every NAPI slot in use. */
static size_t nictl_cpu_stats_size(void)
{
	size_t u32 = nla_total_size(sizeof(u32)), u64 = nla_total_size_64bit(sizeof(u64));
	size_t hist = nla_total_size(0) + 2 * u32 + u64;
	size_t softirq = nla_total_size(0) + u32 + 3 * u64 + NICTL_HIST_BUCKETS * hist;
	size_t poll = nla_total_size(0) + u32 + 6 * u64;
	size_t napi = nla_total_size(0) + u32 + 2 * u64;

	return nlmsg_total_size(GENL_HDRLEN + u32 + nla_total_size(sizeof(u8)) + 3 * u64 +
				__NICTL_SOFTIRQ_MAX * softirq + __NICTL_POLL_MAX * poll +
				NICTL_NAPI_SLOTS * napi);
}

/* Every part of the dump holds a CPU's message, whatever NLMSG_GOODSIZE is. */
int nictl_stats_get_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = nictl_cpu_stats_size();
	return nictl_genl_dump_start(cb);
}

/* cb->args[0]: the next CPU. */
int nictl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned int cpu;

	nictl_fault_stall();
	for (cpu = cb->args[0]; cpu < nr_cpu_ids; cpu++)
		if (cpu_possible(cpu) && nictl_put_cpu_stats(skb, cb, cpu))
			break;
	/* A CPU that fits no part would end the dump early, as if done. */
	if (cpu < nr_cpu_ids && !skb->len)
		return -EMSGSIZE;
	cb->args[0] = cpu;
	return skb->len;
}

int nictl_stats_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	if (GENL_REQ_ATTR_CHECK(info, NICTL_A_STATS_ENABLED)) {
		NL_SET_ERR_MSG(info->extack, "the new state is needed: stats-enabled 0 or 1");
		return -EINVAL;
	}
	return nictl_stats_set(nla_get_u8(info->attrs[NICTL_A_STATS_ENABLED]));
}

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

/* Each NAPI's queue: the driver's queue -> NAPI link, else id order, which follows registration. */
static void nictl_napi_queues(struct net_device *netdev, struct nictl_napi *napis,
			      unsigned int n)
{
	struct nictl_napi key, *napi;
	bool linked = false;
	unsigned int q, i;
	int id;

	for (q = 0; q < netdev->real_num_rx_queues; q++) {
		id = nictl_rx_queue_napi_id(netdev, q);
		if (id <= 0)
			continue;
		key.id = id;
		napi = bsearch(&key, napis, n, sizeof(*napis), nictl_napi_cmp);
		if (napi) {
			napi->queue = q;
			linked = true;
		}
	}
	if (linked)
		return;
	for (i = 0; i < n; i++)
		napis[i].queue = i;
}

/* The NAPIs with an id, by id, in a new array (kvfree it), maybe not one just added. rtnl held. */
static int nictl_napis_of(struct net_device *netdev, struct nictl_napi **napisp,
			  unsigned int *np)
{
	struct nictl_napi *napis;
	struct napi_struct *napi;
	unsigned int n = 0, max = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(napi, &netdev->napi_list, dev_list)
		max++;
	rcu_read_unlock();
	napis = kvcalloc(max ?: 1, sizeof(*napis), GFP_KERNEL);
	if (!napis)
		return -ENOMEM;
	rcu_read_lock();
	list_for_each_entry_rcu(napi, &netdev->napi_list, dev_list) {
		if (n == max)
			break;
		if (READ_ONCE(napi->napi_id))
			napis[n++] = (struct nictl_napi){ .id = READ_ONCE(napi->napi_id),
							  .queue = -1 };
	}
	rcu_read_unlock();
	sort(napis, n, sizeof(*napis), nictl_napi_cmp, NULL);
	/* Queue -> NAPI links and NAPI ids are the instance lock's (6.15+). */
	netdev_lock(netdev);
	nictl_napi_queues(netdev, napis, n);
	netdev_unlock(netdev);
	*napisp = napis;
	*np = n;
	return 0;
}

static size_t nictl_napi_nest_size(void)
{
	return nla_total_size(0) + 2 * nla_total_size(sizeof(u32)) +
	       4 * nla_total_size_64bit(sizeof(u64)) + nictl_nla_cpumask_size();
}

/* One NAPI_GET message: the device, *@sent of @napis (-EMSGSIZE: none). rtnl, NAPI slots held. */
static int nictl_napi_fill(struct sk_buff *skb, struct net_device *netdev,
			   const struct nictl_napi *napis, unsigned int n, u32 portid, u32 seq,
			   int flags, unsigned int *sent)
{
	unsigned int max = nictl_fault_dump_items() ?: n, i;
	struct nictl_napi_slot sum;
	cpumask_var_t cpus;
	void *hdr;

	if (!alloc_cpumask_var(&cpus, GFP_KERNEL))
		return -ENOMEM;
	hdr = genlmsg_put(skb, portid, seq, &nictl_family, flags, NICTL_CMD_NAPI_GET);
	if (!hdr)
		goto toobig;
	if (nla_put_u32(skb, NICTL_A_IFINDEX, netdev->ifindex) ||
	    nla_put_string(skb, NICTL_A_IFNAME, netdev->name) ||
	    nictl_put_netns_id(skb, netdev))
		goto cancel;
	for (i = 0; i < n && i < max; i++) {
		nictl_napi_read(napis[i].id, &sum, cpus);
		if (nictl_put_napi(skb, &sum, napis[i].queue, cpus))
			break;
	}
	if (n && !i)
		goto cancel;
	genlmsg_end(skb, hdr);
	free_cpumask_var(cpus);
	*sent = i;
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
toobig:
	free_cpumask_var(cpus);
	return -EMSGSIZE;
}

/* Every NAPI in one reply. Takes the NAPI slots (the stats mutex), then rtnl. */
int nictl_napi_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nictl_napi *napis = NULL;
	struct net_device *netdev;
	struct sk_buff *msg = NULL;
	unsigned int n = 0, sent = 0;
	int err;

	nictl_napi_slots_lock();
	rtnl_lock();
	netdev = nictl_netdev_lookup(info);
	err = PTR_ERR_OR_ZERO(netdev) ?: nictl_napis_of(netdev, &napis, &n);
	if (!err) {
		msg = genlmsg_new(nla_total_size(sizeof(u32)) + nla_total_size(IFNAMSIZ) +
				  nictl_netns_id_size() + n * nictl_napi_nest_size(),
				  GFP_KERNEL);
		err = msg ? nictl_napi_fill(msg, netdev, napis, n, info->snd_portid,
					    info->snd_seq, 0, &sent) : -ENOMEM;
	}
	if (!err && sent < n) {
		NL_SET_ERR_MSG_FMT(info->extack, "%s: %u NAPIs do not fit a reply: dump them",
				   netdev->name, n);
		err = -EMSGSIZE;
	}
	rtnl_unlock();
	nictl_napi_slots_unlock();
	kvfree(napis);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args of a NAPI_GET dump. NAPIs go out by ascending id: one that comes or goes shifts none. */
enum { NICTL_NAPI_CB_IFINDEX, NICTL_NAPI_CB_LAST_ID, NICTL_NAPI_CB_SENT };

/*
 * By the request's attributes in the first part (so a failure's extack reaches NLMSG_DONE: 6.1
 * gives it to dump callbacks, not to their start), by ifindex afterwards.
 */
static struct net_device *nictl_napi_dump_dev(struct netlink_callback *cb,
					      const struct genl_info *info)
{
	struct net_device *netdev;

	if (cb->args[NICTL_NAPI_CB_SENT])
		return __dev_get_by_index(info->user_ptr[0], cb->args[NICTL_NAPI_CB_IFINDEX]) ?:
		       ERR_PTR(-ENODEV);
	netdev = nictl_netdev_lookup(info);
	if (!IS_ERR(netdev))
		cb->args[NICTL_NAPI_CB_IFINDEX] = netdev->ifindex;
	return netdev;
}

int nictl_napi_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long last = cb->args[NICTL_NAPI_CB_LAST_ID];
	struct nictl_napi *napis = NULL;
	struct net_device *netdev;
	unsigned int n = 0, i, sent = 0;
	struct genl_info info;
	struct net *net;
	int err;

	nictl_fault_stall();
	net = nictl_dump_net(cb, &info);
	if (IS_ERR(net))
		return PTR_ERR(net);
	nictl_napi_slots_lock();
	rtnl_lock();
	netdev = nictl_napi_dump_dev(cb, &info);
	err = PTR_ERR_OR_ZERO(netdev) ?: nictl_napis_of(netdev, &napis, &n);
	if (!err) {
		for (i = 0; i < n && napis[i].id <= last; i++)
			;
		/* The first message names the device even without NAPIs. */
		if (i < n || !cb->args[NICTL_NAPI_CB_SENT]) {
			err = nictl_napi_fill(skb, netdev, napis + i, n - i,
					      NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
					      NLM_F_MULTI, &sent);
			if (!err && sent)
				cb->args[NICTL_NAPI_CB_LAST_ID] = napis[i + sent - 1].id;
			cb->args[NICTL_NAPI_CB_SENT] += !err;
		}
	}
	rtnl_unlock();
	nictl_napi_slots_unlock();
	put_net(net);
	kvfree(napis);
	return err ?: skb->len;
}
