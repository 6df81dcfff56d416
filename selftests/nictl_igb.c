// SPDX-License-Identifier: GPL-2.0
/*
 * A real Intel server NIC driver: igb0, the guest's 82576 on node 1 (igb,
 * 8 queue pairs), and the SR-IOV virtual functions made on it in the guest
 * (igbvf). A bind of all its queues, all or nothing, the accounting of
 * each, and --numa-local when node 1 has too few cores; each VF a device of
 * its own,
 * whose binding never touches the PF's IRQs nor the other way round;
 * sriov_numvfs changes and VF driver rebinds as events; a PF binding after
 * its driver re-requested its vectors for the VFs (and handed the freed IRQ
 * numbers to them): it claims none of the VFs' IRQs, and `show` flags every
 * IRQ that is off its target; the daemon's rules by driver and by a VF's
 * PCI address; a VF moved into a network namespace, bound from the initial
 * one, and the daemon's rule for the namespace following it in and out.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "events.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "stats.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

#define PF		"igb0"
#define VF_DRIVER	"igbvf"
#define N_VFS		2
/* igb's queue pairs with VFs on an 82576 (its RSS limit with SR-IOV). */
#define PF_QUEUES_WITH_VFS	2
/* A device event comes at once, a queue change within the watch's period. */
#define EVENT_MS	10000
#define CONF		"/tmp/nictl-igb.conf"
#define DAEMON_LOG	"/tmp/nictl-igb-daemon.log"
/* The namespace a VF is moved into, as a container platform does. */
#define VF_NETNS	"nictl-vf"

FIXTURE(igb) {
	struct test_env env;
	struct netdev_info pf;
	unsigned int pf_queues;		/* without VFs */
	unsigned int n_vfs;		/* made by the test */
	char vf[N_VFS][IFNAMSIZ];
	char vf_path[N_VFS][PATH_MAX];
	char vf_bdf[N_VFS][64];
	/* The VFs' names, NULL-terminated, for traffic_burst(). */
	const char *vf_names[N_VFS + 1];
	struct nl_result res;
	pid_t daemon;
	bool netns;		/* VF_NETNS exists */
};

static int set_numvfs(const struct netdev_info *pf, unsigned int n)
{
	char path[PATH_MAX], val[16];

	snprintf(val, sizeof(val), "%u", n);
	return pathf(path, sizeof(path), "%s/sriov_numvfs", pf->pci_path) ?: write_str(path, val);
}

/*
 * Give the PF @n VFs (none first: the kernel refuses to change a non-zero
 * count), each named igbvfK and up with its IRQs requested: 0 or -errno.
 */
static int make_vfs(FIXTURE_DATA(igb) *self, unsigned int n)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret;

	ret = set_numvfs(&self->pf, 0) ?: set_numvfs(&self->pf, n);
	self->n_vfs = ret ? 0 : n;
	for (i = 0; !ret && i < n; i++) {
		snprintf(self->vf[i], sizeof(self->vf[i]), "igbvf%u", i);
		self->vf_names[i] = self->vf[i];
		self->vf_names[i + 1] = NULL;
		ret = pathf(path, sizeof(path), "%s/virtfn%u", self->pf.pci_path, i) ?:
		      (realpath(path, self->vf_path[i]) ? 0 : -errno) ?:
		      link_basename(path, self->vf_bdf[i], sizeof(self->vf_bdf[i])) ?:
		      netdev_revive(self->vf_path[i], VF_DRIVER, self->vf[i]);
	}
	if (ret)
		fprintf(stderr, "# making %u VFs of %s: %s\n", n, PF, strerror(-ret));
	return ret;
}

FIXTURE_SETUP(igb)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info(PF, &self->pf));
	ASSERT_STREQ("igb", self->pf.driver);
	ASSERT_EQ(1, self->pf.numa_node);
	self->pf_queues = self->pf.rx_queues;
	/* More queues than node 1 has cores: what the tests below are about. */
	ASSERT_LT(2U, self->pf_queues);
	self->n_vfs = 0;
	self->daemon = 0;
	self->netns = false;
}

