// SPDX-License-Identifier: GPL-2.0
/*
 * Sticky bindings (NICTL_BIND_F_STICKY): the module keeps the request under
 * the device's PCI identity and applies it again by itself, with nobody
 * listening and no daemon, when the driver is reloaded (virtio_net requests
 * its IRQs at probe, igb at open) and when the queue count changes; it
 * reports what it applied or why it could not, leaving the device as its
 * driver made it then; restore, a plain bind and unloading the module drop
 * it; a shared identity and sticky_max are refused before anything moves.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "env.h"
#include "events.h"
#include "irqs.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

#define DEV		"vnode1"
/* A sticky binding's CPU that the offline test takes away. */
#define GONE_CPU	7
/* The periodic check finds a queue change within watch_period_ms (1 s). */
#define SETTLE_MS	8000
#define EVENT_MS	5000

FIXTURE(sticky) {
	struct test_env env;
	struct netdev_info info;
	unsigned int igb_queues;	/* igb0's, for the teardown to give back */
	char driver[64];	/* of the PCI function: virtio-pci */
	char id[100];		/* the identity nictl should keep it under */
	struct nictl_bind_args args;
	struct cpus node;
	struct nictl_dev reply;
	struct nl_result res;
};

FIXTURE_SETUP(sticky)
{
	struct netdev_info now;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info(DEV, &self->info));
	pci_driver_name(self->info.pci_path, self->driver, sizeof(self->driver));
	ASSERT_STREQ("virtio-pci", self->driver);
	ASSERT_EQ(0, netdev_info("igb0", &now));
	self->igb_queues = now.rx_queues;
	snprintf(self->id, sizeof(self->id), "pci:%s", self->info.bus_addr);
	ASSERT_EQ(0, node_cpus(self->info.numa_node, &self->node));
	self->args.ifname = DEV;
	self->args.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE |
			   NICTL_BIND_F_STICKY;
	self->args.cpus = &self->node;
}

