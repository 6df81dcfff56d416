// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink fuzzer (fuzz/) against the module for a fixed budget with
 * fixed seeds, as root, as nobody and with a CPU offline: no answer may be
 * unexpected (the suite's summary also fails on any splat in the kernel
 * log), every device is left as it was found, and afterwards the family
 * still answers correctly: DEV_GET matches /proc, a real bind and restore
 * work, the accounting answers and is switched as it was.
 *
 * NICTL_FUZZ_SECONDS (default 60) is the time budget of the whole binary,
 * shared out between the tests; every seed also stops after NICTL_FUZZ_STEPS
 * steps (default 100000). Each run's summary goes to stderr, and one line
 * per run to $NICTL_RESULTS/fuzz-summary.txt when NICTL_RESULTS is set.
 * A run is replayed with `nictl_fuzz --seed S --start K --count N`.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kselftest_harness.h"

#include "engine.h"
#include "env.h"
#include "main.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

#define FUZZ_SECONDS	60
#define FUZZ_STEPS	100000
/* The longest budget a test may be given: its harness timeout is fixed. */
#define FUZZ_SECONDS_MAX	6000
#define FUZZ_TIMEOUT	(FUZZ_SECONDS_MAX + 1200)

/* Shares of the budget, in percent, per seed. */
#define ROOT_SHARE	20
#define NOBODY_SHARE	10
#define OFFLINE_SHARE	10

static const uint64_t root_seeds[] = { 1, 2, 3 };
static const uint64_t nobody_seeds[] = { 101, 102 };
#define OFFLINE_SEED	201
#define OFFLINE_CPU	7

static uint64_t env_u64(const char *name, uint64_t def, uint64_t max)
{
	const char *s = getenv(name);
	uint64_t v;

	if (!s || !*s)
		return def;
	v = strtoull(s, NULL, 0);
	return v && v <= max ? v : def;
}

static struct fuzz_opts fuzz_opts(uint64_t seed, unsigned int share, bool unprivileged)
{
	struct fuzz_opts o = {
		.seed = seed,
		.count = env_u64("NICTL_FUZZ_STEPS", FUZZ_STEPS, UINT64_MAX),
		.unprivileged = unprivileged,
	};

	o.seconds = env_u64("NICTL_FUZZ_SECONDS", FUZZ_SECONDS, FUZZ_SECONDS_MAX) * share / 100.0;
	return o;
}

/* The summary to the log, and as one line to $NICTL_RESULTS/fuzz-summary.txt. */
static void report(const char *test, const struct fuzz_summary *s)
{
	const char *dir = getenv("NICTL_RESULTS");
	char path[4096];
	FILE *f;

	fuzz_print(stderr, s);
	if (!dir || pathf(path, sizeof(path), "%s/fuzz-summary.txt", dir))
		return;
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, "kernel=%s test=%s ", getenv("NICTL_KREL") ?: "?", test);
	fuzz_print_line(f, s);
	fclose(f);
}

FIXTURE(fuzz) {
	struct test_env env;
	int stats_enabled;
};

FIXTURE_SETUP(fuzz)
{
	struct nictl_stats *stats = malloc(sizeof(*stats));
	struct nl_result res;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_NE(NULL, stats);
	ASSERT_EQ(0, nictl_stats_get(&self->env.nl, stats, &res));
	ASSERT_LT(0U, stats->n);
	self->stats_enabled = stats->cpu[0].enabled;
	free(stats);
}

FIXTURE_TEARDOWN(fuzz)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Every queue IRQ DEV_GET reports is in /proc/interrupts with its name and masks. */
static bool dev_get_matches_proc(struct __test_metadata *_metadata, struct nl_client *nl,
				 const char *ifname)
{
	struct nictl_dev *dev = malloc(sizeof(*dev));
	struct proc_irqs *proc = malloc(sizeof(*proc));
	const struct proc_irq *line;
	struct nl_result res;
	bool ok = dev && proc;
	unsigned int i;

	ok = ok && !nictl_dev_get(nl, ifname, dev, &res) && !proc_interrupts(proc);
	ok = ok && dev->n_irqs > 0 && dev_matches_proc(dev);
	for (i = 0; ok && i < dev->n_irqs; i++) {
		line = proc_irqs_find(proc, dev->irqs[i].num);
		ok = line && proc_irq_has_name(line, dev->irqs[i].name);
		if (!ok)
			TH_LOG("IRQ %u (%s) is not so in /proc/interrupts", dev->irqs[i].num,
			       dev->irqs[i].name);
	}
	free(proc);
	free(dev);
	return ok;
}

/*
 * What must hold after any fuzzing: every device as found, and the family
 * answering every command as it should.
 */
