// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl doctor in the guest: each finding provoked on purpose on vnode1
 * (node 1, CPUs 4-7, two queue pairs) or the host, reported with the
 * numbers that provoke it, and absent on the healthy, bound, steered and
 * governed vnode1 under traffic. Every doctor run observes for one second
 * (-i 1) while the test sends frames, and prints JSON that jq inspects.
 * irqbalance is not installed in the guests: a stand-in answers its control
 * socket, as irqbalance 1.2 and later do, from a directory the test names.
 */
#include <errno.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "main.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "traffic.h"

#define DEV		"vnode1"
#define THREADED	"/sys/class/net/" DEV "/threaded"
#define BUDGET		"/proc/sys/net/core/netdev_budget"
#define BUDGET_USECS	"/proc/sys/net/core/netdev_budget_usecs"
#define MAX_BACKLOG	"/proc/sys/net/core/netdev_max_backlog"
#define CONF		"/tmp/nictl-doctor.conf"
#define IRQB_DIR	"/tmp/nictl-doctor-irqb"
#define BANNED_FILE	"/tmp/nictl-doctor-banned"
/* Enough frames to keep the receiving NICs busy for the doctor's second. */
#define FLOOD_FRAMES	4000

static const char *const flood_from[] = { "vnode0", "igb0", NULL };

FIXTURE(doctor) {
	struct test_env env;
	struct run_result run;
	struct run_result jq;
	char budget[32];
	char budget_usecs[32];
	char max_backlog[32];
	char rps[2][64];		/* vnode1's rps_cpus, when a test set them */
	struct ethtool_ringparam ring;	/* e1k's, to put back */
	pid_t irqbalance;
};

static int ring_ioctl(const char *ifname, struct ethtool_ringparam *ring)
{
	struct ifreq ifr = { .ifr_data = (void *)ring };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), ret;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ret = ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
	close(fd);
	return ret;
}

static int write_conf(const char *rule_dev)
{
	FILE *f = fopen(CONF, "w");

	if (!f)
		return -errno;
	fprintf(f, "[rule doctor]\nmatch-name = %s\ncpus = numa-local\nsteer = auto\n", rule_dev);
	return fclose(f) ? -errno : 0;
}

FIXTURE_SETUP(doctor)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, read_str(BUDGET, self->budget, sizeof(self->budget)));
	ASSERT_EQ(0, read_str(BUDGET_USECS, self->budget_usecs, sizeof(self->budget_usecs)));
	ASSERT_EQ(0, read_str(MAX_BACKLOG, self->max_backlog, sizeof(self->max_backlog)));
	self->ring.cmd = ETHTOOL_GRINGPARAM;
	ASSERT_EQ(0, ring_ioctl("e1k", &self->ring));
	/* A rule governs vnode1 unless a test says otherwise. */
	ASSERT_EQ(0, write_conf(DEV));
}

FIXTURE_TEARDOWN(doctor)
{
	struct ethtool_ringparam ring = self->ring;
	char path[128];
	unsigned int q;

	if (self->irqbalance > 0) {
		kill(self->irqbalance, SIGTERM);
		waitpid(self->irqbalance, NULL, 0);
	}
	unsetenv("NICTL_IRQBALANCE_DIR");
	EXPECT_EQ(0, write_str(BUDGET, self->budget));
	EXPECT_EQ(0, write_str(BUDGET_USECS, self->budget_usecs));
	EXPECT_EQ(0, write_str(MAX_BACKLOG, self->max_backlog));
	for (q = 0; q < 2; q++) {
		pathf(path, sizeof(path), "/sys/class/net/" DEV "/queues/rx-%u/rps_cpus", q);
		if (self->rps[q][0])
			EXPECT_EQ(0, write_str(path, self->rps[q]));
	}
	ring.cmd = ETHTOOL_SRINGPARAM;
	EXPECT_EQ(0, ring_ioctl("e1k", &ring));
	EXPECT_EQ(0, netdev_set_channels(DEV, 2));
	if (!access(THREADED, F_OK))
		EXPECT_EQ(0, write_str(THREADED, "0"));
	/* Undoes a bind --steer's steering too; nothing bound is no failure here. */
	run_ctl(&self->run, false, NULL, (const char *const []){ "restore", DEV, NULL });
	unlink(CONF);
	unlink(BANNED_FILE);
	EXPECT_EQ(0, env_teardown(&self->env));
}

#define CTL(self, ...) \
	run_ctl(&(self)->run, false, NULL, (const char *const []){ __VA_ARGS__, NULL })

