// SPDX-License-Identifier: GPL-2.0
/*
 * ctl/napi/place.c: a bind's NAPI threads follow their IRQs, all or none,
 * and restore gives them back their CPUs from before nictl. The threads are
 * the test's own, named like NAPI threads, moved for real with
 * sched_setaffinity() between the first two CPUs the test may use; what is
 * kept goes to a directory of the test's own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "napi/kept.h"
#include "napi/place.h"

#define NR_THREADS	3
/* No device has it, so nothing of a real one is touched. */
#define IFINDEX		999999

struct sleeper {
	pthread_t thread;
	pid_t tid;
	int ready[2];		/* the thread writes its tid */
	int quit[2];		/* closed to end it */
};

static void *sleep_until_quit(void *arg)
{
	struct sleeper *s = arg;
	pid_t tid = gettid();
	char c;

	if (write(s->ready[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	while (read(s->quit[0], &c, 1) > 0)
		;
	return NULL;
}

FIXTURE(place) {
	char dir[64];
	int cpu[2];			/* two CPUs the test may run on */
	struct cpuset all;		/* both */
	struct cpuset one[2];		/* each alone */
	struct sleeper s[NR_THREADS];
	struct napi_thread t[NR_THREADS];
	struct napi_threads threads;
	struct irq_queue served[2];
	struct nictl_irq irqs[2];
	struct nictl_dev dev;
};

/* The CPUs @tid may run on now, as a cpuset. */
static struct cpuset cpus_of(pid_t tid)
{
	struct cpuset s = CPUSET_INIT;
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(tid, sizeof(set), &set))
		abort();
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set) && cpuset_add(&s, cpu))
			abort();
	return s;
}

static bool on(pid_t tid, const struct cpuset *want)
{
	struct cpuset now = cpus_of(tid);
	bool same = cpuset_equal(&now, want);

	cpuset_free(&now);
	return same;
}

static void start_sleeper(struct __test_metadata *_metadata, struct sleeper *s, unsigned int i,
			  struct napi_thread *t)
{
	char name[16];

	ASSERT_EQ(0, pipe(s->ready));
	ASSERT_EQ(0, pipe(s->quit));
	ASSERT_EQ(0, pthread_create(&s->thread, NULL, sleep_until_quit, s));
	ASSERT_EQ(sizeof(s->tid), read(s->ready[0], &s->tid, sizeof(s->tid)));
	snprintf(name, sizeof(name), "napi/vt0-%u", 8193 + i);
	ASSERT_EQ(0, pthread_setname_np(s->thread, name));
	*t = (struct napi_thread){ .napi_id = 8193 + i, .pid = s->tid, .cpus = cpus_of(s->tid) };
	snprintf(t->name, sizeof(t->name), "%s", name);
}

/*
 * Device vt0: IRQ 45 placed on the second CPU, IRQ 46 on the first. Thread
 * 0 is tied to IRQ 45, thread 1 to IRQ 46, thread 2 to none. Every thread
 * starts on both CPUs, and only them.
 */
FIXTURE_SETUP(place)
{
	cpu_set_t mine, both;
	unsigned int i;
	int cpu, n = 0;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(mine), &mine));
	for (cpu = 0; cpu < CPU_SETSIZE && n < 2; cpu++)
		if (CPU_ISSET(cpu, &mine))
			self->cpu[n++] = cpu;
	/* Fail, not skip: a one-CPU host cannot prove a move. */
	ASSERT_EQ(2, n) TH_LOG("the test needs two CPUs to move threads between, has %d", n);
	self->all = (struct cpuset)CPUSET_INIT;
	for (i = 0; i < 2; i++) {
		self->one[i] = (struct cpuset)CPUSET_INIT;
		ASSERT_EQ(0, cpuset_add(&self->one[i], self->cpu[i]));
		ASSERT_EQ(0, cpuset_add(&self->all, self->cpu[i]));
	}
	CPU_ZERO(&both);
	CPU_SET(self->cpu[0], &both);
	CPU_SET(self->cpu[1], &both);
	snprintf(self->dir, sizeof(self->dir), "/tmp/nictlctl-run-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	ASSERT_EQ(0, setenv("NICTL_RUN_DIR", self->dir, 1));
	for (i = 0; i < NR_THREADS; i++) {
		start_sleeper(_metadata, &self->s[i], i, &self->t[i]);
		ASSERT_EQ(0, sched_setaffinity(self->s[i].tid, sizeof(both), &both));
		cpuset_free(&self->t[i].cpus);
		self->t[i].cpus = cpus_of(self->s[i].tid);
	}
	self->t[0].irq = 45;
	self->t[1].irq = 46;
	self->threads = (struct napi_threads){ .t = self->t, .n = NR_THREADS, .looked = true };
	for (i = 0; i < 2; i++) {
		self->served[i] = (struct irq_queue){ i, NICTL_QUEUE_KIND_COMBINED };
		self->irqs[i] = (struct nictl_irq){
			.queue = i, .kind = NICTL_QUEUE_KIND_COMBINED, .irq = 45 + i,
			.queues = &self->served[i], .nr_queues = 1, .target_cpu = self->cpu[1 - i],
			.affinity = self->one[1 - i],
		};
	}
	self->dev = (struct nictl_dev){ .ifindex = IFINDEX, .ifname = "vt0", .irqs = self->irqs,
					.nr_irqs = 2, .numa_node = -1 };
}

