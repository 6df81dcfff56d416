// SPDX-License-Identifier: GPL-2.0
/*
 * nictl's events, received on a socket of the "events" group and judged
 * against sysfs, /proc and the replies: link changes, renames, channel
 * changes, binds and restores, affinity drift, a PCI rebind, silence while
 * nobody listens, no rtnl taken for an unprivileged listener while nothing
 * changes, and `nictlctl monitor` printing them.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "btf.h"
#include "env.h"
#include "events.h"
#include "kprobe.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

/* A device event comes at once; give a slow emulated guest some slack. */
#define NOW_MS		5000
/* What the periodic check may take on top of its period. */
#define MARGIN_MS	3000
#define RENAMED		"evtest0"
#define MON_OUT_LEN	65536
/* Link changes that make 2 events each, while the monitor reads nothing. */
#define OVERRUN_TOGGLES	1000
/*
 * The socket buffer limit the overrun test works within: Linux's old
 * default. Newer kernels (7.2 here) default to 4 MiB, nictlctl's request,
 * which holds every event those toggles make.
 */
#define RMEM_MAX	"212992"
#define RMEM_MAX_PATH	"/proc/sys/net/core/rmem_max"
/* Who an unprivileged listener is: nobody. */
#define NOBODY_UID	65534

FIXTURE(events) {
	struct test_env env;
	struct nictl_listener l;
	struct nictl_event_msg ev;
	int period_ms;
	char rmem_max[32];	/* to write back, "" when untouched */
};

static int watch_period_ms(void)
{
	long v;

	return read_long("/sys/module/nictl/parameters/watch_period_ms", &v) ? -1 : (int)v;
}

FIXTURE_SETUP(events)
{
	ASSERT_EQ(0, env_setup(&self->env));
	self->rmem_max[0] = '\0';
	self->period_ms = watch_period_ms();
	ASSERT_EQ(1000, self->period_ms) TH_LOG("the default period is 1 s");
	/* Root hears who binds: the audit group, the events group plus pid and uid. */
	ASSERT_EQ(0, nictl_listen_group(&self->l, NICTL_MCGRP_AUDIT));
}