FIXTURE_TEARDOWN(igb)
{
	struct netdev_info now;

	if (self->daemon)
		EXPECT_EQ(0, daemon_stop(self->daemon));
	EXPECT_EQ(0, set_numvfs(&self->pf, 0));
	if (self->netns)
		EXPECT_EQ(0, SH("ip", "netns", "del", VF_NETNS));
	EXPECT_EQ(0, netdev_info(PF, &now));
	EXPECT_EQ(self->pf_queues, now.rx_queues) TH_LOG("%s did not get its queues back", PF);
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* @dev's IRQs still have the masks @before recorded, each printed that does not. */
static bool irqs_kept(const struct nictl_dev *dev, const struct irq_snapshot *before)
{
	struct cpus now, then;
	unsigned int i, k;
	bool ok = true;

	for (i = 0; i < dev->n_irqs; i++) {
		for (k = 0; k < before->n && before->e[k].irq != dev->irqs[i].num; k++)
			;
		if (k == before->n || cpus_parse(&then, before->e[k].list) ||
		    irq_affinity(dev->irqs[i].num, &now, NULL) || !cpus_equal(&now, &then)) {
			fprintf(stderr, "# %s IRQ %u: mask changed from %s\n", dev->ifname,
				dev->irqs[i].num, k < before->n ? before->e[k].list : "(none)");
			ok = false;
		}
	}
	return ok;
}

/* No IRQ of @a is one of @b's. */
static bool disjoint(const struct nictl_dev *a, const struct nictl_dev *b)
{
	unsigned int i;
	bool ok = true;

	for (i = 0; i < a->n_irqs; i++) {
		if (nictl_dev_irq(b, a->irqs[i].num)) {
			fprintf(stderr, "# IRQ %u is listed for both %s and %s\n", a->irqs[i].num,
				a->ifname, b->ifname);
			ok = false;
		}
	}
	return ok;
}

static void one_cpu(struct cpus *s, unsigned int cpu)
{
	cpus_zero(s);
	cpus_set(s, cpu);
}

/* Bind @ifname to @cpus, SMT siblings allowed: 0 or -errno. */
static int bind_to(FIXTURE_DATA(igb) *self, const char *ifname, const struct cpus *cpus,
		   struct nictl_dev *reply)
{
	struct nictl_bind_args args = { .ifname = ifname, .cpus = cpus };
	int ret = nictl_bind(&self->env.nl, &args, reply, &self->res);

	if (ret)
		fprintf(stderr, "# bind %s: %s (%s)\n", ifname, strerror(-ret), self->res.msg);
	return ret;
}

/* All 8 queue pairs on the 8 CPUs, then back to where they were. */
TEST_F_TIMEOUT(igb, bind_of_every_queue_and_restore, 300)
{
	struct nictl_dev reply, now;
	struct cpus online;

	ASSERT_EQ(0, sys_online_cpus(&online));
	ASSERT_LE(self->pf_queues, cpus_count(&online));
	ASSERT_EQ(0, bind_to(self, PF, &online, &reply));
	EXPECT_EQ(self->pf_queues, reply.n_irqs);
	EXPECT_TRUE(placement_ok(&reply, &online, false));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &now, &self->res));
	EXPECT_TRUE(same_targets(&reply, &now));
	EXPECT_TRUE(dev_matches_proc(&now));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, PF, &reply, &self->res)) TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(dev_unbound(&reply));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/*
 * igb frees its IRQs at down and requests the same ones at up, their masks
 * kept. A restore while it is down either puts them back (a kernel whose
 * NAPI links still name them) or is refused with what to do, the binding
 * kept; up again, the restore puts back what the bind moved.
 */
TEST_F_TIMEOUT(igb, restore_of_a_down_port, 300)
{
	struct nictl_dev reply;
	struct cpus online;
	int ret;

	ASSERT_EQ(0, sys_online_cpus(&online));
	ASSERT_EQ(0, bind_to(self, PF, &online, &reply));
	ASSERT_EQ(0, netdev_set_up(PF, false));
	ret = nictl_restore(&self->env.nl, PF, &reply, &self->res);
	TH_LOG("restore of %s while down: %s (%s)", PF, strerror(-ret), self->res.msg);
	if (ret) {
		EXPECT_EQ(-ENOENT, ret);
		EXPECT_NE(NULL, strstr(self->res.msg, "is down and its driver freed its IRQs"));
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &reply, &self->res));
		EXPECT_TRUE(reply.dev_flags & NICTL_DEV_F_BOUND);
	}
	ASSERT_EQ(0, netdev_set_up(PF, true));
	if (ret)
		ASSERT_EQ(0, nictl_restore(&self->env.nl, PF, &reply, &self->res))
			TH_LOG("%s", self->res.msg);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/*
 * All or nothing on igb: with the k-th affinity write failing, for every k
 * up to its number of queue IRQs (each starts on all of node 1, so each
 * is written), a bind of every queue is refused and leaves every IRQ as
 * it was; with no fault, it binds.
 */
