// SPDX-License-Identifier: GPL-2.0
/*
 * Discovery: what DEV_GET reports about each guest NIC must be what the
 * kernel itself shows in /proc/interrupts, /proc/irq/N and sysfs. Also the
 * traffic those comparisons rely on to make IRQs fire: it reaches a NIC
 * that has just come up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "cpus.h"
#include "env.h"
#include "irqs.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

#define DEV_ATTRS_ALWAYS (ATTR_BIT(NICTL_A_IFINDEX) | ATTR_BIT(NICTL_A_IFNAME) | \
			  ATTR_BIT(NICTL_A_DRIVER) | ATTR_BIT(NICTL_A_BUS_ADDR) | \
			  ATTR_BIT(NICTL_A_NUMA_NODE) | ATTR_BIT(NICTL_A_RX_QUEUES) | \
			  ATTR_BIT(NICTL_A_TX_QUEUES) | ATTR_BIT(NICTL_A_DEV_FLAGS) | \
			  ATTR_BIT(NICTL_A_SOURCE))

FIXTURE(discovery) {
	struct test_env env;
	struct netdev_info info;
	struct nictl_dev dev;
};

FIXTURE_VARIANT(discovery) {
	const char *ifname;
	/* Appended to the IRQ prefix, the name of the device's misc vector. */
	const char *misc_suffix;
};

FIXTURE_VARIANT_ADD(discovery, vnode1) {
	.ifname = "vnode1",
	.misc_suffix = "-config",
};

FIXTURE_VARIANT_ADD(discovery, vnode0) {
	.ifname = "vnode0",
	.misc_suffix = "-config",
};

/* e1000e names its misc ("other") vector after the bare interface. */
FIXTURE_VARIANT_ADD(discovery, e1k) {
	.ifname = "e1k",
	.misc_suffix = "",
};

/* So does igb; each of its 8 queue pairs has one "TxRx" vector. */
FIXTURE_VARIANT_ADD(discovery, igb0) {
	.ifname = "igb0",
	.misc_suffix = "",
};

FIXTURE_SETUP(discovery)
{
	struct nl_result res;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info(variant->ifname, &self->info));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, variant->ifname, &self->dev, &res))
		TH_LOG("DEV_GET %s: %s", variant->ifname, res.msg);
}

FIXTURE_TEARDOWN(discovery)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

TEST_F_TIMEOUT(discovery, device_attributes_match_sysfs, 120)
{
	const struct nictl_dev *dev = &self->dev;
	const struct netdev_info *info = &self->info;

	EXPECT_EQ(NICTL_CMD_DEV_GET, dev->cmd);
	EXPECT_EQ(NICTL_FAMILY_VERSION, dev->version);
	EXPECT_EQ(DEV_ATTRS_ALWAYS, dev->present & DEV_ATTRS_ALWAYS);
	EXPECT_STREQ(variant->ifname, dev->ifname);
	EXPECT_EQ(info->ifindex, dev->ifindex);
	EXPECT_STREQ(info->driver, dev->driver);
	EXPECT_STREQ(info->bus_addr, dev->bus_addr);
	EXPECT_EQ(info->numa_node, dev->numa_node);
	EXPECT_EQ(info->rx_queues, dev->rx_queues);
	EXPECT_EQ(info->tx_queues, dev->tx_queues);
	ASSERT_TRUE(info->up);
	EXPECT_EQ((uint32_t)NICTL_DEV_F_UP, dev->dev_flags);
	EXPECT_TRUE(dev->source == NICTL_IRQ_SOURCE_NAPI || dev->source == NICTL_IRQ_SOURCE_MSI ||
		    dev->source == NICTL_IRQ_SOURCE_MSI_NAPI)
		TH_LOG("source %u for an up device with queue IRQs", dev->source);
}

/* DEV_GET of the fixture's device with discovery limited to @source (fault_discovery_source). */
static int dev_by_source(struct __test_metadata *_metadata, struct nl_client *nl,
			 const char *ifname, const char *source, struct nictl_dev *dev)
{
	struct nl_result res;
	int ret;

	if (nictl_param_write("fault_discovery_source", source))
		return -EIO;
	ret = nictl_dev_get(nl, ifname, dev, &res);
	if (ret)
		TH_LOG("DEV_GET %s by source %s: %s", ifname, source, res.msg);
	nictl_param_write("fault_discovery_source", "0");
	return ret;
}