FIXTURE_TEARDOWN(sticky)
{
	struct netdev_info now;

	EXPECT_EQ(0, netdev_revive(self->info.pci_path, self->driver, DEV));
	if (!netdev_info(DEV, &now) && now.rx_queues != self->info.rx_queues)
		EXPECT_EQ(0, netdev_set_channels(DEV, self->info.rx_queues));
	if (!netdev_info("igb0", &now) && now.rx_queues != self->igb_queues)
		EXPECT_EQ(0, netdev_set_channels("igb0", self->igb_queues));
	EXPECT_EQ(0, nictl_set_param("sticky_max", 64));
	/* Its restores drop the sticky bindings too. */
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Unbind the PCI function of @ifname and bind it again: a driver reload. */
static int reload(const char *ifname)
{
	struct netdev_info info;
	char driver[64];

	if (netdev_info(ifname, &info))
		return -ENODEV;
	pci_driver_name(info.pci_path, driver, sizeof(driver));
	return pci_driver_bind(driver, info.bus_addr, false) ?:
	       netdev_revive(info.pci_path, driver, ifname);
}

/*
 * Bind DEV stickily on CPUs 5 and 7 (@two), then take GONE_CPU offline:
 * 0, or -errno with what failed printed.
 */
static int stick_to_a_cpu_that_goes(struct nl_client *nl, struct nictl_bind_args *args,
				    struct cpus *two)
{
	struct nictl_dev reply;
	struct nl_result res;
	int ret;

	cpus_zero(two);
	cpus_set(two, 5);
	cpus_set(two, GONE_CPU);
	args->cpus = two;
	args->flags = NICTL_BIND_F_STICKY;
	ret = nictl_bind(nl, args, &reply, &res);
	if (ret)
		fprintf(stderr, "# bind %s --cpus 5,7 --sticky: %s\n", DEV, res.msg);
	return ret ?: cpu_set_online(GONE_CPU, false);
}

/* After a reload DEV is as its driver made it: nictl holds nothing for it. */
static bool reload_leaves_it_alone(struct nl_client *nl)
{
	struct nictl_dev dev;
	struct nl_result res;

	return !reload(DEV) && !nictl_dev_get(nl, DEV, &dev, &res) && dev_unbound(&dev) &&
	       !(dev.dev_flags & NICTL_DEV_F_STICKY);
}

/* @dev is bound on @cpus by its sticky binding, kept under @id. */
static bool sticky_in_force(const struct nictl_dev *dev, const char *id,
			    const struct cpus *cpus, bool distinct_cores)
{
	if (!(dev->dev_flags & NICTL_DEV_F_STICKY) || strcmp(dev->sticky_id, id)) {
		fprintf(stderr, "# %s: flags %#x, sticky id '%s'; want sticky as %s\n",
			dev->ifname, dev->dev_flags, dev->sticky_id, id);
		return false;
	}
	return masks_placed(dev, cpus, distinct_cores);
}

/* What sticky_in_force() checks, without printing: for polling. */
static bool quietly_in_force(const struct nictl_dev *dev, const char *id)
{
	struct cpus mask, effective, want;
	unsigned int i;

	if (!(dev->dev_flags & NICTL_DEV_F_BOUND) || strcmp(dev->sticky_id, id) || !dev->n_irqs)
		return false;
	for (i = 0; i < dev->n_irqs; i++) {
		cpus_zero(&want);
		cpus_set(&want, dev->irqs[i].target_cpu);
		if (!(dev->irqs[i].flags & NICTL_IRQ_F_BOUND) ||
		    irq_affinity(dev->irqs[i].num, &mask, &effective) || !cpus_equal(&mask, &want))
			return false;
	}
	return true;
}

/* Poll DEV_GET of @ifname for up to @ms until its sticky binding is in force. */
static bool settles(struct nl_client *nl, const char *ifname, const char *id,
		    const struct cpus *cpus, int ms)
{
	struct nictl_dev dev;
	struct nl_result res;

	for (; ms > 0; ms -= 200) {
		if (!nictl_dev_get(nl, ifname, &dev, &res) && quietly_in_force(&dev, id))
			break;
		usleep(200 * 1000);
	}
	if (ms <= 0)
		fprintf(stderr, "# %s: the sticky binding was not in force again in time\n", ifname);
	return nictl_dev_get(nl, ifname, &dev, &res) == 0 && sticky_in_force(&dev, id, cpus, true);
}

/*
 * Every interrupt /proc/interrupts counted for @dev's queue IRQs was on a CPU
 * of @within, or on the IRQ's target CPU when @within is NULL, and at least
 * one came. Traffic was sent; when no interrupt has come of it yet (a late
 * completion on a busy host), another burst is.
 */
static bool fired_only_on(const struct nictl_dev *dev, const struct cpus *within)
{
	struct cpus on, want, mask, effective;
	char list[64], now[64], eff[64];
	unsigned int i, fired, extra;
	bool ok = true;

	for (extra = 0;; extra++) {
		for (fired = 0, i = 0; i < dev->n_irqs; i++) {
			cpus_zero(&want);
			cpus_set(&want, dev->irqs[i].target_cpu);
			if (irq_fired_on(dev->irqs[i].num, &on)) {
				fprintf(stderr, "# IRQ %u (%s) is gone from /proc/interrupts\n",
					dev->irqs[i].num, dev->irqs[i].name);
				return false;
			}
			fired += cpus_count(&on) > 0;
			if (cpus_subset(&on, within ?: &want))
				continue;
			/* Its masks only to say where it is now. */
			cpus_zero(&mask);
			cpus_zero(&effective);
			irq_affinity(dev->irqs[i].num, &mask, &effective);
			cpus_format(&on, list, sizeof(list));
			cpus_format(&mask, now, sizeof(now));
			cpus_format(&effective, eff, sizeof(eff));
			fprintf(stderr, "# IRQ %u (%s), target CPU %u, had interrupts on CPUs %s; "
				"its mask now %s, effective %s\n", dev->irqs[i].num,
				dev->irqs[i].name, dev->irqs[i].target_cpu, list, now, eff);
			ok = false;
		}
		if (!ok || fired || extra == 2 || traffic_burst(test_nics))
			break;
	}
	if (ok && !fired)
		fprintf(stderr, "# no queue IRQ of %s fired, %u more bursts sent\n", dev->ifname,
			extra);
	return ok && fired;
}

/*
 * virtio_net allocates and requests its vectors at probe, before any
 * notifier point: the module places them at registration, after the
 * request. x86 without interrupt remapping moves a started IRQ at its next
 * interrupt, so the first interrupt of a new IRQ may land on the CPU the
 * kernel chose at allocation, a CPU of the device's node: never off the
 * numa-local binding.
 */
TEST_F_TIMEOUT(sticky, reload_applies_it_with_nobody_listening, 600)
{
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_TRUE(sticky_in_force(&self->reply, self->id, &self->node, true));

	ASSERT_EQ(0, reload(DEV));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->reply, &self->res));
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(sticky_in_force(&self->reply, self->id, &self->node, true));
	/* netdev_revive() sent traffic: every new IRQ fired on its target, */
	EXPECT_TRUE(placement_ok(&self->reply, &self->node, true));
	EXPECT_TRUE(dev_matches_proc(&self->reply));
	/* and never off its node. */
	EXPECT_TRUE(fired_only_on(&self->reply, &self->node));
}

