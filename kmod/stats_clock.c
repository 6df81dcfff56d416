// SPDX-License-Identifier: GPL-2.0
/*
 * Choice of the softirq probes' clock (see stats_clock.h).
 */
#include <linux/clocksource.h>
#include <linux/time64.h>

#include "stats_clock.h"

struct nictl_stats_clock nictl_stats_clock __read_mostly;

/*
 * The raw TSC measures a duration only when it ticks at one rate whatever
 * the CPU's frequency, and the kernel has not found it unreliable; the rate,
 * tsc_khz, is known once the kernel calibrated it. Whether it stops in deep
 * idle states does not matter: a CPU running a softirq is not idle.
 * Both rates are in kHz (ns: NSEC_PER_MSEC per ms), so the range asked for,
 * 600 s, is given in ms.
 */
void nictl_stats_clock_init(void)
{
#ifdef CONFIG_X86_TSC
	if (!boot_cpu_has(X86_FEATURE_CONSTANT_TSC) || check_tsc_unstable() || !tsc_khz)
		return;
	clocks_calc_mult_shift(&nictl_stats_clock.mult, &nictl_stats_clock.shift,
			       tsc_khz, NSEC_PER_MSEC, 600 * MSEC_PER_SEC);
	nictl_stats_clock.raw_tsc = true;
#endif
}
