// SPDX-License-Identifier: GPL-2.0
/*
 * Without the module, in a fake sysfs and /proc: discovery (direct/
 * discover.c) of a virtio NIC on a PCI function of node 1, a USB NIC behind
 * a host controller and a bond above the virtio NIC; then bind and restore
 * as commands, through the fake /proc/irq files (direct/bind.c), with the
 * family lookup answering that the module is not loaded; and the daemon's
 * keeper on that path: a rule applied, a moved IRQ found, the writes put
 * back when the module comes.
 */
#include "ctl_fakesys.h"

#include <errno.h>
#include <net/if.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "commands.h"
#include "ctl_capture.h"
#include "ctl_cpulist.h"
#include "ctl_fakenl.h"

#include "daemon/apply.h"
#include "direct/apply.h"
#include "direct/discover.h"
#include "rundir.h"

#define PCI	"devices/pci0000:00/0000:00:04.0"
#define VIRTIO	PCI "/virtio3"
#define USB	"devices/pci0000:00/0000:00:05.0/usb1/1-1/1-1:1.0"

FIXTURE(direct) {
	struct fakesys fs;
	struct dev_list list;
	char *out;
	char *err;
};

/* Vector @irq of vnode1 with @actions, on CPUs @cpus. */
static void fake_irq(const struct fakesys *fs, unsigned int irq, const char *actions,
		     const char *cpus)
{
	fakesys_write(fs, "", PCI "/msi_irqs/%u", irq);
	fakesys_write(fs, actions, "kernel/irq/%u/actions", irq);
	fakesys_write(fs, cpus, "proc/irq/%u/smp_affinity_list", irq);
}

static void fake_netdev(const struct fakesys *fs, const char *ifname, unsigned int ifindex,
			const char *device, unsigned int queues)
{
	char line[32];
	unsigned int q;

	snprintf(line, sizeof(line), "%u\n", ifindex);
	fakesys_write(fs, line, "class/net/%s/ifindex", ifname);
	fakesys_write(fs, "0x1003\n", "class/net/%s/flags", ifname);
	for (q = 0; q < queues; q++) {
		fakesys_write(fs, "00\n", "class/net/%s/queues/rx-%u/rps_cpus", ifname, q);
		fakesys_write(fs, "0\n", "class/net/%s/queues/rx-%u/rps_flow_cnt", ifname, q);
		fakesys_write(fs, "00\n", "class/net/%s/queues/tx-%u/xps_cpus", ifname, q);
	}
	if (device)
		fakesys_link(fs, device, "class/net/%s/device", ifname);
}

