/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Receive packet steering as the guest sees it: a receive queue's rps_cpus,
 * the RPS IPIs each CPU took (softnet_stat's received_rps), and whether
 * the kernel polls the backlog in threads of its own, which RPS wakes
 * without an IPI (PREEMPT_RT, or thread_backlog_napi on 6.10+).
 */
#ifndef NICTL_TEST_RPS_H
#define NICTL_TEST_RPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A hex CPU mask as rps_cpus prints it, with room for every guest. */
#define RPS_MASK_LEN	64

/* /sys/class/net/@ifname/queues/rx-@queue/rps_cpus. 0 or -errno. */
int rps_cpus_get(const char *ifname, unsigned int queue, char *mask, size_t len);
int rps_cpus_set(const char *ifname, unsigned int queue, const char *mask);

/*
 * received_rps of every CPU with a row in /proc/net/softnet_stat, into
 * @ipis indexed by CPU (@n entries; the others are left 0). 0, or -errno
 * (-EPROTO for a row without the field or the CPU number of 5.10+).
 */
int softnet_received_rps(uint64_t *ipis, unsigned int n);

/* Some task is a backlog_napi/N thread. */
bool backlog_threaded(void);

#endif /* NICTL_TEST_RPS_H */
