// SPDX-License-Identifier: GPL-2.0
/*
 * bind --steer on the guests' NICs: RPS, RFS and XPS as planned (e1k: one
 * queue pair for node 0's two cores but CPU 0: RPS on; vnode1: two queue
 * pairs on node 1's two cores: RPS off), with traffic the NET_RX time of
 * a one-queue NIC spread over its node by RPS, restore putting back every
 * value exactly (the host-wide RFS table size too, and only once no steered
 * device needs it), the rollback when any one write fails, refusals
 * that change nothing; and `show` reporting the values sysfs holds and
 * flagging RPS onto another node than the queue's IRQ.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "env.h"
#include "main.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "stats.h"
#include "steering.h"
#include "sys.h"
#include "traffic.h"

#define RUN_DIR		"/run/nictl"

static const char *const nics[] = { "vnode0", "vnode1", "e1k" };

static int steering_write(const char *ifname, const struct steering *s)
{
	char path[256];
	unsigned int q;
	int err = 0;

	for (q = 0; q < s->rx && !err; q++) {
		err = queue_file(path, sizeof(path), ifname, "rx", q, "rps_cpus") ?:
		      write_str(path, s->rps_cpus[q]) ?:
		      queue_file(path, sizeof(path), ifname, "rx", q, "rps_flow_cnt") ?:
		      write_str(path, s->flow_cnt[q]);
	}
	for (q = 0; s->xps && q < s->tx && !err; q++)
		err = queue_file(path, sizeof(path), ifname, "tx", q, "xps_cpus") ?:
		      write_str(path, s->xps_cpus[q]);
	return err;
}

static bool mask_is(const char *ifname, const char *what, unsigned int q, const char *mask,
		    const struct cpus *want)
{
	char want_list[CPUS_LIST_LEN], got_list[CPUS_LIST_LEN];
	struct cpus got;

	if (mask_cpus(mask, &got)) {
		fprintf(stderr, "# %s %s of queue %u: '%s' is not a mask\n", ifname, what, q, mask);
		return false;
	}
	if (cpus_equal(&got, want))
		return true;
	cpus_format(want, want_list, sizeof(want_list));
	cpus_format(&got, got_list, sizeof(got_list));
	fprintf(stderr, "# %s %s of queue %u: want CPUs '%s', got '%s'\n", ifname, what, q,
		want_list, got_list);
	return false;
}

static int set_flow_entries(long v)
{
	char s[32];

	snprintf(s, sizeof(s), "%ld", v);
	return write_str(FLOW_ENTRIES, s);
}

/* The files steering keeps under /run/nictl: none once nothing is steered. */
static unsigned int kept_files(bool remove)
{
	char path[300];
	struct dirent *e;
	unsigned int n = 0;
	DIR *dir = opendir(RUN_DIR);

	while (dir && (e = readdir(dir))) {
		if (e->d_name[0] == '.')
			continue;
		n++;
		if (remove && !pathf(path, sizeof(path), RUN_DIR "/%s", e->d_name))
			unlink(path);
	}
	if (dir)
		closedir(dir);
	return n;
}

FIXTURE(steer) {
	struct test_env env;
	struct run_result run;
	struct run_result jq;
	struct steering before[ARRAY_SIZE(nics)];
	long flow_entries;
};

FIXTURE_SETUP(steer)
{
	unsigned int i;

	ASSERT_EQ(0, env_setup(&self->env));
	for (i = 0; i < ARRAY_SIZE(nics); i++) {
		ASSERT_EQ(0, steering_read(nics[i], &self->before[i])) TH_LOG("%s", nics[i]);
	}
	self->flow_entries = flow_entries();
	ASSERT_LE(0, self->flow_entries);
	/* The kernel's default: bind raises it, restore lowers it again. */
	ASSERT_EQ(0, set_flow_entries(0));
}