FIXTURE_SETUP(direct)
{
	struct fakesys *fs = &self->fs;
	char proc[128];

	fakesys_create(fs);
	snprintf(proc, sizeof(proc), "%s/proc", fs->root);
	setenv("NICTL_PROCFS", proc, 1);
	self->list = (struct dev_list){ NULL, 0, NULL, 0 };
	/* The config vector is no queue's; queue 1's are idle after ethtool -L 1. */
	fakesys_write(fs, "1\n", PCI "/numa_node");
	fakesys_link(fs, "../../../bus/pci", PCI "/subsystem");
	fakesys_link(fs, "../../../../bus/virtio", VIRTIO "/subsystem");
	fakesys_link(fs, "../../../../bus/virtio/drivers/virtio_net", VIRTIO "/driver");
	fake_irq(fs, 40, "virtio3-config\n", "0-7\n");
	fake_irq(fs, 41, "virtio3-input.0\n", "4\n");
	fake_irq(fs, 42, "virtio3-output.0,other\n", "4\n");
	fake_irq(fs, 43, "virtio3-input.1\n", "5\n");
	fake_irq(fs, 44, "virtio3-output.1\n", "5\n");
	fakesys_write(fs, "6\n", "proc/irq/41/effective_affinity_list");
	fakesys_write(fs, "0-1\n", "devices/system/node/online");
	fakesys_write(fs, "0-3\n", "devices/system/node/node0/cpulist");
	fakesys_write(fs, "4-7\n", "devices/system/node/node1/cpulist");
	fake_netdev(fs, "vnode1", 3, "../../../" VIRTIO, 2);

	fakesys_link(fs, "../../../../../../bus/usb", USB "/subsystem");
	fakesys_link(fs, "../../../../../../bus/usb/drivers/cdc_ether", USB "/driver");
	fakesys_link(fs, "../../../bus/pci", "devices/pci0000:00/0000:00:05.0/subsystem");
	fakesys_write(fs, "", "devices/pci0000:00/0000:00:05.0/msi_irqs/50");
	fakesys_write(fs, "xhci_hcd\n", "kernel/irq/50/actions");
	fake_netdev(fs, "usb0", 5, "../../../" USB, 1);

	fake_netdev(fs, "bond0", 7, NULL, 1);
	fakesys_link(fs, "../vnode1", "class/net/bond0/lower_vnode1");
	fakesys_link(fs, "../bond0", "class/net/vnode1/upper_bond0");
	fake_netdev(fs, "lo", 1, NULL, 1);

	/* Four cores of two threads, node 1 the second half; kept state in the tree. */
	fakesys_smt_pairs(fs, 8);
	fakesys_write(fs, "0-7\n", "devices/system/cpu/online");
	fakesys_write(fs, "0-7\n", "devices/system/cpu/present");
	fakesys_write(fs, "0-1\n", "devices/system/node/online");
	fakesys_write(fs, "0-3\n", "devices/system/node/node0/cpulist");
	fakesys_write(fs, "4-7\n", "devices/system/node/node1/cpulist");
	fakesys_write(fs, "10 20\n", "devices/system/node/node0/distance");
	fakesys_write(fs, "20 10\n", "devices/system/node/node1/distance");
	fakesys_write(fs, "0\n", "proc/sys/net/core/rps_sock_flow_entries");
	snprintf(proc, sizeof(proc), "%s/run", fs->root);
	setenv("NICTL_RUN_DIR", proc, 1);
	fnl.family = -NLE_OBJ_NOTFOUND;
}

FIXTURE_TEARDOWN(direct)
{
	dev_list_free(&self->list);
	free(self->out);
	free(self->err);
	unsetenv("NICTL_RUN_DIR");
	unsetenv(DIRECT_FAULT_ENV);
	unsetenv("NICTL_PROCFS");
	fakesys_destroy(&self->fs);
}

TEST_F(direct, virtio_queue_irqs_by_name)
{
	struct dev_ref ref = { 0, "vnode1" };
	const struct nictl_dev *dev;
	const struct nictl_irq *irq;

	ASSERT_EQ(0, direct_discover(&ref, &self->list));
	ASSERT_EQ(1U, self->list.nr);
	EXPECT_EQ(NULL, self->list.stacked);
	dev = &self->list.devs[0];
	EXPECT_STREQ("vnode1", dev->ifname);
	EXPECT_EQ(3U, dev->ifindex);
	EXPECT_STREQ("virtio_net", dev->driver);
	EXPECT_STREQ("0000:00:04.0", dev->bus_addr);
	EXPECT_EQ(1, dev->numa_node);
	EXPECT_EQ(2U, dev->rx_queues);
	EXPECT_TRUE(dev->flags & NICTL_DEV_F_UP);
	EXPECT_TRUE(dev->direct);
	EXPECT_STREQ("bond0", dev->uppers);
	EXPECT_EQ(NICTL_IRQ_SOURCE_MSI, dev->source);
	ASSERT_EQ(4U, dev->nr_irqs);
	irq = &dev->irqs[0];
	EXPECT_EQ(41U, irq->irq);
	EXPECT_STREQ("virtio3-input.0", irq->name);
	EXPECT_EQ(NICTL_QUEUE_KIND_RX, irq->kind);
	EXPECT_STREQ("4", cpulist_of(&irq->affinity));
	EXPECT_STREQ("6", cpulist_of(&irq->effective));
	EXPECT_EQ(1, irq->node);	/* of effective CPU 6 */
	EXPECT_EQ(-1, dev->irqs[1].node);	/* no effective affinity in /proc */
	EXPECT_EQ(-1, irq->target_cpu);
	/* Effective CPU 6 outside affinity 4: the move waits for the next interrupt. */
	EXPECT_EQ(NICTL_IRQ_F_PENDING, irq->flags);
	/* Queue 0's tx IRQ has a second handler: shared. */
	EXPECT_EQ(42U, dev->irqs[1].irq);
	EXPECT_EQ(NICTL_IRQ_F_SHARED, dev->irqs[1].flags);
	EXPECT_EQ(dev->irqs[0].group, dev->irqs[1].group);
	EXPECT_EQ(43U, dev->irqs[2].irq);
	EXPECT_EQ(1U, dev->irqs[2].queue);
	EXPECT_NE(dev->irqs[0].group, dev->irqs[2].group);
}

