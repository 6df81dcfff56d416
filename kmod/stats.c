// SPDX-License-Identifier: GPL-2.0
/*
 * Softirq accounting (docs/design.md, Softirq accounting): probes on irq:softirq_entry/exit time
 * each NET_RX and NET_TX run per CPU; one on napi:napi_poll counts and times each NAPI's polls.
 * Probes touch only their CPU's data, in softirq or BH-off context: no lock, atomic or
 * allocation; other CPUs read an aligned u64 a moment old, never torn. Registration takes
 * cpus_read_lock, so none of this runs under it. The stats mutex serialises switching, reset,
 * the clock recheck and NAPI slot reclaim; NAPI_GET reads the slots under it.
 */
#include <linux/bsearch.h>
#include <linux/cpu.h>
#include <linux/interrupt.h>
#include <linux/log2.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <net/net_namespace.h>
#include <trace/events/irq.h>
#include <trace/events/napi.h>

#include "fault.h"
#include "stats.h"
#include "stats_clock.h"

static bool stats = true;
module_param(stats, bool, 0444);
MODULE_PARM_DESC(stats, "start softirq accounting at load (default: on)");

static struct nictl_cpu_stats __percpu *nictl_cpu_stats __read_mostly;
static DEFINE_MUTEX(nictl_stats_lock);
static bool nictl_stats_on;
static u64 nictl_stats_started;

static int nictl_softirq_vec(unsigned int vec_nr)
{
	switch (vec_nr) {
	case NET_RX_SOFTIRQ:
		return NICTL_SOFTIRQ_NET_RX;
	case NET_TX_SOFTIRQ:
		return NICTL_SOFTIRQ_NET_TX;
	default:
		return -1;
	}
}

static void nictl_softirq_entry(void *data, unsigned int vec_nr)
{
	struct nictl_cpu_stats *s = this_cpu_ptr(nictl_cpu_stats);
	int vec = nictl_softirq_vec(vec_nr);

	if (vec < 0)
		return;
	s->entered[vec] = nictl_stats_clock_read();
	if (vec != NICTL_SOFTIRQ_NET_RX)
		return;
	s->poll_mark = s->entered[vec];
	memset(s->poll_pending_ns, 0, sizeof(s->poll_pending_ns));
}

static unsigned int nictl_hist_bucket(u64 ns)
{
	u64 us = div_u64(ns, NSEC_PER_USEC);

	return us ? min_t(unsigned int, fls64(us), NICTL_HIST_BUCKETS - 1) : 0;
}

/*
 * A reader spins while a write section is open on the CPU it reads. Softirq and BH-off keep
 * preemption off, but not on PREEMPT_RT, where a higher priority reader could preempt the
 * writer and spin for ever: disable it.
 */
static void nictl_stats_write_begin(struct nictl_cpu_stats *s)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		preempt_disable();
	raw_write_seqcount_begin(&s->seq);
}

static void nictl_stats_write_end(struct nictl_cpu_stats *s)
{
	raw_write_seqcount_end(&s->seq);
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		preempt_enable();
}

static void nictl_softirq_exit(void *data, unsigned int vec_nr)
{
	struct nictl_cpu_stats *s = this_cpu_ptr(nictl_cpu_stats);
	struct nictl_softirq_acc *acc;
	int vec = nictl_softirq_vec(vec_nr);
	unsigned int bucket, kind;
	u64 ns;

	/* A run already going on when the probes attached has no entry time. */
	if (vec < 0 || !s->entered[vec])
		return;
	ns = nictl_stats_clock_ns(s->entered[vec], nictl_stats_clock_read());
	s->entered[vec] = 0;
	acc = &s->vec[vec];
	bucket = nictl_hist_bucket(ns);
	/* Readers copy a vector whole: count == its histogram's sum. */
	nictl_stats_write_begin(s);
	acc->count++;
	acc->time_ns += ns;
	if (ns > acc->max_ns)
		acc->max_ns = ns;
	acc->hist[bucket]++;
	/* With the run's time, so that in a copy polls never exceed NET_RX. */
	if (vec == NICTL_SOFTIRQ_NET_RX)
		for (kind = 0; kind < __NICTL_POLL_MAX; kind++)
			s->poll[kind].time_ns += s->poll_pending_ns[kind];
	nictl_stats_write_end(s);
}

