// SPDX-License-Identifier: GPL-2.0
/*
 * softirq-flood: the fixed NET_RX workload of bench/softirq-cost.sh.
 *
 * Usage: softirq-flood NETNS ADDR COUNT REPEAT
 *
 * Receives on ADDR (UDP port 9000) in the caller's network namespace and
 * sends from network namespace NETNS (/run/netns/NETNS), whose end of a
 * veth pair routes to ADDR. A datagram sent over a veth pair is queued to
 * the sending CPU's backlog and received by one NET_RX softirq run before
 * send() returns, so each round trip of the loop is one datagram, one
 * NET_RX run and one recv(), all on the calling CPU, with no device
 * emulated in between. Prints "warmup <datagrams>" for the untimed ones
 * sent first, then "<datagrams> <ns>" for each of REPEAT runs of COUNT
 * datagrams (CLOCK_MONOTONIC around the run).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <err.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FLOOD_PORT	9000
#define FLOOD_WARMUP	1000

static unsigned long parse_count(const char *arg, const char *what)
{
	char *end;
	unsigned long n = strtoul(arg, &end, 10);

	if (!*arg || *end || !n)
		errx(2, "%s must be a positive number, not '%s'", what, arg);
	return n;
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* A socket made in network namespace @netns; the caller's namespace is kept. */
static int socket_in_netns(const char *netns)
{
	char path[256];
	int self, ns, fd;

	self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/run/netns/%s", netns);
	ns = open(path, O_RDONLY | O_CLOEXEC);
	if (self < 0 || ns < 0)
		err(1, "open %s", ns < 0 ? path : "/proc/self/ns/net");
	if (setns(ns, CLONE_NEWNET))
		err(1, "setns %s", path);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		err(1, "socket in %s", netns);
	if (setns(self, CLONE_NEWNET))
		err(1, "setns back");
	close(ns);
	close(self);
	return fd;
}

/*
 * Send @count datagrams through @tx, each read back from @rx. It must be
 * there already: its NET_RX run happened inside send().
 */
static void flood(int tx, int rx, unsigned long count)
{
	char payload[64] = "nictl softirq-cost", buf[64];
	unsigned long i;

	for (i = 0; i < count; i++) {
		if (send(tx, payload, sizeof(payload), 0) != sizeof(payload))
			err(1, "send");
		if (recv(rx, buf, sizeof(buf), MSG_DONTWAIT) != sizeof(payload))
			err(1, "datagram %lu was not received within its send()", i);
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(FLOOD_PORT) };
	unsigned long count, repeat, r;
	unsigned long long t0;
	int rx, tx;

	if (argc != 5)
		errx(2, "usage: softirq-flood NETNS ADDR COUNT REPEAT");
	if (inet_pton(AF_INET, argv[2], &addr.sin_addr) != 1)
		errx(2, "'%s' is not an IPv4 address", argv[2]);
	count = parse_count(argv[3], "COUNT");
	repeat = parse_count(argv[4], "REPEAT");

	rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || bind(rx, (struct sockaddr *)&addr, sizeof(addr)))
		err(1, "bind %s:%d", argv[2], FLOOD_PORT);
	tx = socket_in_netns(argv[1]);
	if (connect(tx, (struct sockaddr *)&addr, sizeof(addr)))
		err(1, "connect to %s:%d from %s", argv[2], FLOOD_PORT, argv[1]);

	/* Page faults, neighbour resolution and cold caches stay out of the runs. */
	flood(tx, rx, FLOOD_WARMUP);
	printf("warmup %d\n", FLOOD_WARMUP);
	for (r = 0; r < repeat; r++) {
		t0 = now_ns();
		flood(tx, rx, count);
		printf("%lu %llu\n", count, now_ns() - t0);
	}
	return 0;
}