/* After ethtool -L combined 1, queue 1's vectors stay allocated, idle. */
TEST_F(direct, idle_queues_are_left_out)
{
	struct dev_ref ref = { 3, NULL };
	char path[512];

	snprintf(path, sizeof(path), "%s/class/net/vnode1/queues/rx-1/rps_cpus", self->fs.root);
	ASSERT_EQ(0, unlink(path));
	snprintf(path, sizeof(path), "%s/class/net/vnode1/queues/rx-1/rps_flow_cnt", self->fs.root);
	ASSERT_EQ(0, unlink(path));
	snprintf(path, sizeof(path), "%s/class/net/vnode1/queues/rx-1", self->fs.root);
	ASSERT_EQ(0, rmdir(path));
	snprintf(path, sizeof(path), "%s/class/net/vnode1/queues/tx-1/xps_cpus", self->fs.root);
	ASSERT_EQ(0, unlink(path));
	snprintf(path, sizeof(path), "%s/class/net/vnode1/queues/tx-1", self->fs.root);
	ASSERT_EQ(0, rmdir(path));
	ASSERT_EQ(0, direct_discover(&ref, &self->list));
	ASSERT_EQ(1U, self->list.nr);
	EXPECT_EQ(2U, self->list.devs[0].nr_irqs);
}

/* A USB NIC has no PCI function of its own: its controller's vectors are not its. */
TEST_F(direct, usb_nic_has_no_pci_function)
{
	struct dev_ref ref = { 0, "usb0" };

	ASSERT_EQ(0, direct_discover(&ref, &self->list));
	ASSERT_EQ(1U, self->list.nr);
	EXPECT_STREQ("cdc_ether", self->list.devs[0].driver);
	EXPECT_EQ(NULL, self->list.devs[0].bus_addr);
	EXPECT_EQ(0U, self->list.devs[0].nr_irqs);
	EXPECT_EQ(NICTL_IRQ_SOURCE_NONE, self->list.devs[0].source);
}

TEST_F(direct, bond_shows_its_physical_devices)
{
	struct dev_ref ref = { 0, "bond0" };

	ASSERT_EQ(0, direct_discover(&ref, &self->list));
	EXPECT_STREQ("bond0", self->list.stacked);
	ASSERT_EQ(1U, self->list.nr);
	EXPECT_STREQ("vnode1", self->list.devs[0].ifname);
	EXPECT_EQ(4U, self->list.devs[0].nr_irqs);
}

/* As a DEV_GET dump: the devices with a bus parent, in ifindex order. */
TEST_F(direct, dump_lists_bus_devices_by_ifindex)
{
	ASSERT_EQ(0, direct_discover(NULL, &self->list));
	ASSERT_EQ(2U, self->list.nr);
	EXPECT_STREQ("vnode1", self->list.devs[0].ifname);
	EXPECT_STREQ("usb0", self->list.devs[1].ifname);
}

TEST_F(direct, unknown_devices)
{
	struct dev_ref by_name = { 0, "nosuch0" }, by_index = { 99, NULL }, lo = { 0, "lo" };

	EXPECT_EQ(-ENODEV, direct_discover(&by_name, &self->list));
	EXPECT_EQ(-ENODEV, direct_discover(&by_index, &self->list));
	/* A device without a bus parent is described, without IRQs. */
	ASSERT_EQ(0, direct_discover(&lo, &self->list));
	ASSERT_EQ(1U, self->list.nr);
	EXPECT_EQ(NULL, self->list.devs[0].driver);
	EXPECT_EQ(0U, self->list.devs[0].nr_irqs);
}

