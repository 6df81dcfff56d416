/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A task that busy-polls: a child process, pinned to one CPU, that reads
 * the test traffic (traffic.h) arriving on one NIC from a UDP socket whose
 * reads busy-poll (SO_BUSY_POLL) the NAPI instance its first datagram came
 * through. The NIC needs TRAFFIC_RX_ADDR for the broadcasts to be
 * delivered at all (busy_rx_addr()); then every NIC the bridge floods
 * them into delivers them, so the socket is bound to the one.
 */
#ifndef NICTL_TEST_BUSYPOLL_H
#define NICTL_TEST_BUSYPOLL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct busy_rx {
	pid_t pid;
	int report_fd;		/* read end of the child's report */
};

/* What the child saw and spent, sent as it stops. */
struct busy_rx_report {
	unsigned int napi_id;	/* SO_INCOMING_NAPI_ID, 0 when nothing arrived */
	uint64_t datagrams;
	uint64_t runtime_ns;	/* its CPU time (/proc/self/schedstat) at the end */
};

/* Give @ifname TRAFFIC_RX_ADDR (/24), or take it away: 0 or -errno. */
int busy_rx_addr(const char *ifname, bool add);
/*
 * Start the child on @cpu, reading what arrives on @ifname, each read
 * busy-polling up to @busy_us, and wait until its socket is bound: 0 or
 * -errno.
 */
int busy_rx_start(struct busy_rx *rx, const char *ifname, unsigned int cpu,
		  unsigned int busy_us);
/* Stop it and collect its report: 0, or -errno (-EPROTO: no report). */
int busy_rx_stop(struct busy_rx *rx, struct busy_rx_report *report);

#endif /* NICTL_TEST_BUSYPOLL_H */