FIXTURE_TEARDOWN(events)
{
	struct netdev_info info;

	nictl_unlisten(&self->l);
	if (self->rmem_max[0])
		EXPECT_EQ(0, write_str(RMEM_MAX_PATH, self->rmem_max));
	if (!netdev_info(RENAMED, &info))
		EXPECT_EQ(0, netdev_rename(RENAMED, "vnode0"));
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* The permanent address as `ethtool -P` prints it, into @mac (6 bytes). */
static int perm_addr(const char *ifname, uint8_t *mac)
{
	struct run_result *r = malloc(sizeof(*r));
	const char *argv[] = { "ethtool", "-P", ifname, NULL };
	unsigned int b[6], i;
	const char *s;
	int ret;

	if (!r)
		return -ENOMEM;
	ret = run_cmd(r, false, NULL, argv) ?: r->status;
	s = ret ? NULL : strstr(r->out, "address: ");
	if (!s || sscanf(s, "address: %x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
			 &b[5]) != 6)
		ret = ret ?: -EPROTO;
	for (i = 0; !ret && i < 6; i++)
		mac[i] = b[i];
	free(r);
	return ret;
}

/*
 * An event of a device (not bind, drift or queues) describes @ifname as
 * sysfs does, and carries nothing else.
 */
static bool describes(const struct nictl_event_msg *ev, const char *ifname,
		      const struct netdev_info *info, bool up)
{
	const uint64_t base = ATTR_BIT(NICTL_A_EVENT) | ATTR_BIT(NICTL_A_EVENT_SEQ) |
			      ATTR_BIT(NICTL_A_EVENT_TIME_NS) | ATTR_BIT(NICTL_A_IFINDEX) |
			      ATTR_BIT(NICTL_A_IFNAME) | ATTR_BIT(NICTL_A_DRIVER) |
			      ATTR_BIT(NICTL_A_BUS_ADDR) | ATTR_BIT(NICTL_A_PERM_ADDR) |
			      ATTR_BIT(NICTL_A_NUMA_NODE) | ATTR_BIT(NICTL_A_RX_QUEUES) |
			      ATTR_BIT(NICTL_A_TX_QUEUES) | ATTR_BIT(NICTL_A_DEV_FLAGS) |
			      ATTR_BIT(NICTL_A_SOURCE);
	uint64_t want = base | (ev->type == NICTL_EVENT_RENAMED ? ATTR_BIT(NICTL_A_OLD_IFNAME) : 0);
	uint8_t mac[6];
	bool ok = true;

	if (ev->dev.present != want) {
		fprintf(stderr, "# attributes %#llx, want %#llx\n",
			(unsigned long long)ev->dev.present, (unsigned long long)want);
		ok = false;
	}
	if (strcmp(ev->dev.ifname, ifname) || ev->dev.ifindex != info->ifindex ||
	    strcmp(ev->dev.driver, info->driver) || strcmp(ev->dev.bus_addr, info->bus_addr) ||
	    ev->dev.numa_node != info->numa_node || ev->dev.rx_queues != info->rx_queues ||
	    ev->dev.tx_queues != info->tx_queues) {
		fprintf(stderr, "# event: %s %u %s %s node %d queues %u/%u; sysfs: %s %u %s %s "
			"node %d queues %u/%u\n", ev->dev.ifname, ev->dev.ifindex, ev->dev.driver,
			ev->dev.bus_addr, ev->dev.numa_node, ev->dev.rx_queues, ev->dev.tx_queues,
			ifname, info->ifindex, info->driver, info->bus_addr, info->numa_node,
			info->rx_queues, info->tx_queues);
		ok = false;
	}
	if (!!(ev->dev.dev_flags & NICTL_DEV_F_UP) != up) {
		fprintf(stderr, "# flags %#x, want up %d\n", ev->dev.dev_flags, up);
		ok = false;
	}
	if (perm_addr(ifname, mac) || ev->dev.perm_addr_len != 6 ||
	    memcmp(mac, ev->dev.perm_addr, 6)) {
		fprintf(stderr, "# permanent address differs from ethtool -P\n");
		ok = false;
	}
	return ok;
}

/* Wait for the next event of @type about @ifindex into self->ev. */
#define AWAIT(type, ifindex, ms) \
	ASSERT_EQ(1, nictl_wait_event(&self->l, type, ifindex, ms, &self->ev)) \
		TH_LOG("no %s event in %d ms", nictl_event_name(type), ms)

TEST_F_TIMEOUT(events, down_rename_up_describe_the_device, 300)
{
	struct netdev_info info;
	uint64_t seq = 0, time_ns = 0;

	ASSERT_EQ(0, netdev_info("vnode0", &info));

	ASSERT_EQ(0, netdev_set_up("vnode0", false));
	AWAIT(NICTL_EVENT_DOWN, info.ifindex, NOW_MS);
	EXPECT_TRUE(describes(&self->ev, "vnode0", &info, false));
	seq = self->ev.seq;
	time_ns = self->ev.time_ns;

	ASSERT_EQ(0, netdev_rename("vnode0", RENAMED));
	AWAIT(NICTL_EVENT_RENAMED, info.ifindex, NOW_MS);
	EXPECT_TRUE(describes(&self->ev, RENAMED, &info, false));
	EXPECT_STREQ("vnode0", self->ev.old_ifname);
	EXPECT_LT(seq, self->ev.seq);
	EXPECT_LE(time_ns, self->ev.time_ns);
	seq = self->ev.seq;

	ASSERT_EQ(0, netdev_rename(RENAMED, "vnode0"));
	AWAIT(NICTL_EVENT_RENAMED, info.ifindex, NOW_MS);
	EXPECT_STREQ("vnode0", self->ev.dev.ifname);
	EXPECT_STREQ(RENAMED, self->ev.old_ifname);
	EXPECT_LT(seq, self->ev.seq);
	seq = self->ev.seq;

	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	AWAIT(NICTL_EVENT_UP, info.ifindex, NOW_MS);
	EXPECT_TRUE(describes(&self->ev, "vnode0", &info, true));
	EXPECT_LT(seq, self->ev.seq);
	EXPECT_EQ(0U, self->l.gaps);
}

/* Two lists of queue IRQs have the same numbers, queues and kinds. */
static bool same_irqs(const struct nictl_irq *a, unsigned int na, const struct nictl_irq *b,
		      unsigned int nb)
{
	unsigned int i;

	if (na != nb) {
		fprintf(stderr, "# %u IRQs in the event, %u in DEV_GET\n", na, nb);
		return false;
	}
	for (i = 0; i < na; i++)
		if (a[i].num != b[i].num || a[i].queue != b[i].queue || a[i].kind != b[i].kind) {
			fprintf(stderr, "# IRQ %u of the event differs from DEV_GET's\n", i);
			return false;
		}
	return true;
}

/* The event's IRQs now are @now's, and its old ones @before's. */
#define NEW_IRQS_ARE(now) same_irqs(self->ev.dev.irqs, self->ev.dev.n_irqs, (now)->irqs, \
				    (now)->n_irqs)
#define OLD_IRQS_ARE(before) same_irqs(self->ev.old_irqs, self->ev.n_old_irqs, (before)->irqs, \
				       (before)->n_irqs)