/* A bond above a leaf without a bus parent (a veth) has no queue IRQs to show. */
TEST_F(direct, bond_over_a_virtual_leaf)
{
	struct dev_ref ref = { 0, "bond0" };

	fake_netdev(&self->fs, "veth0", 9, NULL, 1);
	fakesys_link(&self->fs, "../veth0", "class/net/bond0/lower_veth0");
	EXPECT_EQ(-ENOENT, direct_discover(&ref, &self->list));
	EXPECT_EQ(0U, self->list.nr);
}

/* Run nictlctl command @fn with the NULL-terminated arguments, its output kept. */
#define run(self, fn, ...) capture_command((fn), (char *[]){ __VA_ARGS__ }, &(self)->out, &(self)->err)

/* The affinities of vnode1's queue IRQs 41-44 in the fake /proc, "41:4 42:4 ...". */
static const char *affinities(FIXTURE_DATA(direct) *self)
{
	static char buf[128];
	char path[512], line[64];
	size_t used = 0;
	unsigned int irq;
	FILE *f;

	for (irq = 41; irq <= 44; irq++) {
		snprintf(path, sizeof(path), "%s/proc/irq/%u/smp_affinity_list", self->fs.root, irq);
		f = fopen(path, "r");
		if (!f || !fgets(line, sizeof(line), f))
			snprintf(line, sizeof(line), "?");
		if (f)
			fclose(f);
		line[strcspn(line, "\n")] = '\0';
		used += snprintf(buf + used, sizeof(buf) - used, "%s%u:%s", used ? " " : "", irq,
				 line);
	}
	return buf;
}

static bool kept(FIXTURE_DATA(direct) *self)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/run/irq-3", self->fs.root);
	return !access(path, F_OK);
}

#define BEFORE	"41:4 42:4 43:5 44:5"

/* A core per queue pair of the node, every group's IRQs on one CPU, kept for restore. */
TEST_F(direct, bind_numa_local_and_restore)
{
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", "--numa-local",
				    "--allow-shared", NULL)) TH_LOG("%s", self->err);
	EXPECT_STREQ("41:4 42:4 43:6 44:6", affinities(self));
	EXPECT_NE(NULL, strstr(self->err, "module nictl is not loaded: ")) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, ". Bound through /proc/irq: not atomic against other "
			       "writers, and not kept across a driver reload\n"));
	EXPECT_NE(NULL, strstr(self->err, "nictlctl: using CPUs 4-7 (node 1)\n"));
	EXPECT_NE(NULL, strstr(self->out, "up, bound, under bond0, irqs from msi via sysfs\n"))
		TH_LOG("%s", self->out);
	EXPECT_TRUE(kept(self));

	/* A second bind keeps the first one's originals. */
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", "--cpus", "0-3",
				    "--allow-shared", NULL)) TH_LOG("%s", self->err);
	EXPECT_STREQ("41:0 42:0 43:2 44:2", affinities(self));
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", "vnode1", "-j", NULL)) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->out, "\"bound\":true,\"sticky_id\":null,\"source\":\"msi\","
			       "\"via\":\"sysfs\"")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"target_cpu\":2}")) TH_LOG("%s", self->out);

	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_restore, "restore", "vnode1", NULL))
		TH_LOG("%s", self->err);
	EXPECT_STREQ(BEFORE, affinities(self));
	EXPECT_FALSE(kept(self));
	EXPECT_NE(NULL, strstr(self->err, ". Restored through /proc/irq\n")) TH_LOG("%s", self->err);
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_restore, "restore", "vnode1", NULL));
	EXPECT_NE(NULL, strstr(self->err, "nictl has not bound vnode1")) TH_LOG("%s", self->err);
}

/* The k-th write fails: every earlier one is put back, nothing is kept. */
TEST_F(direct, failed_write_rolls_back)
{
	char k[4];
	int i;

	for (i = 1; i <= 4; i++) {
		snprintf(k, sizeof(k), "%d", i);
		setenv(DIRECT_FAULT_ENV, k, 1);
		EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", "--cpus", "0-3",
					    "--allow-shared", NULL));
		EXPECT_STREQ(BEFORE, affinities(self)) TH_LOG("failing write %d", i);
		EXPECT_FALSE(kept(self));
		EXPECT_NE(NULL, strstr(self->err, "every earlier write rolled back: IRQ 4"))
			TH_LOG("%s", self->err);
		EXPECT_EQ(strchr(self->err, '\n'), strrchr(self->err, '\n')) TH_LOG("%s", self->err);
	}
}

