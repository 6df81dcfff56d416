// SPDX-License-Identifier: GPL-2.0
/*
 * BIND and RESTORE that succeed or are refused by a placement rule, each
 * judged by /proc/irq/N, not by the reply alone.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "env.h"
#include "main.h"
#include "napicfg.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

/* Every NIC: the device's reply before the test and its node's CPUs. */
FIXTURE(bind_nic) {
	struct test_env env;
	struct nictl_dev dev;
	struct cpus node;
};

/* @node: the NUMA node the guest puts the NIC on (an expander per node). */
FIXTURE_VARIANT(bind_nic) {
	const char *ifname;
	int node;
};

FIXTURE_VARIANT_ADD(bind_nic, vnode1) {
	.ifname = "vnode1",
	.node = 1,
};

FIXTURE_VARIANT_ADD(bind_nic, vnode0) {
	.ifname = "vnode0",
	.node = 0,
};

FIXTURE_VARIANT_ADD(bind_nic, e1k) {
	.ifname = "e1k",
	.node = 0,
};

FIXTURE_SETUP(bind_nic)
{
	struct nl_result res;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, variant->ifname, &self->dev, &res));
	ASSERT_EQ(variant->node, self->dev.numa_node);
	ASSERT_EQ(0, node_cpus(variant->node, &self->node));
}

FIXTURE_TEARDOWN(bind_nic)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* What `nictlctl bind DEV --numa-local` asks for. */
TEST_F_TIMEOUT(bind_nic, numa_local_spreads_over_cores, 300)
{
	struct nictl_bind_args args = {
		.ifname = variant->ifname,
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE,
		.cpus = &self->node,
	};
	struct nictl_dev reply, now;
	struct nl_result res;

	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(NICTL_CMD_BIND, reply.cmd);
	EXPECT_TRUE(reply.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(placement_ok(&reply, &self->node, true));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, variant->ifname, &now, &res));
	EXPECT_TRUE(now.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(same_targets(&reply, &now));
	EXPECT_TRUE(dev_matches_proc(&now));
}

TEST_F_TIMEOUT(bind_nic, dry_run_changes_nothing, 300)
{
	struct nictl_bind_args args = {
		.ifname = variant->ifname,
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE |
			 NICTL_BIND_F_DRY_RUN,
		.cpus = &self->node,
	};
	struct nictl_dev dry, now, real;
	struct nl_result res;
	struct cpus targets;

	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &dry, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	EXPECT_FALSE(dry.dev_flags & NICTL_DEV_F_BOUND);
	target_cpus(&dry, &targets);
	EXPECT_TRUE(cpus_count(&targets) && cpus_subset(&targets, &self->node));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, variant->ifname, &now, &res));
	EXPECT_TRUE(dev_unbound(&now));

	args.flags &= ~NICTL_BIND_F_DRY_RUN;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &real, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(same_targets(&dry, &real));
	EXPECT_TRUE(placement_ok(&real, &self->node, true));
}

/* Two binds with different CPUs, then one restore back to the start. */
TEST_F_TIMEOUT(bind_nic, restore_returns_originals, 300)
{
	struct nictl_bind_args args = {
		.ifname = variant->ifname,
		.flags = NICTL_BIND_F_SMT_EXCLUSIVE,
	};
	struct cpus first, second;
	struct nictl_dev reply;
	struct nl_result res;

	ASSERT_EQ(0, node_threads(variant->node, 0, &first));
	ASSERT_EQ(0, node_threads(variant->node, 1, &second));
	ASSERT_FALSE(cpus_intersects(&first, &second));

	args.cpus = &first;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &first, true));
	args.cpus = &second;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &second, true));

	ASSERT_EQ(0, nictl_restore(&self->env.nl, variant->ifname, &reply, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(NICTL_CMD_RESTORE, reply.cmd);
	EXPECT_TRUE(dev_unbound(&reply));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	/* The state went with the restore. */
	EXPECT_TRUE(refused(nictl_restore(&self->env.nl, variant->ifname, &reply, &res), &res,
			    ENODATA, false, &self->env.snap));
}

/* The affinity hint of each of @dev's queue IRQs, in @hints: 0 or -errno. */
static int read_hints(const struct nictl_dev *dev, char hints[][CPUS_LIST_LEN])
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < dev->n_irqs; i++)
		ret = irq_affinity_hint(dev->irqs[i].num, hints[i], CPUS_LIST_LEN);
	return ret;
}

