// SPDX-License-Identifier: GPL-2.0
/*
 * off-policy: the counting half of bench/off-policy.sh. A round does one
 * event to a NIC under traffic, from a second thread, while this one reads
 * /proc/interrupts every POLL_MS and keeps, per queue IRQ, the interrupts
 * each CPU took since the round began; it ends SETTLE_MS after every queue
 * IRQ is back on the placement it had before, or TIMEOUT_MS after the event
 * when that never happens.
 *
 * Usage: off-policy state BDF
 *        off-policy round BDF NIC POLICY PLACEMENT reload DRIVER
 *        off-policy round BDF NIC POLICY PLACEMENT channels N...
 *
 * The queue IRQs of PCI function BDF, their keys ("input.0", "TxRx-3") and
 * PLACEMENT's form are as placement.h says; PLACEMENT holds each key's
 * target CPU as the binding put them before the event, POLICY the CPU list
 * the binding may use ("4-7"). An interrupt is off policy on a CPU outside
 * POLICY, off target on any CPU but its queue's in PLACEMENT.
 *
 * state     prints BDF's placement now, in PLACEMENT's form ("-": none).
 * reload    unbinds BDF from DRIVER and binds it again, names the new
 *           netdev NIC and brings it up.
 * channels  `ethtool -L NIC combined N` for each N, PAUSE_MS apart.
 *
 * A round prints one line per IRQ life (a descriptor, from its first to
 * its last sighting), "IRQ <key> <irq> <total> <off policy> <off target>
 * <cpu>:<count>...", and last "ROUND <on policy again: yes|no> <event ms>
 * <ms from the event's end to on policy, -1: never> <netdev names>".
 *
 * An IRQ whose descriptor is freed and allocated again (a reload; igb's
 * `ethtool -L`) may come back with the same number and name, its counts
 * from 0. A new life starts where the old cannot go on: the IRQ is gone
 * from BDF's msi_irqs or from /proc/interrupts, its action has another
 * name, or a count went down; and, for a reload, at the unbind, which
 * frees every descriptor. Lives seen first after the round began count
 * from 0, the ones before it from their counts then.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <err.h>
#include <glob.h>
#include <pthread.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "placement.h"

#define MAX_CPUS	256
#define MAX_LIVES	512
#define POLL_MS		20
#define SETTLE_MS	2000
#define TIMEOUT_MS	8000
#define PAUSE_MS	2000
#define NETDEV_WAIT_MS	30000

extern char **environ;

struct sighting {
	unsigned int irq;
	char name[64];		/* the action: "virtio3-input.0" */
	unsigned long long count[MAX_CPUS];
};

struct life {
	unsigned int irq;
	char name[64];
	bool open;
	unsigned long long base[MAX_CPUS], last[MAX_CPUS];
};

static const char *bdf, *nic, *driver;
static char **counts;		/* of the channels event */
static unsigned int nr_counts;
static bool policy[MAX_CPUS];
static unsigned int nr_cpus;	/* columns of /proc/interrupts */
static int column_cpu[MAX_CPUS];
static struct life lives[MAX_LIVES];
static unsigned int nr_lives;
/* Written by the event thread, read by the poller. */
static atomic_uint unbinds;
static atomic_bool event_done;
static char new_name[64];	/* the name a reloaded netdev was given */
static bool event_failed;
static char event_error[256];

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void sleep_ms(long long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	nanosleep(&ts, NULL);
}

/* Whether BDF has MSI(-X) IRQ @irq now. */
static bool irq_of_function(unsigned int irq)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/msi_irqs/%u", bdf, irq);
	return access(path, F_OK) == 0;
}

