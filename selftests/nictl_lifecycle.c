// SPDX-License-Identifier: GPL-2.0
/*
 * nictl's state across the device's and its own lifetime: a PCI unbind and
 * rebind drops the binding, the module unloads with bindings in place, and
 * concurrent binders leave one consistent binding behind.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"

#include "env.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

#define DEV		"vnode1"
/* Binds per concurrent binder, and DEV_GETs of the watcher. */
#define ROUNDS		30

FIXTURE(lifecycle) {
	struct test_env env;
	struct netdev_info info;
	char bdf[64];
	char driver[64];	/* of the PCI function: virtio-pci */
	struct nictl_bind_args args;
	struct cpus node;
};

FIXTURE_SETUP(lifecycle)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info(DEV, &self->info));
	snprintf(self->bdf, sizeof(self->bdf), "%s", self->info.bus_addr);
	pci_driver_name(self->info.pci_path, self->driver, sizeof(self->driver));
	ASSERT_STREQ("virtio-pci", self->driver);
	ASSERT_EQ(0, node_cpus(self->info.numa_node, &self->node));
	self->args.ifname = DEV;
	self->args.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE;
	self->args.cpus = &self->node;
}

FIXTURE_TEARDOWN(lifecycle)
{
	struct netdev_info now;

	EXPECT_EQ(0, netdev_revive(self->info.pci_path, self->driver, DEV));
	if (!netdev_info(DEV, &now) && now.rx_queues != self->info.rx_queues)
		EXPECT_EQ(0, netdev_set_channels(DEV, self->info.rx_queues));
	EXPECT_EQ(0, env_teardown(&self->env));
}

TEST_F_TIMEOUT(lifecycle, pci_rebind_drops_binding, 600)
{
	struct netdev_info info;
	struct nictl_dev reply;
	struct nl_result res;

	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_TRUE(reply.dev_flags & NICTL_DEV_F_BOUND);

	ASSERT_EQ(0, pci_driver_bind(self->driver, self->bdf, false));
	EXPECT_EQ(-ENODEV, nictl_dev_get(&self->env.nl, DEV, &reply, &res));
	ASSERT_EQ(0, netdev_revive(self->info.pci_path, self->driver, DEV));

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(dev_unbound(&reply));
	EXPECT_EQ(4U, reply.n_irqs);
	EXPECT_TRUE(dev_matches_proc(&reply));
	/* The new IRQs carry the new virtio device's name. */
	ASSERT_EQ(0, netdev_info(DEV, &info));
	EXPECT_EQ(0, strncmp(reply.irqs[0].name, info.irq_prefix, strlen(info.irq_prefix)))
		TH_LOG("%s vs %s", reply.irqs[0].name, info.irq_prefix);
	EXPECT_EQ(-ENODATA, nictl_restore(&self->env.nl, DEV, &reply, &res));

	/* The device is as good as new: it binds again. */
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &self->node, true));
}

/* Queues beyond the active count (ethtool -L) are not the device's now. */
TEST_F_TIMEOUT(lifecycle, channel_count_limits_queue_irqs, 300)
{
	struct nictl_dev reply;
	struct nl_result res;
	unsigned int i;

	ASSERT_EQ(2U, self->info.rx_queues);
	ASSERT_EQ(0, netdev_set_channels(DEV, 1));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(1U, reply.rx_queues);
	EXPECT_EQ(1U, reply.tx_queues);
	ASSERT_EQ(2U, reply.n_irqs);
	for (i = 0; i < reply.n_irqs; i++)
		EXPECT_EQ(0U, reply.irqs[i].queue);
	EXPECT_TRUE(dev_matches_proc(&reply));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &self->node, true));

	ASSERT_EQ(0, netdev_set_channels(DEV, 2));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(2U, reply.rx_queues);
	EXPECT_EQ(4U, reply.n_irqs);
}