/* Whether the hints are still @before, printing every one that is not. */
static bool hints_kept(const struct nictl_dev *dev, char before[][CPUS_LIST_LEN],
		       const char *when)
{
	char now[NICTL_MAX_IRQS][CPUS_LIST_LEN];
	unsigned int i;
	bool ok = true;

	if (read_hints(dev, now)) {
		fprintf(stderr, "# cannot read the affinity hints of %s %s\n", dev->ifname, when);
		return false;
	}
	for (i = 0; i < dev->n_irqs; i++) {
		if (strcmp(before[i], now[i])) {
			fprintf(stderr, "# IRQ %u (%s): affinity hint %s before, %s %s\n",
				dev->irqs[i].num, dev->irqs[i].name, before[i], now[i], when);
			ok = false;
		}
	}
	return ok;
}

/*
 * A bind moves IRQs and nothing else: the drivers' affinity hints
 * (virtio_net gives each queue IRQ one) stay. Before 5.14 the only exported
 * setter also replaces the hint, which nictl puts back.
 */
TEST_F_TIMEOUT(bind_nic, bind_and_restore_keep_affinity_hints, 300)
{
	struct nictl_bind_args args = {
		.ifname = variant->ifname,
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE,
		.cpus = &self->node,
	};
	char hints[NICTL_MAX_IRQS][CPUS_LIST_LEN];
	struct nictl_dev reply;
	struct nl_result res;

	ASSERT_EQ(0, read_hints(&self->dev, hints));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &self->node, true));
	EXPECT_TRUE(hints_kept(&self->dev, hints, "after the bind"));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, variant->ifname, &reply, &res))
		TH_LOG("%s", res.msg);
	EXPECT_TRUE(hints_kept(&self->dev, hints, "after the restore"));
}

TEST_F_TIMEOUT(bind_nic, restore_of_never_bound_is_enodata, 120)
{
	struct nictl_dev reply;
	struct nl_result res;

	EXPECT_TRUE(refused(nictl_restore(&self->env.nl, variant->ifname, &reply, &res), &res,
			    ENODATA, false, &self->env.snap));
}

/* Placement rules, on vnode1: two queues on NUMA node 1 (CPUs 4-7). */
FIXTURE(vnode1) {
	struct test_env env;
	struct nictl_dev dev;
	struct nictl_bind_args args;
};

FIXTURE_SETUP(vnode1)
{
	struct nl_result res;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &self->dev, &res));
	ASSERT_EQ(1, self->dev.numa_node);
	ASSERT_EQ(2U, self->dev.rx_queues);
	self->args.ifname = "vnode1";
}

FIXTURE_TEARDOWN(vnode1)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Both queues on one core's two threads: only when siblings are allowed. */
TEST_F_TIMEOUT(vnode1, siblings_only_without_smt_exclusive, 300)
{
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus node, core, targets;

	ASSERT_EQ(0, node_cpus(1, &node));
	ASSERT_EQ(0, cpu_core(cpus_first(&node), &core));
	ASSERT_EQ(2U, cpus_count(&core));
	self->args.cpus = &core;

	self->args.flags = NICTL_BIND_F_SMT_EXCLUSIVE;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &self->args, &reply, &res), &res, EINVAL,
			    true, &self->env.snap));

	self->args.flags = 0;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &core, false));
	target_cpus(&reply, &targets);
	EXPECT_TRUE(cpus_equal(&core, &targets));
}

TEST_F_TIMEOUT(vnode1, numa_strict_refuses_off_node_cpus, 300)
{
	struct nictl_dev reply, now;
	struct nl_result res;
	struct cpus node0;
	int cpu;
	bool named = false;

	ASSERT_EQ(0, node_cpus(0, &node0));
	self->args.cpus = &node0;
	self->args.flags = NICTL_BIND_F_NUMA_STRICT;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &self->args, &reply, &res), &res, EINVAL,
			    true, &self->env.snap));
	for_each_cpu(cpu, &node0)
		named |= strstr(res.msg, "node") || mentions_number(res.msg, cpu);
	EXPECT_TRUE(named) TH_LOG("'%s' names neither a CPU nor the node", res.msg);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &now, &res));
	EXPECT_TRUE(dev_unbound(&now));
}

