// SPDX-License-Identifier: GPL-2.0
/*
 * Guest half of bench/big.sh: the BIND request alone, timed in one process
 * from send to parsed reply over many rounds, alternating between two CPU
 * sets so that every request moves every queue IRQ. Built with the test
 * library's client (selftests/lib), with room for the big guest's IRQs.
 *
 * Usage: bind-rtt IFNAME SET_A SET_B ROUNDS
 * Prints "RTT <IRQs> <microseconds per request>".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nictl.h"

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	struct nictl_bind_args args = { 0 };
	struct nictl_dev *reply = malloc(sizeof(*reply));
	unsigned long long start, total = 0;
	struct cpus set[2];
	struct nl_result res;
	struct nl_client nl;
	long i, rounds;
	int ret;

	if (argc != 5 || !reply || cpus_parse(&set[0], argv[2]) || cpus_parse(&set[1], argv[3]) ||
	    (rounds = strtol(argv[4], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: bind-rtt IFNAME SET_A SET_B ROUNDS\n");
		return 2;
	}
	ret = nictl_open(&nl);
	if (ret) {
		fprintf(stderr, "bind-rtt: nictl: %s\n", strerror(-ret));
		return 1;
	}
	args.ifname = argv[1];
	/* One warm-up request each way, not timed. */
	for (i = -2; i < 2 * rounds; i++) {
		args.cpus = &set[(i + 2) % 2];
		start = now_ns();
		ret = nictl_bind(&nl, &args, reply, &res);
		if (ret) {
			fprintf(stderr, "bind-rtt: bind %s: %s (%s)\n", args.ifname,
				strerror(-ret), res.msg);
			return 1;
		}
		if (i >= 0)
			total += now_ns() - start;
	}
	printf("RTT %u %llu\n", reply->n_irqs, total / 1000 / (2 * rounds));
	return 0;
}