/* Does @dev have IRQ @num serving @queue's receive side? */
static bool named_rx(const struct nictl_dev *dev, uint32_t num, uint32_t queue)
{
	const struct nictl_irq *irq = nictl_dev_irq(dev, num);
	unsigned int i;

	for (i = 0; irq && i < irq->n_queues; i++)
		if (irq->queues[i].queue == queue && irq->queues[i].kind != NICTL_QUEUE_KIND_TX)
			return true;
	return false;
}

/*
 * Every queue of the guests' NICs has a vector named after it, so the
 * links (where the driver sets them: e1000e on 7.2, not virtio_net) add
 * nothing; and where a link names a receive queue's IRQ, it is the one the
 * names say. A link of a TX queue may differ: e1000e links it to the NAPI
 * of its RX vector, while its TX completions come on e1k-tx-0.
 */
TEST_F_TIMEOUT(discovery, links_agree_with_names_and_add_nothing, 120)
{
	struct nictl_dev *names = malloc(sizeof(*names)), *links = malloc(sizeof(*links));
	const struct nictl_irq *irq;
	unsigned int i, j;

	ASSERT_NE(NULL, names);
	ASSERT_NE(NULL, links);
	ASSERT_EQ(0, dev_by_source(_metadata, &self->env.nl, variant->ifname, "2", names));
	ASSERT_EQ(0, dev_by_source(_metadata, &self->env.nl, variant->ifname, "1", links));
	EXPECT_EQ((uint32_t)NICTL_IRQ_SOURCE_MSI, names->source);
	EXPECT_EQ((uint32_t)(links->n_irqs ? NICTL_IRQ_SOURCE_NAPI : NICTL_IRQ_SOURCE_NONE),
		  links->source);
	TH_LOG("%s: %u IRQs by name, %u by NAPI link", variant->ifname, names->n_irqs,
	       links->n_irqs);

	EXPECT_EQ((uint32_t)NICTL_IRQ_SOURCE_MSI, self->dev.source);
	ASSERT_EQ(names->n_irqs, self->dev.n_irqs);
	for (i = 0; i < names->n_irqs; i++) {
		EXPECT_EQ(names->irqs[i].num, self->dev.irqs[i].num);
		EXPECT_EQ(names->irqs[i].n_queues, self->dev.irqs[i].n_queues)
			TH_LOG("IRQ %u serves other queues with links", names->irqs[i].num);
	}
	for (i = 0; i < links->n_irqs; i++) {
		irq = &links->irqs[i];
		for (j = 0; j < irq->n_queues; j++) {
			if (irq->queues[j].kind == NICTL_QUEUE_KIND_TX)
				continue;
			EXPECT_TRUE(named_rx(names, irq->num, irq->queues[j].queue))
				TH_LOG("queue %u: linked to IRQ %u, which its name does not serve",
				       irq->queues[j].queue, irq->num);
		}
	}
	free(names);
	free(links);
}

TEST_F_TIMEOUT(discovery, queue_irqs_match_proc_interrupts, 120)
{
	struct proc_irqs *proc;
	char misc[IRQ_NAME_LEN * 2];
	unsigned int i;
	bool misc_seen = false;

	EXPECT_EQ(self->info.rx_queues, self->dev.rx_queues);
	EXPECT_EQ(self->info.tx_queues, self->dev.tx_queues);
	EXPECT_TRUE(queue_irqs_match_proc(&self->dev, self->info.irq_prefix));
	proc = malloc(sizeof(*proc));
	ASSERT_NE(NULL, proc);
	ASSERT_EQ(0, proc_interrupts(proc));
	snprintf(misc, sizeof(misc), "%s%s", self->info.irq_prefix, variant->misc_suffix);
	for (i = 0; i < proc->n; i++)
		misc_seen |= !strcmp(proc->irq[i].label, misc);
	EXPECT_TRUE(misc_seen) TH_LOG("misc vector %s not in /proc/interrupts", misc);
	for (i = 0; i < self->dev.n_irqs; i++)
		EXPECT_STRNE(misc, self->dev.irqs[i].name);
	free(proc);
}

TEST_F_TIMEOUT(discovery, affinities_match_proc_irq, 120)
{
	unsigned int i;

	ASSERT_LT(0U, self->dev.n_irqs);
	EXPECT_TRUE(dev_matches_proc(&self->dev));
	EXPECT_TRUE(dev_unbound(&self->dev));
	/* None of virtio_net, e1000e and igb asks for kernel-managed vectors. */
	for (i = 0; i < self->dev.n_irqs; i++)
		EXPECT_EQ(0U, self->dev.irqs[i].flags & NICTL_IRQ_F_MANAGED);
}