/* @id's slot, or NULL. @claim (own CPU, BH off) takes a free one: NULL is then a full table. */
static struct nictl_napi_slot *nictl_napi_slot(struct nictl_cpu_stats *s, unsigned int id,
					       bool claim)
{
	unsigned int first = hash_32(id, ilog2(NICTL_NAPI_SLOTS)), i;
	struct nictl_napi_slot *slot;

	for (i = 0; i < NICTL_NAPI_SLOTS; i++) {
		slot = &s->napi[(first + i) % NICTL_NAPI_SLOTS];
		if (READ_ONCE(slot->napi_id) == id)
			return slot;
		if (!READ_ONCE(slot->napi_id)) {
			if (!claim)
				return NULL;
			WRITE_ONCE(slot->napi_id, id);
			return slot;
		}
	}
	return NULL;
}

/*
 * The time of the poll that just returned, if it ran in the NET_RX run timed on this CPU:
 * softirqs do not nest, and on PREEMPT_RT a task polling with BH off holds the BH lock, so no
 * poll runs inside another's run. Elsewhere (entered 0) nothing marks where the poll began.
 */
static bool nictl_poll_time(struct nictl_cpu_stats *s, u64 *ns)
{
	u64 now;

	if (!s->entered[NICTL_SOFTIRQ_NET_RX])
		return false;
	now = nictl_stats_clock_read();
	*ns = nictl_stats_clock_ns(s->poll_mark, now);
	s->poll_mark = now;
	return true;
}

/*
 * Whether the poll that just returned, outside NET_RX, was one of a busy-poll loop
 * (napi_busy_loop(): a task polls the NAPI over and over with BH off until its socket has data
 * or its time is up), and whether and how long it was timed. The loop holds
 * NAPI_STATE_IN_BUSY_POLL and clears it before its last poll (busy_poll_stop()). Nothing marks
 * where a loop starts, so its first poll is untimed; a later one took the time since the poll
 * before it, less the NET_RX and NET_TX runs that local_bh_enable() ran in between. A context
 * switch in between (the loop restarted after cond_resched(), or preempted on PREEMPT_RT) ends
 * the timing: the task may have moved, and the time off the CPU was not polling.
 */
static bool nictl_busy_poll(struct nictl_cpu_stats *s, const struct napi_struct *napi,
			    bool *timed, u64 *ns)
{
	struct nictl_busy_mark *m = &s->busy;
	bool looping = test_bit(NAPI_STATE_IN_BUSY_POLL, &napi->state);
	bool ours = m->napi == napi && m->task == current;
	u64 now, softirq_ns, elapsed;
	unsigned long switches;

	if (!looping && !ours)
		return false;
	switches = current->nvcsw + current->nivcsw;
	now = nictl_stats_clock_read();
	softirq_ns = s->vec[NICTL_SOFTIRQ_NET_RX].time_ns + s->vec[NICTL_SOFTIRQ_NET_TX].time_ns;
	*timed = ours && m->switches == switches;
	if (*timed) {
		elapsed = nictl_stats_clock_ns(m->at, now);
		*ns = elapsed - min(elapsed, softirq_ns - m->softirq_ns);
	}
	*m = (struct nictl_busy_mark){ .napi = looping ? napi : NULL, .task = current,
				       .switches = switches, .at = now, .softirq_ns = softirq_ns };
	return true;
}

/*
 * Only backlog NAPIs lack a device; NAPIs without an id (virtio_net's tx) are device polls only.
 * netpoll (netconsole) polls with budget 0 from any context, a hard IRQ that interrupted this
 * probe on its CPU included: it touches nothing, so that no update here is lost to it.
 */