FIXTURE_TEARDOWN(steer)
{
	unsigned int i;

	unsetenv("NICTL_FAULT_STEER_WRITE");
	/* First: the queues' sysfs files come and go with the channels. */
	for (i = 0; i < ARRAY_SIZE(nics); i++)
		if (count_queues(nics[i], "rx") != self->before[i].rx)
			EXPECT_EQ(0, netdev_set_channels(nics[i], self->before[i].rx));
	for (i = 0; i < ARRAY_SIZE(nics); i++) {
		EXPECT_EQ(0, steering_write(nics[i], &self->before[i])) TH_LOG("%s", nics[i]);
	}
	EXPECT_EQ(0, set_flow_entries(self->flow_entries));
	kept_files(true);
	EXPECT_EQ(0, env_teardown(&self->env));
}

#define CTL(self, ...) \
	run_ctl(&(self)->run, false, NULL, (const char *const []){ __VA_ARGS__, NULL })
#define JQ(self, filter) run_jq(&(self)->jq, (self)->run.out, filter)

static const struct steering *before_of(FIXTURE_DATA(steer) *self, const char *ifname)
{
	unsigned int i;

	for (i = 0; strcmp(nics[i], ifname); i++)
		;
	return &self->before[i];
}

/* Nothing a refused or rolled back bind could have touched has changed. */
static bool nothing_changed(FIXTURE_DATA(steer) *self)
{
	bool ok = irq_snapshot_changes(&self->env.snap) == 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(nics); i++)
		ok &= steering_is(nics[i], &self->before[i]);
	if (flow_entries() != 0) {
		fprintf(stderr, "# rps_sock_flow_entries: want 0, got %ld\n", flow_entries());
		ok = false;
	}
	if (kept_files(false)) {
		fprintf(stderr, "# %u files left in " RUN_DIR "\n", kept_files(false));
		ok = false;
	}
	return ok;
}

/* The CPU the IRQ of queue @q of @ifname, rx or tx (@rx), is bound to; -1 if none. */
static int queue_irq_cpu(FIXTURE_DATA(steer) *self, const char *ifname, unsigned int q, bool rx)
{
	struct nl_result res;
	struct nictl_dev dev;
	unsigned int i, k;

	if (nictl_dev_get(&self->env.nl, ifname, &dev, &res))
		return -1;
	for (i = 0; i < dev.n_irqs; i++)
		for (k = 0; k < dev.irqs[i].n_queues; k++)
			if (dev.irqs[i].queues[k].queue == q &&
			    dev.irqs[i].queues[k].kind != (rx ? NICTL_QUEUE_KIND_TX :
							     NICTL_QUEUE_KIND_RX))
				return dev.irqs[i].target_cpu;
	return -1;
}

/*
 * vnode1, two queue pairs on node 1's two cores: RPS off, the RFS table
 * split in two, and each tx queue sent on by its IRQ CPU's core alone.
 */
TEST_F_TIMEOUT(steer, queue_per_core, 300)
{
	struct cpus node1, core, all;
	struct steering now;
	unsigned int q;
	int cpu;

	ASSERT_EQ(0, node_cpus(1, &node1));
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer", "-j"));
	ASSERT_EQ(0, JQ(self, "[.[0].steer.rx[].rps] | join(\",\")"));
	EXPECT_STREQ("off,off\n", self->jq.out);
	EXPECT_EQ(32768, flow_entries());
	ASSERT_EQ(0, steering_read("vnode1", &now));
	cpus_zero(&all);
	for (q = 0; q < 2; q++) {
		cpus_zero(&core);
		EXPECT_TRUE(mask_is("vnode1", "rps_cpus", q, now.rps_cpus[q], &core));
		EXPECT_STREQ("16384", now.flow_cnt[q]);
		cpu = queue_irq_cpu(self, "vnode1", q, false);
		ASSERT_LE(0, cpu) TH_LOG("tx queue %u has no bound IRQ", q);
		ASSERT_EQ(0, cpu_core(cpu, &core));
		EXPECT_TRUE(mask_is("vnode1", "xps_cpus", q, now.xps_cpus[q], &core));
		for_each_cpu(cpu, &core)
			cpus_set(&all, cpu);
	}
	EXPECT_TRUE(cpus_equal(&all, &node1)) TH_LOG("XPS does not cover node 1");
}

