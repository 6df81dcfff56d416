// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sys.h"
#include "traffic.h"

/* Frames per NIC and CPU: enough to get past virtio's interrupt mitigation. */
#define FRAMES		64
/*
 * How long a NIC that is up may go without a carrier before the traffic
 * gives up on it: e1000e reports its link only from its watchdog, seconds
 * after open under TCG on a busy host.
 */
#define LINK_WAIT_S	60
#define LINK_POLL_US	(100 * 1000)
/* Addresses of the benchmarking range (RFC 2544), which no network routes. */
#define SRC_ADDR	0xc6120001	/* 198.18.0.1 */
#define SRC_ADDRS	200
#define DST_ADDR	0xc61200ff	/* 198.18.0.255, the broadcast of TRAFFIC_SUBNET */

struct frame {
	struct ether_header eth;
	struct iphdr ip;
	struct udphdr udp;
	char payload[18];
} __attribute__((packed));

static uint16_t ip_checksum(const void *data, size_t len)
{
	const uint16_t *p = data;
	uint32_t sum = 0;

	for (; len > 1; len -= 2)
		sum += *p++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * A broadcast UDP frame from @mac; @port varies the flow hash, also through
 * the source address (198.18.0.1 to .200): igb hashes IPv4 addresses only,
 * not UDP ports, unless told to.
 */
static void build_frame(struct frame *f, const uint8_t *mac, uint16_t port)
{
	memset(f, 0, sizeof(*f));
	memset(f->eth.ether_dhost, 0xff, ETH_ALEN);
	memcpy(f->eth.ether_shost, mac, ETH_ALEN);
	f->eth.ether_type = htons(ETHERTYPE_IP);
	f->ip.version = 4;
	f->ip.ihl = 5;
	f->ip.tot_len = htons(sizeof(*f) - sizeof(f->eth));
	f->ip.ttl = 1;
	f->ip.protocol = IPPROTO_UDP;
	f->ip.saddr = htonl(SRC_ADDR + port % SRC_ADDRS);
	f->ip.daddr = htonl(DST_ADDR);
	f->ip.check = ip_checksum(&f->ip, sizeof(f->ip));
	f->udp.source = htons(port);
	f->udp.dest = htons(TRAFFIC_PORT);
	f->udp.len = htons(sizeof(f->udp) + sizeof(f->payload));
}

static int read_mac(const char *ifname, uint8_t *mac)
{
	char path[64], buf[32];
	int ret;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	ret = read_str(path, buf, sizeof(buf));
	if (ret)
		return ret;
	return sscanf(buf, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1], &mac[2], &mac[3],
		      &mac[4], &mac[5]) == 6 ? 0 : -EINVAL;
}

static void send_frames(int fd, const char *ifname, unsigned int cpu, unsigned int frames)
{
	struct sockaddr_ll to = {
		.sll_family = AF_PACKET,
		.sll_halen = ETH_ALEN,
	};
	struct frame f;
	uint8_t mac[ETH_ALEN];
	unsigned int i;

	to.sll_ifindex = if_nametoindex(ifname);
	if (!to.sll_ifindex || read_mac(ifname, mac))
		return;
	memset(to.sll_addr, 0xff, ETH_ALEN);
	for (i = 0; i < frames; i++) {
		build_frame(&f, mac, 1024 + cpu * frames + i);
		/* A full queue or a NIC that is down only means fewer frames. */
		sendto(fd, &f, sizeof(f), 0, (struct sockaddr *)&to, sizeof(to));
	}
}

/*
 * Whether @ifname can transmit now, with its operstate in @state: a NIC that
 * is down sends nothing and needs no wait; one that is up sends only once
 * its carrier is on, since until then the kernel keeps the no-op qdisc on
 * its TX queues, which drops every frame before the driver sees it.
 */
static bool link_ready(const char *ifname, char *state, size_t len)
{
	char path[64];
	long flags;

	snprintf(path, sizeof(path), "/sys/class/net/%s/flags", ifname);
	if (read_long(path, &flags) || !(flags & IFF_UP))
		return true;
	snprintf(path, sizeof(path), "/sys/class/net/%s/operstate", ifname);
	if (read_str(path, state, len))
		snprintf(state, len, "unreadable");
	/* "unknown": a driver that reports no link state at all. */
	return !strcmp(state, "up") || !strcmp(state, "unknown");
}

