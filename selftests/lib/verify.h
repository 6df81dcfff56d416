/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Checks of nictl's replies against the kernel's own files. Each prints
 * every discrepancy it finds (as TAP comments) and returns whether there
 * was none, so a test asserts on it and the log says why.
 */
#ifndef NICTL_TEST_VERIFY_H
#define NICTL_TEST_VERIFY_H

#include <stdbool.h>

#include "cpus.h"
#include "irqs.h"
#include "nictl.h"

/*
 * Every IRQ of @dev carries the affinity and effective affinity that
 * /proc/irq/N shows, as bitmaps of exactly DIV_ROUND_UP(nr_cpu_ids, 8)
 * bytes, and the node of its first effective CPU.
 */
bool dev_matches_proc(const struct nictl_dev *dev);

/*
 * The queue IRQs of @dev are those /proc/interrupts names after @prefix
 * (netdev_info()'s irq_prefix), in nictl's order, with the same queue and
 * kind, and they serve every rx and tx queue of @dev.
 */
bool queue_irqs_match_proc(const struct nictl_dev *dev, const char *prefix);
/*
 * The bind reply @dev is in force: each queue IRQ's mask in /proc is
 * exactly its target CPU, which lies in @allowed; the IRQs of one queue
 * share that CPU; different queues use different physical cores when
 * @distinct_cores, else at least different CPUs; and once each IRQ fired
 * (traffic_burst() makes them), its effective affinity is that CPU too.
 */
bool placement_ok(const struct nictl_dev *dev, const struct cpus *allowed, bool distinct_cores);
/*
 * The same but the effective affinity: for IRQs the tests' traffic may not
 * make fire (igb's second queue once it has VFs: broadcasts go to queue 0
 * alone; a VF's tx queue, which the suite's traffic does not leave by),
 * whose moves then stay pending.
 */
bool masks_placed(const struct nictl_dev *dev, const struct cpus *allowed, bool distinct_cores);

/*
 * The kernel may defer a move until the IRQ next fires (x86 without
 * interrupt remapping): send traffic until the effective affinity of every
 * IRQ of the bound @dev is its target CPU, or give up.
 */
bool effective_follows(const struct nictl_dev *dev);

/* nictl holds no binding for @dev: no bound flag, no target CPU. */
bool dev_unbound(const struct nictl_dev *dev);

/* Two replies place the same IRQs on the same CPUs. */
bool same_targets(const struct nictl_dev *a, const struct nictl_dev *b);

/* The CPU every IRQ of @dev is placed on, as a set. */
void target_cpus(const struct nictl_dev *dev, struct cpus *s);

/*
 * A request was refused as it should be: it returned -@err, which the
 * kernel sent, with an extack message when @need_msg, and no IRQ's
 * affinity differs from @before.
 */
bool refused(int ret, const struct nl_result *res, int err, bool need_msg,
	     const struct irq_snapshot *before);

/* The error points at @attr of @nlh: NLMSGERR_ATTR_OFFS is its offset. */
bool points_at(const struct nl_result *res, const struct nlmsghdr *nlh, const struct nlattr *attr);

/* Whether @msg has the decimal number @n as a word of its own. */
bool mentions_number(const char *msg, unsigned long n);

#endif /* NICTL_TEST_VERIFY_H */
