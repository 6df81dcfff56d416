// SPDX-License-Identifier: GPL-2.0
#include <linux/moduleparam.h>

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