static void nictl_napi_poll(void *data, struct napi_struct *napi, int work, int budget)
{
	struct nictl_cpu_stats *s = this_cpu_ptr(nictl_cpu_stats);
	unsigned int id = READ_ONCE(napi->napi_id);
	unsigned int kind = napi->dev ? NICTL_POLL_DEVICE : NICTL_POLL_BACKLOG;
	struct nictl_poll_acc *acc = &s->poll[kind];
	struct nictl_napi_slot *slot;
	u64 ns = 0, busy_ns = 0;
	bool timed;

	if (unlikely(!budget))
		return;
	WRITE_ONCE(acc->polls, acc->polls + 1);
	WRITE_ONCE(acc->packets, acc->packets + work);
	if (nictl_poll_time(s, &ns)) {
		s->poll_pending_ns[kind] += ns;
	} else if (nictl_busy_poll(s, napi, &timed, &busy_ns)) {
		WRITE_ONCE(acc->busy_polls, acc->busy_polls + 1);
		WRITE_ONCE(acc->busy_ns, acc->busy_ns + busy_ns);
		if (!timed)
			WRITE_ONCE(acc->untimed, acc->untimed + 1);
	} else {
		WRITE_ONCE(acc->untimed, acc->untimed + 1);
	}
	if (!id || kind == NICTL_POLL_BACKLOG)
		return;
	slot = nictl_napi_slot(s, id, true);
	if (!slot) {
		WRITE_ONCE(s->napi_unattributed, s->napi_unattributed + 1);
		return;
	}
	WRITE_ONCE(slot->polls, slot->polls + 1);
	WRITE_ONCE(slot->packets, slot->packets + work);
	WRITE_ONCE(slot->time_ns, slot->time_ns + ns);
	if (busy_ns)
		WRITE_ONCE(slot->busy_ns, slot->busy_ns + busy_ns);
}

/*
 * Attached in this order: a run whose entry was seen always has its exit seen. The other way
 * round, a NET_RX run between the two attachments left its entry time behind, and every poll
 * outside NET_RX on that CPU (busy polls, threaded NAPIs) counted as NET_RX until its next run.
 */
static struct nictl_probe {
	const char *name;
	void *probe;
	struct tracepoint *tp;
} nictl_probes[] = {
	{ "softirq_exit", nictl_softirq_exit },
	{ "softirq_entry", nictl_softirq_entry },
	{ "napi_poll", nictl_napi_poll },
};

/* softirq_entry/exit are not exported to modules: find them by name. */
static void nictl_find_tracepoint(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nictl_probes); i++)
		if (!strcmp(tp->name, nictl_probes[i].name))
			nictl_probes[i].tp = tp;
}

static void nictl_probes_unregister(unsigned int n)
{
	while (n--)
		tracepoint_probe_unregister(nictl_probes[n].tp, nictl_probes[n].probe, NULL);
	tracepoint_synchronize_unregister();
}

static int nictl_probes_register(void)
{
	unsigned int i, cpu;
	int err;

	/* An entry time or busy-poll mark left from before the last switch-off is stale. */
	for_each_possible_cpu(cpu) {
		memset(nictl_stats_cpu(cpu)->entered, 0,
		       sizeof_field(struct nictl_cpu_stats, entered));
		nictl_stats_cpu(cpu)->busy.napi = NULL;
	}
	for (i = 0; i < ARRAY_SIZE(nictl_probes); i++) {
		/* The test build can hold it half attached. */
		if (i == 1)
			nictl_fault_stall();
		err = tracepoint_probe_register(nictl_probes[i].tp, nictl_probes[i].probe, NULL);
		if (err) {
			pr_err("cannot attach to tracepoint %s: %d\n", nictl_probes[i].name, err);
			nictl_probes_unregister(i);
			return err;
		}
	}
	return 0;
}

/**
 * nictl_stats_set() - switch accounting on or off
 * @on: the new state
 *
 * Context: neither rtnl nor cpus_read_lock held.
 * Return: 0 or the error of tracepoint_probe_register().
 */
