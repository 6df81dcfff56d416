/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel threads that poll a device's NAPI instances where it polls in
 * threads (/sys/class/net/DEV/threaded), each tied to the queue IRQ that
 * schedules its NAPI: what `show` prints after the IRQs, so that a thread
 * left on CPUs far from its IRQ shows.
 */
#ifndef NICTLCTL_NAPI_THREADS_H
#define NICTLCTL_NAPI_THREADS_H

#include <stdio.h>

#include "cpuset.h"
#include "dev.h"
#include "direct/links.h"
#include "json.h"

/* One thread: @irq 0 when nothing ties it to one of the device's IRQs. */
struct napi_thread {
	unsigned int napi_id;
	unsigned int irq;
	unsigned int pid;
	char name[64];
	struct cpuset cpus;
};

/*
 * A device's threads. @threaded: some NAPI of it polls in a thread, by the
 * device's switch or (6.17+) the NAPI's own (napi_some_threaded()).
 * @untied_threaded: the device polls in threads, but the kernel names none
 * of them (no netdev-genl NAPI_GET before 6.9).
 * @looked: false for a device of another network namespace, whose threads
 * this one's netdev-genl and sysfs cannot name.
 */
struct napi_threads {
	struct napi_thread *t;
	unsigned int n;
	bool threaded;
	bool untied_threaded;
	bool looked;
};

/*
 * Tie each NAPI of @napis (@n of them, direct_napis()) a thread polls to an
 * IRQ of @dev: the IRQ the driver linked to it, else the IRQ of the receive
 * queue linked to it; where the kernel links neither for any NAPI of the
 * device, the NAPIs in id order serve receive queues 0, 1, ... (the order
 * drivers register them in). Where a NAPI does not say whether its thread
 * polls it, @dev_threaded (the device's sysfs "threaded") does. Fills @out
 * without names or CPUs; 0 or -ENOMEM.
 */
int napi_threads_tie(const struct nictl_dev *dev, const struct napi_info *napis, unsigned int n,
		     bool dev_threaded, struct napi_threads *out);

/* Does device @ifname poll in threads (its sysfs "threaded" is not 0)? */
bool napi_dev_threaded(const char *ifname);
/*
 * Does a thread poll some NAPI of device @ifindex, @ifname: the device's
 * switch, or (6.17+) a NAPI's own, which the switch does not show?
 */
bool napi_some_threaded(unsigned int ifindex, const char *ifname);
/* @pid's name from /proc into @buf: 0, or -ENOENT when it ended. */
int napi_thread_comm(unsigned int pid, char *buf, size_t len);
/* Read each thread's name and CPUs from /proc; drop those that ended since. */
void napi_threads_fill(struct napi_threads *threads);

/* The threads of @dev (initial namespace) into @out, to release also on error; 0 or -ENOMEM. */
int napi_threads_of(const struct nictl_dev *dev, struct napi_threads *out);
/* The threads of every device of @list, *@out one per device; 0 or -1 after saying why. */
int napi_threads_read(const struct dev_list *list, struct napi_threads **out);
/* Free what one device's threads hold, leaving it empty. */
void napi_threads_release(struct napi_threads *threads);
/* Release @nr devices' threads and free the array. */
void napi_threads_free(struct napi_threads *threads, unsigned int nr);

/*
 * The CPUs @t may run on off the node of its IRQ's CPU (dev_irq_cpu()), in
 * @far: that CPU, or -1 when there are none, the IRQ interrupts no one CPU
 * or its node is not known.
 */
int napi_thread_far(const struct nictl_dev *dev, const struct napi_thread *t, struct cpuset *far);

/* The lines after a device's IRQs, nothing when it has no thread; -1 when out of memory. */
int napi_threads_table(FILE *f, const struct nictl_dev *dev, const struct napi_threads *threads);
/*
 * The member "napi_threads" of a device's object, none for a device not
 * looked at; -1 when out of memory.
 */
int napi_threads_json(struct json *j, const struct nictl_dev *dev,
		      const struct napi_threads *threads);

#endif /* NICTLCTL_NAPI_THREADS_H */