/*
 * A change made behind nictl's back shows in the next reply: no caching.
 * The new mask leaves the IRQ's effective CPU, so until the IRQ fires again
 * the move can only be pending (on x86 without interrupt remapping it is).
 */
TEST_F_TIMEOUT(discovery, reports_live_affinity, 300)
{
	const struct nictl_irq *irq = &self->dev.irqs[0];
	const struct nictl_irq *now_irq;
	struct nictl_dev now;
	struct nl_result res;
	struct cpus online, mask, now_mask, eff;
	int cpu, round, target = -1;

	ASSERT_LT(0U, self->dev.n_irqs);
	ASSERT_EQ(0, sys_online_cpus(&online));
	for_each_cpu(cpu, &online)
		if (!cpus_test(&irq->effective, cpu))
			target = cpu;
	ASSERT_LE(0, target);
	cpus_zero(&mask);
	cpus_set(&mask, target);
	ASSERT_EQ(0, irq_set_affinity(irq->num, &mask));

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, variant->ifname, &now, &res));
	now_irq = &now.irqs[0];
	EXPECT_TRUE(cpus_equal(&mask, &now_irq->affinity));
	if (now_irq->flags & NICTL_IRQ_F_PENDING) {
		/*
		 * The IRQ's next interrupt makes the move, perhaps between
		 * nictl's read and ours: /proc shows the effective CPU nictl
		 * saw, or the new one. The whole device is compared below,
		 * once the move is made.
		 */
		ASSERT_EQ(0, irq_affinity(irq->num, &now_mask, &eff));
		EXPECT_TRUE(cpus_equal(&eff, &now_irq->effective) || cpus_equal(&eff, &mask))
			TH_LOG("IRQ %u: /proc's effective CPU is neither the one nictl saw nor the target",
			       irq->num);
	} else {
		EXPECT_TRUE(dev_matches_proc(&now));
	}
	if (!cpus_intersects(&mask, &now_irq->effective))
		EXPECT_TRUE(now_irq->flags & NICTL_IRQ_F_PENDING)
			TH_LOG("effective CPU outside the mask, yet not pending");

	for (round = 0; round < 10; round++) {
		ASSERT_EQ(0, irq_affinity(irq->num, &now_mask, &eff));
		if (cpus_equal(&mask, &eff))
			break;
		ASSERT_EQ(0, traffic_burst(test_nics));
	}
	ASSERT_TRUE(cpus_equal(&mask, &eff)) TH_LOG("IRQ %u never moved", irq->num);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, variant->ifname, &now, &res));
	EXPECT_EQ(0U, now.irqs[0].flags & NICTL_IRQ_F_PENDING);
	EXPECT_TRUE(dev_matches_proc(&now));
}

TEST_F_TIMEOUT(discovery, ifindex_lookup_matches_ifname, 120)
{
	struct nictl_dev by_index;
	struct nl_result res;

	ASSERT_EQ(0, nictl_dev_get_index(&self->env.nl, self->info.ifindex, &by_index, &res))
		TH_LOG("%s", res.msg);
	EXPECT_EQ(0, memcmp(&self->dev, &by_index, sizeof(by_index)));
}

TEST_F_TIMEOUT(discovery, dump_matches_do, 120)
{
	struct nictl_devs *devs = malloc(sizeof(*devs));
	const struct nictl_dev *dumped;
	struct nl_result res;

	ASSERT_NE(NULL, devs);
	ASSERT_EQ(0, nictl_dev_dump(&self->env.nl, devs, &res)) TH_LOG("%s", res.msg);
	dumped = nictl_devs_find(devs, variant->ifname);
	ASSERT_NE(NULL, dumped);
	EXPECT_EQ(0, memcmp(&self->dev, dumped, sizeof(*dumped)));
	free(devs);
}

FIXTURE(family) {
	struct test_env env;
};

FIXTURE_SETUP(family)
{
	ASSERT_EQ(0, env_setup(&self->env));
}

FIXTURE_TEARDOWN(family)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

TEST_F(family, version)
{
	EXPECT_EQ(NICTL_FAMILY_VERSION, self->env.nl.version);
}

static bool in_dump(const struct nictl_devs *devs, const char *ifname)
{
	if (nictl_devs_find(devs, ifname))
		return true;
	fprintf(stderr, "# %s is not in the dump\n", ifname);
	return false;
}