TEST_F_TIMEOUT(lifecycle, module_reloads_with_bindings, 600)
{
	struct nictl_bind_args e1k = { .ifname = "e1k" };
	struct nictl_dev reply;
	struct nl_result res;
	struct nl_client gone;
	struct cpus node0;
	const char *const devs[] = { DEV, "e1k" };
	unsigned int i;

	ASSERT_EQ(0, node_cpus(0, &node0));
	e1k.cpus = &node0;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &e1k, &reply, &res)) TH_LOG("%s", res.msg);

	nl_close(&self->env.nl);
	ASSERT_EQ(0, nictl_module_unload());
	ASSERT_FALSE(nictl_module_loaded());
	EXPECT_EQ(-ENOENT, nictl_open(&gone));
	ASSERT_EQ(0, nictl_module_load());
	ASSERT_EQ(0, nictl_open(&self->env.nl));

	for (i = 0; i < ARRAY_SIZE(devs); i++) {
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, devs[i], &reply, &res));
		EXPECT_TRUE(dev_unbound(&reply));
		EXPECT_LT(0U, reply.n_irqs);
		EXPECT_EQ(-ENODATA, nictl_restore(&self->env.nl, devs[i], &reply, &res));
	}
}

/* Bind DEV to @cpus ROUNDS times: the number of failed binds. */
static int binder(struct nictl_bind_args args, const struct cpus *cpus)
{
	struct nictl_dev reply;
	struct nl_result res;
	struct nl_client nl;
	int i, ret, failed = 0;

	if (nictl_open(&nl))
		return ROUNDS;
	args.cpus = cpus;
	for (i = 0; i < ROUNDS; i++) {
		ret = nictl_bind(&nl, &args, &reply, &res);
		if (ret) {
			fprintf(stderr, "# concurrent bind: %s (%s)\n", strerror(-ret), res.msg);
			failed++;
		}
	}
	nl_close(&nl);
	return failed;
}

/* Whether the IRQs of @dev all target CPUs of @a, or all target CPUs of @b. */
static bool one_side(const struct nictl_dev *dev, const struct cpus *a, const struct cpus *b)
{
	struct cpus targets;
	char list[CPUS_LIST_LEN];

	target_cpus(dev, &targets);
	if (cpus_count(&targets) && (cpus_subset(&targets, a) || cpus_subset(&targets, b)))
		return true;
	cpus_format(&targets, list, sizeof(list));
	fprintf(stderr, "# %s is placed on CPUs %s: a mix, or nothing\n", dev->ifname, list);
	return false;
}

/* DEV_GET ROUNDS times while the binders run: each reply one binder's state. */
static int watcher(const struct cpus *a, const struct cpus *b)
{
	struct nictl_dev reply;
	struct nl_result res;
	struct nl_client nl;
	int i, bad = 0;

	if (nictl_open(&nl))
		return ROUNDS;
	for (i = 0; i < ROUNDS; i++)
		if (nictl_dev_get(&nl, DEV, &reply, &res) ||
		    ((reply.dev_flags & NICTL_DEV_F_BOUND) && !one_side(&reply, a, b)))
			bad++;
	nl_close(&nl);
	return bad;
}

TEST_F_TIMEOUT(lifecycle, concurrent_binders_end_consistent, 600)
{
	struct cpus a, b, targets;
	struct nictl_dev now;
	struct nl_result res;
	pid_t pids[3];
	int i, status;

	ASSERT_EQ(0, node_threads(self->info.numa_node, 0, &a));
	ASSERT_EQ(0, node_threads(self->info.numa_node, 1, &b));
	ASSERT_LE(2U, cpus_count(&a));
	ASSERT_LE(2U, cpus_count(&b));
	for (i = 0; i < 3; i++) {
		pids[i] = fork_flushed();
		ASSERT_LE(0, pids[i]);
		if (!pids[i])
			_exit(i == 2 ? watcher(&a, &b) : binder(self->args, i ? &b : &a));
	}
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
			TH_LOG("process %d: status %#x", i, status);
	}
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &now, &res));
	ASSERT_TRUE(now.dev_flags & NICTL_DEV_F_BOUND);
	ASSERT_TRUE(one_side(&now, &a, &b));
	target_cpus(&now, &targets);
	EXPECT_TRUE(placement_ok(&now, cpus_subset(&targets, &a) ? &a : &b, true));
}

NICTL_TEST_MAIN