/* e1000e requests its IRQs at open and frees them at close. */
TEST_F_TIMEOUT(events, e1k_down_up_changes_its_queue_irqs, 300)
{
	struct nictl_dev before, after;
	struct nl_result res;

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "e1k", &before, &res));
	ASSERT_LT(0U, before.n_irqs);

	ASSERT_EQ(0, netdev_set_up("e1k", false));
	AWAIT(NICTL_EVENT_DOWN, before.ifindex, NOW_MS);
	AWAIT(NICTL_EVENT_QUEUES_CHANGED, before.ifindex, NOW_MS);
	EXPECT_EQ(0U, self->ev.dev.n_irqs);
	EXPECT_TRUE(OLD_IRQS_ARE(&before));

	ASSERT_EQ(0, netdev_set_up("e1k", true));
	AWAIT(NICTL_EVENT_UP, before.ifindex, NOW_MS);
	AWAIT(NICTL_EVENT_QUEUES_CHANGED, before.ifindex, NOW_MS);
	EXPECT_EQ(0U, self->ev.n_old_irqs);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "e1k", &after, &res));
	EXPECT_LT(0U, after.n_irqs);
	EXPECT_TRUE(NEW_IRQS_ARE(&after));
	EXPECT_EQ(0U, self->l.gaps);
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* ethtool -L raises no netdevice event: the periodic check finds it. */
TEST_F_TIMEOUT(events, channel_change_is_found_within_the_period, 300)
{
	int wait_ms = self->period_ms + MARGIN_MS;
	struct nictl_dev before, after;
	struct nl_result res;
	uint64_t changed_ns;

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &before, &res));
	ASSERT_EQ(2U, before.rx_queues);

	ASSERT_EQ(0, netdev_set_channels("vnode1", 1));
	changed_ns = mono_ns();
	AWAIT(NICTL_EVENT_QUEUES_CHANGED, before.ifindex, wait_ms);
	EXPECT_GE(changed_ns + wait_ms * 1000000ULL, self->ev.time_ns);
	EXPECT_EQ(2U, self->ev.old_rx_queues);
	EXPECT_EQ(2U, self->ev.old_tx_queues);
	EXPECT_EQ(1U, self->ev.dev.rx_queues);
	EXPECT_EQ(1U, self->ev.dev.tx_queues);
	EXPECT_TRUE(OLD_IRQS_ARE(&before));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &after, &res));
	EXPECT_EQ(2U, after.n_irqs);
	EXPECT_TRUE(NEW_IRQS_ARE(&after));

	ASSERT_EQ(0, netdev_set_channels("vnode1", 2));
	AWAIT(NICTL_EVENT_QUEUES_CHANGED, before.ifindex, wait_ms);
	EXPECT_EQ(1U, self->ev.old_rx_queues);
	EXPECT_EQ(2U, self->ev.dev.rx_queues);
	EXPECT_TRUE(OLD_IRQS_ARE(&after));
	EXPECT_TRUE(NEW_IRQS_ARE(&before));
	EXPECT_EQ(0U, self->l.gaps);
}

/* Where @dev places IRQ @num: its target CPU if bound, else its affinity. */
static bool placed(const struct nictl_dev *dev, uint32_t num, struct cpus *s)
{
	const struct nictl_irq *irq = nictl_dev_irq(dev, num);

	if (!irq)
		return false;
	cpus_zero(s);
	if (irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU))
		cpus_set(s, irq->target_cpu);
	else
		*s = irq->affinity;
	return true;
}

/*
 * A bound or restored event: we are the caller, on the socket of port id
 * @portid, and each of the @n IRQs changed from where @from placed it to
 * where @to does.
 */
static bool audits(const struct nictl_event_msg *ev, uint32_t portid,
		   const struct nictl_dev *from, const struct nictl_dev *to, unsigned int n)
{
	bool ok = ev->pid == (uint32_t)getpid() && ev->uid == getuid() &&
		  (ev->dev.present & ATTR_BIT(NICTL_A_PID)) && ev->portid == portid;
	struct cpus want_old, want_new;
	const struct nictl_irq *e;
	unsigned int i;

	if (!ok)
		fprintf(stderr, "# by pid %u uid %u port %u, want %d %d %u\n", ev->pid, ev->uid,
			ev->portid, getpid(), getuid(), portid);
	if (ev->dev.n_irqs != n) {
		fprintf(stderr, "# %u IRQs in the event, %u changed\n", ev->dev.n_irqs, n);
		return false;
	}
	for (i = 0; i < n; i++) {
		e = &ev->dev.irqs[i];
		if (!placed(from, e->num, &want_old) || !placed(to, e->num, &want_new) ||
		    !(e->present & ATTR_BIT(NICTL_A_IRQ_OLD_AFFINITY)) ||
		    !cpus_equal(&e->old_affinity, &want_old) ||
		    !cpus_equal(&e->affinity, &want_new)) {
			fprintf(stderr, "# IRQ %u: not the old -> new affinity of the replies\n",
				e->num);
			ok = false;
		}
	}
	return ok;
}