/*
 * The traffic of traffic_spreads_netrx_over_the_node: rounds of broadcast
 * UDP out of vnode0 from SEND_CPU, FLOWS frames each with as many source
 * ports and addresses (traffic_send() numbers them), which the host's
 * bridge floods into vnode1. RPS picks a CPU by the 4-tuple's hash: 256
 * flows put about 64 on each of 4 CPUs, and one CPU gets fewer than 40 with
 * a chance below 1e-4, whatever the boot's hash seed.
 */
#define SEND_CPU	1
#define FLOWS		256
#define ROUNDS		16
#define ROUND_GAP_US	(20 * 1000)
/*
 * The margins. Without RPS only vnode1's IRQ CPU polls its one queue and
 * nothing else on node 1 receives: it runs nearly all of node 1's NET_RX
 * time; 90 % leaves room for the odd run elsewhere. With RPS over node 1's
 * 4 CPUs the IRQ CPU keeps the driver's poll, the flow hashing and the
 * IPIs, and a quarter of the protocol work; under TCG the driver's part is
 * most of a packet's cost (these frames find no socket), so in 10 runs on
 * 5.10, 6.12 and 7.2 the IRQ CPU had 67-81 %, each other CPU 3.8-14 %.
 * TCG's vCPUs run at uneven speeds and a share is time, hence the low
 * bar of 2 %: a CPU that RPS does not use runs no NET_RX at all (0 ns in
 * every run without steering), so 2 % still tells used from unused.
 */
#define ALONE_PERCENT	90
#define SPREAD_PERCENT	2

/* Node 1's NET_RX per CPU, @a before and @b after the traffic into vnode1. */
static int netrx_under_traffic(FIXTURE_DATA(steer) *self, struct nictl_stats *a,
			       struct nictl_stats *b)
{
	const char *const out[] = { "vnode0", NULL };
	struct nl_result res;
	struct cpus from;
	unsigned int i;
	int ret;

	cpus_zero(&from);
	cpus_set(&from, SEND_CPU);
	/* A round first, which fires the IRQs a bind just moved: they move now. */
	ret = traffic_send(out, &from, FLOWS) ?: rx_settle("vnode1") ?:
	      nictl_stats_get(&self->env.nl, a, &res);
	for (i = 0; i < ROUNDS && !ret; i++) {
		ret = traffic_send(out, &from, FLOWS);
		usleep(ROUND_GAP_US);
	}
	return ret ?: rx_settle("vnode1") ?: nictl_stats_get(&self->env.nl, b, &res);
}

/*
 * vnode1 cut to one queue pair on node 1's 2 cores, many flows arriving.
 * Bound without steering, its IRQ CPU runs node 1's NET_RX; with --steer
 * RPS spreads it over the node's 4 CPUs, each running a real share. Only
 * vnode1 receives on node 1: the sender vnode0 and e1k, which the
 * broadcasts reach too, are bound to node 0, and igb0 (node 1) is down.
 */