static void family_answers(struct __test_metadata *_metadata, FIXTURE_DATA(fuzz) *self,
			   const struct irq_snapshot *before)
{
	struct nictl_bind_args args = {
		.ifname = "vnode1",
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE,
	};
	struct nictl_stats *stats = malloc(sizeof(*stats));
	struct nictl_dev *reply = malloc(sizeof(*reply));
	struct nl_result res;
	struct cpus node1;
	unsigned int i;

	ASSERT_NE(NULL, stats);
	ASSERT_NE(NULL, reply);
	EXPECT_EQ(0, irq_snapshot_changes(before)) TH_LOG("the fuzzer left affinities changed");
	for (i = 0; test_nics[i]; i++) {
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, test_nics[i], reply, &res));
		EXPECT_TRUE(dev_unbound(reply)) TH_LOG("%s is still bound", test_nics[i]);
	}
	EXPECT_TRUE(dev_get_matches_proc(_metadata, &self->env.nl, "vnode1"));

	ASSERT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(reply, &node1, true));
	EXPECT_TRUE(dev_get_matches_proc(_metadata, &self->env.nl, "vnode1"));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode1", reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(dev_unbound(reply));
	EXPECT_EQ(0, irq_snapshot_changes(before));

	ASSERT_EQ(0, nictl_stats_get(&self->env.nl, stats, &res));
	EXPECT_EQ((unsigned int)sys_nr_cpu_ids(), stats->n);
	for (i = 0; i < stats->n; i++)
		EXPECT_EQ(self->stats_enabled, stats->cpu[i].enabled);
	free(reply);
	free(stats);
}

/* One seed's run as root; how many batches of messages it sent. */
static uint64_t run_as_root(struct __test_metadata *_metadata, const char *test, uint64_t seed,
			    unsigned int share)
{
	struct fuzz_opts o = fuzz_opts(seed, share, false);
	struct fuzz_summary s;

	ASSERT_EQ(0, fuzz_run(&o, &s));
	report(test, &s);
	EXPECT_LT(0U, s.messages);
	EXPECT_EQ(0U, s.unexpected) TH_LOG("seed %llu: %s", (unsigned long long)seed,
					   s.first_unexpected);
	return s.batches;
}

TEST_F_TIMEOUT(fuzz, as_root, FUZZ_TIMEOUT)
{
	uint64_t batches = 0;
	unsigned int i;

	for (i = 0; i < sizeof(root_seeds) / sizeof(root_seeds[0]); i++)
		batches += run_as_root(_metadata, "as_root", root_seeds[i], ROOT_SHARE);
	/* One step in twenty sends one: the seeds' hundreds of steps send some. */
	EXPECT_LT(0U, batches);
	family_answers(_metadata, self, &self->env.snap);
}

/* What the unprivileged child hands back. */
struct child_run {
	struct fuzz_opts o;
	struct fuzz_summary s;
	int ret;
};

static void fuzz_child(void *arg)
{
	struct child_run *c = arg;

	c->ret = fuzz_run(&c->o, &c->s);
}

TEST_F_TIMEOUT(fuzz, as_nobody, FUZZ_TIMEOUT)
{
	struct child_run *c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned int i;

	ASSERT_NE(MAP_FAILED, c);
	for (i = 0; i < sizeof(nobody_seeds) / sizeof(nobody_seeds[0]); i++) {
		c->o = fuzz_opts(nobody_seeds[i], NOBODY_SHARE, true);
		c->ret = -EINTR;
		ASSERT_EQ(0, run_unprivileged(fuzz_child, c)) TH_LOG("uid %d", UNPRIV_ID);
		ASSERT_EQ(0, c->ret);
		report("as_nobody", &c->s);
		EXPECT_LT(0U, c->s.messages);
		EXPECT_LT(0U, c->s.by_errno[EPERM]);
		EXPECT_EQ(0U, c->s.unexpected) TH_LOG("seed %llu: %s",
						      (unsigned long long)c->o.seed,
						      c->s.first_unexpected);
	}
	munmap(c, sizeof(*c));
	family_answers(_metadata, self, &self->env.snap);
}

/* The bitmaps then name an offline CPU too; teardown brings it back. */
TEST_F_TIMEOUT(fuzz, cpu_offline, FUZZ_TIMEOUT)
{
	struct irq_snapshot *offline = malloc(sizeof(*offline));

	ASSERT_NE(NULL, offline);
	ASSERT_EQ(0, cpu_set_online(OFFLINE_CPU, false));
	/* virtio_net re-targets its IRQs on hotplug: compare from here on. */
	ASSERT_EQ(0, irq_snapshot_take(offline));
	run_as_root(_metadata, "cpu_offline", OFFLINE_SEED, OFFLINE_SHARE);
	EXPECT_EQ(0, irq_snapshot_changes(offline));
	ASSERT_EQ(0, cpu_set_online(OFFLINE_CPU, true));
	free(offline);
}

/* A seed replays: the same steps send the same messages. */
TEST_F_TIMEOUT(fuzz, seed_replays, 600)
{
	struct fuzz_opts o = { .seed = 7, .start = 1000, .count = 200 };
	struct fuzz_summary a, b;

	ASSERT_EQ(0, fuzz_run(&o, &a));
	ASSERT_EQ(0, fuzz_run(&o, &b));
	EXPECT_EQ(0U, a.unexpected + b.unexpected);
	EXPECT_EQ(200U, a.steps);
	EXPECT_EQ(a.messages, b.messages);
	EXPECT_EQ(a.batches, b.batches);
	EXPECT_EQ(0, memcmp(a.by_cmd, b.by_cmd, sizeof(a.by_cmd)));
	EXPECT_EQ(0, memcmp(a.by_kind, b.by_kind, sizeof(a.by_kind)));
	family_answers(_metadata, self, &self->env.snap);
}

NICTL_TEST_MAIN