/* The dump lists the devices with a bus parent, and only those. */
TEST_F_TIMEOUT(family, dump_lists_bus_devices, 120)
{
	struct nictl_devs *devs = malloc(sizeof(*devs));
	const char *const *nic;
	struct nl_result res;
	char path[64];
	unsigned int i;

	ASSERT_NE(NULL, devs);
	ASSERT_EQ(0, nictl_dev_dump(&self->env.nl, devs, &res)) TH_LOG("%s", res.msg);
	for (nic = test_nics; *nic; nic++)
		EXPECT_TRUE(in_dump(devs, *nic));
	EXPECT_EQ(NULL, nictl_devs_find(devs, "lo"));
	for (i = 0; i < devs->n; i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", devs->dev[i].ifname);
		EXPECT_EQ(0, access(path, F_OK)) TH_LOG("%s has no parent", devs->dev[i].ifname);
	}
	free(devs);
}

/*
 * usb0, QEMU's usb-net behind a qemu-xhci controller, reaches that
 * controller's PCI function only through the USB bus, whose devices all
 * share the controller's vectors: it has no PCI function of its own, no
 * queue IRQs, an identity by its MAC, and a bind is refused and moves
 * nothing of the controller's.
 */
TEST_F_TIMEOUT(family, usb_nic_has_no_pci_function, 120)
{
	struct irq_snapshot *before = malloc(sizeof(*before));
	struct nictl_dev *dev = malloc(sizeof(*dev));
	struct run_result *r = malloc(sizeof(*r));
	struct nictl_bind_args args = { .ifname = "usb0" };
	struct nl_result res;
	struct cpus one;

	ASSERT_TRUE(before && dev && r);
	ASSERT_EQ(0, access("/sys/class/net/usb0/device/driver", F_OK));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "usb0", dev, &res)) TH_LOG("%s", res.msg);
	EXPECT_FALSE(dev->present & ATTR_BIT(NICTL_A_BUS_ADDR)) TH_LOG("bus %s", dev->bus_addr);
	EXPECT_EQ(0, dev->n_irqs);
	EXPECT_EQ(NICTL_IRQ_SOURCE_NONE, dev->source);

	ASSERT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "show", "usb0", NULL }));
	EXPECT_NE(NULL, strstr(r->out, "driver cdc_ether, bus -,")) TH_LOG("%s", r->out);

	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, cpus_parse(&one, "1"));
	args.cpus = &one;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, dev, &res), &res, ENOENT, true,
			    before));
	EXPECT_NE(NULL, strstr(res.msg, "usb0 has no queue IRQs")) TH_LOG("%s", res.msg);
	EXPECT_EQ(1, run_ctl(r, false, NULL,
			     (const char *const []){ "bind", "usb0", "--cpus", "1", "--sticky",
						     NULL }));
	EXPECT_NE(NULL, strstr(r->err, "has no queue IRQs")) TH_LOG("%s", r->err);
	EXPECT_EQ(0, irq_snapshot_changes(before));
	free(r);
	free(dev);
	free(before);
}

/* Does the running kernel's netdev-genl dump NAPIs (6.9+), naming their threads? */
static bool kernel_dumps_napis(void)
{
	return kernel_at_least(6, 9);
}

/* jq @filter over `nictlctl show vnode1 -j` run now, its one-line output in @out. */
static int show_jq(struct run_result *r, struct run_result *jq, const char *filter,
		   char *out, size_t len)
{
	return run_ctl_jq(r, jq, (const char *const []){ "show", "vnode1", "-j", NULL }, filter,
			  out, len);
}

/*
 * "n warnings, n off node, n names of vnode1, n distinct rx IRQs of vnode1":
 * what the threads of show's JSON say of themselves.
 */
#define THREADS_SUMMARY \
	".[0] as $d | $d.napi_threads.threads as $t | " \
	"[$d.irqs[] | select(.kind != \"tx\") | .irq] as $rx | " \
	"\"\\($t | length) threads, \\([$t[] | select(.off_node)] | length) off node, " \
	"\\([$t[] | select(.name | startswith(\"napi/vnode1-\"))] | length) of vnode1, " \
	"\\([$t[].irq | select(. as $i | $rx | index($i))] | unique | length) rx irqs\""

/* Each thread of vnode1 as "pid=cpus", joined by ",", from show's JSON. */
#define THREADS_CPUS "[.[0].napi_threads.threads[] | \"\\(.pid)=\\(.cpus_list)\"] | join(\",\")"