TEST_F_TIMEOUT(steer, traffic_spreads_netrx_over_the_node, 600)
{
	/* Static: two dumps of every CPU's counters are large for a stack. */
	static struct nictl_stats a, b;
	struct stats_share share;
	struct netdev_info info;
	struct steering now;
	struct cpus node1;
	char what[64];
	int irq, cpu;

	ASSERT_EQ(0, node_cpus(1, &node1));
	ASSERT_EQ(0, netdev_set_channels("vnode1", 1));
	if (!netdev_info("igb0", &info))
		ASSERT_EQ(0, netdev_set_up("igb0", false));
	ASSERT_EQ(0, CTL(self, "bind", "vnode0", "--numa-local"));
	ASSERT_EQ(0, CTL(self, "bind", "e1k", "--cpus", "1-3"));
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local"));
	irq = queue_irq_cpu(self, "vnode1", 0, true);
	ASSERT_TRUE(irq >= 0 && cpus_test(&node1, irq)) TH_LOG("rx IRQ on CPU %d", irq);

	ASSERT_EQ(0, netrx_under_traffic(self, &a, &b));
	ASSERT_TRUE(stats_enabled_is(&b, true));
	ASSERT_TRUE(stats_share(&a, &b, NICTL_SOFTIRQ_NET_RX, irq, &node1, &share));
	EXPECT_TRUE(share_at_least("NET_RX time on the IRQ CPU without steering",
				   share.time_ns, share.time_all_ns, ALONE_PERCENT));

	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer"));
	ASSERT_EQ(0, steering_read("vnode1", &now));
	ASSERT_TRUE(mask_is("vnode1", "rps_cpus", 0, now.rps_cpus[0], &node1));
	ASSERT_EQ(0, netrx_under_traffic(self, &a, &b));
	for_each_cpu(cpu, &node1) {
		ASSERT_TRUE(stats_share(&a, &b, NICTL_SOFTIRQ_NET_RX, cpu, &node1, &share));
		snprintf(what, sizeof(what), "NET_RX time on CPU %d with --steer", cpu);
		EXPECT_TRUE(share_at_least(what, share.time_ns, share.time_all_ns,
					   SPREAD_PERCENT));
	}
}

/* e1k, one queue pair for node 0's cores but CPU 0: RPS spreads over them. */
TEST_F_TIMEOUT(steer, fewer_queues_than_cores, 300)
{
	struct steering now;
	struct cpus node0;

	ASSERT_EQ(0, node_cpus(0, &node0));
	cpus_clear(&node0, 0);
	ASSERT_EQ(0, CTL(self, "bind", "e1k", "--cpus", "1-3", "--steer"));
	EXPECT_NE(NULL, strstr(self->run.out, "rx queue 0: 1 rx queues for 2 cores on node 0"))
		TH_LOG("stdout: %s", self->run.out);
	ASSERT_EQ(0, steering_read("e1k", &now));
	EXPECT_TRUE(mask_is("e1k", "rps_cpus", 0, now.rps_cpus[0], &node0));
	EXPECT_STREQ("32768", now.flow_cnt[0]);
	EXPECT_EQ(32768, flow_entries());
	EXPECT_EQ(0, CTL(self, "restore", "e1k"));
	EXPECT_TRUE(nothing_changed(self));
}

/* The plan printed by a dry run is what a bind then writes; the dry run writes nothing. */
TEST_F_TIMEOUT(steer, dry_run_shows_the_plan, 300)
{
	const char *plan = "[.[0].steer.rx[] | .rps_cpus_list, .rps_flow_cnt] | tojson";
	struct steering now;
	struct cpus planned;
	char *dry;

	ASSERT_EQ(0, CTL(self, "bind", "e1k", "--cpus", "1-3", "--steer", "--dry-run", "-j"));
	EXPECT_TRUE(nothing_changed(self));
	ASSERT_EQ(0, JQ(self, plan));
	dry = strdup(self->jq.out);
	ASSERT_NE(NULL, dry);
	EXPECT_EQ(0, JQ(self, ".[0].steer.rx[0].rps_cpus_list"));
	self->jq.out[strcspn(self->jq.out, "\n")] = '\0';
	ASSERT_EQ(0, cpus_parse(&planned, self->jq.out));
	ASSERT_EQ(0, CTL(self, "bind", "e1k", "--cpus", "1-3", "--steer", "-j"));
	EXPECT_EQ(0, JQ(self, plan));
	EXPECT_STREQ(dry, self->jq.out);
	free(dry);
	ASSERT_EQ(0, steering_read("e1k", &now));
	EXPECT_TRUE(mask_is("e1k", "rps_cpus", 0, now.rps_cpus[0], &planned));
}