/*
 * The driver re-sets an IRQ under the writes (ethtool -L meanwhile; fault
 * injection puts the first IRQ back after the writes): the bind tries
 * again from the device as it then is, and succeeds when a try holds;
 * when all three are undone it puts everything back, keeps nothing, and
 * fails with one line.
 */
TEST_F(direct, bind_tries_again_when_the_device_changes_under_it)
{
	setenv(DIRECT_RESET_FAULT_ENV, "2", 1);
	EXPECT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", "--numa-local",
				    "--allow-shared", NULL)) TH_LOG("%s", self->err);
	EXPECT_STREQ("41:4 42:4 43:6 44:6", affinities(self));
	EXPECT_TRUE(kept(self));
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_restore, "restore", "vnode1", NULL))
		TH_LOG("%s", self->err);
	EXPECT_STREQ(BEFORE, affinities(self)) TH_LOG("the originals are those of the first try");

	setenv(DIRECT_RESET_FAULT_ENV, "3", 1);
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", "--cpus", "0-3",
				    "--allow-shared", NULL));
	unsetenv(DIRECT_RESET_FAULT_ENV);
	EXPECT_NE(NULL, strstr(self->err, "vnode1 changed while it was bound, 3 times"))
		TH_LOG("%s", self->err);
	EXPECT_STREQ(BEFORE, affinities(self));
	EXPECT_FALSE(kept(self));
}

/* What only the module can do is refused, with the reason, before any write. */
TEST_F(direct, refused_without_the_module)
{
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", "--sticky", NULL));
	EXPECT_NE(NULL, strstr(self->err, "--sticky needs it")) TH_LOG("%s", self->err);
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", NULL));
	EXPECT_NE(NULL, strstr(self->err, "IRQ 42 (virtio3-output.0) is shared with another "
			       "handler")) TH_LOG("%s", self->err);
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "bond0", "--allow-shared", NULL));
	EXPECT_NE(NULL, strstr(self->err, "Without it, bind each device beneath bond0 on its own"))
		TH_LOG("%s", self->err);
	EXPECT_STREQ(BEFORE, affinities(self));
	EXPECT_FALSE(kept(self));
}

/* The dry run plans as the bind would, and writes nothing. */
TEST_F(direct, dry_run_writes_nothing)
{
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", "--numa-local",
				    "--allow-shared", "--dry-run", "-j", NULL));
	EXPECT_STREQ(BEFORE, affinities(self));
	EXPECT_FALSE(kept(self));
	EXPECT_NE(NULL, strstr(self->out, "\"irq\":43,")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"target_cpu\":6}")) TH_LOG("%s", self->out);
}

/* What keeper_check_direct() reported, in one string. */
static char drifted[256];

static void on_drift(void *arg, const struct nictl_dev *dev, const char *what)
{
	size_t used = strlen(drifted);

	(void)arg;
	snprintf(drifted + used, sizeof(drifted) - used, "%s: %s;", dev->ifname, what);
}

/* The daemon's keeper, with the module away: a rule for vnode1 from a file. */
static int keeper_start(FIXTURE_DATA(direct) *self, struct keeper *k)
{
	char path[512], err[512];

	snprintf(path, sizeof(path), "%s/nictl.conf", self->fs.root);
	fakesys_write(&self->fs, "[rule n1]\nmatch-name = vnode1\ncpus = numa-local\n",
		      "nictl.conf");
	/* A rule has no --allow-shared: vnode1's tx IRQ is its own here. */
	fakesys_write(&self->fs, "virtio3-output.0\n", "kernel/irq/42/actions");
	*k = (struct keeper){ .nl = { .family = -1 } };
	return conf_load(path, &k->conf, err, sizeof(err));
}