TEST_F_TIMEOUT(events, bind_and_restore_are_audited, 300)
{
	struct nictl_bind_args args = {
		.ifname = "vnode1",
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE |
			 NICTL_BIND_F_DRY_RUN,
	};
	uint32_t portid = mnl_socket_get_portid(self->env.nl.sock);
	struct nictl_dev before, bound, restored;
	struct nl_result res;
	struct cpus node;

	ASSERT_EQ(0, node_cpus(1, &node));
	args.cpus = &node;
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &before, &res));

	/* A dry run changes nothing, so it tells nobody. */
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &bound, &res)) TH_LOG("%s", res.msg);
	EXPECT_EQ(0, nictl_drain_events(&self->l, 2 * self->period_ms));

	args.flags &= ~NICTL_BIND_F_DRY_RUN;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &bound, &res)) TH_LOG("%s", res.msg);
	AWAIT(NICTL_EVENT_BOUND, before.ifindex, NOW_MS);
	EXPECT_TRUE(self->ev.dev.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(audits(&self->ev, portid, &before, &bound, bound.n_irqs));

	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode1", &restored, &res))
		TH_LOG("%s", res.msg);
	AWAIT(NICTL_EVENT_RESTORED, before.ifindex, NOW_MS);
	EXPECT_FALSE(self->ev.dev.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(audits(&self->ev, portid, &bound, &restored, bound.n_irqs));
	EXPECT_TRUE(audits(&self->ev, portid, &bound, &before, bound.n_irqs));
	EXPECT_EQ(0U, self->l.gaps);
}

/*
 * Wait @ms for a drift of IRQ @irq: 1 (in self->ev) or 0; drifts of other
 * IRQs are passed over.
 */
static int await_drift(FIXTURE_DATA(events) *self, uint32_t ifindex, uint32_t irq, int ms)
{
	int ret;

	do {
		ret = nictl_wait_event(&self->l, NICTL_EVENT_DRIFT, ifindex, ms, &self->ev);
	} while (ret > 0 && (self->ev.dev.n_irqs != 1 || self->ev.dev.irqs[0].num != irq));
	return ret;
}

/*
 * The drift event describes @bound (the IRQ as the bind's reply showed it):
 * the same IRQ, name, queues and target, what nictl set as expected, and
 * @found as its affinity now.
 */
static bool drift_is(const struct nictl_event_msg *ev, const struct nictl_irq *bound,
		     const struct cpus *found)
{
	const struct nictl_irq *e = &ev->dev.irqs[0];
	char a[CPUS_LIST_LEN], b[CPUS_LIST_LEN];
	struct cpus expected;

	cpus_zero(&expected);
	cpus_set(&expected, bound->target_cpu);
	cpus_format(&e->expected, a, sizeof(a));
	cpus_format(&e->affinity, b, sizeof(b));
	fprintf(stderr, "# drift: irq %u (%s, queue %u of %u) expected %s found %s; bound: "
		"irq %u (%s, queue %u of %u) target %u\n", e->num, e->name, e->queue, e->n_queues,
		a, b, bound->num, bound->name, bound->queue, bound->n_queues, bound->target_cpu);
	return e->num == bound->num && !strcmp(e->name, bound->name) &&
	       e->queue == bound->queue && e->kind == bound->kind &&
	       e->n_queues == bound->n_queues && cpus_equal(&e->expected, &expected) &&
	       cpus_equal(&e->affinity, found) && e->target_cpu == bound->target_cpu &&
	       (e->flags & NICTL_IRQ_F_BOUND);
}

TEST_F_TIMEOUT(events, drift_is_reported_once_per_change, 600)
{
	struct nictl_bind_args args = {
		.ifname = "vnode1",
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE,
	};
	int quiet_ms = 3 * self->period_ms, wait_ms = self->period_ms + MARGIN_MS;
	struct cpus node, other, both, target_only;
	struct nictl_dev reply;
	struct nl_result res;
	unsigned int target;
	uint32_t irq;
	int cpu;

	ASSERT_EQ(0, node_cpus(1, &node));
	args.cpus = &node;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	irq = reply.irqs[0].num;
	target = reply.irqs[0].target_cpu;
	/* Moves still waiting for an interrupt are nictl's own: no drift. */
	EXPECT_EQ(0, await_drift(self, reply.ifindex, irq, quiet_ms));
	ASSERT_TRUE(effective_follows(&reply));
	EXPECT_EQ(0, await_drift(self, reply.ifindex, irq, quiet_ms));

	cpus_zero(&other);
	for_each_cpu(cpu, &node)
		if ((unsigned int)cpu != target) {
			cpus_set(&other, cpu);
			break;
		}
	ASSERT_EQ(1U, cpus_count(&other));
	ASSERT_EQ(0, irq_set_affinity(irq, &other));
	ASSERT_EQ(1, await_drift(self, reply.ifindex, irq, wait_ms));
	EXPECT_TRUE(drift_is(&self->ev, &reply.irqs[0], &other));
	/* Once: the next periods find the same drift and keep quiet. */
	EXPECT_EQ(0, await_drift(self, reply.ifindex, irq, quiet_ms));

	/* Another affinity is another drift. */
	both = other;
	cpus_set(&both, target);
	ASSERT_EQ(0, irq_set_affinity(irq, &both));
	ASSERT_EQ(1, await_drift(self, reply.ifindex, irq, wait_ms));
	EXPECT_TRUE(drift_is(&self->ev, &reply.irqs[0], &both));

	/* Back where nictl put it, then away again: reported again. */
	cpus_zero(&target_only);
	cpus_set(&target_only, target);
	ASSERT_EQ(0, irq_set_affinity(irq, &target_only));
	EXPECT_EQ(0, await_drift(self, reply.ifindex, irq, quiet_ms));
	ASSERT_EQ(0, irq_set_affinity(irq, &other));
	ASSERT_EQ(1, await_drift(self, reply.ifindex, irq, wait_ms));
	EXPECT_TRUE(drift_is(&self->ev, &reply.irqs[0], &other));
	EXPECT_EQ(0U, self->l.gaps);
}

/* Join the events group as user @uid, without any capability, then be root again. */
static int listen_as(uid_t uid, struct nictl_listener *l)
{
	int ret;

	if (seteuid(uid))
		return -errno;
	ret = geteuid() == uid ? nictl_listen(l) : -EPERM;
	if (seteuid(0))
		return -errno;
	return ret;
}

/*
 * What nictl keeps watching for an unprivileged listener, nothing changing,
 * takes rtnl not once: a bound device's drift is found under nictl's own
 * lock and a queue count change without any lock of the device. Drift and
 * channel changes are still reported within the period, the latter after
 * one rtnl-held look at the device.
 */
TEST_F_TIMEOUT(events, unprivileged_listener_costs_no_rtnl, 600)
{
	struct nictl_bind_args args = {
		.ifname = "vnode1",
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE,
	};
	int quiet_ms = 3 * self->period_ms, wait_ms = self->period_ms + MARGIN_MS;
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus node, other;
	unsigned int target;
	uint32_t irq;
	int cpu, calls;

	nictl_unlisten(&self->l);
	ASSERT_EQ(0, kprobe_start(&rtnl_from_nictl));
	/* Nothing changed unheard: joining takes no rtnl either. */
	ASSERT_EQ(0, listen_as(NOBODY_UID, &self->l));
	calls = kprobe_count(&rtnl_from_nictl);
	EXPECT_EQ(0, calls) TH_LOG("joining took rtnl %d times", calls);
	ASSERT_EQ(0, kprobe_clear());
	/* The probe sees the module's rtnl_lock(): a DEV_GET takes it once. */
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &reply, &res));
	ASSERT_EQ(1, kprobe_count(&rtnl_from_nictl)) TH_LOG("one DEV_GET, one rtnl_lock() from nictl");

	ASSERT_EQ(0, kprobe_clear());
	usleep(quiet_ms * 1000);
	calls = kprobe_count(&rtnl_from_nictl);
	EXPECT_EQ(0, calls) TH_LOG("%d rtnl_lock() from nictl in %d ms of nothing changing",
				    calls, quiet_ms);

	/* The same with a bound device, whose IRQs the check now reads. */
	ASSERT_EQ(0, node_cpus(1, &node));
	args.cpus = &node;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	AWAIT(NICTL_EVENT_BOUND, reply.ifindex, NOW_MS);
	ASSERT_TRUE(effective_follows(&reply));
	ASSERT_EQ(0, kprobe_clear());
	usleep(quiet_ms * 1000);
	calls = kprobe_count(&rtnl_from_nictl);
	EXPECT_EQ(0, calls) TH_LOG("%d rtnl_lock() from nictl in %d ms with vnode1 bound",
				    calls, quiet_ms);

	irq = reply.irqs[0].num;
	target = reply.irqs[0].target_cpu;
	cpus_zero(&other);
	for_each_cpu(cpu, &node)
		if ((unsigned int)cpu != target) {
			cpus_set(&other, cpu);
			break;
		}
	ASSERT_EQ(0, kprobe_clear());
	ASSERT_EQ(0, irq_set_affinity(irq, &other));
	ASSERT_EQ(1, await_drift(self, reply.ifindex, irq, wait_ms));
	EXPECT_TRUE(drift_is(&self->ev, &reply.irqs[0], &other));
	calls = kprobe_count(&rtnl_from_nictl);
	EXPECT_EQ(0, calls) TH_LOG("finding the drift took rtnl %d times", calls);

	ASSERT_EQ(0, netdev_set_channels("vnode1", 1));
	AWAIT(NICTL_EVENT_QUEUES_CHANGED, reply.ifindex, wait_ms);
	EXPECT_EQ(2U, self->ev.old_rx_queues);
	EXPECT_EQ(1U, self->ev.dev.rx_queues);
	ASSERT_EQ(0, netdev_set_channels("vnode1", 2));
	AWAIT(NICTL_EVENT_QUEUES_CHANGED, reply.ifindex, wait_ms);
	EXPECT_EQ(1U, self->ev.old_rx_queues);
	EXPECT_EQ(2U, self->ev.dev.rx_queues);
	EXPECT_EQ(0U, self->l.gaps);
	kprobe_stop(&rtnl_from_nictl);
}

