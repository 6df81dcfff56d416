// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-kept affinity (6.15+): a driver may have the core keep its queue IRQs' affinity in
 * each NAPI's config, and the core gives it back when the driver enables the NAPI again after a
 * reset. On keptnic (selftests/keptnic/), whose reset allocates new IRQs with the default
 * affinity: nictl's bind, and a sticky binding's apply, is what the core keeps, restore gives
 * back what the core had, and the core's re-application is not reported as drift, however long
 * the reset keeps the default affinity; the same reset on a driver that does not opt in is. A
 * move while the device is down costs no discovery until it is up, and is reported then.
 * guest-suite.sh runs it where the kernel has netif_set_affinity_auto().
 */
#include <libgen.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "env.h"
#include "events.h"
#include "irqs.h"
#include "kprobe.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"

#define DEV		"kept0"
#define SYSDIR		"/sys/bus/platform/devices/keptnic"
#define QUEUES		4
/* Its NUMA node: the core's first spread of the affinity is onto this node's CPUs. */
#define NODE		1
/* The drift check looks once a second. */
#define DRIFT_WAIT_MS	10000

/* What the core keeps for each NAPI, from keptnic's "kept" file. */
struct kept {
	unsigned int n;
	unsigned int irq[QUEUES];
	struct cpus cpus[QUEUES];
};

FIXTURE(kept) {
	struct test_env env;
	struct nictl_listener events;
	struct cpus node0;
	struct nictl_dev dev;	/* kept0 as loaded */
	struct cpus before[QUEUES];
};

/* insmod keptnic.ko from beside $NICTL_KO; @keep: the core keeps the affinity. */
static int keptnic_load(bool keep)
{
	char dir[512], path[600], params[64];
	const char *ko = getenv("NICTL_KO");

	if (!ko)
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%s", ko);
	snprintf(path, sizeof(path), "%s/keptnic.ko", dirname(dir));
	snprintf(params, sizeof(params), "queues=%d node=%d keep=%d", QUEUES, NODE, keep);
	return module_load_path(path, params) ?: netdev_set_up(DEV, true);
}

static int kept_read(struct kept *k)
{
	char buf[1024], list[CPUS_LIST_LEN], *line, *save = NULL;
	int ret;

	ret = read_str(SYSDIR "/kept", buf, sizeof(buf));
	if (ret)
		return ret;
	k->n = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (k->n == QUEUES || sscanf(line, "%u %63s", &k->irq[k->n], list) != 2 ||
		    cpus_parse(&k->cpus[k->n], list))
			return -EPROTO;
		k->n++;
	}
	return 0;
}

/* Whether the core keeps @want[i] for the i-th IRQ of @dev; what it keeps if not to @log. */
static bool core_keeps_log(const struct nictl_dev *dev, const struct cpus *want, FILE *log)
{
	char a[CPUS_LIST_LEN], b[CPUS_LIST_LEN];
	struct kept k;
	unsigned int i, j;
	bool ok = true;

	if (kept_read(&k)) {
		if (log)
			fprintf(log, "# cannot read %s/kept\n", SYSDIR);
		return false;
	}
	for (i = 0; i < dev->n_irqs; i++) {
		for (j = 0; j < k.n && k.irq[j] != dev->irqs[i].num; j++)
			;
		if (j < k.n && cpus_equal(&k.cpus[j], &want[i]))
			continue;
		ok = false;
		if (!log)
			continue;
		cpus_format(&want[i], a, sizeof(a));
		if (j == k.n) {
			fprintf(log, "# IRQ %u: no NAPI has it; expected CPUs %s\n",
				dev->irqs[i].num, a);
		} else {
			cpus_format(&k.cpus[j], b, sizeof(b));
			fprintf(log, "# IRQ %u: the core keeps CPUs %s, expected %s\n",
				dev->irqs[i].num, b, a);
		}
	}
	return ok;
}

static bool core_keeps(const struct nictl_dev *dev, const struct cpus *want)
{
	return core_keeps_log(dev, want, stderr);
}