int nictl_stats_set(bool on)
{
	int err = 0;

	mutex_lock(&nictl_stats_lock);
	if (on && !nictl_stats_on)
		err = nictl_probes_register();
	else if (!on && nictl_stats_on)
		nictl_probes_unregister(ARRAY_SIZE(nictl_probes));
	if (!err)
		nictl_stats_on = on;
	mutex_unlock(&nictl_stats_lock);
	return err;
}

/**
 * nictl_stats_reset() - zero every counter and restart the clock
 *
 * The probes are detached meanwhile: no CPU writes a counter being zeroed.
 *
 * Return: 0 or the error of switching the probes back on.
 */
int nictl_stats_reset(void)
{
	unsigned int cpu;
	int err = 0;

	mutex_lock(&nictl_stats_lock);
	if (nictl_stats_on)
		nictl_probes_unregister(ARRAY_SIZE(nictl_probes));
	for_each_possible_cpu(cpu) {
		struct nictl_cpu_stats *s = nictl_stats_cpu(cpu);

		/* The only writer now, but STATS_GET reads on: a copy is all old or all zero. */
		nictl_stats_write_begin(s);
		memset(s->vec, 0, sizeof(s->vec));
		memset(s->poll, 0, sizeof(s->poll));
		memset(s->napi, 0, sizeof(s->napi));
		s->napi_unattributed = 0;
		nictl_stats_write_end(s);
	}
	WRITE_ONCE(nictl_stats_started, ktime_get_ns());
	if (nictl_stats_on)
		err = nictl_probes_register();
	if (err)
		nictl_stats_on = false;
	mutex_unlock(&nictl_stats_lock);
	return err;
}

bool nictl_stats_enabled(void)
{
	return READ_ONCE(nictl_stats_on);
}

u64 nictl_stats_start_ns(void)
{
	return READ_ONCE(nictl_stats_started);
}

/**
 * nictl_stats_cpu() - the counters of one CPU
 * @cpu: a possible CPU
 *
 * Read vectors and poll kinds with nictl_stats_read_vecs(); NAPI slots with READ_ONCE()
 * inside nictl_stats_read_begin()/_retry(), or under nictl_napi_slots_lock().
 *
 * Return: its counters.
 */
struct nictl_cpu_stats *nictl_stats_cpu(unsigned int cpu)
{
	return per_cpu_ptr(nictl_cpu_stats, cpu);
}

unsigned int nictl_stats_read_begin(unsigned int cpu)
{
	return raw_read_seqcount_begin(&nictl_stats_cpu(cpu)->seq);
}

bool nictl_stats_read_retry(unsigned int cpu, unsigned int seq)
{
	return read_seqcount_retry(&nictl_stats_cpu(cpu)->seq, seq);
}

/**
 * nictl_stats_read_vecs() - consistent copy of a CPU's vector and poll counters
 * @cpu: a possible CPU
 * @vec: receives %__NICTL_SOFTIRQ_MAX entries
 * @poll: receives %__NICTL_POLL_MAX entries, timed over the same finished NET_RX runs as @vec
 */
void nictl_stats_read_vecs(unsigned int cpu, struct nictl_softirq_acc *vec,
			   struct nictl_poll_acc *poll)
{
	struct nictl_cpu_stats *s = nictl_stats_cpu(cpu);
	unsigned int seq, kind;

	do {
		seq = nictl_stats_read_begin(cpu);
		memcpy(vec, s->vec, sizeof(s->vec));
		for (kind = 0; kind < __NICTL_POLL_MAX; kind++) {
			poll[kind].polls = READ_ONCE(s->poll[kind].polls);
			poll[kind].packets = READ_ONCE(s->poll[kind].packets);
			poll[kind].time_ns = s->poll[kind].time_ns;
			poll[kind].untimed = READ_ONCE(s->poll[kind].untimed);
			poll[kind].busy_polls = READ_ONCE(s->poll[kind].busy_polls);
			poll[kind].busy_ns = READ_ONCE(s->poll[kind].busy_ns);
		}
	} while (nictl_stats_read_retry(cpu, seq));
}

