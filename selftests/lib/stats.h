/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Judging nictl's softirq and NAPI accounting: the invariants every
 * STATS_GET and NAPI_GET reply must hold, what changed between two
 * samples, where the receive work ran, and the device's own counters to
 * hold the NAPI counters to. Like verify.h, each check prints every
 * discrepancy it finds (as TAP comments) and returns whether there was none.
 */
#ifndef NICTL_TEST_STATS_H
#define NICTL_TEST_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "cpus.h"
#include "nictl.h"

/* The most a NAPI poll may do: the budget net_rx_action() hands out. */
#define NAPI_POLL_WEIGHT	64

/* The shortest run histogram bucket @b holds, in ns (see NICTL_HIST_BUCKETS). */
uint64_t hist_lower_ns(unsigned int b);
/* The shortest run too long for bucket @b; UINT64_MAX for the last, open one. */
uint64_t hist_upper_ns(unsigned int b);

/*
 * One STATS_GET dump, whole and within its bounds: one message per
 * possible CPU in ascending order, each with every attribute and both
 * vectors, one START_NS and ENABLED for all, NOW_NS never before START_NS
 * nor going back; per vector, the histogram adds up to the count, the
 * longest run lies in the highest bucket in use, the total lies between
 * what the buckets allow and between the longest run and count times it,
 * and is no more than the time since START_NS.
 */
bool stats_consistent(const struct nictl_stats *st);
/* Every CPU reports accounting @on. */
bool stats_enabled_is(const struct nictl_stats *st, bool on);
/*
 * @b was sampled after @a of the same counters (no reset between): every
 * counter of @b is at least @a's and every CPU's NOW_NS moved on.
 */
bool stats_advanced(const struct nictl_stats *a, const struct nictl_stats *b);
/* The same, but every counter stood still. */
bool stats_frozen(const struct nictl_stats *a, const struct nictl_stats *b);
/* Every counter of every CPU is zero. */
bool stats_zero(const struct nictl_stats *st);
/* The runs of @vec counted on all CPUs. */
uint64_t stats_runs(const struct nictl_stats *st, unsigned int vec);

/* What one CPU did of a vector's work between two samples. */
struct stats_share {
	uint64_t runs, runs_all;	/* on the CPU; on all counted CPUs */
	uint64_t time_ns, time_all_ns;
};

/*
 * The share of @cpu in the @vec runs and time between @a and @b, out of
 * those of the CPUs in @counted; prints every CPU's part. False when the
 * two samples do not describe the same CPUs.
 */
bool stats_share(const struct nictl_stats *a, const struct nictl_stats *b, unsigned int vec,
		 unsigned int cpu, const struct cpus *counted, struct stats_share *share);
/* @got is within 2 % (or two packets) of @want; prints both. */
bool counts_agree(const char *what, uint64_t got, uint64_t want);
/* @part is at least @percent % of @all, which is not zero; prints both. */
bool share_at_least(const char *what, uint64_t part, uint64_t all, unsigned int percent);

/*
 * A NAPI_GET reply of @ifname, whole and within bounds: its device, then
 * NAPIs with distinct non-zero ids, each serving a distinct queue below
 * @rx_queues, with CPU bitmaps of the protocol's length, polled on some
 * CPU exactly when polled at all, and no poll doing more than a budget.
 */
bool napis_consistent(const struct nictl_napis *n, const char *ifname, unsigned int rx_queues);
/* @b is a later NAPI_GET than @a: same NAPIs, no counter went back, no CPU left. */
bool napis_advanced(const struct nictl_napis *a, const struct nictl_napis *b);
/* The same, but no counter moved. */
bool napis_frozen(const struct nictl_napis *a, const struct nictl_napis *b);
/* No NAPI was polled: every counter zero, no CPU. */
bool napis_zero(const struct nictl_napis *n);
/* The NAPI of @queue, or NULL. */
const struct nictl_napi *napis_queue(const struct nictl_napis *n, uint32_t queue);
uint64_t napis_packets(const struct nictl_napis *n);

/* /sys/class/net/@ifname/statistics/rx_packets, what `ip -s link` shows. */
int netdev_rx_packets(const char *ifname, uint64_t *packets);
/*
 * Wait until the frames in flight arrived: @ifname's rx_packets stood
 * still for a while. 0, or -ETIMEDOUT when it kept moving.
 */
int rx_settle(const char *ifname);
/* Frames per round of traffic_rounds(). */
#define TRAFFIC_ROUND_FRAMES	32

/*
 * @rounds bursts of frames out of @ifname, sent from @cpu alone, with a
 * pause after each so that every burst costs the receivers at least one
 * interrupt of their own; then rx_settle(@rx_ifname). 0 or -errno.
 */
int traffic_rounds(const char *ifname, unsigned int cpu, unsigned int rounds,
		   const char *rx_ifname);

/*
 * Bind every queue of @dev with an explicit placement, queue q on
 * @cpus[q % @n] (so @n = 1 puts them all on one CPU, which needs no SMT
 * rule), and send one burst through every NIC so each IRQ fires and a
 * pending move takes effect. Fills @reply; 0 or -errno.
 */
int bind_queues(struct nl_client *nl, const struct nictl_dev *dev, const unsigned int *cpus,
		unsigned int n, struct nictl_dev *reply);
/*
 * The IRQs of the bound @reply's device are where it put them: effective
 * affinity on target (after more traffic if need be) and, as DEV_GET now
 * reports them, bound with no move pending.
 */
bool irqs_moved(struct nl_client *nl, const struct nictl_dev *reply);

/* Whether the loaded module's parameter "stats" is on. */
int stats_param(bool *on);
/*
 * Put the accounting back as a fresh load has it: reload the module if it
 * was loaded with stats=0, then switch accounting on. 0 or -errno.
 */
int stats_defaults(void);

/*
 * @text passes as Prometheus' text exposition format (0.0.4) by grammar:
 * each line a # HELP, a # TYPE (once per family), another comment or a
 * sample; names, label names and quoted label values as the format spells
 * them; a value that strtod() takes (+Inf, NaN too), then at most an
 * integer timestamp; every sample in the family of the # TYPE line last
 * seen (with _bucket, _sum and _count for histograms and summaries), so
 * types come first and families stay together. Prints the first bad line.
 */
bool prom_text_ok(const char *text);

/* Write @mark into the kernel log, to find later where a test began. */
int kmsg_mark(const char *mark);
/*
 * The kernel logged no splat (WARNING:, BUG:, Oops, a call trace ...) after
 * the last line carrying @mark, which must be in the log; prints the first.
 */
bool kmsg_clean_since(const char *mark);

#endif /* NICTL_TEST_STATS_H */