/*
 * The event of a reload: registered, then sticky-applied with every IRQ's
 * affinity before and after, and no requester (nobody asked).
 */
TEST_F_TIMEOUT(sticky, reload_reports_what_it_applied, 600)
{
	struct nictl_listener l;
	struct nictl_event_msg ev;
	struct netdev_info now;
	unsigned int i;

	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, nictl_listen(&l));
	ASSERT_EQ(0, reload(DEV));
	ASSERT_EQ(0, netdev_info(DEV, &now));
	ASSERT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_STICKY_APPLIED, now.ifindex, EVENT_MS, &ev))
		TH_LOG("no sticky-applied event for ifindex %u", now.ifindex);
	nictl_unlisten(&l);
	EXPECT_STREQ(self->id, ev.dev.sticky_id);
	EXPECT_TRUE(ev.dev.dev_flags & NICTL_DEV_F_STICKY);
	EXPECT_FALSE(ev.dev.present & ATTR_BIT(NICTL_A_PORTID));
	EXPECT_FALSE(ev.dev.present & ATTR_BIT(NICTL_A_PID));
	ASSERT_EQ(4U, ev.dev.n_irqs);
	for (i = 0; i < ev.dev.n_irqs; i++) {
		EXPECT_TRUE(ev.dev.irqs[i].present & ATTR_BIT(NICTL_A_IRQ_OLD_AFFINITY));
		EXPECT_TRUE(cpus_test(&self->node, ev.dev.irqs[i].target_cpu))
			TH_LOG("IRQ %u on CPU %u", ev.dev.irqs[i].num, ev.dev.irqs[i].target_cpu);
	}
}

/*
 * igb requests its IRQs at open, not at probe: the module pre-sets the
 * reloaded function's vectors at registration, before the request, so
 * every interrupt of the new IRQs, the first too, is on its CPU; at open
 * the binding is confirmed by name.
 */
TEST_F_TIMEOUT(sticky, reload_of_an_open_time_requester, 600)
{
	struct nictl_bind_args igb = { .ifname = "igb0", .flags = NICTL_BIND_F_STICKY };
	struct netdev_info info;
	struct cpus all;
	char id[100];

	ASSERT_EQ(0, netdev_info("igb0", &info));
	snprintf(id, sizeof(id), "pci:%s", info.bus_addr);
	/* A queue pair per vCPU: every CPU takes one. */
	ASSERT_EQ(0, sys_online_cpus(&all));
	igb.cpus = &all;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &igb, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, reload("igb0"));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "igb0", &self->reply, &self->res));
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(sticky_in_force(&self->reply, id, &all, false));
	/* netdev_revive() sent traffic through it. */
	EXPECT_TRUE(fired_only_on(&self->reply, NULL));
}

/*
 * The queue IRQs of @dev have the kernel's default placement: all the same
 * mask (the default, cut to the device's node at the request), of more than
 * one CPU, where a bind or pre-set gives each its own CPU.
 */
static bool irqs_as_requested(const struct nictl_dev *dev)
{
	struct cpus first, mask, effective;
	char got[64], want[64];
	unsigned int i;
	bool ok = dev->n_irqs;

	for (i = 0; i < dev->n_irqs; i++) {
		if (irq_affinity(dev->irqs[i].num, &mask, &effective))
			return false;
		if (!i)
			first = mask;
		if (cpus_equal(&mask, &first) && cpus_count(&mask) > 1)
			continue;
		cpus_format(&mask, got, sizeof(got));
		cpus_format(&first, want, sizeof(want));
		fprintf(stderr, "# IRQ %u (%s) has CPUs %s, the first IRQ %s\n", dev->irqs[i].num,
			dev->irqs[i].name, got, want);
		ok = false;
	}
	return ok;
}

