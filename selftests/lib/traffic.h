/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Make the guest NICs' queue IRQs fire. On x86 without interrupt remapping
 * the kernel moves an IRQ only when it next fires: until then /proc shows
 * the new mask but the old effective affinity. Tests that check effective
 * affinity first make each IRQ fire with a burst of frames.
 */
#ifndef NICTL_TEST_TRAFFIC_H
#define NICTL_TEST_TRAFFIC_H

#include "cpus.h"

/*
 * The frames are UDP datagrams to TRAFFIC_PORT (discard) at 198.18.0.255,
 * the broadcast address of 198.18.0.0/24, from 198.18.0.1 to .200: a NIC
 * given TRAFFIC_RX_ADDR delivers them to its sockets.
 */
#define TRAFFIC_PORT	9
#define TRAFFIC_RX_ADDR	"198.18.0.250"

/*
 * Send broadcast UDP frames out of each of @ifnames (NULL-terminated) from
 * every online CPU in turn: XPS maps each CPU to a TX queue, and the bridge
 * behind the guest floods the frames into the other NICs, where their flow
 * hashes spread them over the RX queues. Bounded: a fixed number of frames.
 * A NIC that is up but has no carrier yet (e1000e after open) drops what it
 * is given, so first waits, bounded, until each NIC that is up has its link.
 * Returns 0, -ENOLINK (a NIC never got its link; named on stderr, nothing
 * sent) or -errno (no socket); a NIC that is down is skipped.
 */
int traffic_burst(const char *const *ifnames);

/*
 * The same from the online CPUs of @from only, @frames frames per NIC and
 * CPU: the sending work, and the transmit completions of a NIC whose IRQs
 * sit on those CPUs, stay there.
 */
int traffic_send(const char *const *ifnames, const struct cpus *from, unsigned int frames);

/*
 * Steady load: a child process, pinned to @cpu, sends @rate broadcast frames
 * a second out of @ifname (in bursts every 5 ms, over 200 flows so that
 * every receive queue behind the bridge gets its share) until stopped.
 * Waits for @ifname's link first. Returns the child's pid, or -errno.
 */
int traffic_flood_start(const char *ifname, unsigned int cpu, unsigned int rate);
/* Stop the flood @pid started: 0, or -errno. */
int traffic_flood_stop(int pid);

#endif /* NICTL_TEST_TRAFFIC_H */