/* Values of its own on every queue and a small RFS table: restore puts back each. */
TEST_F_TIMEOUT(steer, restore_puts_back_exactly, 300)
{
	static const char *const own[][2] = {
		{ "rx-0/rps_cpus", "3" }, { "rx-1/rps_flow_cnt", "128" },
		{ "tx-0/xps_cpus", "30" }, { "tx-1/xps_cpus", "c0" },
	};
	struct steering before;
	char path[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(own); i++) {
		ASSERT_EQ(0, pathf(path, sizeof(path), "/sys/class/net/vnode1/queues/%s",
				   own[i][0]));
		ASSERT_EQ(0, write_str(path, own[i][1])) TH_LOG("%s", path);
	}
	ASSERT_EQ(0, set_flow_entries(4096));
	ASSERT_EQ(0, steering_read("vnode1", &before));
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer"));
	EXPECT_EQ(32768, flow_entries());
	/* vnode1's values, and the RFS table size from before. */
	EXPECT_EQ(2U, kept_files(false));
	EXPECT_EQ(0, CTL(self, "restore", "vnode1"));
	EXPECT_TRUE(steering_is("vnode1", &before));
	EXPECT_EQ(4096, flow_entries());
	EXPECT_EQ(0U, kept_files(false));
}

/* A larger RFS table than nictl's is shared out and never touched. */
TEST_F_TIMEOUT(steer, larger_flow_table_untouched, 300)
{
	struct steering now;

	ASSERT_EQ(0, set_flow_entries(65536));
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer"));
	EXPECT_EQ(65536, flow_entries());
	ASSERT_EQ(0, steering_read("vnode1", &now));
	EXPECT_STREQ("32768", now.flow_cnt[0]);
	EXPECT_STREQ("32768", now.flow_cnt[1]);
	EXPECT_EQ(0, CTL(self, "restore", "vnode1"));
	EXPECT_EQ(65536, flow_entries());
	EXPECT_TRUE(steering_is("vnode1", before_of(self, "vnode1")));
}

/* The RFS table nictl raised stays until the last steered device is restored. */
TEST_F_TIMEOUT(steer, flow_table_kept_for_the_last_device, 300)
{
	ASSERT_EQ(0, CTL(self, "bind", "vnode0", "--numa-local", "--steer"));
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer"));
	EXPECT_EQ(32768, flow_entries());
	EXPECT_EQ(0, CTL(self, "restore", "vnode1"));
	EXPECT_EQ(32768, flow_entries()) TH_LOG("lowered while vnode0 is steered");
	EXPECT_EQ(0, CTL(self, "restore", "vnode0"));
	EXPECT_TRUE(nothing_changed(self));
}

/*
 * vnode1's bind writes 7 values: the RFS table size, rps_flow_cnt and
 * rps_cpus of its two rx queues, xps_cpus of its two tx queues. Failing
 * any one of them puts back everything, the IRQs too; the 8th write is
 * never made, so that bind succeeds.
 */
TEST_F_TIMEOUT(steer, rollback_at_every_write, 900)
{
	char k[8];
	int fault;

	for (fault = 1; fault <= 7; fault++) {
		snprintf(k, sizeof(k), "%d", fault);
		ASSERT_EQ(0, setenv("NICTL_FAULT_STEER_WRITE", k, 1));
		EXPECT_EQ(1, CTL(self, "bind", "vnode1", "--numa-local", "--steer"))
			TH_LOG("write %d failing", fault);
		EXPECT_TRUE(one_line_error(&self->run, "cannot steer vnode1"));
		EXPECT_TRUE(nothing_changed(self)) TH_LOG("after write %d failed", fault);
	}
	ASSERT_EQ(0, setenv("NICTL_FAULT_STEER_WRITE", "8", 1));
	EXPECT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer"));
}

/* A CPU list that leaves no CPU is refused before anything changes. */
TEST_F_TIMEOUT(steer, no_cpu_left_is_refused, 300)
{
	EXPECT_NE(0, CTL(self, "bind", "vnode1", "--cpus", "4-5", "--exclude", "4-5", "--steer"));
	EXPECT_EQ(1U, count_lines(self->run.err));
	EXPECT_TRUE(nothing_changed(self));
}