TEST_F_TIMEOUT(igb, bind_rolls_back_at_every_write, 600)
{
	struct nictl_bind_args args = { .ifname = PF };
	struct nictl_dev dev, reply;
	struct cpus online;
	unsigned int k;

	ASSERT_EQ(0, sys_online_cpus(&online));
	args.cpus = &online;
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &dev, &self->res));
	for (k = 1; k <= dev.n_irqs; k++) {
		ASSERT_EQ(0, nictl_set_fault(k));
		EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &reply, &self->res),
				    &self->res, EIO, false, &self->env.snap))
			TH_LOG("with write %u failing", k);
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &reply, &self->res));
		EXPECT_TRUE(dev_unbound(&reply));
	}
	ASSERT_EQ(0, nictl_set_fault(0));
	ASSERT_EQ(0, bind_to(self, PF, &online, &reply));
	EXPECT_TRUE(placement_ok(&reply, &online, false));
}

/*
 * The accounting per queue: each queue pair on a CPU of its own, traffic
 * into igb0 from the other NICs; the packets its NAPIs counted are its
 * rx_packets, and each queue was polled on its IRQ's CPU alone.
 */
TEST_F_TIMEOUT(igb, each_queue_is_polled_where_its_irq_is, 600)
{
	const unsigned int cpus[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const char *const senders[] = { "vnode1", "vnode0", "e1k", NULL };
	struct nictl_napis *napis = calloc(2, sizeof(*napis));
	const struct nictl_napi *napi;
	struct nictl_dev dev, reply;
	unsigned int i, polled = 0;
	uint64_t rx[2];
	struct cpus want;

	ASSERT_NE(NULL, napis);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &dev, &self->res));
	ASSERT_EQ(0, bind_queues(&self->env.nl, &dev, cpus, ARRAY_SIZE(cpus), &reply));
	ASSERT_TRUE(irqs_moved(&self->env.nl, &reply));
	ASSERT_EQ(0, rx_settle(PF));
	ASSERT_EQ(0, nictl_stats_reset(&self->env.nl, &self->res)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, netdev_rx_packets(PF, &rx[0]));
	ASSERT_EQ(0, nictl_napi_get(&self->env.nl, PF, &napis[0], &self->res));
	ASSERT_EQ(0, traffic_burst(senders));
	ASSERT_EQ(0, rx_settle(PF));
	ASSERT_EQ(0, netdev_rx_packets(PF, &rx[1]));
	ASSERT_EQ(0, nictl_napi_get(&self->env.nl, PF, &napis[1], &self->res));

	EXPECT_LE(100U, rx[1] - rx[0]) TH_LOG("too little traffic arrived to compare");
	EXPECT_TRUE(counts_agree("packets igb0's NAPIs counted, against rx_packets",
				 napis_packets(&napis[1]) - napis_packets(&napis[0]),
				 rx[1] - rx[0]));
	ASSERT_EQ(self->pf_queues, napis[1].n);
	for (i = 0; i < reply.n_irqs; i++) {
		napi = napis_queue(&napis[1], reply.irqs[i].queue);
		ASSERT_NE(NULL, napi) TH_LOG("no NAPI serves queue %u", reply.irqs[i].queue);
		one_cpu(&want, reply.irqs[i].target_cpu);
		EXPECT_TRUE(cpus_subset(&napi->cpus, &want))
			TH_LOG("queue %u polled outside CPU %u, where its IRQ %u is", napi->queue,
			       reply.irqs[i].target_cpu, reply.irqs[i].num);
		polled += cpus_count(&napi->cpus) > 0;
	}
	/* RSS spread the flows: more than one queue, or nothing was shown. */
	EXPECT_LE(2U, polled);
	free(napis);
}

/*
 * Every queue IRQ of @dev is on one CPU of @cpus, as /proc shows it, and the
 * queues are spread evenly: no CPU has two more than another.
 */
static bool shared_evenly(const struct nictl_dev *dev, const struct cpus *cpus)
{
	unsigned int per_cpu[CPUS_MAX] = { 0 }, lo = ~0U, hi = 0, i;
	const struct nictl_irq *irq;
	struct cpus mask;
	int cpu;

	for (i = 0; i < dev->n_irqs; i++) {
		irq = &dev->irqs[i];
		if (!(irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU)) ||
		    !cpus_test(cpus, irq->target_cpu) || irq_affinity(irq->num, &mask, NULL) ||
		    cpus_count(&mask) != 1 || !cpus_test(&mask, irq->target_cpu)) {
			fprintf(stderr, "# %s IRQ %u is not on one CPU of the set\n", dev->ifname,
				irq->num);
			return false;
		}
		per_cpu[irq->target_cpu]++;
	}
	for_each_cpu(cpu, cpus) {
		lo = per_cpu[cpu] < lo ? per_cpu[cpu] : lo;
		hi = per_cpu[cpu] > hi ? per_cpu[cpu] : hi;
	}
	if (hi > lo + 1)
		fprintf(stderr, "# %s: %u queue IRQs on one CPU, %u on another\n", dev->ifname,
			hi, lo);
	return hi <= lo + 1;
}