/*
 * Run doctor -j -i 1 with @extra (NULL-terminated) while @frames frames per
 * CPU flood the NICs: its exit status, its JSON in self->run.out.
 */
static int doctor(FIXTURE_DATA(doctor) *self, unsigned int frames, const char *const *extra)
{
	const char *args[16] = { "doctor", "-j", "-i", "1", "-c", CONF };
	struct spawned sp;
	struct cpus online;
	unsigned int n = 6;
	int ret;

	while (*extra && n < ARRAY_SIZE(args) - 1)
		args[n++] = *extra++;
	args[n] = NULL;
	if (sys_online_cpus(&online) || spawn_ctl(&sp, args))
		return -1;
	self->run.out[0] = '\0';
	if (frames)
		traffic_send(flood_from, &online, frames);
	while (read_more(sp.out, self->run.out, sizeof(self->run.out), 30000) > 0)
		;
	ret = spawn_stop(&sp, 0, 30000);
	fprintf(stderr, "# doctor %s exited %d:\n# %s\n", args[n - 1], ret, self->run.out);
	return ret;
}

#define DOCTOR(self, frames, ...) doctor(self, frames, (const char *const []){ __VA_ARGS__, NULL })

/* jq @filter over the last doctor's JSON, as one line without the newline. */
static const char *jq(FIXTURE_DATA(doctor) *self, const char *filter)
{
	char *nl;

	if (run_jq(&self->jq, self->run.out, filter))
		return "(jq failed)";
	nl = strchr(self->jq.out, '\n');
	if (nl)
		*nl = '\0';
	return self->jq.out;
}

/* The evidence field @key of finding @id on @dev (null: the host), or "null". */
static const char *evidence(FIXTURE_DATA(doctor) *self, const char *id, const char *key)
{
	char filter[256];

	snprintf(filter, sizeof(filter), "[.findings[] | select(.id == \"%s\")][0].evidence.%s",
		 id, key);
	return jq(self, filter);
}

static bool found(FIXTURE_DATA(doctor) *self, const char *id)
{
	char filter[256];

	snprintf(filter, sizeof(filter), "any(.findings[]; .id == \"%s\")", id);
	return !strcmp(jq(self, filter), "true");
}

/* vnode1's queue IRQs, counted as the doctor's JSON prints a number. */
static const char *queue_irqs(FIXTURE_DATA(doctor) *self)
{
	static char buf[16];
	struct nictl_dev dev;
	struct nl_result res;

	if (nictl_dev_get(&self->env.nl, DEV, &dev, &res))
		return "(DEV_GET failed)";
	snprintf(buf, sizeof(buf), "%u", dev.n_irqs);
	return buf;
}

/* Write @cpus to the affinity of every queue IRQ of vnode1, then make them fire. */
static int move_irqs(FIXTURE_DATA(doctor) *self, const char *cpus)
{
	struct nictl_dev dev;
	struct nl_result res;
	char path[64];
	unsigned int i;
	int err;

	err = nictl_dev_get(&self->env.nl, DEV, &dev, &res);
	for (i = 0; !err && i < dev.n_irqs; i++) {
		pathf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", dev.irqs[i].num);
		err = write_str(path, cpus);
	}
	return err ?: traffic_burst(test_nics);
}

/*
 * Under traffic, a share of the guest's time: on a kernel the suite calls N times slower (the
 * debug kernel, NICTL_TIMEOUT_SCALE), 200 frames per CPU kept a node-0 CPU over hot-cpu's 50 %
 * of NET_RX, a finding about the kernel's speed and not about vnode1.
 */
TEST_F_TIMEOUT(doctor, healthy_bound_device_has_no_problem, 300)
{
	ASSERT_EQ(0, CTL(self, "bind", DEV, "--numa-local", "--steer"));
	ASSERT_EQ(0, traffic_burst(test_nics));
	EXPECT_EQ(0, DOCTOR(self, 200 / timeout_scale(), DEV));
	EXPECT_STREQ("0", jq(self, "[.findings[] | select(.severity != \"info\")] | length"));
}