/* Without the queues' rps_cpus (here: a sysfs root that has none), RPS is not available. */
TEST_F_TIMEOUT(steer, no_rps_is_refused, 300)
{
	char root[] = "/tmp/nictl-nosysfs-XXXXXX";

	ASSERT_NE(NULL, mkdtemp(root));
	ASSERT_EQ(0, setenv("NICTL_SYSFS", root, 1));
	EXPECT_EQ(1, CTL(self, "bind", "vnode1", "--cpus", "4,6", "--allow-siblings", "--steer"));
	unsetenv("NICTL_SYSFS");
	rmdir(root);
	EXPECT_TRUE(one_line_error(&self->run, "RPS is not available on vnode1"));
	EXPECT_TRUE(nothing_changed(self));
}

/* A read-only sysfs (in a mount namespace of its own) is refused up front. */
TEST_F_TIMEOUT(steer, read_only_sysfs_is_refused, 300)
{
	const char *const wrap[] = {
		"unshare", "-m", "sh", "-c", "mount -o remount,bind,ro /sys && exec \"$0\" \"$@\"",
		NULL
	};

	EXPECT_EQ(1, run_ctl(&self->run, false, wrap, (const char *const []){
		"bind", "vnode1", "--numa-local", "--steer", NULL }));
	EXPECT_TRUE(one_line_error(&self->run, "steering needs sysfs writable"));
	EXPECT_TRUE(nothing_changed(self));
}

/*
 * What `show -j` says of @ifname's steering, one line per value, as the
 * lines @want_show() makes from sysfs.
 */
#define SHOW_STEERING \
	".[0].steering | \"entries \\(.rps_sock_flow_entries)\", " \
	"(.rx[] | \"rx \\(.queue) \\(.rps_cpus_list) \\(.rps_flow_cnt)\"), " \
	"(.tx[] | \"tx \\(.queue) \\(.xps_cpus_list)\"), " \
	"(.warnings[] | \"warning \\(.what) \\(.queue)\")"

/* A sysfs mask as the cpulist show prints. */
static const char *mask_list(const char *mask, char *buf, size_t len)
{
	struct cpus s;

	if (mask_cpus(mask, &s))
		return "(not a mask)";
	cpus_format(&s, buf, len);
	return buf;
}

/* The lines SHOW_STEERING should print for @ifname: its values in sysfs, no warning. */
static char *want_show(const char *ifname)
{
	char list[CPUS_LIST_LEN], *text = NULL;
	struct steering now;
	size_t len = 0;
	unsigned int q;
	FILE *f;

	if (steering_read(ifname, &now))
		return NULL;
	f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	fprintf(f, "entries %ld\n", flow_entries());
	for (q = 0; q < now.rx; q++)
		fprintf(f, "rx %u %s %s\n", q, mask_list(now.rps_cpus[q], list, sizeof(list)),
			now.flow_cnt[q]);
	for (q = 0; q < now.tx; q++)
		fprintf(f, "tx %u %s\n", q,
			now.xps ? mask_list(now.xps_cpus[q], list, sizeof(list)) : "null");
	fclose(f);
	return text;
}

static bool show_is_sysfs(FIXTURE_DATA(steer) *self, const char *ifname)
{
	char *want = want_show(ifname);
	bool ok;

	ok = want && !CTL(self, "show", ifname, "-j") && !JQ(self, SHOW_STEERING) &&
	     !strcmp(want, self->jq.out);
	if (!ok)
		fprintf(stderr, "# show %s -j, want:\n%s# got:\n%s", ifname, want ?: "?\n",
			self->jq.out);
	free(want);
	return ok;
}