/* core_keeps() within @ms, printing what the core keeps only at the end. */
static bool core_keeps_within(const struct nictl_dev *dev, const struct cpus *want, int ms)
{
	for (; ms > 0; ms -= 100) {
		if (core_keeps_log(dev, want, NULL))
			return true;
		usleep(100000);
	}
	return core_keeps(dev, want);
}

/* Whether /proc shows @want[i] for the i-th IRQ of @dev, printing what it shows if not. */
static bool irqs_on(const struct nictl_dev *dev, const struct cpus *want)
{
	char a[CPUS_LIST_LEN], b[CPUS_LIST_LEN];
	struct cpus now;
	unsigned int i;
	bool ok = true;

	for (i = 0; i < dev->n_irqs; i++) {
		if (irq_affinity(dev->irqs[i].num, &now, NULL)) {
			fprintf(stderr, "# IRQ %u: no affinity to read\n", dev->irqs[i].num);
			return false;
		}
		if (!cpus_equal(&now, &want[i])) {
			cpus_format(&now, a, sizeof(a));
			cpus_format(&want[i], b, sizeof(b));
			fprintf(stderr, "# IRQ %u has CPUs %s, expected %s\n", dev->irqs[i].num,
				a, b);
			ok = false;
		}
	}
	return ok;
}

/* The CPU each IRQ of a bind's @reply was put on, as a set of one. */
static void targets(const struct nictl_dev *reply, struct cpus *out)
{
	unsigned int i;

	for (i = 0; i < reply->n_irqs; i++) {
		cpus_zero(&out[i]);
		cpus_set(&out[i], reply->irqs[i].target_cpu);
	}
}

/*
 * Run alone on @cpu, SCHED_FIFO: its kworkers wait until this process sleeps. A work item that
 * a bind queues there (the core's affinity notifier) has run by the reply only if the bind
 * waited for it.
 */
static int hold_cpu(int cpu)
{
	struct sched_param fifo = { .sched_priority = 50 };
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) || sched_setscheduler(0, SCHED_FIFO, &fifo))
		return -errno;
	return 0;
}

static int release_cpu(void)
{
	struct sched_param other = { .sched_priority = 0 };

	return sched_setscheduler(0, SCHED_OTHER, &other) ? -errno : 0;
}

static int keptnic_reset(void)
{
	return write_str(SYSDIR "/reset", "0");
}

/*
 * The fence: a drift made now, of the last IRQ of @reply to @cpu, is found by a check that comes
 * after everything before it. Drift of the other IRQs would come before it or in the same check.
 * Return: how many drift events came of other IRQs.
 */
static unsigned int drifts_but_the_fence(struct __test_metadata *_metadata,
					 FIXTURE_DATA(kept) *self, const struct nictl_dev *reply,
					 int cpu)
{
	unsigned int moved = reply->irqs[reply->n_irqs - 1].num, others = 0;
	struct nictl_event_msg ev;
	struct cpus away;
	int ret;

	cpus_zero(&away);
	cpus_set(&away, cpu);
	EXPECT_EQ(0, irq_set_affinity(moved, &away));
	while ((ret = nictl_wait_event(&self->events, NICTL_EVENT_DRIFT, reply->ifindex,
				       DRIFT_WAIT_MS, &ev)) == 1 && ev.dev.irqs[0].num != moved)
		others++;
	EXPECT_EQ(1, ret) TH_LOG("no drift event for IRQ %u, moved to CPU %d", moved, cpu);
	while (nictl_next_event(&self->events, &ev, 1500) == 1)
		others += ev.type == NICTL_EVENT_DRIFT;
	return others;
}

/*
 * After a reset: @reply's IRQs are still on @placed, the core keeps those, DEV_GET counts no
 * drift and the fence (to @cpu) is the only drift reported.
 */