TEST_F_TIMEOUT(doctor, all_irqs_on_cpu0_then_fix, 300)
{
	ASSERT_EQ(0, move_irqs(self, "0"));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	EXPECT_STREQ("0", evidence(self, "irq-single-cpu", "cpu"));
	EXPECT_STREQ("0", evidence(self, "irq-cpu0", "cpus"));
	EXPECT_STREQ("0", evidence(self, "irq-far-node", "cpus"));
	EXPECT_STREQ("nictlctl bind vnode1 --numa-local --steer",
		     jq(self, "[.findings[] | select(.id == \"irq-cpu0\")][0].fix"));
	/* --fix binds, and what it fixed no longer counts. */
	EXPECT_EQ(0, DOCTOR(self, 0, "--fix", DEV));
	EXPECT_STREQ("true", jq(self, "[.findings[] | select(.id == \"irq-cpu0\")][0].fixed"));
	ASSERT_EQ(0, CTL(self, "show", "-j", DEV));
	EXPECT_EQ(0, run_jq(&self->jq, self->run.out,
			    "[.[0].irqs[].target_cpu] | all(. >= 4 and . <= 7)"));
	EXPECT_STREQ("true\n", self->jq.out);
}

/*
 * A CPU irqbalance is told to keep free, in the file the daemon's
 * configuration names: the finding says who banned it, and --fix binds
 * off it as the suggested --exclude says.
 */
TEST_F_TIMEOUT(doctor, irqs_on_a_banned_cpu_then_fix, 300)
{
	FILE *f = fopen(CONF, "w");
	char want[256];

	ASSERT_NE(NULL, f);
	fprintf(f, "[daemon]\nbanned-cpus-file = %s\n[rule doctor]\nmatch-name = %s\n"
		"cpus = numa-local\nsteer = auto\n", BANNED_FILE, DEV);
	ASSERT_EQ(0, fclose(f));
	ASSERT_EQ(0, write_file(BANNED_FILE, "IRQBALANCE_BANNED_CPULIST=4\n"));
	ASSERT_EQ(0, move_irqs(self, "4"));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	EXPECT_STREQ("4", evidence(self, "irq-banned-cpu", "cpus"));
	snprintf(want, sizeof(want), "%s of %s queue IRQs on CPU 4, banned for other work: "
		 "IRQBALANCE_BANNED_CPULIST=4 in " BANNED_FILE " (4)", queue_irqs(self),
		 queue_irqs(self));
	EXPECT_STREQ(want, jq(self, "[.findings[] | select(.id == \"irq-banned-cpu\")][0].summary"));
	EXPECT_STREQ("nictlctl bind vnode1 --numa-local --exclude 4 --steer",
		     jq(self, "[.findings[] | select(.id == \"irq-banned-cpu\")][0].fix"));
	EXPECT_EQ(0, DOCTOR(self, 0, "--fix", DEV));
	EXPECT_STREQ("true", jq(self, "[.findings[] | select(.id == \"irq-banned-cpu\")][0].fixed"));
	ASSERT_EQ(0, CTL(self, "show", "-j", DEV));
	EXPECT_EQ(0, run_jq(&self->jq, self->run.out,
			    "[.[0].irqs[].target_cpu] | all(. >= 5 and . <= 7)"));
	EXPECT_STREQ("true\n", self->jq.out);
	unlink(BANNED_FILE);
}

TEST_F_TIMEOUT(doctor, irqs_on_the_far_node, 300)
{
	ASSERT_EQ(0, CTL(self, "bind", DEV, "--node", "0"));
	ASSERT_EQ(0, traffic_burst(test_nics));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	EXPECT_STREQ(queue_irqs(self), evidence(self, "irq-far-node", "irqs_count"));
	EXPECT_FALSE(found(self, "irq-cpu0"));
	EXPECT_FALSE(found(self, "irq-single-cpu"));
}

/*
 * vnode1 polled in threads, its IRQs bound to node 1: each thread may still
 * run anywhere, so the IRQ wakes a thread that may poll on node 0. The
 * finding names one and says how to move it; once every thread is on its
 * IRQ's CPU it is gone. Without threaded NAPI (5.10) there is no finding.
 */
