// SPDX-License-Identifier: GPL-2.0
/*
 * Softirq accounting: native probes on irq:softirq_entry/exit time every run
 * of the NET_RX and NET_TX handlers per CPU, and a probe on napi:napi_poll
 * counts every NAPI instance's polls and packets per CPU. The probes touch
 * only their own CPU's data, in softirq (or BH-disabled) context, so they
 * need no lock or atomic and allocate nothing. Readers on other CPUs may
 * see a counter a moment old, never a torn one (aligned u64 on 64-bit).
 *
 * Switching off unregisters the probes (zero cost); the counters stay.
 * Registration takes cpus_read_lock, so none of this runs under it.
 */
#include <linux/interrupt.h>
#include <linux/log2.h>
#include <linux/hash.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seqlock.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <trace/events/irq.h>
#include <trace/events/napi.h>

#include "stats.h"
#include "stats_clock.h"

static bool stats = true;
module_param(stats, bool, 0444);
MODULE_PARM_DESC(stats, "start softirq accounting at load (default: on)");

static DEFINE_PER_CPU(struct nictl_cpu_stats, nictl_cpu_stats);
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
	int vec = nictl_softirq_vec(vec_nr);

	if (vec >= 0)
		__this_cpu_write(nictl_cpu_stats.entered[vec], nictl_stats_clock_read());
}

static unsigned int nictl_hist_bucket(u64 ns)
{
	u64 us = ns / NSEC_PER_USEC;

	return us ? min_t(unsigned int, fls64(us), NICTL_HIST_BUCKETS - 1) : 0;
}

static void nictl_softirq_exit(void *data, unsigned int vec_nr)
{
	struct nictl_cpu_stats *s = this_cpu_ptr(&nictl_cpu_stats);
	struct nictl_softirq_acc *acc;
	int vec = nictl_softirq_vec(vec_nr);
	unsigned int bucket;
	u64 ns;

	/* A run already going on when the probes attached has no entry time. */
	if (vec < 0 || !s->entered[vec])
		return;
	ns = nictl_stats_clock_ns(s->entered[vec], nictl_stats_clock_read());
	s->entered[vec] = 0;
	acc = &s->vec[vec];
	bucket = nictl_hist_bucket(ns);
	/* Readers copy a vector whole: its count always equals its histogram's sum. */
	raw_write_seqcount_begin(&s->seq);
	acc->count++;
	acc->time_ns += ns;
	if (ns > acc->max_ns)
		acc->max_ns = ns;
	acc->hist[bucket]++;
	raw_write_seqcount_end(&s->seq);
}

/**
 * nictl_napi_slot() - the slot of a NAPI id in one CPU's table
 * @s: the CPU's counters
 * @id: the NAPI id
 * @claim: take a free slot when the id has none (only the owning CPU may)
 *
 * Return: the slot, or NULL when the id has none (and, with @claim, the
 * table is full).
 */
struct nictl_napi_slot *nictl_napi_slot(struct nictl_cpu_stats *s, unsigned int id, bool claim)
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

/* NAPIs without an id (virtio_net's transmit ones) serve no receive queue. */
static void nictl_napi_poll(void *data, struct napi_struct *napi, int work, int budget)
{
	struct nictl_cpu_stats *s = this_cpu_ptr(&nictl_cpu_stats);
	unsigned int id = READ_ONCE(napi->napi_id);
	struct nictl_napi_slot *slot;

	if (!id)
		return;
	slot = nictl_napi_slot(s, id, true);
	if (!slot) {
		WRITE_ONCE(s->napi_unattributed, s->napi_unattributed + 1);
		return;
	}
	WRITE_ONCE(slot->polls, slot->polls + 1);
	WRITE_ONCE(slot->packets, slot->packets + work);
}

static struct nictl_probe {
	const char *name;
	void *probe;
	struct tracepoint *tp;
} nictl_probes[] = {
	{ "softirq_entry", nictl_softirq_entry },
	{ "softirq_exit", nictl_softirq_exit },
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

	/* An entry time left from before the last switch-off is stale. */
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&nictl_cpu_stats, cpu)->entered, 0,
		       sizeof(nictl_cpu_stats.entered));
	for (i = 0; i < ARRAY_SIZE(nictl_probes); i++) {
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
 * The probes are off while the counters are cleared, so no CPU writes into
 * a counter being zeroed.
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

		memset(s->vec, 0, sizeof(s->vec));
		memset(s->napi, 0, sizeof(s->napi));
		s->napi_unattributed = 0;
	}
	WRITE_ONCE(nictl_stats_started, ktime_get_ns());
	if (nictl_stats_on)
		err = nictl_probes_register();
	if (err)
		nictl_stats_on = false;
	mutex_unlock(&nictl_stats_lock);
	return err;
}

/**
 * nictl_stats_enabled() - is accounting on?
 *
 * Return: the state.
 */
bool nictl_stats_enabled(void)
{
	return READ_ONCE(nictl_stats_on);
}

/**
 * nictl_stats_start_ns() - CLOCK_MONOTONIC time the counters started
 *
 * Return: ns.
 */
u64 nictl_stats_start_ns(void)
{
	return READ_ONCE(nictl_stats_started);
}

/**
 * nictl_stats_cpu() - the counters of one CPU
 * @cpu: a possible CPU
 *
 * Read the vectors with nictl_stats_read_vecs(), the NAPI slots with
 * READ_ONCE().
 *
 * Return: its counters.
 */
struct nictl_cpu_stats *nictl_stats_cpu(unsigned int cpu)
{
	return per_cpu_ptr(&nictl_cpu_stats, cpu);
}

/**
 * nictl_stats_read_vecs() - a consistent copy of one CPU's vector counters
 * @cpu: a possible CPU
 * @vec: receives %__NICTL_SOFTIRQ_MAX entries
 */
void nictl_stats_read_vecs(unsigned int cpu, struct nictl_softirq_acc *vec)
{
	struct nictl_cpu_stats *s = nictl_stats_cpu(cpu);
	unsigned int seq;

	do {
		seq = raw_read_seqcount_begin(&s->seq);
		memcpy(vec, s->vec, sizeof(s->vec));
	} while (read_seqcount_retry(&s->seq, seq));
}

/**
 * nictl_stats_init() - find the tracepoints and start if the parameter says so
 *
 * Return: 0, -ENOENT when a tracepoint is missing, or a registration error.
 */
int nictl_stats_init(void)
{
	unsigned int i, cpu;

	/* The probes must match the tracepoints' prototypes; checked at build. */
	check_trace_callback_type_softirq_entry(nictl_softirq_entry);
	check_trace_callback_type_softirq_exit(nictl_softirq_exit);
	check_trace_callback_type_napi_poll(nictl_napi_poll);

	for_each_possible_cpu(cpu)
		seqcount_init(&nictl_stats_cpu(cpu)->seq);
	nictl_stats_clock_init();
	for_each_kernel_tracepoint(nictl_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(nictl_probes); i++) {
		if (!nictl_probes[i].tp) {
			pr_err("tracepoint %s not found\n", nictl_probes[i].name);
			return -ENOENT;
		}
	}
	nictl_stats_started = ktime_get_ns();
	return nictl_stats_set(stats);
}

/**
 * nictl_stats_exit() - detach the probes before the module goes away
 */
void nictl_stats_exit(void)
{
	nictl_stats_set(false);
}
