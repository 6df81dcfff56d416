// SPDX-License-Identifier: GPL-2.0
/*
 * The IRQ, not the queue, is the unit. Drivers the guests lack serve
 * several queues from one IRQ (ice with fewer vectors than rings, mlx5's
 * vector per channel) or one IRQ from two devices (an mlx5 sub-function
 * on its parent's vectors); the test build's knobs make the guests' NICs
 * look like that:
 *  - fault_share_ifindex: every queue of the device uses queue 0's rx and
 *    tx IRQs;
 *  - fault_extra_ifindex/fault_extra_irq: the device's queue 0 is also
 *    served by an IRQ of another device;
 *  - fault_shared_irq: the IRQ looks shared with another handler.
 * Each IRQ must then be listed once with all its queues, placed once (the
 * reply and /proc agree), owned by one binding, and the daemon must not
 * fight itself over it; a claim on an IRQ its holder no longer serves must
 * not outlive the next look at the IRQ's device.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nictl.h"
#include "sys.h"
#include "verify.h"

#define CONF		"/tmp/nictl-shared.conf"
#define DAEMON_LOG	"/tmp/nictl-shared.log"

FIXTURE(shared) {
	struct test_env env;
	struct nictl_dev vnode1, vnode0, reply;
	struct nl_result res;
	struct cpus node0, node1;
	struct irq_snapshot before;
};

FIXTURE_SETUP(shared)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &self->vnode1, &self->res));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode0", &self->vnode0, &self->res));
	/* 2 queue pairs each, an rx and a tx IRQ per queue: the guests' virtio NICs. */
	ASSERT_EQ(4U, self->vnode1.n_irqs);
	ASSERT_EQ(4U, self->vnode0.n_irqs);
	allowed_cpus(0, &self->node0);
	allowed_cpus(1, &self->node1);
}

FIXTURE_TEARDOWN(shared)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

static int bind_cpus(FIXTURE_DATA(shared) *self, const char *ifname, const struct cpus *cpus,
		     uint32_t flags)
{
	struct nictl_bind_args args = {
		.ifname = ifname, .flags = NICTL_BIND_F_SMT_EXCLUSIVE | flags, .cpus = cpus,
	};

	return nictl_bind(&self->env.nl, &args, &self->reply, &self->res);
}

/* Every IRQ of @dev once; print and fail on a repeat. */
static bool irqs_distinct(const struct nictl_dev *dev)
{
	unsigned int i, j;

	for (i = 0; i < dev->n_irqs; i++)
		for (j = 0; j < i; j++)
			if (dev->irqs[i].num == dev->irqs[j].num) {
				fprintf(stderr, "# %s lists IRQ %u twice\n", dev->ifname,
					dev->irqs[i].num);
				return false;
			}
	return true;
}

/* @irq serves exactly queues 0 and 1, of its own kind. */
static bool serves_both_queues(const struct nictl_irq *irq)
{
	bool ok = irq->n_queues == 2 && irq->queues[0].queue == 0 && irq->queues[1].queue == 1 &&
		  irq->queues[0].kind == irq->kind && irq->queues[1].kind == irq->kind &&
		  irq->queue == 0 && irq->group == 0;

	if (!ok)
		fprintf(stderr, "# IRQ %u (%s): %u queues (first %u), group %u; want queues 0 "
			"and 1 of kind %u, group 0\n", irq->num, irq->name, irq->n_queues,
			irq->n_queues ? irq->queues[0].queue : 0, irq->group, irq->kind);
	return ok;
}

/* What discovery of vnode1 shows with all its queues on queue 0's two IRQs. */
TEST_F(shared, queues_on_one_irq_are_listed_once)
{
	struct nictl_dev dev;
	unsigned int i;

	ASSERT_EQ(0, nictl_set_param("fault_share_ifindex", self->vnode1.ifindex));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &self->res));
	EXPECT_EQ(2U, dev.n_irqs);
	EXPECT_TRUE(irqs_distinct(&dev));
	for (i = 0; i < dev.n_irqs; i++)
		EXPECT_TRUE(serves_both_queues(&dev.irqs[i]));
	EXPECT_EQ(NICTL_QUEUE_KIND_RX, dev.irqs[0].kind);
	EXPECT_EQ(NICTL_QUEUE_KIND_TX, dev.irqs[1].kind);
}

/*
 * One group, one CPU: the reply's targets are what /proc shows. Placing
 * each queue on its own CPU made the last write win while the reply said
 * otherwise.
 */