/* No listener, no event: the sequence number does not move meanwhile. */
TEST_F_TIMEOUT(events, nobody_listening_gets_no_events, 300)
{
	struct nictl_bind_args args = { .ifname = "vnode0" };
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus node;
	int has_join, calls;
	uint64_t last;

	has_join = kernel_struct_has("net/genetlink.h", "genl_family", "bind");
	ASSERT_LE(0, has_join);
	ASSERT_EQ(0, node_cpus(0, &node));
	args.cpus = &node;
	ASSERT_EQ(0, netdev_set_up("vnode0", false));
	AWAIT(NICTL_EVENT_DOWN, 0, NOW_MS);
	/* Two quiet periods: the fixture's join is past its second of grace. */
	ASSERT_LE(0, nictl_drain_events(&self->l, 2 * self->period_ms));
	last = self->l.last_seq;
	nictl_unlisten(&self->l);

	/*
	 * Things that would each send an event, with nobody to hear them.
	 * Where genl tells a family of joins (6.7+), they do not even make the
	 * module discover the device (the next join looks again); before,
	 * each does.
	 */
	ASSERT_EQ(0, kprobe_start(&nictl_discovery));
	ASSERT_EQ(0, netdev_rename("vnode0", RENAMED));
	ASSERT_EQ(0, netdev_rename(RENAMED, "vnode0"));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	calls = kprobe_count(&nictl_discovery);
	kprobe_stop(&nictl_discovery);
	if (has_join) {
		EXPECT_EQ(0, calls) TH_LOG("two renames and an up unheard: %d discoveries", calls);
	} else {
		EXPECT_LE(3, calls) TH_LOG("without joins seen, every event discovers: %d", calls);
	}
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode0", &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, netdev_set_channels("vnode1", 1));
	usleep(2 * self->period_ms * 1000);
	ASSERT_EQ(0, netdev_set_channels("vnode1", 2));

	/* The group of the fixture's listener, and of its sequence. */
	ASSERT_EQ(0, nictl_listen_group(&self->l, NICTL_MCGRP_AUDIT));
	ASSERT_EQ(0, netdev_set_up("vnode0", false));
	/* The first event after the silence comes right after the last one. */
	ASSERT_EQ(1, nictl_next_event(&self->l, &self->ev, NOW_MS));
	EXPECT_EQ(NICTL_EVENT_DOWN, self->ev.type);
	EXPECT_EQ(last + 1, self->ev.seq);
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
}