static bool still_bound(struct __test_metadata *_metadata, FIXTURE_DATA(kept) *self,
			const struct nictl_dev *reply, const struct cpus *placed, int cpu)
{
	bool ok = irqs_on(reply, placed) && core_keeps(reply, placed);
	struct nictl_dev now;
	struct nl_result res;
	unsigned int i, others;

	if (!ok)
		fprintf(stderr, "# the reset undid the bind\n");
	if (nictl_dev_get(&self->env.nl, DEV, &now, &res)) {
		fprintf(stderr, "# DEV_GET %s: %s\n", DEV, res.msg);
		return false;
	}
	if (!(now.dev_flags & NICTL_DEV_F_BOUND)) {
		fprintf(stderr, "# %s is no longer bound\n", DEV);
		ok = false;
	}
	for (i = 0; i < now.n_irqs; i++) {
		if (now.irqs[i].drifts) {
			fprintf(stderr, "# IRQ %u: %u drifts counted, expected none\n",
				now.irqs[i].num, now.irqs[i].drifts);
			ok = false;
		}
	}
	others = drifts_but_the_fence(_metadata, self, reply, cpu);
	if (others) {
		fprintf(stderr, "# %u drift events of IRQs the core was to put back\n", others);
		ok = false;
	}
	return ok;
}

/* Load keptnic, find its IRQs and what the core first gave them. */
static void setup(struct __test_metadata *_metadata, FIXTURE_DATA(kept) *self, bool keep)
{
	struct nl_result res;
	unsigned int i;

	ASSERT_EQ(0, keptnic_load(keep));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->dev, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(QUEUES, self->dev.n_irqs);
	EXPECT_EQ(NICTL_IRQ_SOURCE_NAPI, self->dev.source);
	for (i = 0; i < QUEUES; i++)
		ASSERT_EQ(0, irq_affinity(self->dev.irqs[i].num, &self->before[i], NULL));
}

FIXTURE_SETUP(kept)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, node_cpus(0, &self->node0));
	ASSERT_EQ(0, nictl_listen(&self->events));
}

FIXTURE_TEARDOWN(kept)
{
	/* Its IRQs go with it, before the IRQ snapshot is compared. */
	EXPECT_EQ(0, module_unload("keptnic"));
	nictl_unlisten(&self->events);
	EXPECT_EQ(0, env_teardown(&self->env));
}

/*
 * The bind is what the core keeps, from the moment the reply comes, even where the core's
 * notifier could not run before it: a reset then gives the IRQs back nictl's CPUs, and that is
 * not drift. A drift caused after it is reported alone.
 */
TEST_F_TIMEOUT(kept, bind_is_what_the_core_keeps, 300)
{
	struct nictl_bind_args args = { .ifname = DEV, .cpus = &self->node0 };
	struct cpus spread, placed[QUEUES];
	struct nictl_dev reply;
	struct nl_result res;
	unsigned int i;

	setup(_metadata, self, true);
	/* The core's own first placement: one CPU each, on the device's node. */
	ASSERT_EQ(0, node_cpus(NODE, &spread));
	for (i = 0; i < QUEUES; i++) {
		EXPECT_EQ(1U, cpus_count(&self->before[i]));
		EXPECT_TRUE(cpus_subset(&self->before[i], &spread));
	}
	EXPECT_TRUE(core_keeps(&self->dev, self->before));

	ASSERT_EQ(0, hold_cpu(cpus_first(&self->node0)));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(QUEUES, reply.n_irqs);
	targets(&reply, placed);
	/* Nothing printed: a write to the log may sleep, and let the notifier run. */
	ASSERT_EQ(0, keptnic_reset());
	ASSERT_EQ(0, release_cpu());
	EXPECT_TRUE(still_bound(_metadata, self, &reply, placed, cpus_first(&spread)));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(irqs_on(&self->dev, self->before));
}

/* restore gives back what the core had, and the core keeps that again from the reply on. */
TEST_F_TIMEOUT(kept, restore_gives_back_what_the_core_had, 300)
{
	struct nictl_bind_args args = { .ifname = DEV, .cpus = &self->node0 };
	struct nictl_dev reply;
	struct nl_result res;

	setup(_metadata, self, true);
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, hold_cpu(cpus_first(&self->node0)));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, keptnic_reset());
	ASSERT_EQ(0, release_cpu());
	EXPECT_TRUE(irqs_on(&self->dev, self->before)) TH_LOG("the reset undid the restore");
	EXPECT_TRUE(core_keeps(&self->dev, self->before));
	EXPECT_EQ(-ENODATA, nictl_restore(&self->env.nl, DEV, &reply, &res));
}