TEST_F_TIMEOUT(vnode1, off_node_cpus_allowed_without_numa_strict, 300)
{
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus node0;

	ASSERT_EQ(0, node_cpus(0, &node0));
	self->args.cpus = &node0;
	self->args.flags = NICTL_BIND_F_SMT_EXCLUSIVE;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_TRUE(placement_ok(&reply, &node0, true));
}

/* An explicit placement moves the queues it names and no others. */
TEST_F_TIMEOUT(vnode1, explicit_placement_sets_only_named_queues, 300)
{
	const struct nictl_place place = { .queue = 1, .cpu = 7 };
	struct cpus before[NICTL_MAX_IRQS], mask, want;
	const struct nictl_irq *irq;
	struct nictl_dev reply;
	struct nl_result res;
	unsigned int i, moved = 0;

	for (i = 0; i < self->dev.n_irqs; i++)
		ASSERT_EQ(0, irq_affinity(self->dev.irqs[i].num, &before[i], NULL));
	self->args.n_place = 1;
	self->args.place = &place;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(self->dev.n_irqs, reply.n_irqs);
	cpus_zero(&want);
	cpus_set(&want, place.cpu);
	for (i = 0; i < reply.n_irqs; i++) {
		irq = &reply.irqs[i];
		ASSERT_EQ(self->dev.irqs[i].num, irq->num);
		ASSERT_EQ(0, irq_affinity(irq->num, &mask, NULL));
		if (irq->queue != place.queue) {
			EXPECT_TRUE(cpus_equal(&before[i], &mask))
				TH_LOG("IRQ %u of queue %u moved", irq->num, irq->queue);
			continue;
		}
		moved++;
		EXPECT_TRUE(cpus_equal(&want, &mask)) TH_LOG("IRQ %u not on CPU 7", irq->num);
		EXPECT_TRUE(irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU));
		EXPECT_EQ(place.cpu, irq->target_cpu);
	}
	EXPECT_EQ(2U, moved);

	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode1", &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/*
 * The kernel may hold a new affinity as pending until the IRQ next fires;
 * /proc/irq/N shows it already, and it is what the user set. A bind made
 * meanwhile must save that one, so the restore puts it back.
 */
TEST_F_TIMEOUT(vnode1, restore_returns_pending_affinity, 300)
{
	struct nictl_bind_args args = { .ifname = "vnode1", .flags = NICTL_BIND_F_SMT_EXCLUSIVE };
	struct irq_snapshot *set = malloc(sizeof(*set));
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus node1, mask;
	unsigned int i;

	ASSERT_NE(NULL, set);
	ASSERT_EQ(0, node_cpus(1, &node1));
	ASSERT_EQ(0, cpus_parse(&mask, "1-2"));
	for (i = 0; i < self->dev.n_irqs; i++)
		ASSERT_EQ(0, irq_set_affinity(self->dev.irqs[i].num, &mask));
	ASSERT_EQ(0, irq_snapshot_take(set));
	args.cpus = &node1;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode1", &reply, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(0, irq_snapshot_changes(set));
	free(set);
}

/*
 * bind vnode1 --numa-local with the NAPI options @opts, the @fault-th
 * NAPI_SET failing: NULL when it exits @status, else its stderr.
 */
static const char *napi_bind(struct run_result *r, int status, const char *fault,
			     const char *const *opts)
{
	const char *argv[16] = { "bind", "vnode1", "--numa-local" };
	unsigned int n = 3;
	int got;

	while (*opts && n < ARRAY_SIZE(argv) - 1)
		argv[n++] = *opts++;
	argv[n] = NULL;
	if (fault)
		setenv("NICTL_FAULT_NAPI_SET", fault, 1);
	got = run_ctl(r, false, NULL, argv);
	unsetenv("NICTL_FAULT_NAPI_SET");
	return got == status ? NULL : r->err;
}