/* The CPU number of each column, from the heading line "CPU0 CPU1 ...". */
static void read_columns(const char *heading)
{
	const char *p = heading;
	int cpu, used;

	nr_cpus = 0;
	while (nr_cpus < MAX_CPUS && sscanf(p, " CPU%d%n", &cpu, &used) == 1) {
		if (cpu < 0 || cpu >= MAX_CPUS)
			errx(1, "/proc/interrupts names CPU %d, this helper knows up to %d",
			     cpu, MAX_CPUS - 1);
		column_cpu[nr_cpus++] = cpu;
		p += used;
	}
	if (!nr_cpus)
		errx(1, "/proc/interrupts has no CPU heading: '%s'", heading);
}

/*
 * The queue IRQs of BDF in /proc/interrupts, with their counts by CPU: a
 * line "  N:  c0 c1 ... chip ... action", the action its last word.
 */
static unsigned int read_sightings(struct sighting *s)
{
	char line[4096], *p, *end;
	unsigned int n = 0, col;
	unsigned long irq;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f || !fgets(line, sizeof(line), f))
		err(1, "/proc/interrupts");
	read_columns(line);
	while (n < PLACEMENT_MAX && fgets(line, sizeof(line), f)) {
		irq = strtoul(line, &p, 10);
		if (p == line || *p != ':' || !irq_of_function(irq))
			continue;
		p++;
		memset(&s[n], 0, sizeof(s[n]));
		s[n].irq = irq;
		for (col = 0; col < nr_cpus; col++) {
			s[n].count[column_cpu[col]] = strtoull(p, &end, 10);
			p = end;
		}
		line[strcspn(line, "\n")] = '\0';
		p = strrchr(line, ' ');
		snprintf(s[n].name, sizeof(s[n].name), "%s", p ? p + 1 : "");
		if (queue_key(s[n].name))
			n++;
	}
	fclose(f);
	return n;
}

static bool counts_went_on(const struct life *l, const struct sighting *s)
{
	unsigned int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (s->count[cpu] < l->last[cpu])
			return false;
	return true;
}

static const struct sighting *find_sighting(const struct sighting *s, unsigned int nr,
					    const struct life *l)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (s[i].irq == l->irq && !strcmp(s[i].name, l->name) && counts_went_on(l, &s[i]))
			return &s[i];
	return NULL;
}

/* Close the lives that cannot go on, go on with the others, open new ones. */
static void account(const struct sighting *s, unsigned int nr, bool first)
{
	const struct sighting *seen;
	struct life *l;
	unsigned int i, j;

	for (i = 0; i < nr_lives; i++) {
		l = &lives[i];
		seen = l->open ? find_sighting(s, nr, l) : NULL;
		l->open = seen;
		if (seen)
			memcpy(l->last, seen->count, sizeof(l->last));
	}
	for (i = 0; i < nr; i++) {
		for (j = 0; j < nr_lives; j++)
			if (lives[j].open && lives[j].irq == s[i].irq)
				break;
		if (j < nr_lives)
			continue;
		if (nr_lives == MAX_LIVES)
			errx(1, "more than %d IRQ lives in one round", MAX_LIVES);
		l = &lives[nr_lives++];
		l->irq = s[i].irq;
		snprintf(l->name, sizeof(l->name), "%s", s[i].name);
		l->open = true;
		memcpy(l->last, s[i].count, sizeof(l->last));
		if (first)
			memcpy(l->base, s[i].count, sizeof(l->base));
		else
			memset(l->base, 0, sizeof(l->base));
	}
}

/*
 * One reading of /proc/interrupts, dropped when an unbind returned while it
 * was taken (it may mix old and new descriptors). The first after an unbind
 * closes every life first: the unbind freed them all.
 */
static void poll_once(bool first)
{
	static struct sighting s[PLACEMENT_MAX];
	static unsigned int unbinds_seen;
	unsigned int before = atomic_load(&unbinds), nr, i;

	nr = read_sightings(s);
	if (atomic_load(&unbinds) != before)
		return;
	if (before != unbinds_seen) {
		for (i = 0; i < nr_lives; i++)
			lives[i].open = false;
		unbinds_seen = before;
	}
	account(s, nr, first);
}