/*
 * Node 1 has 2 cores for 8 queues: one core per queue is refused, by the
 * kernel and by nictlctl, naming both numbers and changing nothing; with
 * siblings allowed the queues share its CPUs, each queue on one.
 */
TEST_F_TIMEOUT(igb, numa_local_with_too_few_cores, 300)
{
	struct nictl_bind_args args = {
		.ifname = PF,
		.flags = NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE,
	};
	struct run_result *r = malloc(sizeof(*r));
	struct nictl_dev reply, now;
	struct cpus node;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, node_cpus(1, &node));
	args.cpus = &node;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &reply, &self->res), &self->res,
			    EINVAL, true, &self->env.snap));
	EXPECT_TRUE(mentions_number(self->res.msg, self->pf_queues) &&
		    mentions_number(self->res.msg, 2)) TH_LOG("extack: '%s'", self->res.msg);

	EXPECT_EQ(1, run_ctl(r, false, NULL, (const char *const []){ "bind", PF, "--numa-local",
								    NULL }));
	EXPECT_TRUE(one_line_error(r, "--allow-siblings"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));

	ASSERT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "bind", PF, "--numa-local",
								    "--allow-siblings", NULL }));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &now, &self->res));
	EXPECT_TRUE(now.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(dev_matches_proc(&now));
	EXPECT_TRUE(shared_evenly(&now, &node));
	free(r);
}

/*
 * Each VF is a netdev of its own: igbvf, its PCI function, the PF's node,
 * its own rx and tx vector; the PF now runs 2 queue pairs on fewer vectors.
 * No IRQ is listed for two of them.
 */
TEST_F_TIMEOUT(igb, vfs_are_devices_of_their_own, 300)
{
	struct nictl_dev *dev = calloc(N_VFS + 1, sizeof(*dev));
	struct netdev_info info;
	unsigned int i, j;

	ASSERT_NE(NULL, dev);
	ASSERT_EQ(0, make_vfs(self, N_VFS));
	ASSERT_EQ(0, netdev_info(PF, &info));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &dev[N_VFS], &self->res));
	EXPECT_EQ((unsigned int)PF_QUEUES_WITH_VFS, dev[N_VFS].rx_queues);
	EXPECT_TRUE(queue_irqs_match_proc(&dev[N_VFS], info.irq_prefix));
	EXPECT_TRUE(dev_matches_proc(&dev[N_VFS]));
	for (i = 0; i < N_VFS; i++) {
		ASSERT_EQ(0, netdev_info(self->vf[i], &info));
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, self->vf[i], &dev[i], &self->res))
			TH_LOG("%s: %s", self->vf[i], self->res.msg);
		EXPECT_STREQ(VF_DRIVER, dev[i].driver);
		EXPECT_STREQ(self->vf_bdf[i], dev[i].bus_addr);
		EXPECT_EQ(self->pf.numa_node, dev[i].numa_node);
		EXPECT_EQ(2U, dev[i].n_irqs);
		EXPECT_TRUE(queue_irqs_match_proc(&dev[i], info.irq_prefix));
		EXPECT_TRUE(dev_matches_proc(&dev[i]));
		EXPECT_TRUE(dev_unbound(&dev[i]));
		for (j = 0; j < i; j++)
			EXPECT_TRUE(disjoint(&dev[i], &dev[j]));
		EXPECT_TRUE(disjoint(&dev[i], &dev[N_VFS]));
	}
	free(dev);
}

/*
 * A VF bound to one CPU leaves the PF's and the other VF's IRQs where they
 * were; the PF bound next leaves the VFs'; restoring the VF leaves the PF
 * bound.
 */