/* Put every thread of @threads (THREADS_CPUS) on @cpus; how many were. */
static unsigned int threads_to(const char *threads, const char *cpus)
{
	const char *entry = threads;
	char pid[16];
	unsigned int n = 0;

	while (entry && *entry && sscanf(entry, "%15[0-9]=", pid) == 1) {
		n += !SH("taskset", "-pc", cpus, pid);
		entry = strchr(entry, ',') ? strchr(entry, ',') + 1 : NULL;
	}
	return n;
}

/*
 * vnode1 polled in threads (/sys/class/net/vnode1/threaded, 5.12+): show
 * lists one thread per receive NAPI, named as the kernel names it, tied to
 * a distinct receive IRQ of vnode1. A bind puts each thread on its IRQ's
 * CPU in the same step: when a thread cannot move (fault injection), the
 * bind fails with the threads and IRQs as before. show warns of a thread
 * moved off its IRQ's node since, and restore gives every thread back the
 * CPUs it had before the bind. Where netdev-genl names no NAPI (before
 * 6.9) show says the device polls in threads it cannot tie to queues;
 * where there is no threaded NAPI (5.10) it lists none, and neither does a
 * device that polls in softirqs again.
 */
TEST_F_TIMEOUT(family, napi_threads_follow_their_irqs, 240)
{
	const char *threaded = "/sys/class/net/vnode1/threaded";
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	struct irq_snapshot *irqs = malloc(sizeof(*irqs));
	char want[128], got[512], before[512], all[32];
	unsigned int rx = 0;

	ASSERT_TRUE(r && jq && irqs);
	if (access(threaded, F_OK)) {
		EXPECT_EQ(0, show_jq(r, jq, ".[0].napi_threads | \"\\(.unknown) \\(.threads)\"",
				     got, sizeof(got)));
		EXPECT_STREQ("false []", got);
		goto out;
	}
	ASSERT_EQ(0, write_str(threaded, "1"));
	if (!kernel_dumps_napis()) {
		EXPECT_EQ(0, show_jq(r, jq, ".[0].napi_threads | \"\\(.unknown) \\(.threads)\"",
				     got, sizeof(got)));
		EXPECT_STREQ("true []", got);
		EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "show", "vnode1",
									       NULL }));
		EXPECT_NE(NULL, strstr(r->out, "  napi threads: polled in threads the kernel "
					       "does not tie to queues")) TH_LOG("%s", r->out);
		goto threaded_off;
	}
	/* No ASSERT from here: threaded must go back to 0 whatever fails. */
	EXPECT_EQ(0, show_jq(r, jq, ".[0].rx_queues", got, sizeof(got)));
	EXPECT_EQ(1, sscanf(got, "%u", &rx)) TH_LOG("rx_queues: %s", got);
	EXPECT_EQ(0, show_jq(r, jq, THREADS_CPUS, before, sizeof(before)));

	EXPECT_EQ(0, irq_snapshot_take(irqs));
	EXPECT_EQ(0, setenv("NICTL_FAULT_NAPI_WRITE", "1", 1));
	EXPECT_EQ(1, run_ctl(r, false, NULL, (const char *const []){ "bind", "vnode1",
								       "--numa-local", NULL }));
	unsetenv("NICTL_FAULT_NAPI_WRITE");
	EXPECT_NE(NULL, strstr(r->err, "cannot move NAPI thread napi/vnode1-"))
		TH_LOG("%s", r->err);
	EXPECT_EQ(0, irq_snapshot_changes(irqs));
	EXPECT_EQ(0, show_jq(r, jq, THREADS_CPUS, got, sizeof(got)));
	EXPECT_STREQ(before, got) TH_LOG("threads after a bind whose first move failed");

	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "bind", "vnode1",
								       "--numa-local", NULL }));
	EXPECT_EQ(0, show_jq(r, jq, THREADS_SUMMARY, got, sizeof(got)));
	snprintf(want, sizeof(want), "%u threads, 0 off node, %u of vnode1, %u rx irqs",
		 rx, rx, rx);
	EXPECT_STREQ(want, got);
	EXPECT_EQ(0, show_jq(r, jq, "[.[0].napi_threads.threads[] | select(.cpus_list != "
				    "\"\\(.irq_cpu)\")] | length", got, sizeof(got)));
	EXPECT_STREQ("0", got) TH_LOG("threads not on exactly their IRQ's CPU after the bind");
	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "show", "vnode1", NULL }));
	EXPECT_NE(NULL, strstr(r->out, "  napi threads:\n    IRQ  NAPI")) TH_LOG("%s", r->out);

	/* Moved off their node since: show warns of each. */
	EXPECT_EQ(0, show_jq(r, jq, THREADS_CPUS, got, sizeof(got)));
	snprintf(all, sizeof(all), "0-%ld", sysconf(_SC_NPROCESSORS_ONLN) - 1);
	EXPECT_EQ(rx, threads_to(got, all));
	EXPECT_EQ(0, show_jq(r, jq, THREADS_SUMMARY, got, sizeof(got)));
	snprintf(want, sizeof(want), "%u threads, %u off node, %u of vnode1, %u rx irqs",
		 rx, rx, rx, rx);
	EXPECT_STREQ(want, got);
	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "show", "vnode1", NULL }));
	EXPECT_NE(NULL, strstr(r->out, "of another node\n")) TH_LOG("%s", r->out);

	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "restore", "vnode1", NULL }));
	EXPECT_EQ(0, show_jq(r, jq, THREADS_CPUS, got, sizeof(got)));
	EXPECT_STREQ(before, got) TH_LOG("threads after restore");