/*
 * NAPI ids are never reused, so a gone NAPI's slot can be freed: a CPU's table is rebuilt whole
 * (freeing one slot would cut probe chains) on that CPU with BH off, so no probe runs meanwhile.
 */

/**
 * struct nictl_reclaim - one CPU's table rebuild
 * @cpu: the CPU
 * @dead: sorted ids of NAPIs that no longer exist
 * @n_dead: entries in @dead
 * @keep: scratch for the live slots
 */
struct nictl_reclaim {
	unsigned int cpu;
	const u32 *dead;
	unsigned int n_dead;
	struct nictl_napi_slot keep[NICTL_NAPI_SLOTS];
};

static int nictl_u32_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static unsigned int nictl_napi_slots_used(const struct nictl_cpu_stats *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < NICTL_NAPI_SLOTS; i++)
		n += !!READ_ONCE(s->napi[i].napi_id);
	return n;
}

static bool nictl_napi_slots_crowded(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (nictl_napi_slots_used(nictl_stats_cpu(cpu)) > NICTL_NAPI_SLOTS_RECLAIM)
			return true;
	return false;
}

/* The seqcount tells lockless readers (STATS_GET) that the table moved. */
static long nictl_napi_rebuild(void *arg)
{
	struct nictl_reclaim *r = arg;
	struct nictl_cpu_stats *s = nictl_stats_cpu(r->cpu);
	struct nictl_napi_slot *slot;
	unsigned int i, n = 0;

	local_bh_disable();
	nictl_stats_write_begin(s);
	for (i = 0; i < NICTL_NAPI_SLOTS; i++) {
		slot = &s->napi[i];
		if (slot->napi_id && !bsearch(&slot->napi_id, r->dead, r->n_dead,
					      sizeof(*r->dead), nictl_u32_cmp))
			r->keep[n++] = *slot;
	}
	memset(s->napi, 0, sizeof(s->napi));
	for (i = 0; i < n; i++) {
		slot = nictl_napi_slot(s, r->keep[i].napi_id, true);
		*slot = r->keep[i];
	}
	nictl_stats_write_end(s);
	local_bh_enable();
	return 0;
}

static void nictl_napi_id_live(u32 id, const u32 *ids, bool *live, unsigned int n)
{
	u32 *found = bsearch(&id, ids, n, sizeof(*ids), nictl_u32_cmp);

	if (found)
		live[found - ids] = true;
}

/*
 * Keep in @ids (sorted, distinct) those of no NAPI nor NAPI config (6.13+: a NAPI re-added after
 * a reset gets its id, and counters, back) of any device in any namespace; return how many.
 * Walked under RCU, as netif_napi_del() expects; a device's configs live as long as it does.
 */
static unsigned int nictl_napi_ids_dead(u32 *ids, bool *live, unsigned int n)
{
	struct napi_struct *napi;
	struct net_device *netdev;
	unsigned int i, n_dead = 0;
	struct net *net;

	memset(live, 0, n * sizeof(*live));
	rcu_read_lock();
	for_each_net_rcu(net) {
		for_each_netdev_rcu(net, netdev) {
			list_for_each_entry_rcu(napi, &netdev->napi_list, dev_list)
				nictl_napi_id_live(READ_ONCE(napi->napi_id), ids, live, n);
			for (i = 0; i < nictl_napi_configs(netdev); i++)
				nictl_napi_id_live(nictl_napi_config_id(netdev, i), ids, live, n);
		}
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++)
		if (!live[i])
			ids[n_dead++] = ids[i];
	return n_dead;
}

