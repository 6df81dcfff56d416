// SPDX-License-Identifier: GPL-2.0
/*
 * affinity-window: the timed half of bench/affinity-window.sh. A round takes
 * a virtio-net NIC's queue IRQs off their CPUs, one way or another, then
 * reads /proc every millisecond until each is back where the policy puts
 * it. Times are CLOCK_MONOTONIC in ns, the clock of the time_ns of nictl's
 * events, so the two can be compared.
 *
 * Usage: affinity-window BDF PLACEMENT TIMEOUT_MS state
 *        affinity-window BDF PLACEMENT TIMEOUT_MS reload DRIVER
 *        affinity-window BDF PLACEMENT TIMEOUT_MS drift QUEUE CPU
 *
 * The queue IRQs of PCI function BDF, and PLACEMENT, the CPUs each must
 * have, are as placement.h says: "input.0=5,output.0=5,input.1=7,output.1=7"
 * ("-": none).
 *
 * state   prints the placement now, in PLACEMENT's form; exit 0 when it
 *         is PLACEMENT.
 * reload  unbinds BDF from PCI driver DRIVER, and polls while a second
 *         thread binds it again; prints "<unbind written> <bind returned>
 *         <back in place>".
 * drift   after a random pause of up to one period of nictl's drift check,
 *         so that writes fall at every phase of it, writes CPU to the
 *         affinity of queue IRQ QUEUE; prints "<write returned> <back in
 *         place>".
 * "Back in place" is the first poll that found every queue IRQ as
 * PLACEMENT says, -1 when none did within TIMEOUT_MS.
 */
#define _GNU_SOURCE
#include <err.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "placement.h"

#define POLL_NS		1000000LL
#define PERIOD_PARAM	"/sys/module/nictl/parameters/watch_period_ms"

static const char *bdf, *driver;
static long long bind_returned_ns;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_ns(long long ns)
{
	struct timespec ts = { ns / 1000000000LL, ns % 1000000000LL };

	nanosleep(&ts, NULL);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		err(1, "write %s to %s", text, path);
}

/* Poll every millisecond: the time of the first poll that found @want, or -1. */
static long long wait_in_place(const struct placement *want, long long timeout_ns)
{
	struct placement now;
	long long t, start = now_ns();

	for (t = start; t - start < timeout_ns; t = now_ns()) {
		placement_read(bdf, &now);
		if (placement_equal(want, &now))
			return t;
		sleep_ns(POLL_NS);
	}
	return -1;
}

static void *bind_again(void *unused)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/bind", driver);
	write_file(path, bdf);
	bind_returned_ns = now_ns();
	return unused;
}

static void reload(const struct placement *want, long long timeout_ns)
{
	char path[128];
	long long unbound, back;
	pthread_t t;

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/unbind", driver);
	unbound = now_ns();
	write_file(path, bdf);
	if (pthread_create(&t, NULL, bind_again, NULL))
		errx(1, "cannot start the bind thread");
	back = wait_in_place(want, timeout_ns);
	pthread_join(t, NULL);
	printf("%lld %lld %lld\n", unbound, bind_returned_ns, back);
}

static void drift(const struct placement *want, long long timeout_ns, const char *queue,
		  const char *cpu)
{
	struct placement now;
	const struct queue_place *q;
	char path[64], period[32];
	long long written;

	if (!read_line(PERIOD_PARAM, period, sizeof(period)))
		errx(1, "nictl is not loaded");
	srand(now_ns());
	sleep_ns(rand() % (atoll(period) + 1) * 1000000LL);
	placement_read(bdf, &now);
	q = placement_find(&now, queue);
	if (!q)
		errx(1, "%s has no queue IRQ %s", bdf, queue);
	snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", q->irq);
	write_file(path, cpu);
	written = now_ns();
	printf("%lld %lld\n", written, wait_in_place(want, timeout_ns));
}

static int state(const struct placement *want)
{
	struct placement now;

	placement_read(bdf, &now);
	placement_print(&now);
	return !placement_equal(want, &now);
}

int main(int argc, char **argv)
{
	struct placement want;
	long long timeout_ns;

	if (argc < 5)
		errx(2, "usage: affinity-window BDF PLACEMENT TIMEOUT_MS state|reload|drift ...");
	bdf = argv[1];
	placement_parse(argv[2], &want);
	timeout_ns = atoll(argv[3]) * 1000000LL;
	if (!strcmp(argv[4], "state"))
		return state(&want);
	if (!strcmp(argv[4], "reload") && argc == 6) {
		driver = argv[5];
		reload(&want, timeout_ns);
	} else if (!strcmp(argv[4], "drift") && argc == 7) {
		drift(&want, timeout_ns, argv[5], argv[6]);
	} else {
		errx(2, "bad arguments for %s", argv[4]);
	}
	return 0;
}