/*
 * A restore between the pre-set and the open gives the vectors back the
 * masks they had: nothing nictl set outlives the sticky binding. (A vector
 * not yet requested has no /proc/irq/N: what the request makes of it is
 * what shows.)
 */
TEST_F_TIMEOUT(sticky, restore_before_open_undoes_the_preset, 600)
{
	struct nictl_bind_args igb = { .ifname = "igb0", .flags = NICTL_BIND_F_STICKY };
	struct netdev_info info;
	struct cpus all;
	char name[IFNAMSIZ];

	ASSERT_EQ(0, netdev_info("igb0", &info));
	ASSERT_EQ(0, sys_online_cpus(&all));
	igb.cpus = &all;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &igb, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	/* Reloaded and not opened: pre-set, not applied. */
	ASSERT_EQ(0, pci_driver_bind(info.driver, info.bus_addr, false));
	ASSERT_EQ(0, pci_driver_bind(info.driver, info.bus_addr, true));
	ASSERT_EQ(0, netdev_of_pci(info.pci_path, name, sizeof(name)));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, name, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_FALSE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
	ASSERT_EQ(0, netdev_revive(info.pci_path, info.driver, "igb0"));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "igb0", &self->reply, &self->res));
	EXPECT_TRUE(dev_unbound(&self->reply));
	EXPECT_TRUE(irqs_as_requested(&self->reply));
}

/* ethtool -L raises no notifier event; the periodic check applies it again. */
TEST_F_TIMEOUT(sticky, channel_changes_keep_it, 600)
{
	ASSERT_EQ(2U, self->info.rx_queues);
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, netdev_set_channels(DEV, 1));
	EXPECT_TRUE(settles(&self->env.nl, DEV, self->id, &self->node, SETTLE_MS));
	ASSERT_EQ(0, netdev_set_channels(DEV, 2));
	EXPECT_TRUE(settles(&self->env.nl, DEV, self->id, &self->node, SETTLE_MS));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->reply, &self->res));
	EXPECT_EQ(4U, self->reply.n_irqs);
}

/* The queue IRQs' interrupts so far, in @counts (one per IRQ of @dev). */
static bool irq_counts(const struct nictl_dev *dev, unsigned long long *counts)
{
	unsigned int i;

	for (i = 0; i < dev->n_irqs; i++)
		if (irq_count(dev->irqs[i].num, &counts[i]))
			return false;
	return true;
}

/*
 * Every queue IRQ of @dev that fired since @counts now delivers to its
 * target CPU (its effective affinity), and at least one fired.
 */
static bool moved_where_fired(const struct nictl_dev *dev, const unsigned long long *counts)
{
	struct cpus mask, effective, want;
	unsigned int i, fired = 0;
	unsigned long long now;
	char list[64];
	bool ok = true;

	for (i = 0; i < dev->n_irqs; i++) {
		if (irq_count(dev->irqs[i].num, &now) ||
		    irq_affinity(dev->irqs[i].num, &mask, &effective))
			return false;
		if (now == counts[i])
			continue;
		fired++;
		cpus_zero(&want);
		cpus_set(&want, dev->irqs[i].target_cpu);
		if (cpus_equal(&effective, &want))
			continue;
		cpus_format(&effective, list, sizeof(list));
		fprintf(stderr, "# IRQ %u (%s) fired, delivers to CPUs %s, target %u\n",
			dev->irqs[i].num, dev->irqs[i].name, list, dev->irqs[i].target_cpu);
		ok = false;
	}
	if (!fired)
		fprintf(stderr, "# no queue IRQ of %s fired\n", dev->ifname);
	return ok && fired;
}

/*
 * igb frees its vectors and allocates others inside `ethtool -L`, under
 * rtnl and with no notifier event between: the kernel gives the new
 * vectors CPUs of the device's node, and the module's periodic check puts
 * the binding back on them. Fewer queues keep their positions; more queues
 * than at the last apply are spread again. Once it has, every new IRQ that
 * fires delivers to its target. The interrupts before the check land on
 * the kernel's choice, off this binding: bench/off-policy.sh's sticky-far
 * rows count them.
 */