TEST_F_TIMEOUT(igb, pf_and_vf_bindings_leave_each_other_alone, 300)
{
	struct nictl_dev pf, vf0, vf1, reply, now;
	struct irq_snapshot *before = malloc(sizeof(*before));
	struct cpus cpu5, pf_cpus;

	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, make_vfs(self, N_VFS));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &pf, &self->res));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, self->vf[1], &vf1, &self->res));
	ASSERT_EQ(0, irq_snapshot_take(before));

	one_cpu(&cpu5, 5);
	ASSERT_EQ(0, bind_to(self, self->vf[0], &cpu5, &vf0));
	/* The suite's traffic goes out of its NICs: a VF's tx IRQ fires on its own. */
	ASSERT_EQ(0, traffic_burst(self->vf_names));
	EXPECT_TRUE(placement_ok(&vf0, &cpu5, false));
	EXPECT_TRUE(irqs_kept(&pf, before));
	EXPECT_TRUE(irqs_kept(&vf1, before));

	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, cpus_parse(&pf_cpus, "6-7"));
	ASSERT_EQ(0, bind_to(self, PF, &pf_cpus, &reply));
	EXPECT_TRUE(masks_placed(&reply, &pf_cpus, false));
	EXPECT_TRUE(irqs_kept(&vf0, before));
	EXPECT_TRUE(irqs_kept(&vf1, before));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, self->vf[0], &now, &self->res));
	EXPECT_TRUE(now.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(same_targets(&vf0, &now));

	ASSERT_EQ(0, nictl_restore(&self->env.nl, self->vf[0], &now, &self->res));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &now, &self->res));
	EXPECT_TRUE(now.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(same_targets(&reply, &now));
	EXPECT_TRUE(dev_matches_proc(&now));
	free(before);
}

/*
 * A VF moved into a network namespace, as a pod gets one, is bound with
 * --numa-local and restored from the initial namespace (nictlctl -n): on
 * the PF's node, its reply naming the namespace; the PF's IRQs stay.
 */
TEST_F_TIMEOUT(igb, vf_in_a_namespace, 300)
{
	struct irq_snapshot *before = malloc(sizeof(*before));
	struct run_result *r = malloc(sizeof(*r));
	struct nictl_dev pf, vf;
	struct cpus node1;
	int fd;

	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, node_cpus(self->pf.numa_node, &node1));
	ASSERT_EQ(0, make_vfs(self, 1));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &pf, &self->res));
	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, SH("ip", "netns", "add", VF_NETNS));
	self->netns = true;
	ASSERT_EQ(0, SH("ip", "link", "set", self->vf[0], "netns", VF_NETNS));
	ASSERT_EQ(0, SH("ip", "-n", VF_NETNS, "link", "set", self->vf[0], "up"));
	fd = open("/run/netns/" VF_NETNS, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "-n", VF_NETNS, "bind",
			     self->vf[0], "--numa-local", NULL })) TH_LOG("%s", r->err);
	ASSERT_EQ(0, nictl_dev_get_in(&self->env.nl, self->vf[0], fd, &vf, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_STREQ(VF_DRIVER, vf.driver);
	EXPECT_TRUE(vf.present & ATTR_BIT(NICTL_A_NETNS_ID));
	EXPECT_TRUE(vf.dev_flags & NICTL_DEV_F_BOUND);
	/* A VF's tx queue does not fire with the suite's traffic: judge the masks. */
	EXPECT_TRUE(masks_placed(&vf, &node1, true));
	EXPECT_TRUE(irqs_kept(&pf, before));

	ASSERT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "-n", VF_NETNS, "restore",
			     self->vf[0], NULL })) TH_LOG("%s", r->err);
	EXPECT_EQ(0, irq_snapshot_changes(before));
	close(fd);
	free(r);
	free(before);
}

/*
 * Wait for the daemon's bind of VF @ifindex in VF_NETNS (@in) or in the
 * initial namespace, and judge its masks against @node's CPUs (a VF's tx
 * queue does not fire with the suite's traffic).
 */
static bool daemon_bound_vf(FIXTURE_DATA(igb) *self, struct nictl_listener *l,
			    uint32_t ifindex, bool in, int node)
{
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	struct cpus allowed;
	bool ok = false;

	allowed_cpus(node, &allowed);
	if (ev && nictl_wait_bound(l, ifindex, in, DAEMON_WAIT_S * 1000, ev) == 1)
		ok = masks_placed(&ev->dev, &allowed, true);
	if (!ok)
		fprintf(stderr, "# no bind of %s %s by the daemon onto node %d\n", self->vf[0],
			in ? "in " VF_NETNS : "in the initial namespace", node);
	free(ev);
	return ok;
}

/* Move VF 0 into VF_NETNS (@in) or back, and bring it up there. */
static int move_vf(FIXTURE_DATA(igb) *self, bool in)
{
	if (in)
		return SH("ip", "link", "set", self->vf[0], "netns", VF_NETNS) ?:
		       SH("ip", "-n", VF_NETNS, "link", "set", self->vf[0], "up");
	return SH("ip", "-n", VF_NETNS, "link", "set", self->vf[0], "netns", "1") ?:
	       SH("ip", "link", "set", self->vf[0], "up");
}

