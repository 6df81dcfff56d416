/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The softirq probes' clock: on x86 a constant-rate TSC costs a fraction of local_clock()
 * (bench/softirq-cost.sh). It may be marked unstable long after load (watchdog, a CPU onlined
 * out of step): stats.c rechecks once a second and switches clocks with the probes detached,
 * so no run is timed by two.
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
 * struct nictl_stats_clock - how TSC cycles become ns
 * @mult: ns = (cycles * @mult) >> @shift
 * @shift: see @mult
 */
struct nictl_stats_clock {
	u32 mult;
	u32 shift;
};

extern struct nictl_stats_clock nictl_stats_clock;

/* A static key (no load in the probes): enabled at load, later only disabled, no probe attached. */
DECLARE_STATIC_KEY_FALSE(nictl_stats_raw_tsc);

void nictl_stats_clock_init(void);
bool nictl_stats_clock_untrusted(void);
void nictl_stats_clock_fallback(void);

/* Only to subtract from another reading of this CPU; never 0. */
static __always_inline u64 nictl_stats_clock_read(void)
{
#ifdef CONFIG_X86_TSC
	if (static_branch_likely(&nictl_stats_raw_tsc))
		return rdtsc();
#endif
	return local_clock();
}

static __always_inline u64 nictl_stats_clock_ns(u64 from, u64 to)
{
	if (static_branch_likely(&nictl_stats_raw_tsc))
		return mul_u64_u32_shr(to - from, nictl_stats_clock.mult,
				       nictl_stats_clock.shift);
	return to - from;
}

#endif /* NICTL_STATS_CLOCK_H */