TEST_F_TIMEOUT(sticky, channel_changes_of_a_reallocating_driver, 600)
{
	struct nictl_bind_args igb = { .ifname = "igb0", .flags = NICTL_BIND_F_STICKY };
	static const unsigned int counts[] = { 1, 2 };
	unsigned long long fired[NICTL_MAX_IRQS];
	struct netdev_info info;
	struct cpus away;
	char id[100];
	unsigned int i;

	ASSERT_EQ(0, netdev_info("igb0", &info));
	snprintf(id, sizeof(id), "pci:%s", info.bus_addr);
	/* The other node's CPUs: the kernel's own choice is never one of them. */
	ASSERT_EQ(0, node_cpus(info.numa_node ? 0 : 1, &away));
	igb.cpus = &away;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &igb, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	for (i = 0; i < ARRAY_SIZE(counts); i++) {
		ASSERT_EQ(0, netdev_set_channels("igb0", counts[i]));
		EXPECT_TRUE(settles(&self->env.nl, "igb0", id, &away, SETTLE_MS))
			TH_LOG("after ethtool -L igb0 combined %u", counts[i]);
		ASSERT_EQ(0, netdev_info("igb0", &info));
		EXPECT_EQ(counts[i], info.rx_queues);
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "igb0", &self->reply, &self->res));
		ASSERT_TRUE(irq_counts(&self->reply, fired));
		ASSERT_EQ(0, traffic_burst(test_nics));
		EXPECT_TRUE(moved_where_fired(&self->reply, fired))
			TH_LOG("after ethtool -L igb0 combined %u", counts[i]);
	}
}

/*
 * A sticky binding whose CPU went offline cannot be applied: an event and
 * the kernel log say why, and the reloaded device keeps its driver's
 * placement. The binding stays, and applies at the next reload once the
 * CPU is back.
 */
TEST_F_TIMEOUT(sticky, offline_cpu_fails_it_and_leaves_the_device, 600)
{
	struct nictl_listener l;
	struct nictl_event_msg ev;
	struct netdev_info now;
	struct cpus two;

	ASSERT_EQ(0, stick_to_a_cpu_that_goes(&self->env.nl, &self->args, &two));
	ASSERT_EQ(0, nictl_listen(&l));
	ASSERT_EQ(0, reload(DEV));
	ASSERT_EQ(0, netdev_info(DEV, &now));
	ASSERT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_STICKY_FAILED, now.ifindex, EVENT_MS, &ev))
		TH_LOG("no sticky-failed event for ifindex %u", now.ifindex);
	nictl_unlisten(&l);
	EXPECT_EQ(EINVAL, ev.err);
	EXPECT_NE(NULL, strstr(ev.message, "CPU 7 is offline")) TH_LOG("message: %s", ev.message);
	EXPECT_STREQ(self->id, ev.dev.sticky_id);

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->reply, &self->res));
	EXPECT_TRUE(dev_unbound(&self->reply));
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_STICKY);

	ASSERT_EQ(0, cpu_set_online(GONE_CPU, true));
	ASSERT_EQ(0, reload(DEV));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->reply, &self->res));
	EXPECT_TRUE(sticky_in_force(&self->reply, self->id, &two, true));
}

