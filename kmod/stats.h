/* SPDX-License-Identifier: GPL-2.0 */
/* Per-CPU softirq and NAPI accounting (stats.c) and its netlink side. */
#ifndef _NICTL_STATS_H
#define _NICTL_STATS_H

#include <linux/cpumask.h>
#include <linux/seqlock.h>
#include <linux/types.h>
#include <linux/nictl.h>
#include <net/genetlink.h>

/* Per-CPU NAPI slots; dead NAPIs' are freed once over _RECLAIM are in use. */
#define NICTL_NAPI_SLOTS		64
#define NICTL_NAPI_SLOTS_RECLAIM	(NICTL_NAPI_SLOTS / 2)

/**
 * struct nictl_softirq_acc - one softirq vector on one CPU
 * @count: runs counted
 * @time_ns: their total duration
 * @max_ns: the longest
 * @hist: runs by duration, see %NICTL_HIST_BUCKETS
 */
struct nictl_softirq_acc {
	u64 count;
	u64 time_ns;
	u64 max_ns;
	u64 hist[NICTL_HIST_BUCKETS];
};

/**
 * struct nictl_poll_acc - one &enum nictl_poll_kind of NAPI polls on one CPU
 * @polls: polls counted
 * @packets: work those polls did
 * @time_ns: NET_RX time of the timed polls, added when their run ends
 * @untimed: polls outside NET_RX not timed by busy polling either
 * @busy_polls: polls of busy-poll loops, timed or not
 * @busy_ns: time of the timed ones, see nictl_busy_poll()
 */
struct nictl_poll_acc {
	u64 polls;
	u64 packets;
	u64 time_ns;
	u64 untimed;
	u64 busy_polls;
	u64 busy_ns;
};

/**
 * struct nictl_napi_slot - one NAPI instance polled on one CPU
 * @napi_id: its id, 0 for a free slot
 * @polls: polls counted
 * @packets: work those polls did
 * @time_ns: NET_RX time of those polls, added as each poll ends
 * @busy_ns: busy-poll time of those polls
 */
struct nictl_napi_slot {
	unsigned int napi_id;
	u64 polls;
	u64 packets;
	u64 time_ns;
	u64 busy_ns;
};

/**
 * struct nictl_busy_mark - the end of the last poll of the busy-poll loop running on a CPU
 * @napi: the NAPI the loop polls, NULL when no loop is being timed
 * @task: the task running it
 * @switches: @task's context switches then: another one ends the timing
 * @at: clock at that poll's end
 * @softirq_ns: the CPU's NET_RX and NET_TX time then, not to be counted twice
 */
struct nictl_busy_mark {
	const struct napi_struct *napi;
	const struct task_struct *task;
	unsigned long switches;
	u64 at;
	u64 softirq_ns;
};

/**
 * struct nictl_cpu_stats - what one CPU's probes record
 * @seq: makes a copy of @vec and @poll, or of @napi, consistent; written only by this CPU
 *	(for an offline one, by nictl_napi_rebuild())
 * @entered: clock at the running vector's entry (stats_clock.h), 0 outside
 * @poll_mark: clock at the end of this NET_RX run's last poll (at its entry before the first)
 * @poll_pending_ns: this run's poll time per kind, added to @poll with the run's own at exit
 * @busy: where the busy-poll loop running on this CPU last polled
 * @vec: per &enum nictl_softirq_vec
 * @poll: per &enum nictl_poll_kind
 * @napi: open-addressed table by NAPI id, rebuilt on this CPU with BH off by the reclaim
 * @napi_unattributed: polls that found @napi full
 *
 * alloc_percpu()ed: modules share only a few KiB of static per-CPU space.
 */
struct nictl_cpu_stats {
	seqcount_t seq;
	u64 entered[__NICTL_SOFTIRQ_MAX];
	u64 poll_mark;
	u64 poll_pending_ns[__NICTL_POLL_MAX];
	struct nictl_busy_mark busy;
	struct nictl_softirq_acc vec[__NICTL_SOFTIRQ_MAX];
	struct nictl_poll_acc poll[__NICTL_POLL_MAX];
	struct nictl_napi_slot napi[NICTL_NAPI_SLOTS];
	u64 napi_unattributed;
};

int nictl_stats_init(void);
void nictl_stats_exit(void);
int nictl_stats_set(bool on);
int nictl_stats_reset(void);
bool nictl_stats_enabled(void);
u64 nictl_stats_start_ns(void);
struct nictl_cpu_stats *nictl_stats_cpu(unsigned int cpu);
void nictl_stats_read_vecs(unsigned int cpu, struct nictl_softirq_acc *vec,
			   struct nictl_poll_acc *poll);
unsigned int nictl_stats_read_begin(unsigned int cpu);
bool nictl_stats_read_retry(unsigned int cpu, unsigned int seq);
void nictl_napi_slots_lock(void);
void nictl_napi_slots_unlock(void);
void nictl_napi_read(unsigned int id, struct nictl_napi_slot *sum, struct cpumask *cpus);

/* stats_genl.c */
int nictl_stats_get_start(struct netlink_callback *cb);
int nictl_stats_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int nictl_stats_set_doit(struct sk_buff *skb, struct genl_info *info);
int nictl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int nictl_napi_get_doit(struct sk_buff *skb, struct genl_info *info);
int nictl_napi_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _NICTL_STATS_H */