static long long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Whether @irq has an affinity other than @cpus (a gone IRQ has none: false). */
static bool off_cpu(unsigned int irq, const struct cpus *cpus)
{
	struct cpus now;

	return !irq_affinity(irq, &now, NULL) && !cpus_equal(&now, cpus);
}

/* The watch period, from the module's parameter. */
static unsigned int watch_period_ms(void)
{
	char buf[32];

	if (read_str("/sys/module/nictl/parameters/watch_period_ms", buf, sizeof(buf)))
		return 0;
	return strtoul(buf, NULL, 10);
}

/*
 * A slow reset: the new IRQs keep the default affinity for several drift checks, their NAPIs
 * disabled and rtnl free (keptnic's reset with a hold). That is not drift: the core gives the
 * kept affinity back as the driver enables them. The window is watched from here while a child
 * resets, so the checks had it to see.
 */
TEST_F_TIMEOUT(kept, a_slow_reset_is_no_drift, 300)
{
	struct nictl_bind_args args = { .ifname = DEV, .cpus = &self->node0 };
	unsigned int period = watch_period_ms();
	struct cpus spread, placed[QUEUES];
	long long opened, seen_ms;
	char hold[16];
	struct nictl_dev reply;
	struct nl_result res;
	int status;
	pid_t child;

	ASSERT_LT(0U, period) TH_LOG("the drift check is off");
	setup(_metadata, self, true);
	ASSERT_EQ(0, node_cpus(NODE, &spread));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	targets(&reply, placed);
	/* Four checks' time with the default affinity. */
	snprintf(hold, sizeof(hold), "%u", 4 * period);
	child = fork_flushed();
	ASSERT_LE(0, child);
	if (child == 0)
		_exit(write_str(SYSDIR "/reset", hold) ? 1 : 0);
	/* The window opens when IRQ 0 leaves its CPU, and lasts until it is back. */
	opened = ms_now();
	while (!off_cpu(reply.irqs[0].num, &placed[0]) && ms_now() - opened < 2 * period)
		usleep(5000);
	opened = ms_now();
	while (off_cpu(reply.irqs[0].num, &placed[0]))
		usleep(5000);
	seen_ms = ms_now() - opened;
	printf("# IRQ %u had the default affinity for %lld ms; the check looks every %u ms\n",
	       reply.irqs[0].num, seen_ms, period);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_LE(2LL * period, seen_ms) TH_LOG("the IRQs had the default affinity for %lld ms, "
					      "expected at least two checks' %u ms", seen_ms,
					      2 * period);
	EXPECT_TRUE(still_bound(_metadata, self, &reply, placed, cpus_first(&spread)));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(irqs_on(&self->dev, self->before));
}

/*
 * A sticky binding's apply is what the core keeps too. kept0 bound sticky is unloaded and loaded
 * again (the same address): the kernel's own apply puts it back. Then its IRQs are moved away
 * and the core records that; at the next up the core sets what it recorded and the sticky
 * binding's apply moves them back, while this process holds the CPU that queues the core's
 * notifier work, so the record is nictl's only if the apply waited for it; a reset at once
 * keeps nictl's CPUs.
 */