/* Restore drops the sticky binding with the binding: a reload leaves the driver's placement. */
TEST_F_TIMEOUT(sticky, restore_drops_it, 600)
{
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, nictl_restore(&self->env.nl, DEV, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_FALSE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
	EXPECT_FALSE(self->reply.present & ATTR_BIT(NICTL_A_STICKY_ID));
	EXPECT_TRUE(reload_leaves_it_alone(&self->env.nl));
	EXPECT_EQ(-ENODATA, nictl_restore(&self->env.nl, DEV, &self->reply, &self->res));
}

/*
 * A sticky binding alone (its device reloaded and not applied: the CPU is
 * offline) is still the device's to drop with restore.
 */
TEST_F_TIMEOUT(sticky, restore_drops_it_without_a_binding, 600)
{
	struct cpus two;

	ASSERT_EQ(0, stick_to_a_cpu_that_goes(&self->env.nl, &self->args, &two));
	ASSERT_EQ(0, reload(DEV));
	ASSERT_EQ(0, cpu_set_online(GONE_CPU, true));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, DEV, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_FALSE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
	EXPECT_TRUE(reload_leaves_it_alone(&self->env.nl));
}

/* The last bind says what the device should have: one without the flag drops it. */
TEST_F_TIMEOUT(sticky, plain_bind_drops_it, 600)
{
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	self->args.flags &= ~NICTL_BIND_F_STICKY;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_FALSE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
	EXPECT_TRUE(reload_leaves_it_alone(&self->env.nl));
}

/*
 * A device without a PCI function whose queue IRQs only its NAPI links
 * name (the test build hides igb0's function and its names): a sticky bind
 * keeps the request under the device's MAC, applies it and learns no
 * vector layout, as there is no function to hold one. Where the kernel
 * has no NAPI links (before 6.8) such a device has no queue IRQs, and the
 * bind says so.
 */
TEST_F_TIMEOUT(sticky, a_device_without_pci_function_binds, 300)
{
	struct netdev_info igb0;
	struct nictl_dev *dev = malloc(sizeof(*dev));
	struct cpus two;
	char mac[64], addr[32];

	ASSERT_NE(NULL, dev);
	ASSERT_EQ(0, netdev_info("igb0", &igb0));
	ASSERT_EQ(0, nictl_set_param("fault_no_pci_ifindex", igb0.ifindex));
	ASSERT_EQ(0, nictl_set_param("fault_discovery_source", 1));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "igb0", dev, &self->res));
	EXPECT_FALSE(dev->present & ATTR_BIT(NICTL_A_BUS_ADDR)) TH_LOG("bus %s", dev->bus_addr);
	ASSERT_EQ(0, cpus_parse(&two, "1-2"));
	self->args.ifname = "igb0";
	self->args.flags = NICTL_BIND_F_STICKY;
	self->args.cpus = &two;
	if (!dev->n_irqs) {
		EXPECT_EQ(NICTL_IRQ_SOURCE_NONE, dev->source);
		EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &self->args, &self->reply,
					       &self->res), &self->res, ENOENT, true,
				    &self->env.snap));
		free(dev);
		return;
	}
	EXPECT_EQ(NICTL_IRQ_SOURCE_NAPI, dev->source);
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
	ASSERT_EQ(0, read_str("/sys/class/net/igb0/address", addr, sizeof(addr)));
	snprintf(mac, sizeof(mac), "mac:%s", addr);
	EXPECT_STREQ(mac, self->reply.sticky_id);
	EXPECT_TRUE(dev_matches_proc(&self->reply));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, "igb0", &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	free(dev);
}

/* A dry run keeps nothing, and drops nothing either. */
TEST_F_TIMEOUT(sticky, dry_run_keeps_nothing, 300)
{
	self->args.flags |= NICTL_BIND_F_DRY_RUN;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_FALSE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->reply, &self->res));
	EXPECT_FALSE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
}

TEST_F_TIMEOUT(sticky, unload_drops_them_all, 600)
{
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	nl_close(&self->env.nl);
	ASSERT_EQ(0, nictl_module_unload());
	ASSERT_EQ(0, nictl_module_load());
	ASSERT_EQ(0, nictl_open(&self->env.nl));
	EXPECT_TRUE(reload_leaves_it_alone(&self->env.nl));
}

/*
 * Two devices with one identity could not tell whose binding it is: the
 * bind is refused before anything moves (fault_one_identity gives every
 * device the identity pci:fault).
 */
TEST_F_TIMEOUT(sticky, shared_identity_is_refused, 300)
{
	struct irq_snapshot before;
	int ret;

	ASSERT_EQ(0, irq_snapshot_take(&before));
	ASSERT_EQ(0, nictl_param_write("fault_one_identity", "1"));
	ret = nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res);
	EXPECT_EQ(0, nictl_param_write("fault_one_identity", "0"));
	EXPECT_TRUE(refused(ret, &self->res, EEXIST, true, &before));
	EXPECT_NE(NULL, strstr(self->res.msg, "pci:fault")) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->reply, &self->res));
	EXPECT_TRUE(dev_unbound(&self->reply));
}

/* Past sticky_max a new device is refused before anything moves; its own may be replaced. */
TEST_F_TIMEOUT(sticky, sticky_max_is_a_clear_refusal, 300)
{
	struct nictl_bind_args other = self->args;
	struct irq_snapshot before;
	struct cpus node0;
	int ret;

	ASSERT_EQ(0, node_cpus(0, &node0));
	other.ifname = "vnode0";
	other.cpus = &node0;
	ASSERT_EQ(0, nictl_set_param("sticky_max", 1));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, irq_snapshot_take(&before));
	ret = nictl_bind(&self->env.nl, &other, &self->reply, &self->res);
	EXPECT_TRUE(refused(ret, &self->res, ENOSPC, true, &before));
	EXPECT_NE(NULL, strstr(self->res.msg, "sticky_max")) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &self->args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_STICKY);
}

NICTL_TEST_MAIN