/* The queue an IRQ serves: the number its key ends in ("TxRx-3": 3). */
static long queue_of(const char *key)
{
	const char *end = key + strlen(key);

	while (end > key && isdigit((unsigned char)end[-1]))
		end--;
	return strtol(end, NULL, 10);
}

/*
 * The target CPU of the queue IRQ @key serves in @p: its one CPU; -1 when it
 * has none or several. By queue, not by key: the rx and tx IRQs of a queue
 * share its CPU, and igb with one queue pair has "rx-0" and "tx-0" where
 * the placement, taken with more, has "TxRx-0".
 */
static int target_cpu(const struct placement *p, const char *key)
{
	unsigned int i;
	char *end;
	long cpu;

	for (i = 0; i < p->nr; i++) {
		if (queue_of(p->q[i].key) != queue_of(key))
			continue;
		cpu = strtol(p->q[i].cpus, &end, 10);
		return end != p->q[i].cpus && !*end ? cpu : -1;
	}
	return -1;
}

/* A cpulist ("4-7,9") into policy[]. */
static void parse_policy(const char *list)
{
	const char *p = list;
	char *end;
	long lo, hi;

	while (*p) {
		lo = strtol(p, &end, 10);
		hi = *end == '-' ? strtol(end + 1, &end, 10) : lo;
		if (end == p || lo < 0 || hi < lo || hi >= MAX_CPUS || (*end && *end != ','))
			errx(2, "bad CPU list '%s'", list);
		while (lo <= hi)
			policy[lo++] = true;
		p = *end ? end + 1 : end;
	}
}

/* Run @argv and wait; false (with the reason in event_error) unless it exits 0. */
static bool run(char *const argv[])
{
	int status;
	pid_t pid;

	if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ) ||
	    waitpid(pid, &status, 0) != pid) {
		snprintf(event_error, sizeof(event_error), "cannot run %s", argv[0]);
		return false;
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return true;
	snprintf(event_error, sizeof(event_error), "%s %s %s %s: exit status %d, want 0",
		 argv[0], argv[1], argv[2], argv[3] ? argv[3] : "", WEXITSTATUS(status));
	return false;
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	bool ok = f && fputs(text, f) >= 0;

	if (f && fclose(f))
		ok = false;
	if (!ok)
		snprintf(event_error, sizeof(event_error), "cannot write %s to %s", text, path);
	return ok;
}

/* The netdev of BDF, directly under it (igb) or under its virtio device. */
static bool netdev_of(char *name, size_t len)
{
	static const char *const where[] = { "net/*", "virtio*/net/*" };
	char pattern[128];
	unsigned int i;
	glob_t g;
	bool found = false;

	for (i = 0; i < 2 && !found; i++) {
		snprintf(pattern, sizeof(pattern), "/sys/bus/pci/devices/%s/%s", bdf, where[i]);
		if (glob(pattern, 0, NULL, &g))
			continue;
		snprintf(name, len, "%s", strrchr(g.gl_pathv[0], '/') + 1);
		found = true;
		globfree(&g);
	}
	return found;
}

/* A driver reload as an administrator does one, back to NIC's name, up. */
static bool reload(void)
{
	char path[128];
	long long end;

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/unbind", driver);
	if (!write_file(path, bdf))
		return false;
	atomic_fetch_add(&unbinds, 1);
	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/%s/bind", driver);
	if (!write_file(path, bdf))
		return false;
	for (end = now_ms() + NETDEV_WAIT_MS; !netdev_of(new_name, sizeof(new_name));
	     sleep_ms(POLL_MS)) {
		if (now_ms() > end) {
			snprintf(event_error, sizeof(event_error),
				 "%s has no netdev %d ms after its bind", bdf, NETDEV_WAIT_MS);
			return false;
		}
	}
	if (strcmp(new_name, nic) &&
	    !run((char *[]){ "ip", "link", "set", new_name, "name", (char *)nic, NULL }))
		return false;
	return run((char *[]){ "ip", "link", "set", (char *)nic, "up", NULL });
}