TEST_F(shared, bind_places_each_irq_once)
{
	unsigned int i;

	ASSERT_EQ(0, nictl_set_param("fault_share_ifindex", self->vnode1.ifindex));
	ASSERT_EQ(0, bind_cpus(self, "vnode1", &self->node1, NICTL_BIND_F_NUMA_STRICT))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(2U, self->reply.n_irqs);
	EXPECT_TRUE(irqs_distinct(&self->reply));
	for (i = 0; i < self->reply.n_irqs; i++)
		EXPECT_EQ(self->reply.irqs[0].target_cpu, self->reply.irqs[i].target_cpu);
	/* Before placement_ok()'s traffic moves the IRQs on from what the reply saw. */
	EXPECT_TRUE(dev_matches_proc(&self->reply));
	EXPECT_TRUE(placement_ok(&self->reply, &self->node1, true));
}

/* Naming two queues of one group for two CPUs is refused; one queue moves the group. */
TEST_F(shared, explicit_placement_moves_whole_groups)
{
	const struct nictl_place split[] = { { 0, 4 }, { 1, 6 } }, one[] = { { 1, 6 } };
	const struct nictl_place reversed[] = { { 1, 6 }, { 0, 4 } };
	struct nictl_bind_args args = { .ifname = "vnode1", .n_place = 2, .place = split };
	unsigned int i;

	ASSERT_EQ(0, nictl_set_param("fault_share_ifindex", self->vnode1.ifindex));
	ASSERT_EQ(0, irq_snapshot_take(&self->before));
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->before));
	EXPECT_NE(NULL, strstr(self->res.msg, "queue 1 shares IRQs with queue 0"))
		TH_LOG("extack: '%s'", self->res.msg);
	/* Named the other way round, the message names the other queue. */
	args.place = reversed;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->before));
	EXPECT_NE(NULL, strstr(self->res.msg, "queue 0 shares IRQs with queue 1, placed on CPU 6"))
		TH_LOG("extack: '%s'", self->res.msg);

	args.n_place = 1;
	args.place = one;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	for (i = 0; i < self->reply.n_irqs; i++)
		EXPECT_EQ(6U, self->reply.irqs[i].target_cpu);
	EXPECT_TRUE(dev_matches_proc(&self->reply));
}

/* A queue named twice is still an error of its own. */
TEST_F(shared, a_queue_given_twice_is_refused)
{
	const struct nictl_place twice[] = { { 1, 6 }, { 1, 6 } };
	struct nictl_bind_args args = { .ifname = "vnode1", .n_place = 2, .place = twice };

	ASSERT_EQ(0, irq_snapshot_take(&self->before));
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->before));
	EXPECT_NE(NULL, strstr(self->res.msg, "queue 1 is given twice"))
		TH_LOG("extack: '%s'", self->res.msg);
}

/*
 * The daemon keeps vnode1 placed, and nothing drifts: with queues placed one
 * by one the two writes to each IRQ disagreed, the check saw drift every
 * second and the daemon re-bound forever.
 */
TEST_F(shared, daemon_does_not_fight_itself)
{
	const struct governed one_group = { "vnode1", 1, 2, true, false, NULL };
	struct nictl_dev dev;
	unsigned int i;
	pid_t pid;

	ASSERT_EQ(0, nictl_set_param("fault_share_ifindex", self->vnode1.ifindex));
	ASSERT_EQ(0, write_conf_mac(CONF, "vnode1",
				    "[rule node1-nic]\nmatch-mac = %s\ncpus = numa-local\n"));
	unlink(DAEMON_LOG);
	pid = daemon_start(CONF, DAEMON_LOG);
	ASSERT_LT(0, pid);
	EXPECT_TRUE(back_in_policy(&self->env.nl, &one_group));
	/* Several periods of the drift check (watch_period_ms is 1000). */
	sleep(5 * timeout_scale());
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &self->res));
	for (i = 0; i < dev.n_irqs; i++) {
		EXPECT_EQ(0U, dev.irqs[i].drifts) TH_LOG("IRQ %u", dev.irqs[i].num);
	}
	EXPECT_EQ(0, daemon_stop(pid));
	/* One apply at start, none after. */
	EXPECT_EQ(1U, daemon_dump_log(DAEMON_LOG, "vnode1: rule node1-nic: IRQ"));
}

/* vnode0's queue 0 is also served by vnode1's first IRQ, which vnode1's binding holds. */
static void share_vnode1_irq(FIXTURE_DATA(shared) *self, struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, nictl_set_param("fault_extra_irq", self->vnode1.irqs[0].num));
	ASSERT_EQ(0, nictl_set_param("fault_extra_ifindex", self->vnode0.ifindex));
}

