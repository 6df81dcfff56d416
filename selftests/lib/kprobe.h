/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting calls with kprobe events: rtnl_lock() called from nictl.ko's own
 * code (the probe records its caller, which the kernel prints with the
 * module's name), and nictl's discovery of a device. No help of the module
 * is needed, and the count is the same for any build of it.
 */
#ifndef NICTL_TEST_KPROBE_H
#define NICTL_TEST_KPROBE_H

/**
 * struct kprobe_def - one probe
 * @event: its event's name, in the group "nictl_test"
 * @def: its line in kprobe_events
 * @what: what a hit is, for the log
 * @match: a hit's trace line holds this besides "@event:"
 */
struct kprobe_def {
	const char *event;
	const char *def;
	const char *what;
	const char *match;
};

/* rtnl_lock() called from nictl.ko. */
extern const struct kprobe_def rtnl_from_nictl;
/*
 * nictl_dev_discover(): the module discovers a device's IRQs. Calls from
 * its own file (nictl_dev_look()) may be inlined and escape it.
 */
extern const struct kprobe_def nictl_discovery;
/* nictl_dev_look(): a discovery under rtnl, the periodic check's or DEV_GET's. */
extern const struct kprobe_def nictl_look;

/* Add and enable @p, with an empty trace: 0 or -errno. */
int kprobe_start(const struct kprobe_def *p);
/* Empty the trace: 0 or -errno. */
int kprobe_clear(void);
/* @p's hits since the trace was emptied, each printed: count or -errno. */
int kprobe_count(const struct kprobe_def *p);
/* Disable and remove @p. */
void kprobe_stop(const struct kprobe_def *p);

#endif /* NICTL_TEST_KPROBE_H */