/*
 * The daemon follows a VF handed to a pod and back: the pod's rule (node
 * 1) while it is in VF_NETNS, the host's (node 0) when it is out, the
 * pod's again when it goes back in.
 */
TEST_F_TIMEOUT(igb, daemon_follows_the_vf_in_and_out, 600)
{
	struct nictl_listener l;
	uint32_t ifindex;

	ASSERT_EQ(0, make_vfs(self, 1));
	ifindex = if_nametoindex(self->vf[0]);
	ASSERT_NE(0, ifindex);
	ASSERT_EQ(0, SH("ip", "netns", "add", VF_NETNS));
	self->netns = true;
	ASSERT_EQ(0, write_file(CONF, "[rule pod]\nmatch-netns = " VF_NETNS "\n"
				"match-driver = " VF_DRIVER "\ncpus = node 1\n\n"
				"[rule host]\nmatch-driver = " VF_DRIVER "\ncpus = node 0\n"));
	/* The daemon's binds in the namespace are heard in the audit group. */
	ASSERT_EQ(0, nictl_listen_group(&l, NICTL_MCGRP_AUDIT));
	unlink(DAEMON_LOG);
	self->daemon = daemon_start(CONF, DAEMON_LOG);
	ASSERT_LT(0, self->daemon);
	EXPECT_TRUE(daemon_bound_vf(self, &l, ifindex, false, 0));
	ASSERT_EQ(0, move_vf(self, true));
	EXPECT_TRUE(daemon_bound_vf(self, &l, ifindex, true, 1));
	ASSERT_EQ(0, move_vf(self, false));
	EXPECT_TRUE(daemon_bound_vf(self, &l, ifindex, false, 0));
	ASSERT_EQ(0, move_vf(self, true));
	EXPECT_TRUE(daemon_bound_vf(self, &l, ifindex, true, 1));
	nictl_unlisten(&l);
	EXPECT_EQ(0, daemon_stop(self->daemon));
	self->daemon = 0;
	daemon_dump_log(DAEMON_LOG, NULL);
	/* The daemon's binds are sticky: the next VF on this function must start unbound. */
	EXPECT_EQ(0, SH(getenv("NICTL_CTL"), "-n", VF_NETNS, "restore", self->vf[0]));
}

/* An event a test waits for: of @type, about @ifindex or, when 0, @bus_addr. */
struct wanted {
	uint32_t type;
	uint32_t ifindex;
	const char *bus_addr;
	bool seen;
	struct nictl_event_msg ev;
};

/*
 * Read events until each of @want[@n] came, in any order, or EVENT_MS went
 * by without one: whether all came (those that did not are printed).
 */