TEST_F_TIMEOUT(kept, a_sticky_apply_is_what_the_core_keeps, 300)
{
	struct nictl_bind_args args = {
		.ifname = DEV, .cpus = &self->node0, .flags = NICTL_BIND_F_STICKY,
	};
	struct cpus placed[QUEUES], away[QUEUES];
	struct nictl_dev reply, now;
	struct nl_result res;
	unsigned int i;

	setup(_metadata, self, true);
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	targets(&reply, placed);
	ASSERT_EQ(0, module_unload("keptnic"));
	ASSERT_EQ(0, keptnic_load(true));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &now, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(QUEUES, now.n_irqs);
	EXPECT_TRUE(irqs_on(&now, placed)) TH_LOG("no sticky apply after the reload");

	for (i = 0; i < QUEUES; i++) {
		away[i] = self->before[i];
		ASSERT_EQ(0, irq_set_affinity(now.irqs[i].num, &away[i]));
	}
	/* Asleep, the notifier work runs: the core records the move. */
	ASSERT_TRUE(core_keeps_within(&now, away, 10000));
	ASSERT_EQ(0, netdev_set_up(DEV, false));
	ASSERT_EQ(0, hold_cpu(cpus_first(&self->node0)));
	ASSERT_EQ(0, netdev_set_up(DEV, true));
	ASSERT_EQ(0, keptnic_reset());
	ASSERT_EQ(0, release_cpu());
	EXPECT_TRUE(irqs_on(&now, placed)) TH_LOG("the reset undid the sticky binding's apply");
	EXPECT_TRUE(core_keeps(&now, placed));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, DEV, &now, &res)) TH_LOG("%s", res.msg);
}

/*
 * An IRQ moved while the device is down: the core records the move and sets it again at up, but
 * while the NAPIs are disabled whether it will is not known. The drift check leaves the device
 * alone meanwhile (before, it asked for a discovery every period, under rtnl, for as long as the
 * device stayed down) and reports the drift once the device is up.
 */
TEST_F_TIMEOUT(kept, a_move_while_down_waits_for_up, 300)
{
	struct nictl_bind_args args = { .ifname = DEV, .cpus = &self->node0 };
	unsigned int period = watch_period_ms(), moved;
	struct nictl_event_msg ev;
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus away;
	int found, ret, drifts = 0;

	ASSERT_LT(0U, period) TH_LOG("the drift check is off");
	setup(_metadata, self, true);
	ASSERT_EQ(0, node_cpus(NODE, &away));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	moved = reply.irqs[0].num;
	ASSERT_EQ(0, netdev_set_up(DEV, false));
	ASSERT_EQ(0, kprobe_start(&nictl_look));
	ASSERT_EQ(0, irq_set_affinity(moved, &away));
	/* Three checks' time. */
	usleep(3 * period * 1000 + 200 * 1000);
	found = kprobe_count(&nictl_look);
	kprobe_stop(&nictl_look);
	EXPECT_EQ(0, found) TH_LOG("%d discoveries in three drift checks of a down device", found);
	while (nictl_next_event(&self->events, &ev, 0) == 1)
		drifts += ev.type == NICTL_EVENT_DRIFT;
	EXPECT_EQ(0, drifts) TH_LOG("drift reported while the device was down");
	ASSERT_EQ(0, netdev_set_up(DEV, true));
	while ((ret = nictl_wait_event(&self->events, NICTL_EVENT_DRIFT, reply.ifindex,
				       DRIFT_WAIT_MS, &ev)) == 1 && ev.dev.irqs[0].num != moved)
		;
	EXPECT_EQ(1, ret) TH_LOG("no drift event for IRQ %u after up", moved);
	ASSERT_EQ(0, nictl_restore(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
}

/*
 * The control: where the driver does not opt in, the same reset loses the placement, and that is
 * drift. So the two tests above see a core that kept it, not a reset that changed nothing.
 */
TEST_F_TIMEOUT(kept, without_the_core_a_reset_is_drift, 300)
{
	struct nictl_bind_args args = { .ifname = DEV, .cpus = &self->node0 };
	struct nictl_event_msg ev;
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus now;
	unsigned int i;

	setup(_metadata, self, false);
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, keptnic_reset());
	/* New IRQs have the default affinity, nothing puts the placement back. */
	for (i = 0; i < reply.n_irqs; i++) {
		ASSERT_EQ(0, irq_affinity(reply.irqs[i].num, &now, NULL));
		EXPECT_LT(1U, cpus_count(&now)) TH_LOG("IRQ %u", reply.irqs[i].num);
	}
	ASSERT_EQ(1, nictl_wait_event(&self->events, NICTL_EVENT_DRIFT, reply.ifindex,
				      DRIFT_WAIT_MS, &ev));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_LE(1U, reply.irqs[0].drifts + reply.irqs[QUEUES - 1].drifts);
}

NICTL_TEST_MAIN