/*
 * A bind with @opts whose second NAPI_SET fails says so and leaves vnode1's
 * NAPIs as napicfg_format() gave them in @was, and the IRQs as in @irqs.
 */
static void second_set_fails(struct __test_metadata *_metadata, unsigned int ifindex,
			     struct run_result *r, const char *const *opts, const char *was,
			     struct irq_snapshot *irqs)
{
	struct napicfgs *cfg = malloc(sizeof(*cfg));
	char now[1024];

	ASSERT_NE(NULL, cfg);
	EXPECT_EQ(NULL, napi_bind(r, 1, "2", opts)) TH_LOG("%s", r->err);
	EXPECT_NE(NULL, strstr(r->err, "cannot set the NAPI settings of vnode1"))
		TH_LOG("%s", r->err);
	EXPECT_EQ(0, napicfg_read(ifindex, cfg));
	napicfg_format(cfg, now, sizeof(now));
	EXPECT_STREQ(was, now) TH_LOG("NAPIs after a bind whose second NAPI_SET failed");
	EXPECT_EQ(0, irq_snapshot_changes(irqs));
	free(cfg);
}

static const char *const settings_opts[] = { "--defer-hard-irqs", "2", "--gro-flush-timeout",
					     "20000", NULL };

/*
 * --defer-hard-irqs and --gro-flush-timeout go with the bind to every NAPI
 * of vnode1 and back with restore, as netdev-genl's own dump shows them; a
 * NAPI_SET that fails (fault injection: the second) leaves the settings
 * and the IRQs as they were. A kernel without per-NAPI settings (before
 * 6.13) refuses the bind with one line and changes nothing.
 */
TEST_F_TIMEOUT(vnode1, napi_settings_go_with_the_bind, 300)
{
	struct run_result *r = malloc(sizeof(*r));
	struct irq_snapshot *irqs = malloc(sizeof(*irqs));
	struct napicfgs *cfg = malloc(sizeof(*cfg));
	char was[1024], now[1024];
	unsigned int i;

	ASSERT_TRUE(r && irqs && cfg);
	ASSERT_EQ(0, irq_snapshot_take(irqs));
	if (!kernel_at_least(6, 13)) {
		EXPECT_EQ(NULL, napi_bind(r, 1, NULL, settings_opts)) TH_LOG("%s", r->err);
		EXPECT_NE(NULL, strstr(r->err, "cannot set defer-hard-irqs on vnode1"))
			TH_LOG("%s", r->err);
		EXPECT_EQ(0, irq_snapshot_changes(irqs));
		goto out;
	}
	ASSERT_EQ(0, napicfg_read(self->dev.ifindex, cfg));
	ASSERT_LT(1U, cfg->nr) TH_LOG("vnode1 has %u NAPIs; the fault needs two", cfg->nr);
	napicfg_format(cfg, was, sizeof(was));
	second_set_fails(_metadata, self->dev.ifindex, r, settings_opts, was, irqs);

	EXPECT_EQ(NULL, napi_bind(r, 0, NULL, settings_opts)) TH_LOG("%s", r->err);
	EXPECT_EQ(0, napicfg_read(self->dev.ifindex, cfg));
	for (i = 0; i < cfg->nr; i++) {
		EXPECT_EQ(2, cfg->n[i].defer_hard_irqs) TH_LOG("NAPI %u", cfg->n[i].id);
		EXPECT_EQ(20000, cfg->n[i].gro_flush_timeout) TH_LOG("NAPI %u", cfg->n[i].id);
	}
	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "restore", "vnode1", NULL }))
		TH_LOG("%s", r->err);
	EXPECT_EQ(0, napicfg_read(self->dev.ifindex, cfg));
	napicfg_format(cfg, now, sizeof(now));
	EXPECT_STREQ(was, now) TH_LOG("settings after restore");
	EXPECT_EQ(0, irq_snapshot_changes(irqs));
out:
	free(cfg);
	free(irqs);
	free(r);
}