static bool events_came(struct nictl_listener *l, struct wanted *want, unsigned int n)
{
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	unsigned int i, left = n;
	bool match;

	while (ev && left && nictl_next_event(l, ev, EVENT_MS) == 1) {
		for (i = 0; i < n; i++) {
			match = !want[i].seen && ev->type == want[i].type &&
				(want[i].ifindex ? ev->dev.ifindex == want[i].ifindex :
						   !strcmp(ev->dev.bus_addr, want[i].bus_addr));
			if (match) {
				want[i].seen = true;
				want[i].ev = *ev;
				left--;
				break;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (!want[i].seen)
			fprintf(stderr, "# no event %u about ifindex %u / %s\n", want[i].type,
				want[i].ifindex, want[i].bus_addr ?: "-");
	free(ev);
	return !left;
}

/*
 * sriov_numvfs 2: each VF registers, as an igbvf device at its PCI address,
 * and the PF's queues change from 8 to 2; back to 0: each VF unregisters and
 * the PF has its 8 queues again.
 */
TEST_F_TIMEOUT(igb, numvfs_changes_are_events, 300)
{
	struct wanted *w = calloc(N_VFS + 1, sizeof(*w));
	struct nictl_listener l;
	struct netdev_info info[N_VFS];
	unsigned int i;

	ASSERT_NE(NULL, w);
	ASSERT_EQ(0, nictl_listen(&l));
	ASSERT_EQ(0, make_vfs(self, N_VFS));
	for (i = 0; i < N_VFS; i++) {
		w[i] = (struct wanted){ .type = NICTL_EVENT_REGISTERED, .bus_addr = self->vf_bdf[i] };
		ASSERT_EQ(0, netdev_info(self->vf[i], &info[i]));
	}
	w[N_VFS] = (struct wanted){ .type = NICTL_EVENT_QUEUES_CHANGED, .ifindex = self->pf.ifindex };
	EXPECT_TRUE(events_came(&l, w, N_VFS + 1));
	for (i = 0; i < N_VFS; i++)
		if (w[i].seen)
			EXPECT_STREQ(VF_DRIVER, w[i].ev.dev.driver);
	if (w[N_VFS].seen) {
		EXPECT_EQ((unsigned int)PF_QUEUES_WITH_VFS, w[N_VFS].ev.dev.rx_queues);
		EXPECT_EQ(self->pf_queues, w[N_VFS].ev.old_rx_queues);
	}

	memset(w, 0, (N_VFS + 1) * sizeof(*w));
	ASSERT_EQ(0, set_numvfs(&self->pf, 0));
	for (i = 0; i < N_VFS; i++)
		w[i] = (struct wanted){ .type = NICTL_EVENT_UNREGISTERED, .ifindex = info[i].ifindex };
	w[N_VFS] = (struct wanted){ .type = NICTL_EVENT_QUEUES_CHANGED, .ifindex = self->pf.ifindex };
	EXPECT_TRUE(events_came(&l, w, N_VFS + 1));
	for (i = 0; i < N_VFS; i++)
		if (w[i].seen)
			EXPECT_STREQ(self->vf[i], w[i].ev.dev.ifname);
	if (w[N_VFS].seen)
		EXPECT_EQ(self->pf_queues, w[N_VFS].ev.dev.rx_queues);
	nictl_unlisten(&l);
	free(w);
}

/* Unbinding a VF's driver unregisters it; binding it again registers it. */
TEST_F_TIMEOUT(igb, vf_driver_rebind_is_events, 300)
{
	struct wanted w = { .type = NICTL_EVENT_UNREGISTERED };
	struct nictl_listener l;
	struct netdev_info info;

	ASSERT_EQ(0, make_vfs(self, 1));
	ASSERT_EQ(0, netdev_info(self->vf[0], &info));
	ASSERT_EQ(0, nictl_listen(&l));
	w.ifindex = info.ifindex;
	ASSERT_EQ(0, pci_driver_bind(VF_DRIVER, self->vf_bdf[0], false));
	EXPECT_TRUE(events_came(&l, &w, 1));
	EXPECT_STREQ(self->vf[0], w.ev.dev.ifname);

	w = (struct wanted){ .type = NICTL_EVENT_REGISTERED, .bus_addr = self->vf_bdf[0] };
	ASSERT_EQ(0, pci_driver_bind(VF_DRIVER, self->vf_bdf[0], true));
	EXPECT_TRUE(events_came(&l, &w, 1));
	EXPECT_STREQ(VF_DRIVER, w.ev.dev.driver);
	nictl_unlisten(&l);
	EXPECT_EQ(0, netdev_revive(self->vf_path[0], VF_DRIVER, self->vf[0]));
}

/*
 * `nictlctl show -j` of @ifname flags exactly the IRQs with a target that
 * their mask in /proc is not that CPU alone.
 */
static bool off_target_flagged(const char *ifname)
{
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	unsigned int irq, off, n = 0;
	int target, pos = 0, len;
	struct cpus mask;
	bool ok, want;

	ok = r && jq && !run_ctl(r, false, NULL, (const char *const []){ "show", "-j", ifname,
									NULL }) &&
	     !run_jq(jq, r->out, ".[0].irqs[] | \"\\(.irq) \\(.target_cpu // -1) "
			 "\\(if .off_target then 1 else 0 end)\"");
	while (ok && sscanf(jq->out + pos, " %u %d %u%n", &irq, &target, &off, &len) == 3) {
		pos += len;
		n++;
		ok = !irq_affinity(irq, &mask, NULL);
		want = ok && target >= 0 && (cpus_count(&mask) != 1 || !cpus_test(&mask, target));
		if (ok && want != !!off) {
			fprintf(stderr, "# %s IRQ %u: target %d, mask %s, shown %s off-target\n",
				ifname, irq, target, want ? "elsewhere" : "on it", off ? "as" : "not as");
			ok = false;
		}
	}
	if (!n)
		fprintf(stderr, "# no IRQ of %s in nictlctl show -j\n", ifname);
	free(r);
	free(jq);
	return ok && n;
}

/*
 * The field report: igb0 bound, then VFs made. igb re-requests its vectors
 * (fewer now) and the IRQ numbers it freed go to the VFs. A listener hears
 * the PF's queues change; the VFs' IRQs are nobody's (the PF's binding
 * named some of their numbers) and bind freely; `show` flags every PF IRQ
 * its re-request moved off its target; and a new bind of the PF places it.
 */
TEST_F_TIMEOUT(igb, pf_binding_lets_go_of_what_its_vfs_took, 300)
{
	struct wanted w = { .type = NICTL_EVENT_QUEUES_CHANGED };
	struct nictl_dev *dev = calloc(3, sizeof(*dev));
	struct nictl_listener l;
	struct cpus online, cpu5, node;
	unsigned int i, reused = 0;

	ASSERT_NE(NULL, dev);
	ASSERT_EQ(0, sys_online_cpus(&online));
	ASSERT_EQ(0, bind_to(self, PF, &online, &dev[2]));
	ASSERT_EQ(0, nictl_listen(&l));
	ASSERT_EQ(0, make_vfs(self, N_VFS));
	w.ifindex = self->pf.ifindex;
	EXPECT_TRUE(events_came(&l, &w, 1));
	nictl_unlisten(&l);

	for (i = 0; i < N_VFS; i++) {
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, self->vf[i], &dev[i], &self->res));
		EXPECT_TRUE(dev_unbound(&dev[i]));
		for (unsigned int k = 0; k < dev[i].n_irqs; k++) {
			reused += !!nictl_dev_irq(&dev[2], dev[i].irqs[k].num);
			EXPECT_EQ(0U, dev[i].irqs[k].owner)
				TH_LOG("%s IRQ %u held by ifindex %u", self->vf[i],
				       dev[i].irqs[k].num, dev[i].irqs[k].owner);
		}
	}
	TH_LOG("%u VF IRQ numbers were the bound PF's before", reused);
	EXPECT_TRUE(off_target_flagged(PF));

	one_cpu(&cpu5, 5);
	ASSERT_EQ(0, bind_to(self, self->vf[0], &cpu5, &dev[0]));
	ASSERT_EQ(0, traffic_burst(self->vf_names));
	EXPECT_TRUE(placement_ok(&dev[0], &cpu5, false));
	ASSERT_EQ(0, node_cpus(1, &node));
	ASSERT_EQ(0, bind_to(self, PF, &node, &dev[2]));
	EXPECT_TRUE(queue_irqs_match_proc(&dev[2], self->pf.irq_prefix));
	EXPECT_TRUE(masks_placed(&dev[2], &node, false));
	EXPECT_TRUE(off_target_flagged(PF));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, self->vf[0], &dev[1], &self->res));
	EXPECT_TRUE(same_targets(&dev[0], &dev[1]));
	free(dev);
}