FIXTURE_TEARDOWN(place)
{
	char cmd[96];
	unsigned int i;

	for (i = 0; i < NR_THREADS; i++) {
		close(self->s[i].quit[1]);
		pthread_join(self->s[i].thread, NULL);
		close(self->s[i].quit[0]);
		close(self->s[i].ready[0]);
		close(self->s[i].ready[1]);
		cpuset_free(&self->t[i].cpus);
	}
	for (i = 0; i < 2; i++)
		cpuset_free(&self->one[i]);
	cpuset_free(&self->all);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	EXPECT_EQ(0, system(cmd));
	unsetenv("NICTL_RUN_DIR");
	unsetenv(NAPI_FAULT_ENV);
}

/* Each thread's CPUs now: thread 0 first. */
static void expect_threads_on(struct __test_metadata *_metadata, FIXTURE_DATA(place) *self,
			      const struct cpuset *a, const struct cpuset *b,
			      const struct cpuset *c)
{
	const struct cpuset *want[NR_THREADS] = { a, b, c };
	unsigned int i;

	for (i = 0; i < NR_THREADS; i++) {
		struct cpuset now = cpus_of(self->s[i].tid);
		char *seen = cpuset_format(&now), *wanted = cpuset_format(want[i]);

		EXPECT_TRUE(cpuset_equal(&now, want[i]))
			TH_LOG("thread %u on CPUs %s, expected %s", i, seen, wanted);
		free(seen);
		free(wanted);
		cpuset_free(&now);
	}
}

TEST_F(place, threads_go_where_their_irqs_went_the_untied_one_to_the_set)
{
	struct napi_moved *kept;
	unsigned int n, i;

	ASSERT_EQ(0, napi_follow_threads(&self->dev, &self->one[0], &self->threads));
	expect_threads_on(_metadata, self, &self->one[1], &self->one[0], &self->one[0]);
	ASSERT_EQ(0, napi_kept_load(IFINDEX, &kept, &n));
	ASSERT_EQ(NR_THREADS, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(self->s[i].tid, kept[i].pid);
		EXPECT_STREQ(self->t[i].name, kept[i].name);
		EXPECT_TRUE(cpuset_equal(&self->all, &kept[i].before));
	}
	napi_moved_free(kept, n);
}

TEST_F(place, restore_gives_back_the_cpus_from_before_the_first_bind)
{
	struct napi_moved *kept;
	unsigned int n, i;

	ASSERT_EQ(0, napi_follow_threads(&self->dev, &self->one[0], &self->threads));
	/* A second bind, the IRQs swapped: what is kept stays from before nictl. */
	for (i = 0; i < NR_THREADS; i++) {
		cpuset_free(&self->t[i].cpus);
		self->t[i].cpus = cpus_of(self->s[i].tid);
	}
	self->irqs[0].affinity = self->one[0];
	self->irqs[1].affinity = self->one[1];
	ASSERT_EQ(0, napi_follow_threads(&self->dev, &self->one[1], &self->threads));
	expect_threads_on(_metadata, self, &self->one[0], &self->one[1], &self->one[1]);
	ASSERT_EQ(0, napi_restore(IFINDEX));
	expect_threads_on(_metadata, self, &self->all, &self->all, &self->all);
	EXPECT_EQ(-ENOENT, napi_kept_load(IFINDEX, &kept, &n));
}

TEST_F(place, a_move_that_fails_puts_back_every_thread_moved)
{
	struct napi_moved *kept;
	unsigned int n;

	ASSERT_EQ(0, setenv(NAPI_FAULT_ENV, "3", 1));
	EXPECT_EQ(-1, napi_follow_threads(&self->dev, &self->one[0], &self->threads));
	expect_threads_on(_metadata, self, &self->all, &self->all, &self->all);
	EXPECT_EQ(-ENOENT, napi_kept_load(IFINDEX, &kept, &n))
		TH_LOG("a bind that moved nothing in the end keeps nothing for restore");
}

TEST_F(place, threads_already_in_place_are_neither_moved_nor_kept)
{
	struct napi_moved *kept;
	unsigned int n;

	/* Every thread's target is both CPUs, which they have. */
	self->irqs[0].affinity = self->all;
	self->irqs[1].affinity = self->all;
	ASSERT_EQ(0, napi_follow_threads(&self->dev, &self->all, &self->threads));
	EXPECT_EQ(-ENOENT, napi_kept_load(IFINDEX, &kept, &n));
}

TEST_F(place, restore_leaves_a_pid_now_named_otherwise_alone)
{
	struct napi_moved other = { .pid = 0, .name = "napi/gone-1", .before = CPUSET_INIT };
	bool created;

	/* The file names thread 0's pid under another name: a pid reused since. */
	other.pid = self->s[0].tid;
	ASSERT_EQ(0, cpuset_add(&other.before, self->cpu[1]));
	ASSERT_EQ(0, napi_kept_add(IFINDEX, "vt0", &other, 1, &created));
	EXPECT_TRUE(created);
	ASSERT_EQ(0, napi_restore(IFINDEX));
	EXPECT_TRUE(on(self->s[0].tid, &self->all));
	cpuset_free(&other.before);
}

TEST_HARNESS_MAIN