/*
 * A listener's events compare with the devices as they are when it joins,
 * whatever changed while nobody listened, even with no notifier event
 * (ethtool -L). Where genl tells a family of joins (6.7+), the join looks
 * again; before, the first periodic check after it reports the change made
 * unheard, late but true.
 */
TEST_F_TIMEOUT(events, listener_compares_with_devices_as_they_are_when_it_joins, 300)
{
	int wait_ms = self->period_ms + MARGIN_MS;
	struct nictl_dev before;
	struct nl_result res;
	int has_join;

	has_join = kernel_struct_has("net/genetlink.h", "genl_family", "bind");
	ASSERT_LE(0, has_join);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &before, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(2U, before.rx_queues);
	nictl_unlisten(&self->l);
	ASSERT_EQ(0, netdev_set_channels("vnode1", 1));

	ASSERT_EQ(0, nictl_listen_group(&self->l, NICTL_MCGRP_AUDIT));
	if (!has_join) {
		AWAIT(NICTL_EVENT_QUEUES_CHANGED, before.ifindex, wait_ms);
		EXPECT_EQ(2U, self->ev.old_rx_queues);
		EXPECT_EQ(1U, self->ev.dev.rx_queues);
	}
	ASSERT_EQ(0, netdev_set_channels("vnode1", 2));
	AWAIT(NICTL_EVENT_QUEUES_CHANGED, before.ifindex, wait_ms);
	EXPECT_EQ(1U, self->ev.old_rx_queues) TH_LOG("the queues vnode1 had when the listener joined");
	EXPECT_EQ(2U, self->ev.dev.rx_queues);
	EXPECT_EQ(0U, self->l.gaps);
}

