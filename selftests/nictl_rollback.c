// SPDX-License-Identifier: GPL-2.0
/*
 * All or nothing: with the module's fault injection making the k-th
 * affinity write of an apply phase fail, for every k, a bind or restore
 * fails with EIO and every IRQ keeps exactly the affinity it had.
 */
#include <string.h>

#include "kselftest_harness.h"

#include "env.h"
#include "main.h"
#include "module.h"
#include "nictl.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

FIXTURE(rollback) {
	struct test_env env;
	struct nictl_dev dev;
	struct nictl_bind_args args;
	struct cpus first, second;
	/* After setup, and once bound: what a failed request must leave. */
	struct irq_snapshot start, bound;
	const struct irq_snapshot *before;
};

/* @node: the NIC's NUMA node, whose CPUs it is bound to. */
FIXTURE_VARIANT(rollback) {
	const char *ifname;
	int node;
};

FIXTURE_VARIANT_ADD(rollback, vnode1) {
	.ifname = "vnode1",
	.node = 1,
};

FIXTURE_VARIANT_ADD(rollback, e1k) {
	.ifname = "e1k",
	.node = 0,
};

/*
 * Every queue IRQ starts on all online CPUs, so that any bind to single
 * CPUs rewrites each of them: the k-th write is then the k-th IRQ. Traffic
 * makes the kernel apply that (it may defer a move to the next interrupt).
 */
FIXTURE_SETUP(rollback)
{
	struct nl_result res;
	struct cpus online;
	unsigned int i;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, sys_online_cpus(&online));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, variant->ifname, &self->dev, &res));
	ASSERT_LT(0U, self->dev.n_irqs);
	for (i = 0; i < self->dev.n_irqs; i++)
		ASSERT_EQ(0, irq_set_affinity(self->dev.irqs[i].num, &online));
	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, node_threads(variant->node, 0, &self->first));
	ASSERT_EQ(0, node_threads(variant->node, 1, &self->second));
	self->args.ifname = variant->ifname;
	self->args.flags = NICTL_BIND_F_SMT_EXCLUSIVE;
	ASSERT_EQ(0, irq_snapshot_take(&self->start));
	self->before = &self->start;
}

FIXTURE_TEARDOWN(rollback)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Make the @nth affinity write of every apply phase fail, from now on. */
static bool arm_fault(unsigned int nth, const char *what)
{
	fprintf(stderr, "# %s with write %u failing\n", what, nth);
	return !nictl_set_fault(nth);
}

/* Bind to the first CPU set; failures from here on must leave this state. */
static bool bind_first(FIXTURE_DATA(rollback) *self, struct nictl_dev *bound)
{
	struct nl_result res;
	int ret;

	self->args.cpus = &self->first;
	ret = nictl_bind(&self->env.nl, &self->args, bound, &res);
	if (ret) {
		fprintf(stderr, "# bind: %s (%s)\n", strerror(-ret), res.msg);
		return false;
	}
	self->before = &self->bound;
	return !irq_snapshot_take(&self->bound);
}

/* Still bound as @bound says, or restored all the way to the start. */
static bool state_is(FIXTURE_DATA(rollback) *self, const struct nictl_dev *bound)
{
	struct nictl_dev now;
	struct nl_result res;

	if (nictl_dev_get(&self->env.nl, self->args.ifname, &now, &res))
		return false;
	if (!bound)
		return dev_unbound(&now) && !irq_snapshot_changes(&self->start);
	return (now.dev_flags & NICTL_DEV_F_BOUND) && same_targets(bound, &now);
}

TEST_F_TIMEOUT(rollback, bind_fails_whole_at_every_write, 600)
{
	struct nictl_dev reply;
	struct nl_result res;
	unsigned int k;

	self->args.cpus = &self->first;
	for (k = 1; k <= self->dev.n_irqs; k++) {
		ASSERT_TRUE(arm_fault(k, "bind"));
		EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &self->args, &reply, &res), &res, EIO,
				    false, self->before));
		EXPECT_TRUE(state_is(self, NULL));
	}
	ASSERT_EQ(0, nictl_set_fault(0));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &self->first, true));
}

/* A failed re-bind keeps the binding in force, and its originals. */
TEST_F_TIMEOUT(rollback, rebind_fails_whole_at_every_write, 600)
{
	struct nictl_dev bound, reply;
	struct nl_result res;
	unsigned int k;

	ASSERT_TRUE(bind_first(self, &bound));
	self->args.cpus = &self->second;
	for (k = 1; k <= self->dev.n_irqs; k++) {
		ASSERT_TRUE(arm_fault(k, "re-bind"));
		EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &self->args, &reply, &res), &res, EIO,
				    false, self->before));
		EXPECT_TRUE(state_is(self, &bound));
	}
	ASSERT_EQ(0, nictl_set_fault(0));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, variant->ifname, &reply, &res))
		TH_LOG("%s", res.msg);
	EXPECT_TRUE(state_is(self, NULL));
}

TEST_F_TIMEOUT(rollback, restore_fails_whole_at_every_write, 600)
{
	struct nictl_dev bound, reply;
	struct nl_result res;
	unsigned int k;

	ASSERT_TRUE(bind_first(self, &bound));
	for (k = 1; k <= self->dev.n_irqs; k++) {
		ASSERT_TRUE(arm_fault(k, "restore"));
		EXPECT_TRUE(refused(nictl_restore(&self->env.nl, variant->ifname, &reply, &res),
				    &res, EIO, false, self->before));
		EXPECT_TRUE(state_is(self, &bound));
	}
	ASSERT_EQ(0, nictl_set_fault(0));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, variant->ifname, &reply, &res))
		TH_LOG("%s", res.msg);
	EXPECT_TRUE(state_is(self, NULL));
}

NICTL_TEST_MAIN