threaded_off:
	EXPECT_EQ(0, write_str(threaded, "0"));
	EXPECT_EQ(0, show_jq(r, jq, ".[0].napi_threads | \"\\(.unknown) \\(.threads)\"",
			     got, sizeof(got)));
	EXPECT_STREQ("false []", got);
out:
	free(irqs);
	free(jq);
	free(r);
}

FIXTURE(traffic) {
	struct test_env env;
};

FIXTURE_SETUP(traffic)
{
	ASSERT_EQ(0, env_setup(&self->env));
}

FIXTURE_TEARDOWN(traffic)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Frames per online CPU that the test below sends out of e1k. */
#define E1K_FRAMES	16

/* The frames @ifname has sent so far, as the NIC counts them. */
static int tx_packets(const char *ifname, long *n)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_packets", ifname);
	return read_long(path, n);
}

/*
 * Traffic meant to make IRQs fire waits for each NIC's link. e1000e turns
 * its carrier on from its watchdog, seconds after open, and until then the
 * kernel drops what is sent there before the driver sees it: frames sent at
 * once made no TX interrupt, so a move pending on e1k-tx-0 stayed pending
 * (daemon.e1k_down_up failed so on faster hosts). Every frame must leave.
 */
TEST_F_TIMEOUT(traffic, burst_after_up_reaches_the_nic, 300)
{
	static const char *const nics[] = { "e1k", NULL };
	const struct nictl_irq *tx = NULL;
	unsigned long long before, after;
	long sent0, sent, want;
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus online;
	unsigned int i, tries;
	char state[32];

	ASSERT_EQ(0, sys_online_cpus(&online));
	want = E1K_FRAMES * cpus_count(&online);
	ASSERT_EQ(0, netdev_set_up("e1k", false));
	ASSERT_EQ(0, netdev_set_up("e1k", true));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "e1k", &dev, &res)) TH_LOG("%s", res.msg);
	for (i = 0; i < dev.n_irqs; i++)
		if (dev.irqs[i].kind == NICTL_QUEUE_KIND_TX)
			tx = &dev.irqs[i];
	ASSERT_NE(NULL, tx) TH_LOG("e1k has no TX queue IRQ");
	ASSERT_EQ(0, irq_count(tx->num, &before));
	ASSERT_EQ(0, tx_packets("e1k", &sent0));
	ASSERT_EQ(0, traffic_send(nics, &online, E1K_FRAMES));
	ASSERT_EQ(0, read_str("/sys/class/net/e1k/operstate", state, sizeof(state)));
	EXPECT_STREQ("up", state) TH_LOG("the frames were sent while e1k had no link");
	/* The NIC sends them, and fires, a little after the call returns. */
	for (tries = 0; tries < 300; tries++) {
		ASSERT_EQ(0, tx_packets("e1k", &sent));
		ASSERT_EQ(0, irq_count(tx->num, &after));
		if (sent - sent0 >= want && after > before)
			break;
		usleep(100 * 1000);
	}
	EXPECT_LE(want, sent - sent0) TH_LOG("e1k sent %ld frames, want all %ld", sent - sent0,
					     want);
	EXPECT_LT(before, after) TH_LOG("IRQ %u (%s) did not fire after the frames", tx->num,
					tx->name);
}

NICTL_TEST_MAIN
