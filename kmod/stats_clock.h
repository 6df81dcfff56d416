/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The clock of the softirq probes. A NET_RX run is timed by two readings on
 * one CPU, a few microseconds apart, on every softirq of a busy machine:
 * the reading must be as cheap as the hardware allows. local_clock() keeps
 * a per-CPU, preemption-safe, scaled sched_clock, and costs about as much
 * as the rest of both probes together (bench/softirq-cost.sh); on x86 with
 * a TSC that runs at one constant rate, the raw counter
 * gives the same duration for a fraction of that, scaled to ns only once
 * per run. Everywhere else the probes use local_clock().
 *
 * The kernel may mark the TSC unstable long after load (the clocksource
 * watchdog, a CPU coming online with a TSC out of step). The probes do not
 * ask on every run: stats.c rechecks once a second and switches to
 * local_clock() with the probes detached, so no run is timed by two clocks.
 */
#ifndef NICTL_STATS_CLOCK_H
#define NICTL_STATS_CLOCK_H

#include <linux/jump_label.h>
#include <linux/math64.h>
#include <linux/sched/clock.h>
#include <linux/types.h>
#ifdef CONFIG_X86_TSC
#include <asm/tsc.h>
#endif

/**
 * struct nictl_stats_clock - how the raw TSC's cycles become ns
 * @mult: ns = (tsc cycles * @mult) >> @shift
 * @shift: see @mult
 */
struct nictl_stats_clock {
	u32 mult;
	u32 shift;
};

extern struct nictl_stats_clock nictl_stats_clock;

/*
 * Read the TSC and scale the difference with nictl_stats_clock. A static
 * key, so the choice costs the probes no load and no branch: enabled at
 * load, before any probe is attached; disabled, never enabled, later and
 * only while no probe is attached (nictl_stats_clock_fallback()).
 */
DECLARE_STATIC_KEY_FALSE(nictl_stats_raw_tsc);

void nictl_stats_clock_init(void);
bool nictl_stats_clock_untrusted(void);
void nictl_stats_clock_fallback(void);

/* A reading to subtract from another of the same CPU; never 0 once running. */
static __always_inline u64 nictl_stats_clock_read(void)
{
#ifdef CONFIG_X86_TSC
	if (static_branch_likely(&nictl_stats_raw_tsc))
		return rdtsc();
#endif
	return local_clock();
}

/* The ns between two readings of one CPU. */
static __always_inline u64 nictl_stats_clock_ns(u64 from, u64 to)
{
	if (static_branch_likely(&nictl_stats_raw_tsc))
		return mul_u64_u32_shr(to - from, nictl_stats_clock.mult,
				       nictl_stats_clock.shift);
	return to - from;
}

#endif /* NICTL_STATS_CLOCK_H */