/*
 * The daemon governs VFs by PCI address and by driver, and the PF by its
 * driver (the first rule that matches wins), and does so again for the VFs
 * of a new sriov_numvfs.
 */
TEST_F_TIMEOUT(igb, daemon_rules_for_pf_and_vfs, 600)
{
	/* The suite's traffic does not go out of the VFs: their tx IRQs may not fire. */
	const struct governed vf0 = { "igbvf0", 0, 2, true, true, NULL };
	const struct governed vf1 = { "igbvf1", 1, 2, false, true, NULL };
	struct governed pf = { PF, 1, 0, false, true, NULL };
	struct nictl_dev dev;
	char conf[1024];

	ASSERT_NE(NULL, getenv("NICTL_CTL"));
	ASSERT_EQ(0, make_vfs(self, N_VFS));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, PF, &dev, &self->res));
	pf.n_irqs = dev.n_irqs;
	snprintf(conf, sizeof(conf),
		 "[rule second-vf]\nmatch-pci = %s\ncpus = numa-local\nallow-siblings = yes\n\n"
		 "[rule vfs]\nmatch-driver = igbvf\ncpus = node 0\n\n"
		 "[rule pf]\nmatch-driver = igb\ncpus = numa-local\nallow-siblings = yes\n",
		 self->vf_bdf[1]);
	ASSERT_EQ(0, write_file(CONF, conf));
	unlink(DAEMON_LOG);
	self->daemon = daemon_start(CONF, DAEMON_LOG);
	ASSERT_LT(0, self->daemon);
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vf0));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vf1));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &pf));

	ASSERT_EQ(0, make_vfs(self, N_VFS));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vf0));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vf1));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &pf));
	EXPECT_EQ(0, daemon_stop(self->daemon));
	self->daemon = 0;
	daemon_dump_log(DAEMON_LOG, NULL);
}

NICTL_TEST_MAIN