/* The daemon without the module: the rule through /proc/irq, drift found, undone for the module. */
TEST_F(direct, daemon_keeps_a_rule_without_the_module)
{
	unsigned int failed = 1;
	struct keeper k;
	char conf[512];

	ASSERT_EQ(0, keeper_start(self, &k));
	ASSERT_EQ(0, keeper_apply_all(&k, &failed));
	EXPECT_EQ(0U, failed);
	EXPECT_STREQ("41:4 42:4 43:6 44:6", affinities(self));
	EXPECT_TRUE(keeper_owns(&k, dev_key_make(-1, 3)));
	EXPECT_TRUE(kept(self));

	drifted[0] = '\0';
	keeper_check_direct(&k, on_drift, NULL);
	EXPECT_STREQ("", drifted);
	fakesys_write(&self->fs, "0\n", "proc/irq/43/smp_affinity_list");
	keeper_check_direct(&k, on_drift, NULL);
	EXPECT_STREQ("vnode1: IRQ 43 6 -> 0;", drifted);
	EXPECT_EQ(APPLY_DONE, keeper_apply(&k, dev_key_make(-1, 3)));
	EXPECT_STREQ("41:4 42:4 43:6 44:6", affinities(self));

	/* verify and plan read the same without the module. */
	snprintf(conf, sizeof(conf), "%s/nictl.conf", self->fs.root);
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_verify, "verify", "-c", conf, NULL))
		TH_LOG("%s%s", self->out, self->err);
	EXPECT_NE(NULL, strstr(self->out, "1 device governed, 0 not as configured\n"));
	EXPECT_NE(NULL, strstr(self->err, ". Checked against sysfs, /proc/irq and what binds "
			       "without it kept under /run/nictl\n")) TH_LOG("%s", self->err);
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_plan, "plan", "-c", conf, NULL)) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->out, "IRQ 43 (virtio3-input.1, rx 1): CPU 6\n"))
		TH_LOG("%s", self->out);

	/* A device of another namespace is out of reach without the module. */
	EXPECT_EQ(APPLY_NONE, keeper_apply(&k, dev_key_make(0, 3)));

	/* The module came: the affinities from before the first apply, nothing kept. */
	keeper_release_direct(&k);
	EXPECT_STREQ(BEFORE, affinities(self));
	EXPECT_FALSE(kept(self));
	keeper_free(&k);
}

/*
 * Kept affinities of a device that is gone (no such ifindex on this host)
 * go; those of one that exists (lo, ifindex 1) stay, and so does what is
 * not a kept file.
 */
TEST_F(direct, prune_forgets_only_devices_that_are_gone)
{
	char path[512];

	fakesys_write(&self->fs, "45 0-3 4\n", "run/irq-999999");
	fakesys_write(&self->fs, "45 0-3 4\n", "run/irq-1");
	fakesys_write(&self->fs, "x\n", "run/steer-999999");
	fakesys_write(&self->fs, "x\n", "run/irq-1x");
	EXPECT_EQ(1, direct_saved_prune());
	snprintf(path, sizeof(path), "%s/run/irq-999999", self->fs.root);
	EXPECT_NE(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/run/irq-1", self->fs.root);
	EXPECT_EQ(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/run/steer-999999", self->fs.root);
	EXPECT_EQ(0, access(path, F_OK));
	snprintf(path, sizeof(path), "%s/run/irq-1x", self->fs.root);
	EXPECT_EQ(0, access(path, F_OK));
	EXPECT_EQ(0, direct_saved_prune());
}

/*
 * Another nictlctl binding or restoring without the module holds the run
 * directory's lock: a bind waits for it (as binds wait for the module's
 * lock), then runs whole.
 */
TEST_F(direct, bind_waits_for_another_binders_lock)
{
	int lock, status;
	pid_t child;

	lock = run_dir_lock();
	ASSERT_LE(0, lock);
	child = fork();
	ASSERT_LE(0, child);
	if (!child) {
		run_dir_unlock(lock);
		_exit(run(self, cmd_bind, "bind", "vnode1", "--numa-local", "--allow-shared",
			  NULL));
	}
	usleep(300 * 1000);
	EXPECT_EQ(0, waitpid(child, &status, WNOHANG));
	EXPECT_STREQ(BEFORE, affinities(self));
	run_dir_unlock(lock);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == EXIT_SUCCESS);
	EXPECT_STREQ("41:4 42:4 43:6 44:6", affinities(self));
	EXPECT_TRUE(kept(self));
}

TEST_HARNESS_MAIN
