// SPDX-License-Identifier: GPL-2.0
#include <linux/atomic.h>
#include <linux/moduleparam.h>
#include <linux/sched/signal.h>
#include <linux/wait.h>

#include "fault.h"

static unsigned int fault_fail_nth;
module_param(fault_fail_nth, uint, 0600);
MODULE_PARM_DESC(fault_fail_nth,
		 "test build only: fail the k-th affinity write of every apply with -EIO (0: off)");

/**
 * nictl_fault_write() - should the @nth write (from 1) of this apply fail?
 * @nth: position of the write in the apply
 *
 * Return: -EIO when the knob names @nth, else 0.
 */
int nictl_fault_write(unsigned int nth)
{
	return READ_ONCE(fault_fail_nth) == nth ? -EIO : 0;
}

static DECLARE_WAIT_QUEUE_HEAD(nictl_fault_stall_wq);
static atomic_t nictl_fault_stalled = ATOMIC_INIT(0);
static bool fault_stall;

static int nictl_fault_stall_set(const char *val, const struct kernel_param *kp)
{
	int err = param_set_bool(val, kp);

	wake_up_all(&nictl_fault_stall_wq);
	return err;
}

static const struct kernel_param_ops nictl_fault_stall_ops = {
	.set = nictl_fault_stall_set,
	.get = param_get_bool,
};
module_param_cb(fault_stall, &nictl_fault_stall_ops, &fault_stall, 0600);
MODULE_PARM_DESC(fault_stall,
		 "test build only: STATS_SET/RESET, STATS_GET and NAPI_GET dumps wait while set");

static int nictl_fault_stalled_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(&nictl_fault_stalled));
}

static const struct kernel_param_ops nictl_fault_stalled_ops = {
	.get = nictl_fault_stalled_get,
};
module_param_cb(fault_stalled, &nictl_fault_stalled_ops, NULL, 0444);
MODULE_PARM_DESC(fault_stalled, "test build only: operations waiting on fault_stall now");

/**
 * nictl_fault_stall() - wait while the fault_stall knob is set
 *
 * Stands for the slow part of an operation (a tracepoint synchronisation, a
 * dump of thousands of objects) at the place where it holds what it holds.
 * A fatal signal ends the wait, so a test that dies leaves no stuck task.
 */
void nictl_fault_stall(void)
{
	atomic_inc(&nictl_fault_stalled);
	wait_event_killable(nictl_fault_stall_wq, !READ_ONCE(fault_stall));
	atomic_dec(&nictl_fault_stalled);
}

static unsigned int fault_napis_per_msg;
module_param(fault_napis_per_msg, uint, 0600);
MODULE_PARM_DESC(fault_napis_per_msg,
		 "test build only: at most this many NAPIs per NAPI_GET message (0: no limit)");

/**
 * nictl_fault_napis_per_msg() - the most NAPIs one NAPI_GET message may carry
 *
 * Return: that number, or 0 for no limit but the message size.
 */
unsigned int nictl_fault_napis_per_msg(void)
{
	return READ_ONCE(fault_napis_per_msg);
}

static bool fault_tsc_trusted;
module_param(fault_tsc_trusted, bool, 0444);
MODULE_PARM_DESC(fault_tsc_trusted,
		 "test build only: trust the TSC; only fault_tsc_unstable ends that");

/**
 * nictl_fault_tsc_trusted() - take the raw TSC as constant-rate and stable,
 *	whatever the CPU flags and the kernel say?
 *
 * Return: the knob, read at load.
 */
bool nictl_fault_tsc_trusted(void)
{
	return fault_tsc_trusted;
}

static bool fault_tsc_unstable;
module_param(fault_tsc_unstable, bool, 0600);
MODULE_PARM_DESC(fault_tsc_unstable,
		 "test build only: the periodic clock check finds the TSC marked unstable");

/**
 * nictl_fault_tsc_unstable() - pretend the kernel marked the TSC unstable?
 *
 * Return: the knob.
 */
bool nictl_fault_tsc_unstable(void)
{
	return READ_ONCE(fault_tsc_unstable);
}