TEST_F(shared, irq_held_by_another_binding_is_refused)
{
	uint32_t irq = self->vnode1.irqs[0].num;
	const struct nictl_irq *q;
	struct nictl_dev dev;

	share_vnode1_irq(self, _metadata);
	ASSERT_EQ(0, bind_cpus(self, "vnode1", &self->node1, 0)) TH_LOG("%s", self->res.msg);

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode0", &dev, &self->res));
	q = nictl_dev_irq(&dev, irq);
	ASSERT_NE(NULL, q) TH_LOG("vnode0 does not list IRQ %u", irq);
	EXPECT_EQ(self->vnode1.ifindex, q->owner);
	EXPECT_FALSE(q->flags & NICTL_IRQ_F_BOUND);

	ASSERT_EQ(0, irq_snapshot_take(&self->before));
	EXPECT_TRUE(refused(bind_cpus(self, "vnode0", &self->node0, 0), &self->res, EBUSY, true,
			    &self->before));
	EXPECT_TRUE(mentions_number(self->res.msg, irq)) TH_LOG("extack: '%s'", self->res.msg);
	EXPECT_NE(NULL, strstr(self->res.msg, "is bound by vnode1"))
		TH_LOG("extack: '%s'", self->res.msg);
	/* A dry run is refused alike. */
	EXPECT_TRUE(refused(bind_cpus(self, "vnode0", &self->node0, NICTL_BIND_F_DRY_RUN),
			    &self->res, EBUSY, true, &self->before));
}

/*
 * Taken over, the IRQ leaves vnode1's binding for vnode0's, with the
 * affinity it had before nictl first moved it: restore of vnode0 puts that
 * back, and vnode1 keeps the rest.
 */
TEST_F(shared, take_over_moves_the_irq_and_its_original)
{
	uint32_t irq = self->vnode1.irqs[0].num;
	const struct nictl_irq *q;
	struct cpus orig, now;
	struct nictl_dev dev;

	share_vnode1_irq(self, _metadata);
	ASSERT_EQ(0, irq_affinity(irq, &orig, NULL));
	ASSERT_EQ(0, bind_cpus(self, "vnode1", &self->node1, 0)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, bind_cpus(self, "vnode0", &self->node0, NICTL_BIND_F_TAKE_OVER))
		TH_LOG("%s", self->res.msg);
	q = nictl_dev_irq(&self->reply, irq);
	ASSERT_NE(NULL, q);
	EXPECT_TRUE(q->flags & NICTL_IRQ_F_BOUND);
	EXPECT_TRUE(cpus_test(&self->node0, q->target_cpu));
	EXPECT_TRUE(dev_matches_proc(&self->reply));

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &self->res));
	EXPECT_TRUE(dev.dev_flags & NICTL_DEV_F_BOUND);
	q = nictl_dev_irq(&dev, irq);
	ASSERT_NE(NULL, q);
	EXPECT_EQ(self->vnode0.ifindex, q->owner);
	EXPECT_FALSE(q->flags & NICTL_IRQ_F_BOUND);

	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode0", &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, irq_affinity(irq, &now, NULL));
	EXPECT_TRUE(cpus_equal(&orig, &now));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode1", &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
}

/*
 * vnode0's binding claims vnode1's first IRQ, which then stops serving
 * vnode0 (its driver freed the vector and the number went to vnode1, as
 * igb's do when VFs are created). The next look at vnode1, by DEV_GET or in
 * a dump (@dump), must show the IRQ as nobody's.
 */
static void stale_claim_is_dropped(FIXTURE_DATA(shared) *self,
				   struct __test_metadata *_metadata, bool dump)
{
	uint32_t irq = self->vnode1.irqs[0].num;
	const struct nictl_irq *q = NULL;
	const struct nictl_dev *dev;
	struct nictl_devs *devs;
	struct nictl_irq found;
	int ret;

	share_vnode1_irq(self, _metadata);
	ASSERT_EQ(0, bind_cpus(self, "vnode0", &self->node0, 0)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, nictl_set_param("fault_extra_ifindex", 0));
	devs = calloc(1, sizeof(*devs));
	ASSERT_NE(NULL, devs);
	if (dump) {
		ret = nictl_dev_dump(&self->env.nl, devs, &self->res);
	} else {
		ret = nictl_dev_get(&self->env.nl, "vnode1", &devs->dev[0], &self->res);
		devs->n = 1;
	}
	dev = ret ? NULL : nictl_devs_find(devs, "vnode1");
	if (dev)
		q = nictl_dev_irq(dev, irq);
	if (q)
		found = *q;
	free(devs);
	ASSERT_EQ(0, ret) TH_LOG("%s", self->res.msg);
	ASSERT_NE(NULL, q) TH_LOG("%s does not list vnode1's IRQ %u", dump ? "the dump" : "DEV_GET",
				  irq);
	EXPECT_EQ(0U, found.owner) TH_LOG("IRQ %u shown as held by ifindex %u (vnode0 is %u), "
					   "which no longer serves it", irq, found.owner,
					   self->vnode0.ifindex);
	EXPECT_FALSE(found.flags & NICTL_IRQ_F_BOUND);
}

