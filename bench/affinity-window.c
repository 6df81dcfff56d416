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
 * The queue IRQs of PCI function BDF are those of its msi_irqs whose
 * action, as /proc/irq/N/ names it, is virtio-net's "virtioK-input.Q" or
 * "virtioK-output.Q"; they are known by that name without the "virtioK-",
 * since a rebind may give the device and its IRQs other numbers.
 * PLACEMENT says which CPUs each must have, as smp_affinity_list shows them:
 * "input.0=5,output.0=5,input.1=7,output.1=7" ("-": none).
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
#include <dirent.h>
#include <err.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_IRQS	64
#define POLL_NS		1000000LL
#define PERIOD_PARAM	"/sys/module/nictl/parameters/watch_period_ms"

struct queue_irq {
	char queue[32];		/* "input.0" */
	unsigned int irq;
	char cpus[64];		/* smp_affinity_list */
};

struct placement {
	struct queue_irq q[MAX_IRQS];
	unsigned int nr;
};

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

/* Read the first line of @path into @buf, without its newline; false on error. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(buf, len, f);

	if (f)
		fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		err(1, "write %s to %s", text, path);
}

/* The queue name of IRQ @irq ("input.0"), from its /proc/irq entry; false if none. */
static int queue_of(unsigned int irq, char *queue, size_t len)
{
	char path[64];
	const char *q;
	struct dirent *e;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "/proc/irq/%u", irq);
	d = opendir(path);
	while (d && !found && (e = readdir(d))) {
		q = strrchr(e->d_name, '-');
		found = q && (!strncmp(q, "-input.", 7) || !strncmp(q, "-output.", 8));
		if (found)
			snprintf(queue, len, "%s", q + 1);
	}
	if (d)
		closedir(d);
	return found;
}

/* The queue IRQs of the function and their CPUs now (none while it is unbound). */
static void read_placement(struct placement *p)
{
	char path[128];
	struct queue_irq *q;
	struct dirent *e;
	DIR *d;

	p->nr = 0;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/msi_irqs", bdf);
	d = opendir(path);
	while (d && p->nr < MAX_IRQS && (e = readdir(d))) {
		q = &p->q[p->nr];
		q->irq = strtoul(e->d_name, NULL, 10);
		if (!q->irq || !queue_of(q->irq, q->queue, sizeof(q->queue)))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", q->irq);
		if (read_line(path, q->cpus, sizeof(q->cpus)))
			p->nr++;
	}
	if (d)
		closedir(d);
}

static void parse_placement(const char *arg, struct placement *p)
{
	char *copy, *item, *save, *eq;
	struct queue_irq *q;

	p->nr = 0;
	if (!strcmp(arg, "-"))
		return;
	copy = strdup(arg);
	if (!copy)
		err(1, "strdup");
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		eq = strchr(item, '=');
		if (!eq || p->nr == MAX_IRQS)
			errx(2, "bad placement '%s'", arg);
		*eq = '\0';
		q = &p->q[p->nr++];
		snprintf(q->queue, sizeof(q->queue), "%s", item);
		snprintf(q->cpus, sizeof(q->cpus), "%s", eq + 1);
	}
	free(copy);
}

static const struct queue_irq *find(const struct placement *p, const char *queue)
{
	unsigned int i;

	for (i = 0; i < p->nr; i++)
		if (!strcmp(p->q[i].queue, queue))
			return &p->q[i];
	return NULL;
}

/* Whether @now has exactly @want's queue IRQs, each on @want's CPUs. */
static int in_place(const struct placement *want, const struct placement *now)
{
	const struct queue_irq *q;
	unsigned int i;

	for (i = 0; i < want->nr; i++) {
		q = find(now, want->q[i].queue);
		if (!q || strcmp(q->cpus, want->q[i].cpus))
			return 0;
	}
	return want->nr == now->nr;
}

/* Poll every millisecond: the time of the first poll that found @want, or -1. */
static long long wait_in_place(const struct placement *want, long long timeout_ns)
{
	struct placement now;
	long long t, start = now_ns();

	for (t = start; t - start < timeout_ns; t = now_ns()) {
		read_placement(&now);
		if (in_place(want, &now))
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
	const struct queue_irq *q;
	char path[64], period[32];
	long long written;

	if (!read_line(PERIOD_PARAM, period, sizeof(period)))
		errx(1, "nictl is not loaded");
	srand(now_ns());
	sleep_ns(rand() % (atoll(period) + 1) * 1000000LL);
	read_placement(&now);
	q = find(&now, queue);
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
	unsigned int i;

	read_placement(&now);
	for (i = 0; i < now.nr; i++)
		printf("%s%s=%s", i ? "," : "", now.q[i].queue, now.q[i].cpus);
	printf("%s\n", now.nr ? "" : "-");
	return !in_place(want, &now);
}

int main(int argc, char **argv)
{
	struct placement want;
	long long timeout_ns;

	if (argc < 5)
		errx(2, "usage: affinity-window BDF PLACEMENT TIMEOUT_MS state|reload|drift ...");
	bdf = argv[1];
	parse_placement(argv[2], &want);
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
