// SPDX-License-Identifier: GPL-2.0
/*
 * bcast-flood: the background traffic of bench/off-policy.sh. Sends
 * broadcast UDP frames out of one NIC at a steady rate until it is killed.
 * The suite guest's NICs share one bridge, which floods every broadcast into
 * all the other NICs: the NIC under test receives the frames without being
 * the one that sends, so a reload or `ethtool -L` of it never stops them.
 *
 * Usage: bcast-flood IFNAME FRAMES_PER_S
 *
 * The source address cycles through 198.18.0.1-.250 and the UDP source port
 * through 250 values (the benchmarking range of RFC 2544, routed nowhere):
 * virtio's tap and igb's RSS hash different fields, and every receive queue
 * should see frames. Frames go in bursts every TICK_NS; a full queue or a
 * NIC that is down only means fewer frames, so errors of send are ignored.
 */
#include <arpa/inet.h>
#include <err.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <netpacket/packet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define TICK_NS		5000000L	/* a burst every 5 ms */
#define FLOWS		250
#define BENCH_NET	0xc6120000U	/* 198.18.0.0 */
#define DISCARD_PORT	9

struct bcast_frame {
	struct ether_header eth;
	struct iphdr ip;
	struct udphdr udp;
	uint8_t payload[32];
} __attribute__((packed));

/* The one's complement sum of RFC 791 over the IPv4 header. */
static uint16_t ipv4_sum(const struct iphdr *ip)
{
	const uint16_t *word = (const uint16_t *)ip;
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i < sizeof(*ip) / 2; i++)
		sum += word[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum += sum >> 16;
	return (uint16_t)~sum;
}

static void read_mac(const char *ifname, uint8_t *mac)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/class/net/%s/address", ifname);
	f = fopen(path, "r");
	ok = f && fscanf(f, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1], &mac[2],
			 &mac[3], &mac[4], &mac[5]) == 6;
	if (f)
		fclose(f);
	if (!ok)
		errx(1, "no MAC address in %s", path);
}

/* Frame @n of the cycle: flow n % FLOWS, so consecutive frames hash apart. */
static void fill_frame(struct bcast_frame *f, const uint8_t *mac, unsigned int n)
{
	unsigned int flow = n % FLOWS;
	struct iphdr ip = {
		.version = 4,
		.ihl = sizeof(ip) / 4,
		.tot_len = htons(sizeof(*f) - sizeof(f->eth)),
		.ttl = 1,
		.protocol = IPPROTO_UDP,
		.saddr = htonl(BENCH_NET + 1 + flow),
		.daddr = htonl(BENCH_NET + 255),
	};

	/* Summed aligned: the frame's copy of the header is packed. */
	ip.check = ipv4_sum(&ip);
	memset(f, 0, sizeof(*f));
	memset(f->eth.ether_dhost, 0xff, ETH_ALEN);
	memcpy(f->eth.ether_shost, mac, ETH_ALEN);
	f->eth.ether_type = htons(ETHERTYPE_IP);
	f->ip = ip;
	f->udp.source = htons(20000 + flow);
	f->udp.dest = htons(DISCARD_PORT);
	f->udp.len = htons(sizeof(f->udp) + sizeof(f->payload));
}

int main(int argc, char **argv)
{
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = ETH_ALEN };
	struct bcast_frame frame[FLOWS];
	struct timespec next;
	uint8_t mac[ETH_ALEN];
	unsigned long long rate, ticks, sent = 0;
	unsigned int i;
	int fd;

	if (argc != 3)
		errx(2, "usage: bcast-flood IFNAME FRAMES_PER_S");
	rate = strtoull(argv[2], NULL, 10);
	to.sll_ifindex = if_nametoindex(argv[1]);
	if (!to.sll_ifindex || !rate)
		errx(2, "no interface %s or no rate '%s'", argv[1], argv[2]);
	memset(to.sll_addr, 0xff, ETH_ALEN);
	read_mac(argv[1], mac);
	for (i = 0; i < FLOWS; i++)
		fill_frame(&frame[i], mac, i);
	/* Protocol 0: this socket sends only and is handed no received frame. */
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		err(1, "AF_PACKET socket");
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (ticks = 1;; ticks++) {
		/*
		 * The frames owed by this tick, so that any rate comes out right
		 * on average, and a late wake-up (the deadlines are absolute)
		 * catches up instead of drifting.
		 */
		for (; sent < rate * ticks * TICK_NS / 1000000000ULL; sent++)
			sendto(fd, &frame[sent % FLOWS], sizeof(frame[0]), 0,
			       (struct sockaddr *)&to, sizeof(to));
		next.tv_nsec += TICK_NS;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}