/*
 * Wait until each of @ifnames that is up has its link: frames sent before
 * are lost and make no transmit interrupt. Bounded by LINK_WAIT_S; the NICs
 * still without one are named. Returns 0 or -ENOLINK.
 */
static int wait_links(const char *const *ifnames)
{
	const char *const *nic;
	struct timespec t0, t;
	unsigned int polls = 0;
	char state[32];
	bool waiting;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		waiting = false;
		for (nic = ifnames; *nic; nic++)
			waiting |= !link_ready(*nic, state, sizeof(state));
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (!waiting || t.tv_sec - t0.tv_sec >= LINK_WAIT_S)
			break;
		usleep(LINK_POLL_US);
		polls++;
	}
	/* Said, so that a log shows how late a link came. */
	if (!waiting && polls)
		fprintf(stderr, "# traffic: waited %ld ms for a link\n",
			(t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
	if (!waiting)
		return 0;
	for (nic = ifnames; *nic; nic++)
		if (!link_ready(*nic, state, sizeof(state)))
			fprintf(stderr, "# %s is up but its operstate is %s after %d s, want up: "
				"it cannot send, so its TX IRQs cannot fire\n",
				*nic, state, LINK_WAIT_S);
	return -ENOLINK;
}

int traffic_send(const char *const *ifnames, const struct cpus *from, unsigned int frames)
{
	cpu_set_t saved, one;
	const char *const *nic;
	int fd, cpu, ret;

	ret = wait_links(ifnames);
	if (ret)
		return ret;
	if (sched_getaffinity(0, sizeof(saved), &saved))
		return -errno;
	/* Protocol 0: this socket only sends, it receives nothing. */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	for_each_cpu(cpu, from) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		/* An offline CPU cannot be had: it sends nothing. */
		if (sched_setaffinity(0, sizeof(one), &one))
			continue;
		for (nic = ifnames; *nic; nic++)
			send_frames(fd, *nic, cpu, frames);
	}
	close(fd);
	return sched_setaffinity(0, sizeof(saved), &saved) ? -errno : 0;
}

int traffic_burst(const char *const *ifnames)
{
	struct cpus online;
	int ret;

	ret = sys_online_cpus(&online);
	return ret ?: traffic_send(ifnames, &online, FRAMES);
}

/* A flood's bursts: one every FLOOD_TICK_NS, so the rate holds on average. */
#define FLOOD_TICK_NS	5000000L
/*
 * Its flows' source ports, far from those of send_frames(): a tap keeps the
 * queue each flow the guest sent went out of, and sends that flow's frames
 * to the guest on that queue, so a flood on the ports of a burst that
 * vnode1 sent from CPUs 0-3 would all go to one of its queues.
 */
#define FLOOD_PORT	40000

static void __attribute__((noreturn)) flood(const char *ifname, unsigned int cpu,
					    unsigned int rate)
{
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = ETH_ALEN };
	unsigned long long ticks, sent = 0;
	uint8_t mac[ETH_ALEN];
	struct timespec next;
	cpu_set_t one;
	struct frame f;
	int fd;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	to.sll_ifindex = if_nametoindex(ifname);
	memset(to.sll_addr, 0xff, ETH_ALEN);
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0 || !to.sll_ifindex || read_mac(ifname, mac) ||
	    sched_setaffinity(0, sizeof(one), &one))
		_exit(1);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (ticks = 1;; ticks++) {
		/* The frames owed by now: a late wake-up catches up. */
		for (; sent < rate * ticks * FLOOD_TICK_NS / 1000000000ULL; sent++) {
			build_frame(&f, mac, FLOOD_PORT + sent % SRC_ADDRS);
			sendto(fd, &f, sizeof(f), 0, (struct sockaddr *)&to, sizeof(to));
		}
		next.tv_nsec += FLOOD_TICK_NS;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}

int traffic_flood_start(const char *ifname, unsigned int cpu, unsigned int rate)
{
	const char *const nics[] = { ifname, NULL };
	int ret = wait_links(nics);
	pid_t pid;

	if (ret)
		return ret;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		flood(ifname, cpu, rate);
	return pid;
}

int traffic_flood_stop(int pid)
{
	int status;

	if (kill(pid, SIGTERM) || waitpid(pid, &status, 0) != pid)
		return -errno;
	/* Killed by the signal: it never exits on its own but on an error. */
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? 0 : -EIO;
}