TEST_F(shared, stale_claim_is_dropped_by_dev_get)
{
	stale_claim_is_dropped(self, _metadata, false);
}

TEST_F(shared, stale_claim_is_dropped_by_a_dump)
{
	stale_claim_is_dropped(self, _metadata, true);
}

/*
 * DEV_GET and its dump are reads: they show a stale claim as nobody's but
 * leave it to the holder's binding. Once vnode0 serves the IRQ again, the
 * next look shows it held by vnode0 once more.
 */
TEST_F(shared, a_look_drops_no_claim)
{
	uint32_t irq = self->vnode1.irqs[0].num;
	const struct nictl_irq *q;
	struct nictl_dev *dev = malloc(sizeof(*dev));
	struct nictl_devs *devs = malloc(sizeof(*devs));

	ASSERT_TRUE(dev && devs);
	share_vnode1_irq(self, _metadata);
	ASSERT_EQ(0, bind_cpus(self, "vnode0", &self->node0, 0)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, nictl_set_param("fault_extra_ifindex", 0));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", dev, &self->res));
	q = nictl_dev_irq(dev, irq);
	ASSERT_NE(NULL, q);
	EXPECT_EQ(0U, q->owner);
	ASSERT_EQ(0, nictl_dev_dump(&self->env.nl, devs, &self->res)) TH_LOG("%s", self->res.msg);

	ASSERT_EQ(0, nictl_set_param("fault_extra_ifindex", self->vnode0.ifindex));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", dev, &self->res));
	q = nictl_dev_irq(dev, irq);
	ASSERT_NE(NULL, q);
	EXPECT_EQ(self->vnode0.ifindex, q->owner) TH_LOG("a read dropped vnode0's claim on IRQ %u",
							 irq);
	free(devs);
	free(dev);
}

/*
 * A claim on an IRQ that no longer serves its holder (the driver freed it and
 * the number went to another device) does not block that device.
 */
TEST_F(shared, stale_claim_does_not_block)
{
	uint32_t irq = self->vnode1.irqs[0].num;
	const struct nictl_irq *q;

	share_vnode1_irq(self, _metadata);
	ASSERT_EQ(0, bind_cpus(self, "vnode0", &self->node0, 0)) TH_LOG("%s", self->res.msg);
	/* vnode1's IRQ no longer serves vnode0; vnode0's binding still names it. */
	ASSERT_EQ(0, nictl_set_param("fault_extra_ifindex", 0));
	ASSERT_EQ(0, bind_cpus(self, "vnode1", &self->node1, 0)) TH_LOG("%s", self->res.msg);
	q = nictl_dev_irq(&self->reply, irq);
	ASSERT_NE(NULL, q);
	EXPECT_TRUE(q->flags & NICTL_IRQ_F_BOUND);
	EXPECT_EQ(0U, q->owner);
	EXPECT_TRUE(dev_matches_proc(&self->reply));
}

/* An IRQ other handlers share moves only when the bind allows it. */
TEST_F(shared, shared_irq_needs_allow_shared)
{
	uint32_t irq = self->vnode1.irqs[2].num;
	const struct nictl_irq *q;
	struct nictl_dev dev;

	ASSERT_EQ(0, nictl_set_param("fault_shared_irq", irq));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &self->res));
	q = nictl_dev_irq(&dev, irq);
	ASSERT_NE(NULL, q);
	EXPECT_TRUE(q->flags & NICTL_IRQ_F_SHARED);

	ASSERT_EQ(0, irq_snapshot_take(&self->before));
	EXPECT_TRUE(refused(bind_cpus(self, "vnode1", &self->node1, 0), &self->res, EBUSY, true,
			    &self->before));
	EXPECT_TRUE(mentions_number(self->res.msg, irq)) TH_LOG("extack: '%s'", self->res.msg);
	EXPECT_NE(NULL, strstr(self->res.msg, "shared")) TH_LOG("extack: '%s'", self->res.msg);
	ASSERT_EQ(0, bind_cpus(self, "vnode1", &self->node1, NICTL_BIND_F_ALLOW_SHARED))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(dev_matches_proc(&self->reply));
}

NICTL_TEST_MAIN