/* The distinct ids in every CPU's table, sorted; how many, or -ENOMEM. */
static int nictl_napi_ids_used(u32 **idsp)
{
	unsigned int cpu, i, n = 0, d = 0;
	u32 id, *ids;

	ids = kvmalloc_array(num_possible_cpus() * NICTL_NAPI_SLOTS, sizeof(*ids), GFP_KERNEL);
	if (!ids)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		for (i = 0; i < NICTL_NAPI_SLOTS; i++) {
			id = READ_ONCE(nictl_stats_cpu(cpu)->napi[i].napi_id);
			if (id)
				ids[n++] = id;
		}
	}
	sort(ids, n, sizeof(*ids), nictl_u32_cmp, NULL);
	for (i = 0; i < n; i++)
		if (!d || ids[d - 1] != ids[i])
			ids[d++] = ids[i];
	*idsp = ids;
	return d;
}

static bool nictl_napi_table_has_dead(const struct nictl_cpu_stats *s, const u32 *dead,
				      unsigned int n_dead)
{
	unsigned int i;
	u32 id;

	for (i = 0; i < NICTL_NAPI_SLOTS; i++) {
		id = READ_ONCE(s->napi[i].napi_id);
		if (id && bsearch(&id, dead, n_dead, sizeof(*dead), nictl_u32_cmp))
			return true;
	}
	return false;
}

/*
 * The ids the last scan found on no device, and when. A NAPI is on no device list for a moment
 * while its device moves between namespaces (unlisted from one, then listed in the other) or
 * comes back from a dying one: an id is dead once two scans, one to ten seconds apart, missed
 * it. Under the stats mutex.
 */
static u32 *nictl_napi_missed;
static unsigned int nictl_napi_n_missed;
static u64 nictl_napi_missed_at;

/* Keep in @ids those the last scan missed too, and remember all @n; how many kept, -1 not yet. */
static int nictl_napi_confirm(u32 *ids, unsigned int n)
{
	u64 now = ktime_get_ns(), since = now - nictl_napi_missed_at;
	unsigned int i, k = 0;
	u32 *missed;

	if (since < NSEC_PER_SEC)
		return -1;
	missed = kvmalloc_array(max(n, 1U), sizeof(*missed), GFP_KERNEL);
	if (!missed)
		return -1;
	memcpy(missed, ids, n * sizeof(*ids));
	for (i = 0; since <= 10 * NSEC_PER_SEC && i < n; i++)
		if (bsearch(&ids[i], nictl_napi_missed, nictl_napi_n_missed, sizeof(*ids),
			    nictl_u32_cmp))
			ids[k++] = ids[i];
	kvfree(nictl_napi_missed);
	nictl_napi_missed = missed;
	nictl_napi_n_missed = n;
	nictl_napi_missed_at = now;
	return k;
}

/* Free dead NAPIs' slots once a CPU uses over half its table; on allocation failure, next time. */
static void nictl_napi_reclaim(void)
{
	struct nictl_reclaim *r;
	unsigned int cpu;
	bool *live;
	u32 *ids;
	int n, dead;

	lockdep_assert_held(&nictl_stats_lock);
	if (!nictl_napi_slots_crowded())
		return;
	n = nictl_napi_ids_used(&ids);
	if (n < 0)
		return;
	live = kvmalloc_array(max(n, 1), sizeof(*live), GFP_KERNEL);
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!live || !r)
		goto out;
	r->dead = ids;
	dead = nictl_napi_confirm(ids, nictl_napi_ids_dead(ids, live, n));
	if (dead <= 0)
		goto out;
	r->n_dead = dead;
	/* Tables are rebuilt on their CPU, or offline: hold off hotplug. */
	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		if (!nictl_napi_table_has_dead(nictl_stats_cpu(cpu), r->dead, r->n_dead))
			continue;
		r->cpu = cpu;
		if (cpu_online(cpu))
			work_on_cpu(cpu, nictl_napi_rebuild, r);
		else
			nictl_napi_rebuild(r);
	}
	cpus_read_unlock();
out:
	kfree(r);
	kvfree(live);
	kvfree(ids);
}

/**
 * nictl_napi_slots_lock() - hold the NAPI slots still for nictl_napi_read(), reclaiming first
 *
 * Context: may hold rtnl; not cpus_read_lock.
 */