/* "N threads; astray: pid=cpus,..." of vnode1's NAPI threads off their IRQ's CPU (show -j). */
static int threads_astray(struct run_result *r, struct run_result *jq, char *out, size_t len)
{
	return run_ctl_jq(r, jq, (const char *const []){ "show", "vnode1", "-j", NULL },
			  ".[0].napi_threads.threads as $t | \"\\($t | length) threads; astray: "
			  "\\([$t[] | select(.cpus_list != \"\\(.irq_cpu)\") | "
			  "\"\\(.pid)=\\(.cpus_list)\"] | join(\",\"))\"", out, len);
}

static const char *const threaded_opts[] = { "--threaded", "on", NULL };

/*
 * --threaded on switches each NAPI of vnode1 to a thread of its own (6.17+,
 * netdev-genl napi-set) in the bind's transaction, and the threads it makes
 * start on their IRQs' CPUs; restore switches them back off. A NAPI_SET
 * that fails (the second) leaves every NAPI polled as before and the IRQs
 * where they were. Before 6.17 the bind is refused with one line.
 */
TEST_F_TIMEOUT(vnode1, threaded_napis_go_with_the_bind, 300)
{
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	struct irq_snapshot *irqs = malloc(sizeof(*irqs));
	struct napicfgs *cfg = malloc(sizeof(*cfg));
	char was[1024], now[1024], want[64];
	unsigned int i;

	ASSERT_TRUE(r && jq && irqs && cfg);
	ASSERT_EQ(0, irq_snapshot_take(irqs));
	if (!kernel_at_least(6, 17)) {
		EXPECT_EQ(NULL, napi_bind(r, 1, NULL, threaded_opts)) TH_LOG("%s", r->err);
		EXPECT_NE(NULL, strstr(r->err, "cannot set threaded on vnode1")) TH_LOG("%s", r->err);
		EXPECT_NE(NULL, strstr(r->err, "from 6.17 on")) TH_LOG("%s", r->err);
		EXPECT_EQ(0, irq_snapshot_changes(irqs));
		goto out;
	}
	ASSERT_EQ(0, napicfg_read(self->dev.ifindex, cfg));
	ASSERT_LT(1U, cfg->nr) TH_LOG("vnode1 has %u NAPIs; the fault needs two", cfg->nr);
	for (i = 0; i < cfg->nr; i++) {
		ASSERT_EQ(0, cfg->n[i].threaded) TH_LOG("NAPI %u polls in a thread already",
							 cfg->n[i].id);
	}
	napicfg_format(cfg, was, sizeof(was));
	second_set_fails(_metadata, self->dev.ifindex, r, threaded_opts, was, irqs);

	EXPECT_EQ(NULL, napi_bind(r, 0, NULL, threaded_opts)) TH_LOG("%s", r->err);
	EXPECT_EQ(0, napicfg_read(self->dev.ifindex, cfg));
	for (i = 0; i < cfg->nr; i++) {
		/* NETDEV_NAPI_THREADED_ENABLED */
		EXPECT_EQ(1, cfg->n[i].threaded) TH_LOG("NAPI %u", cfg->n[i].id);
		EXPECT_NE(0U, cfg->n[i].pid) TH_LOG("NAPI %u has no thread", cfg->n[i].id);
	}
	EXPECT_EQ(0, threads_astray(r, jq, now, sizeof(now)));
	snprintf(want, sizeof(want), "%u threads; astray: ", cfg->nr);
	EXPECT_STREQ(want, now) TH_LOG("threads the bind made, off their IRQs' CPU");

	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "restore", "vnode1", NULL }))
		TH_LOG("%s", r->err);
	EXPECT_EQ(0, napicfg_read(self->dev.ifindex, cfg));
	napicfg_format(cfg, now, sizeof(now));
	EXPECT_STREQ(was, now) TH_LOG("NAPIs after restore");
	for (i = 0; i < cfg->nr; i++) {
		EXPECT_EQ(0U, cfg->n[i].pid) TH_LOG("NAPI %u kept its thread", cfg->n[i].id);
	}
	EXPECT_EQ(0, irq_snapshot_changes(irqs));
out:
	free(cfg);
	free(irqs);
	free(jq);
	free(r);
}

NICTL_TEST_MAIN