/* After bind --steer, show reports every value sysfs holds, and nothing contradicts. */
TEST_F_TIMEOUT(steer, show_reports_the_steering, 300)
{
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer"));
	ASSERT_EQ(0, CTL(self, "bind", "e1k", "--cpus", "1-3", "--steer"));
	EXPECT_TRUE(show_is_sysfs(self, "vnode1"));
	EXPECT_TRUE(show_is_sysfs(self, "e1k"));
	EXPECT_EQ(0, CTL(self, "show", "vnode1"));
	EXPECT_EQ(NULL, strstr(self->run.out, "warning:")) TH_LOG("stdout: %s", self->run.out);
	EXPECT_EQ(0, CTL(self, "restore", "vnode1"));
	EXPECT_EQ(0, CTL(self, "restore", "e1k"));
	EXPECT_TRUE(nothing_changed(self));
}

/* @cpus as a sysfs mask; the guests have fewer than 32 CPUs. */
static void cpus_mask(const struct cpus *cpus, char *buf, size_t len)
{
	unsigned long bits = 0;
	int cpu;

	for_each_cpu(cpu, cpus)
		bits |= 1UL << cpu;
	snprintf(buf, len, "%lx", bits);
}

/* RPS of vnode1's rx queue 0, whose IRQ is on node 1, onto node 0 by hand: show warns. */
TEST_F_TIMEOUT(steer, show_flags_rps_onto_the_other_node, 300)
{
	char path[256], mask[MASK_LEN], list[CPUS_LIST_LEN], want[CPUS_LIST_LEN + 80];
	struct cpus node0;

	ASSERT_EQ(0, node_cpus(0, &node0));
	cpus_mask(&node0, mask, sizeof(mask));
	cpus_format(&node0, list, sizeof(list));
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--steer"));
	ASSERT_EQ(0, queue_file(path, sizeof(path), "vnode1", "rx", 0, "rps_cpus"));
	ASSERT_EQ(0, write_str(path, mask));
	EXPECT_EQ(0, CTL(self, "show", "vnode1"));
	snprintf(want, sizeof(want),
		 "  warning: rx queue 0: rps_cpus has CPUs %s of another node", list);
	EXPECT_NE(NULL, strstr(self->run.out, want))
		TH_LOG("want '%s' in stdout:\n%s", want, self->run.out);
	EXPECT_EQ(1U, count_lines(strstr(self->run.out, "warning:") ?: ""))
		TH_LOG("want one warning in stdout:\n%s", self->run.out);
	EXPECT_EQ(0, CTL(self, "show", "vnode1", "-j"));
	EXPECT_EQ(0, JQ(self, ".[0].steering.warnings[] | \"\\(.what) \\(.queue)\""));
	EXPECT_STREQ("rps-other-node 0\n", self->jq.out);
	EXPECT_EQ(0, CTL(self, "restore", "vnode1"));
	EXPECT_TRUE(nothing_changed(self));
}

/* Without rps_cpus (a sysfs root that has none) show prints "-" and judges nothing. */
TEST_F_TIMEOUT(steer, show_without_rps, 300)
{
	char root[] = "/tmp/nictl-nosysfs-XXXXXX";
	int ret;

	ASSERT_NE(NULL, mkdtemp(root));
	ASSERT_EQ(0, setenv("NICTL_SYSFS", root, 1));
	ret = CTL(self, "show", "e1k", "-j");
	unsetenv("NICTL_SYSFS");
	rmdir(root);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, JQ(self, ".[0].steering | [.rx[].rps_cpus, .rx[].rps_flow_cnt, "
			  ".tx[].xps_cpus, (.warnings | length)] | tojson"));
	EXPECT_STREQ("[null,null,null,0]\n", self->jq.out);
}

TEST_F_TIMEOUT(steer, unknown_device_is_refused, 120)
{
	EXPECT_EQ(1, CTL(self, "bind", "nictl-nodev", "--steer"));
	EXPECT_TRUE(one_line_error(&self->run, "no such device"));
	EXPECT_TRUE(nothing_changed(self));
}

NICTL_TEST_MAIN