TEST_F_TIMEOUT(doctor, napi_thread_on_another_node_then_taskset, 300)
{
	char filter[256], fix[64], pids[256];
	unsigned int cpu, pid, n;
	const char *p;
	int used;

	ASSERT_EQ(0, CTL(self, "bind", DEV, "--numa-local", "--steer"));
	if (access(THREADED, F_OK)) {
		EXPECT_LE(0, DOCTOR(self, 0, DEV));
		EXPECT_FALSE(found(self, "napi-thread-other-node"));
		return;
	}
	ASSERT_EQ(0, write_str(THREADED, "1"));
	ASSERT_EQ(0, traffic_burst(test_nics));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	snprintf(filter, sizeof(filter),
		 "[.findings[] | select(.id == \"napi-thread-other-node\")][0].fix");
	snprintf(fix, sizeof(fix), "%s", jq(self, filter));
	EXPECT_EQ(2, sscanf(fix, "taskset -pc %u %u", &cpu, &pid)) TH_LOG("fix: %s", fix);
	EXPECT_STREQ("0-3", evidence(self, "napi-thread-other-node", "far_cpus"));

	/* Every thread with its IRQ, as show lists them: the finding goes. */
	ASSERT_EQ(0, CTL(self, "show", "-j", DEV));
	ASSERT_EQ(0, run_jq(&self->jq, self->run.out, "[.[0].napi_threads.threads[] | "
			    "\"\\(.irq_cpu) \\(.pid)\"] | join(\",\")"));
	snprintf(pids, sizeof(pids), "%.200s", self->jq.out);
	for (p = pids, n = 0; sscanf(p, "%u %u%n", &cpu, &pid, &used) == 2; n++) {
		char c[16], t[16];

		snprintf(c, sizeof(c), "%u", cpu);
		snprintf(t, sizeof(t), "%u", pid);
		EXPECT_EQ(0, SH("taskset", "-pc", c, t));
		p += used + (p[used] == ',');
	}
	EXPECT_LT(0, n) TH_LOG("threads: %s", pids);
	EXPECT_EQ(0, DOCTOR(self, 0, DEV));
	EXPECT_FALSE(found(self, "napi-thread-other-node"));
}

TEST_F_TIMEOUT(doctor, two_queues_on_smt_siblings, 300)
{
	struct cpus core;

	ASSERT_EQ(0, cpu_core(4, &core));
	ASSERT_TRUE(cpus_test(&core, 5)) TH_LOG("guest CPUs 4 and 5 are not one core");
	ASSERT_EQ(0, CTL(self, "bind", DEV, "--cpus", "4,5", "--allow-siblings"));
	ASSERT_EQ(0, traffic_burst(test_nics));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	EXPECT_STREQ("4-5", evidence(self, "irq-smt-siblings", "cpus"));
	EXPECT_STREQ("2", evidence(self, "irq-smt-siblings", "node_cores"));
}

/* The stand-in irqbalance: answers "setup" with @banned as its only ban. */
static void serve_irqbalance(unsigned int banned)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char reply[128], cmd[256];
	int fd, c;

	snprintf(addr.sun_path, sizeof(addr.sun_path), IRQB_DIR "/irqbalance%d.sock", getpid());
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) || listen(fd, 4))
		_exit(1);
	snprintf(reply, sizeof(reply), "SLEEP 10 IRQ %u LOAD 0 DIFF 0 CLASS 0 BANNED 00000000\n",
		 banned);
	while ((c = accept(fd, NULL, NULL)) >= 0) {
		if (read(c, cmd, sizeof(cmd)) > 0 && !strncmp(cmd, "setup", 5))
			write(c, reply, strlen(reply));
		close(c);
	}
	_exit(0);
}

TEST_F_TIMEOUT(doctor, irqbalance_without_a_ban, 300)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus unbanned;
	char want[CPUS_LIST_LEN];
	unsigned int i;

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &dev, &res));
	ASSERT_LE(2, dev.n_irqs);
	/* IRQ numbers in a cpulist, the doctor's form for lists of them too. */
	cpus_zero(&unbanned);
	for (i = 1; i < dev.n_irqs; i++)
		cpus_set(&unbanned, dev.irqs[i].num);
	cpus_format(&unbanned, want, sizeof(want));
	mkdir(IRQB_DIR, 0700);
	self->irqbalance = fork_flushed();
	ASSERT_LE(0, self->irqbalance);
	if (!self->irqbalance)
		serve_irqbalance(dev.irqs[0].num);
	ASSERT_EQ(0, setenv("NICTL_IRQBALANCE_DIR", IRQB_DIR, 1));
	ASSERT_EQ(0, CTL(self, "bind", DEV, "--numa-local"));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	EXPECT_STREQ(want, evidence(self, "irqbalance-unbanned", "irqs"));
	snprintf(want, sizeof(want), "%d", self->irqbalance);
	EXPECT_STREQ(want, evidence(self, "irqbalance-unbanned", "irqbalance_pid"));
}

