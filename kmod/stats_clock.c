// SPDX-License-Identifier: GPL-2.0
/* The softirq probes' clock (stats_clock.h), shown by parameter stats_clock. */
#include <linux/clocksource.h>
#include <linux/moduleparam.h>
#include <linux/time64.h>

#include "fault.h"
#include "stats_clock.h"

struct nictl_stats_clock nictl_stats_clock __read_mostly;
DEFINE_STATIC_KEY_FALSE(nictl_stats_raw_tsc);

#ifdef CONFIG_X86_TSC
static bool nictl_tsc_constant(void)
{
	return boot_cpu_has(X86_FEATURE_CONSTANT_TSC) || nictl_fault_tsc_trusted();
}

/* With fault_tsc_trusted only fault_tsc_unstable decides: a TCG guest's watchdog may condemn it. */
static bool nictl_tsc_unstable(void)
{
	if (nictl_fault_tsc_unstable())
		return true;
	return !nictl_fault_tsc_trusted() && check_tsc_unstable();
}

/*
 * Only a constant-rate TSC the kernel trusts measures durations (stopping in deep idle is
 * harmless: a CPU in a softirq is not idle). Rates are per ms, so the 600 s range is in ms.
 */
void nictl_stats_clock_init(void)
{
	if (!nictl_tsc_constant() || nictl_tsc_unstable() || !tsc_khz)
		return;
	clocks_calc_mult_shift(&nictl_stats_clock.mult, &nictl_stats_clock.shift,
			       tsc_khz, NSEC_PER_MSEC, 600 * MSEC_PER_SEC);
	static_branch_enable(&nictl_stats_raw_tsc);
}
#else
/* No TSC: local_clock() times every run, and the static key stays off. */
static bool nictl_tsc_unstable(void)
{
	return true;
}

void nictl_stats_clock_init(void)
{
}
#endif

/**
 * nictl_stats_clock_untrusted() - is the raw TSC in use but no longer trusted?
 *
 * Return: true when the probes must move to local_clock().
 */
bool nictl_stats_clock_untrusted(void)
{
	return static_key_enabled(&nictl_stats_raw_tsc) && nictl_tsc_unstable();
}

/**
 * nictl_stats_clock_fallback() - time softirqs with local_clock() from now on
 *
 * Context: no probe attached (no run straddles the change); no cpus_read_lock or jump label lock.
 */
void nictl_stats_clock_fallback(void)
{
	static_branch_disable(&nictl_stats_raw_tsc);
	pr_warn("the TSC is marked unstable: softirqs are timed with local_clock() now\n");
}

static int nictl_stats_clock_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", static_key_enabled(&nictl_stats_raw_tsc) ? "tsc" :
			  "local_clock");
}

static const struct kernel_param_ops nictl_stats_clock_ops = {
	.get = nictl_stats_clock_get,
};
module_param_cb(stats_clock, &nictl_stats_clock_ops, NULL, 0444);
MODULE_PARM_DESC(stats_clock, "the clock of the softirq probes: tsc or local_clock");