/* The bus address, driver and MAC of the function survive a rebind. */
TEST_F_TIMEOUT(events, pci_rebind_unregisters_then_registers, 600)
{
	struct netdev_info info;
	uint32_t new_ifindex;
	char driver[64];
	uint8_t mac[6];

	ASSERT_EQ(0, netdev_info("vnode1", &info));
	pci_driver_name(info.pci_path, driver, sizeof(driver));
	ASSERT_STREQ("virtio-pci", driver);

	ASSERT_EQ(0, pci_driver_bind(driver, info.bus_addr, false));
	AWAIT(NICTL_EVENT_UNREGISTERED, info.ifindex, NOW_MS);
	EXPECT_STREQ("vnode1", self->ev.dev.ifname);
	EXPECT_STREQ(info.bus_addr, self->ev.dev.bus_addr);
	EXPECT_STREQ("virtio_net", self->ev.dev.driver);
	ASSERT_EQ(6U, self->ev.dev.perm_addr_len);
	memcpy(mac, self->ev.dev.perm_addr, sizeof(mac));

	ASSERT_EQ(0, pci_driver_bind(driver, info.bus_addr, true));
	AWAIT(NICTL_EVENT_REGISTERED, 0, NOW_MS);
	EXPECT_STREQ(info.bus_addr, self->ev.dev.bus_addr);
	EXPECT_STREQ("virtio_net", self->ev.dev.driver);
	EXPECT_EQ(0, memcmp(mac, self->ev.dev.perm_addr, sizeof(mac)));
	EXPECT_EQ(info.numa_node, self->ev.dev.numa_node);
	EXPECT_NE(info.ifindex, self->ev.dev.ifindex);
	new_ifindex = self->ev.dev.ifindex;

	ASSERT_EQ(0, netdev_revive(info.pci_path, driver, "vnode1"));
	AWAIT(NICTL_EVENT_RENAMED, new_ifindex, NOW_MS);
	EXPECT_STREQ("vnode1", self->ev.dev.ifname);
	AWAIT(NICTL_EVENT_UP, new_ifindex, NOW_MS);
	ASSERT_EQ(0, netdev_info("vnode1", &info));
	EXPECT_TRUE(describes(&self->ev, "vnode1", &info, true));
	EXPECT_EQ(0U, self->l.gaps);
}

/*
 * Start `nictlctl monitor @args` and take vnode0 down and up until its
 * output shows it listens: 0 with @out emptied, or -errno. What the probe
 * printed is no test's to judge: a slow monitor may have joined the group
 * between the down and the up and printed only the up.
 */
static int start_monitor(struct spawned *mon, const char *const *args, char *out)
{
	int round, ret;

	out[0] = '\0';
	ret = spawn_ctl(mon, args);
	for (round = 0; !ret && round < 20 && !strstr(out, "vnode0"); round++) {
		ret = netdev_set_up("vnode0", false) ?: netdev_set_up("vnode0", true);
		while (!ret && read_more(mon->out, out, MON_OUT_LEN, 1000) > 0)
			;
	}
	if (!ret && !strstr(out, "vnode0"))
		ret = -ETIMEDOUT;
	out[0] = '\0';
	return ret;
}

/* Read @mon's output until it contains @what, for up to @ms. */
static bool prints(struct spawned *mon, char *out, const char *what, int ms)
{
	int waited;

	for (waited = 0; !strstr(out, what) && waited < ms; waited += 200)
		if (read_more(mon->out, out, MON_OUT_LEN, 200) < 0)
			break;
	if (!strstr(out, what))
		fprintf(stderr, "# monitor did not print '%s' in %d ms; it printed:\n%s", what,
			ms, out);
	return strstr(out, what);
}

/*
 * One JSON object per line, each an event with its sequence number, kind
 * and device: jq reads every line and prints one line per object.
 */
static bool json_lines(const char *out)
{
	struct run_result *r = malloc(sizeof(*r));
	bool ok;

	if (!r)
		return false;
	ok = !run_jq(r, out, "if type == \"object\" and (.seq | type) == \"number\" and "
		     "(.event | type) == \"string\" and (.ifname | type) == \"string\" "
		     "then .seq else error(\"not an event\") end") &&
	     count_lines(r->out) == count_lines(out);
	if (!ok)
		fprintf(stderr, "# monitor -j printed:\n%s# jq: %s%s", out, r->out, r->err);
	free(r);
	return ok;
}