TEST_F_TIMEOUT(doctor, one_queue_without_rps, 300)
{
	ASSERT_EQ(0, netdev_set_channels(DEV, 1));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	EXPECT_STREQ("1", evidence(self, "few-queues-no-rps", "rx_queues"));
	EXPECT_STREQ("2", evidence(self, "few-queues-no-rps", "node_cores"));
	EXPECT_STREQ("ethtool -L vnode1 combined 2",
		     jq(self, "[.findings[] | select(.id == \"few-queues-no-rps\")][0].fix"));
}

/*
 * The README's tour binds with --numa-local --steer --sticky: after it
 * neither show nor doctor has anything to warn about on the device (with
 * --numa-local alone, show warns that XPS is on the other node).
 */
TEST_F_TIMEOUT(doctor, readme_bind_leaves_nothing_to_warn_about, 300)
{
	ASSERT_EQ(0, CTL(self, "bind", DEV, "--numa-local", "--steer", "--sticky"));
	ASSERT_EQ(0, CTL(self, "show", DEV));
	EXPECT_EQ(NULL, strstr(self->run.out, "warning:")) TH_LOG("%s", self->run.out);
	DOCTOR(self, 0, DEV);
	EXPECT_STREQ("", jq(self, "[.findings[] | select(.ifname == \"" DEV "\" and "
			    ".severity != \"info\") | .id] | join(\" \")"));
}

TEST_F_TIMEOUT(doctor, bound_device_without_a_rule, 300)
{
	ASSERT_EQ(0, write_conf("vnode0"));
	ASSERT_EQ(0, CTL(self, "bind", DEV, "--numa-local", "--steer"));
	EXPECT_EQ(1, DOCTOR(self, 0, DEV));
	EXPECT_STREQ("no-daemon-rule", jq(self, "[.findings[] | select(.ifname == \"vnode1\" and "
					  ".severity != \"info\") | .id] | join(\" \")"));
}

/* A budget of one packet ends nearly every net_rx_action with work left. */
TEST_F_TIMEOUT(doctor, tiny_budget_under_a_flood_squeezes, 300)
{
	ASSERT_EQ(0, write_str(BUDGET, "1"));
	DOCTOR(self, FLOOD_FRAMES, DEV);
	EXPECT_TRUE(found(self, "softnet-squeeze"));
	EXPECT_STREQ("1", evidence(self, "softnet-squeeze", "netdev_budget"));
	EXPECT_STREQ("null", jq(self, "[.findings[] | select(.id == \"softnet-squeeze\")][0]"
				".ifname"));
}

/*
 * QEMU's e1000e holds frames back while its ring is full rather than drop
 * and count them, so a tiny ring is seen but never drops here: the finding
 * is the info one (nic-drops and the warning are left to the unit tests).
 */
TEST_F_TIMEOUT(doctor, tiny_ring_is_seen, 300)
{
	struct ethtool_ringparam ring = self->ring;

	ring.cmd = ETHTOOL_SRINGPARAM;
	ring.rx_pending = 64;
	ASSERT_EQ(0, ring_ioctl("e1k", &ring));
	ASSERT_EQ(0, traffic_burst(test_nics));
	DOCTOR(self, FLOOD_FRAMES, "e1k");
	EXPECT_STREQ("64", evidence(self, "ring-small", "ring"));
	EXPECT_STREQ("4096", evidence(self, "ring-small", "ring_max"));
	EXPECT_STREQ("ethtool -G e1k rx 4096",
		     jq(self, "[.findings[] | select(.id == \"ring-small\")][0].fix"));
}

/*
 * RPS hands vnode1's packets to every CPU through their backlogs; with room
 * for one packet there, a flood overflows them.
 */
TEST_F_TIMEOUT(doctor, tiny_backlog_under_a_flood_drops, 300)
{
	char path[128];
	unsigned int q;

	for (q = 0; q < 2; q++) {
		pathf(path, sizeof(path), "/sys/class/net/" DEV "/queues/rx-%u/rps_cpus", q);
		ASSERT_EQ(0, read_str(path, self->rps[q], sizeof(self->rps[q])));
		ASSERT_EQ(0, write_str(path, "ff"));
	}
	ASSERT_EQ(0, write_str(MAX_BACKLOG, "1"));
	DOCTOR(self, FLOOD_FRAMES, DEV);
	EXPECT_TRUE(found(self, "softnet-backlog-drops"));
	EXPECT_STREQ("1", evidence(self, "softnet-backlog-drops", "netdev_max_backlog"));
	EXPECT_STREQ("sysctl -w net.core.netdev_max_backlog=2",
		     jq(self, "[.findings[] | select(.id == \"softnet-backlog-drops\")][0].fix"));
}

NICTL_TEST_MAIN