void nictl_napi_slots_lock(void)
{
	mutex_lock(&nictl_stats_lock);
	nictl_napi_reclaim();
}

void nictl_napi_slots_unlock(void)
{
	mutex_unlock(&nictl_stats_lock);
}

/**
 * nictl_napi_read() - a NAPI's polls, packets and times on all CPUs
 * @id: the NAPI id
 * @sum: receives its id and the sums
 * @cpus: receives the CPUs that polled it
 *
 * Context: between nictl_napi_slots_lock() and nictl_napi_slots_unlock().
 */
void nictl_napi_read(unsigned int id, struct nictl_napi_slot *sum, struct cpumask *cpus)
{
	struct nictl_napi_slot *slot;
	unsigned int cpu;
	u64 p;

	lockdep_assert_held(&nictl_stats_lock);
	*sum = (struct nictl_napi_slot){ .napi_id = id };
	cpumask_clear(cpus);
	for_each_possible_cpu(cpu) {
		slot = nictl_napi_slot(nictl_stats_cpu(cpu), id, false);
		p = slot ? READ_ONCE(slot->polls) : 0;
		if (!p)
			continue;
		sum->polls += p;
		sum->packets += READ_ONCE(slot->packets);
		sum->time_ns += READ_ONCE(slot->time_ns);
		sum->busy_ns += READ_ONCE(slot->busy_ns);
		cpumask_set_cpu(cpu, cpus);
	}
}

/* Detach the probes, change clocks, attach them again (entry times cleared). */
static void nictl_stats_clock_recheck(void)
{
	lockdep_assert_held(&nictl_stats_lock);
	if (!nictl_stats_clock_untrusted())
		return;
	if (nictl_stats_on)
		nictl_probes_unregister(ARRAY_SIZE(nictl_probes));
	nictl_stats_clock_fallback();
	if (nictl_stats_on && nictl_probes_register())
		nictl_stats_on = false;
}

static void nictl_stats_tick(struct work_struct *work);
static DECLARE_DELAYED_WORK(nictl_stats_work, nictl_stats_tick);

/* Once a second: the clock is still trusted, the NAPI tables have room. */
static void nictl_stats_tick(struct work_struct *work)
{
	mutex_lock(&nictl_stats_lock);
	nictl_stats_clock_recheck();
	if (nictl_stats_on)
		nictl_napi_reclaim();
	mutex_unlock(&nictl_stats_lock);
	schedule_delayed_work(&nictl_stats_work, HZ);
}

/**
 * nictl_stats_init() - allocate, find the tracepoints, start if stats=1
 *
 * Return: 0, -ENOMEM, -ENOENT (no such tracepoint) or a registration error.
 */
int nictl_stats_init(void)
{
	unsigned int i, cpu;
	int err;

	check_trace_callback_type_softirq_entry(nictl_softirq_entry);
	check_trace_callback_type_softirq_exit(nictl_softirq_exit);
	check_trace_callback_type_napi_poll(nictl_napi_poll);

	for_each_kernel_tracepoint(nictl_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(nictl_probes); i++) {
		if (!nictl_probes[i].tp) {
			pr_err("tracepoint %s not found\n", nictl_probes[i].name);
			return -ENOENT;
		}
	}
	nictl_cpu_stats = alloc_percpu(struct nictl_cpu_stats);
	if (!nictl_cpu_stats)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		seqcount_init(&nictl_stats_cpu(cpu)->seq);
	nictl_stats_clock_init();
	nictl_stats_started = ktime_get_ns();
	err = nictl_stats_set(stats);
	if (err) {
		free_percpu(nictl_cpu_stats);
		return err;
	}
	schedule_delayed_work(&nictl_stats_work, HZ);
	return 0;
}

void nictl_stats_exit(void)
{
	cancel_delayed_work_sync(&nictl_stats_work);
	nictl_stats_set(false);
	free_percpu(nictl_cpu_stats);
	kvfree(nictl_napi_missed);
}