TEST_F_TIMEOUT(events, monitor_json_reaches_a_pipe_at_once, 300)
{
	const char *const args[] = { "monitor", "-j", NULL };
	struct spawned mon;
	char *out = calloc(1, MON_OUT_LEN);

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, start_monitor(&mon, args, out));
	/* 6.1 renames only a device that is down. */
	ASSERT_EQ(0, netdev_set_up("vnode0", false));
	ASSERT_EQ(0, netdev_rename("vnode0", RENAMED));
	/* Printed while the monitor keeps running: flushed per event. */
	EXPECT_TRUE(prints(&mon, out, "\"old_ifname\":\"vnode0\"", NOW_MS));
	ASSERT_EQ(0, netdev_rename(RENAMED, "vnode0"));
	EXPECT_TRUE(prints(&mon, out, "\"old_ifname\":\"" RENAMED "\"", NOW_MS));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	EXPECT_EQ(0, spawn_stop(&mon, SIGINT, 10000));
	EXPECT_TRUE(json_lines(out));
	free(out);
}

TEST_F_TIMEOUT(events, monitor_text_and_sigterm, 300)
{
	const char *const args[] = { "monitor", NULL };
	struct spawned mon;
	char *out = calloc(1, MON_OUT_LEN);

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, start_monitor(&mon, args, out));
	ASSERT_EQ(0, netdev_set_up("vnode0", false));
	EXPECT_TRUE(prints(&mon, out, " down vnode0", NOW_MS));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	EXPECT_TRUE(prints(&mon, out, " up vnode0", NOW_MS));
	EXPECT_EQ(0, spawn_stop(&mon, SIGTERM, 10000));
	free(out);
}

/* Read @mon's stderr into @err until it contains @what, for up to @ms. */
static bool says(struct spawned *mon, char *err, size_t len, const char *what, int ms)
{
	int waited;

	for (waited = 0; !strstr(err, what) && waited < ms; waited += 200)
		if (read_more(mon->err, err, len, 200) < 0)
			break;
	if (!strstr(err, what))
		fprintf(stderr, "# monitor did not say '%s'; its stderr: %s\n", what, err);
	return strstr(err, what);
}

/*
 * A monitor that stops reading loses events to its full socket: it says
 * so, says how many the sequence numbers show lost, and carries on.
 */
TEST_F_TIMEOUT(events, monitor_reports_lost_events, 600)
{
	const char *const args[] = { "monitor", NULL };
	char *out = calloc(1, MON_OUT_LEN), err[RUN_ERR_LEN] = "";
	struct spawned mon;
	int i;

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, read_str(RMEM_MAX_PATH, self->rmem_max, sizeof(self->rmem_max)));
	TH_LOG("rmem_max %s, set to %s for the test", self->rmem_max, RMEM_MAX);
	ASSERT_EQ(0, write_str(RMEM_MAX_PATH, RMEM_MAX));
	ASSERT_EQ(0, start_monitor(&mon, args, out));
	/* Our own listener would overrun too: it has nothing to say here. */
	nictl_unlisten(&self->l);
	ASSERT_EQ(0, kill(mon.pid, SIGSTOP));
	/* Far more than the socket holds (rmem_max caps its buffer). */
	for (i = 0; i < OVERRUN_TOGGLES; i++)
		ASSERT_EQ(0, netdev_set_up("vnode0", i % 2));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	ASSERT_EQ(0, kill(mon.pid, SIGCONT));
	EXPECT_TRUE(says(&mon, err, sizeof(err), "events lost: socket overrun", NOW_MS));
	/* It carries on: what the socket held, then the next event. */
	out[0] = '\0';
	while (read_more(mon.out, out, MON_OUT_LEN, 500) > 0)
		out[0] = '\0';
	ASSERT_EQ(0, netdev_set_up("vnode0", false));
	EXPECT_TRUE(prints(&mon, out, " down vnode0", NOW_MS));
	/* Which comes after the gap: "events lost: N (seq A to B)". */
	EXPECT_TRUE(says(&mon, err, sizeof(err), " (seq ", NOW_MS));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	EXPECT_EQ(0, spawn_stop(&mon, SIGINT, 10000));
	free(out);
}

/* The module going away ends the monitor with a failure that says so. */
TEST_F_TIMEOUT(events, monitor_fails_when_the_module_goes, 300)
{
	const char *const args[] = { "monitor", NULL };
	struct spawned mon;
	char *out = calloc(1, MON_OUT_LEN), err[RUN_ERR_LEN] = "";

	ASSERT_NE(NULL, out);
	ASSERT_EQ(0, start_monitor(&mon, args, out));
	nictl_unlisten(&self->l);
	nl_close(&self->env.nl);
	ASSERT_EQ(0, nictl_module_unload());
	EXPECT_TRUE(says(&mon, err, sizeof(err), "module nictl was unloaded", 10000));
	EXPECT_EQ(1, spawn_stop(&mon, 0, 10000));
	free(out);
}

NICTL_TEST_MAIN