static bool channels(void)
{
	unsigned int i;

	for (i = 0; i < nr_counts; i++) {
		if (i)
			sleep_ms(PAUSE_MS);
		if (!run((char *[]){ "ethtool", "-L", (char *)nic, "combined", counts[i], NULL }))
			return false;
	}
	return true;
}

static void *event_thread(void *unused)
{
	event_failed = !(driver ? reload() : channels());
	atomic_store(&event_done, true);
	return unused;
}

/* One line per life: its interrupts, those off the policy and off its target. */
static void report(const struct placement *want)
{
	unsigned long long n, total, off_policy, off_target;
	const struct life *l;
	unsigned int i, cpu;
	const char *key;
	int target;

	for (i = 0; i < nr_lives; i++) {
		l = &lives[i];
		key = queue_key(l->name);
		target = target_cpu(want, key);
		total = off_policy = off_target = 0;
		for (cpu = 0; cpu < MAX_CPUS; cpu++) {
			n = l->last[cpu] - l->base[cpu];
			total += n;
			off_policy += policy[cpu] ? 0 : n;
			off_target += (int)cpu == target ? 0 : n;
		}
		printf("IRQ %s %u %llu %llu %llu", key, l->irq, total, off_policy, off_target);
		for (cpu = 0; cpu < MAX_CPUS; cpu++)
			if (l->last[cpu] > l->base[cpu])
				printf(" %u:%llu", cpu, l->last[cpu] - l->base[cpu]);
		printf("\n");
	}
}

static int round_main(const struct placement *want)
{
	long long start, event_end = 0, on_policy = -1, t;
	struct placement now;
	pthread_t thread;
	bool done;

	poll_once(true);
	start = now_ms();
	if (pthread_create(&thread, NULL, event_thread, NULL))
		errx(1, "cannot start the event thread");
	for (;;) {
		sleep_ms(POLL_MS);
		done = atomic_load(&event_done);
		poll_once(false);
		t = now_ms();
		if (!done)
			continue;
		if (!event_end)
			event_end = t;
		placement_read(bdf, &now);
		if (!placement_equal(want, &now))
			on_policy = -1;
		else if (on_policy < 0)
			on_policy = t;
		if (on_policy >= 0 && t - on_policy >= SETTLE_MS)
			break;
		if (on_policy < 0 && t - event_end >= TIMEOUT_MS)
			break;
	}
	pthread_join(thread, NULL);
	if (event_failed)
		errx(1, "the event failed: %s", event_error);
	report(want);
	printf("ROUND %s %lld %lld %s%s%s\n", on_policy >= 0 ? "yes" : "no", event_end - start,
	       on_policy >= 0 ? on_policy - event_end : -1, nic, new_name[0] ? "," : "",
	       new_name);
	return 0;
}

int main(int argc, char **argv)
{
	struct placement want, now;

	if (argc == 3 && !strcmp(argv[1], "state")) {
		bdf = argv[2];
		placement_read(bdf, &now);
		placement_print(&now);
		return 0;
	}
	if (argc < 8 || strcmp(argv[1], "round"))
		errx(2, "usage: off-policy state BDF | round BDF NIC POLICY PLACEMENT "
		     "reload DRIVER | round BDF NIC POLICY PLACEMENT channels N...");
	bdf = argv[2];
	nic = argv[3];
	parse_policy(argv[4]);
	placement_parse(argv[5], &want);
	if (!strcmp(argv[6], "reload") && argc == 8) {
		driver = argv[7];
	} else if (!strcmp(argv[6], "channels")) {
		counts = &argv[7];
		nr_counts = argc - 7;
	} else {
		errx(2, "unknown event %s", argv[6]);
	}
	return round_main(&want);
}
