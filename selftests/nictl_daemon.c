// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl daemon keeps a configuration applied. With the daemon running on
 * rules for vnode1 (by MAC: numa-local, steer = auto) and e1k (by driver:
 * node 0),
 * each of the things that undo a binding in the field is done to the guest:
 * a PCI rebind, ethtool -L, CPU hotplug, a write to /proc/irq, an e1000e
 * down/up (its IRQs are requested at open), a reload of the module. After
 * each, every queue IRQ must be back on a CPU of its policy within a bounded
 * wait, as /proc/irq shows it, vnode1's RPS, RFS and XPS must be its
 * steering plan again (after a reload and ethtool -L: a new device, new
 * queues, RPS on with one queue and off with two), `restore` must put the
 * steering back as it was, and a separate `nictlctl monitor -j` saw the
 * module report what happened and the daemon's bind that answered it,
 * both in the audit trail of events. Also: a bad file
 * refuses to start and names its line, SIGHUP with a broken file keeps the
 * rules in force, --once.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "main.h"
#include "module.h"
#include "napicfg.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "steering.h"
#include "sys.h"
#include "verify.h"

#define CONF		"/tmp/nictl-daemon.conf"
#define DAEMON_LOG	"/tmp/nictl-daemon.log"
/* Room for every event one test makes the monitor print. */
#define MONITOR_LEN	(1 << 20)

static const struct governed vnode1 = { "vnode1", 1, 4, true, false, NULL };
static const struct governed e1k = { "e1k", 0, 2, true, false, NULL };

FIXTURE(daemon) {
	struct test_env env;
	struct netdev_info vnode1;
	char driver[64];	/* of vnode1's PCI function */
	pid_t pid;		/* the daemon, 0 when not running */
	struct spawned monitor;	/* nictlctl monitor -j */
	char *events;		/* what it printed so far */
	struct steering before;	/* vnode1's, before the daemon steered it */
	long flow_before;	/* net.core.rps_sock_flow_entries, the same */
};

/* The rules: vnode1 by its MAC, e1000e by driver. */
static int write_conf(void)
{
	return write_conf_mac(CONF, "vnode1",
			      "# written by nictl_daemon\n"
			      "[rule node1-nic]\n"
			      "match-mac = %s\n"
			      "cpus = numa-local\n"
			      "steer = auto\n"
			      "\n"
			      "[rule onboard]\n"
			      "match-driver = e1000e\n"
			      "cpus = node 0\n");
}

/*
 * The lines of monitor output @text that report @event about @ifname (NULL:
 * any device) sent for pid @pid (0: any; only bound and restored carry one).
 */
static unsigned int count_events(const char *text, const char *event, const char *ifname,
				 pid_t pid)
{
	char want_event[64], want_dev[64], want_pid[32];
	const char *line, *end, *p;
	unsigned int n = 0;
	bool ok;

	snprintf(want_event, sizeof(want_event), "\"event\":\"%s\"", event);
	snprintf(want_dev, sizeof(want_dev), "\"ifname\":\"%s\"", ifname ?: "");
	snprintf(want_pid, sizeof(want_pid), "\"pid\":%d", pid);
	for (line = text; *line; line = *end ? end + 1 : end) {
		end = strchrnul(line, '\n');
		p = memmem(line, end - line, want_event, strlen(want_event));
		ok = p && (!ifname || memmem(line, end - line, want_dev, strlen(want_dev)));
		p = pid ? memmem(line, end - line, want_pid, strlen(want_pid)) : NULL;
		if (pid && (!p || (p[strlen(want_pid)] >= '0' && p[strlen(want_pid)] <= '9')))
			ok = false;
		n += ok;
	}
	return n;
}

/* The monitor printed at least @n such events, within the wait. */
static bool monitor_saw(FIXTURE_DATA(daemon) *self, unsigned int n, const char *event,
			const char *ifname, pid_t pid)
{
	struct timespec t0, t;
	unsigned int seen;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		seen = count_events(self->events, event, ifname, pid);
		if (seen < n && read_more(self->monitor.out, self->events, MONITOR_LEN, 1000) < 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (seen < n && t.tv_sec - t0.tv_sec < DAEMON_WAIT_S);
	if (seen < n)
		fprintf(stderr, "# monitor: %u %s event(s) about %s%s, want %u\n", seen, event,
			ifname ?: "any device", pid ? " from the daemon" : "", n);
	return seen >= n;
}

/*
 * Start the monitor and wait until it listens: vnode0, which no rule
 * governs, goes down and up until the monitor prints its up event.
 */
static int start_monitor(FIXTURE_DATA(daemon) *self)
{
	int i, ret;

	ret = spawn_ctl(&self->monitor, (const char *const []){ "monitor", "-j", NULL });
	for (i = 0; !ret && i < DAEMON_WAIT_S; i++) {
		ret = netdev_set_up("vnode0", false) ?: netdev_set_up("vnode0", true);
		if (!ret && read_more(self->monitor.out, self->events, MONITOR_LEN, 1000) >= 0 &&
		    count_events(self->events, "up", "vnode0", 0))
			return 0;
	}
	fprintf(stderr, "# the monitor did not start listening: %s\n", strerror(-ret));
	return ret ?: -ETIMEDOUT;
}

/* The daemon's binds of @ifname the monitor saw: at least @n. */
#define ANSWERED(self, n, ifname) monitor_saw(self, n, "bound", ifname, (self)->pid)

/* vnode1's steering CPUs: those of its rule, node 1's; no guest CPU is isolated. */
static bool vnode1_steered(struct nl_client *nl, bool loud)
{
	struct cpus node;

	return !node_cpus(vnode1.node, &node) && steering_follows(nl, "vnode1", &node, loud);
}

/*
 * The daemon steers after its bind returns, and a device can be in policy
 * before that bind (a sticky binding applied in the kernel): poll.
 */
static bool steering_settles(struct nl_client *nl)
{
	unsigned int i;

	for (i = 0; i < DAEMON_WAIT_S * 5; i++) {
		if (vnode1_steered(nl, false))
			return true;
		usleep(200 * 1000);
	}
	return vnode1_steered(nl, true);
}

/* nictlctl restore vnode1: 0, or its exit status after printing its stderr. */
static int restore_vnode1(void)
{
	struct run_result *r = malloc(sizeof(*r));
	int status;

	if (!r)
		return -ENOMEM;
	status = run_ctl(r, false, NULL, (const char *const []){ "restore", "vnode1", NULL });
	if (status)
		fprintf(stderr, "# nictlctl restore vnode1: %d: %s\n", status, r->err);
	free(r);
	return status;
}

FIXTURE_SETUP(daemon)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_NE(NULL, getenv("NICTL_CTL"));
	ASSERT_EQ(0, netdev_info("vnode1", &self->vnode1));
	pci_driver_name(self->vnode1.pci_path, self->driver, sizeof(self->driver));
	ASSERT_STREQ("virtio-pci", self->driver);
	ASSERT_EQ(0, write_conf());
	ASSERT_EQ(0, steering_read("vnode1", &self->before));
	self->flow_before = flow_entries();
	unlink(DAEMON_LOG);
	self->pid = 0;
	self->monitor.pid = 0;
	self->events = calloc(1, MONITOR_LEN);
	ASSERT_NE(NULL, self->events);
	ASSERT_EQ(0, start_monitor(self));
}

FIXTURE_TEARDOWN(daemon)
{
	struct netdev_info now;

	if (self->pid)
		EXPECT_EQ(0, daemon_stop(self->pid));
	daemon_dump_log(DAEMON_LOG, NULL);
	/* After a reload of the module the monitor has ended by itself. */
	if (self->monitor.pid > 0)
		spawn_stop(&self->monitor, SIGTERM, 5000);
	free(self->events);
	EXPECT_EQ(0, netdev_revive(self->vnode1.pci_path, self->driver, "vnode1"));
	if (!netdev_info("vnode1", &now) && now.rx_queues != self->vnode1.rx_queues)
		EXPECT_EQ(0, netdev_set_channels("vnode1", self->vnode1.rx_queues));
	/* The steering too, and the host-wide table with it; the IRQs go back below. */
	restore_vnode1();
	EXPECT_EQ(self->flow_before, flow_entries());
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Start the daemon and wait for its first apply. */
#define START(self) do { \
	(self)->pid = daemon_start(CONF, DAEMON_LOG); \
	ASSERT_LT(0, (self)->pid); \
	ASSERT_TRUE(back_in_policy(&(self)->env.nl, &vnode1)); \
	ASSERT_TRUE(back_in_policy(&(self)->env.nl, &e1k)); \
} while (0)

TEST_F_TIMEOUT(daemon, applies_at_start, 600)
{
	START(self);
	EXPECT_TRUE(ANSWERED(self, 1, "vnode1"));
	EXPECT_TRUE(ANSWERED(self, 1, "e1k"));
	EXPECT_TRUE(steering_settles(&self->env.nl));
	/* The daemon logs a bind once all of it is done, after the kernel's event: wait. */
	EXPECT_TRUE(daemon_log_wait(DAEMON_LOG, "vnode1: rule node1-nic: IRQ ", DAEMON_WAIT_S));
	EXPECT_TRUE(daemon_log_wait(DAEMON_LOG, "e1k: rule onboard: IRQ ", DAEMON_WAIT_S));
}

TEST_F_TIMEOUT(daemon, pci_rebind, 600)
{
	const char *bdf = self->vnode1.bus_addr;

	START(self);
	ASSERT_EQ(0, pci_driver_bind(self->driver, bdf, false));
	ASSERT_EQ(0, pci_driver_bind(self->driver, bdf, true));
	ASSERT_EQ(0, netdev_revive(self->vnode1.pci_path, self->driver, "vnode1"));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	EXPECT_TRUE(steering_settles(&self->env.nl));
	EXPECT_TRUE(monitor_saw(self, 1, "unregistered", "vnode1", 0));
	EXPECT_TRUE(monitor_saw(self, 1, "registered", NULL, 0));
	/* START's binds of both NICs, then the new device's, under its kernel name. */
	EXPECT_TRUE(monitor_saw(self, 3, "bound", NULL, self->pid));
}

TEST_F_TIMEOUT(daemon, channels_down_and_up, 600)
{
	struct governed one = vnode1;

	START(self);
	EXPECT_TRUE(steering_settles(&self->env.nl));
	ASSERT_EQ(0, netdev_set_channels("vnode1", 1));
	one.n_irqs = 2;
	EXPECT_TRUE(back_in_policy(&self->env.nl, &one));
	/* One queue for node 1's two cores: RPS on now; one tx queue: no XPS. */
	EXPECT_TRUE(steering_settles(&self->env.nl));
	EXPECT_TRUE(monitor_saw(self, 1, "queues-changed", "vnode1", 0));
	ASSERT_EQ(0, netdev_set_channels("vnode1", 2));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	EXPECT_TRUE(steering_settles(&self->env.nl));
	EXPECT_TRUE(monitor_saw(self, 2, "queues-changed", "vnode1", 0));
	/* START's bind, then at least the one that placed queue 1's new IRQs. */
	EXPECT_TRUE(ANSWERED(self, 2, "vnode1"));
}

/*
 * What the daemon's steering replaced, from before its first bind, goes
 * back with restore, also after ethtool -L took a queue and its values away.
 */
TEST_F_TIMEOUT(daemon, restore_puts_back_the_steering, 600)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct steering now;
	char kept[64];

	START(self);
	EXPECT_TRUE(steering_settles(&self->env.nl));
	ASSERT_EQ(0, netdev_set_channels("vnode1", 1));
	EXPECT_TRUE(steering_settles(&self->env.nl));
	EXPECT_EQ(0, daemon_stop(self->pid));
	self->pid = 0;
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	EXPECT_EQ(0, restore_vnode1());
	ASSERT_EQ(0, steering_read("vnode1", &now));
	EXPECT_STREQ(self->before.rps_cpus[0], now.rps_cpus[0]);
	EXPECT_STREQ(self->before.flow_cnt[0], now.flow_cnt[0]);
	EXPECT_EQ(self->flow_before, flow_entries());
	snprintf(kept, sizeof(kept), "/run/nictl/steer-%u", dev.ifindex);
	EXPECT_NE(0, access(kept, F_OK)) TH_LOG("%s is still there", kept);
}

TEST_F_TIMEOUT(daemon, cpu_offline_online, 600)
{
	struct nictl_dev dev;
	struct nl_result res;
	unsigned int cpu;

	START(self);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	cpu = dev.irqs[dev.n_irqs - 1].target_cpu;
	ASSERT_EQ(0, cpu_set_online(cpu, false)) TH_LOG("CPU %u", cpu);
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	EXPECT_TRUE(monitor_saw(self, 1, "drift", "vnode1", 0));
	EXPECT_TRUE(ANSWERED(self, 2, "vnode1"));
	ASSERT_EQ(0, cpu_set_online(cpu, true));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
}

/* What irqbalance or a script does: move IRQ @irq to CPU 0 through /proc. */
static int move_to_cpu0(unsigned int irq)
{
	struct cpus cpu0;

	cpus_zero(&cpu0);
	cpus_set(&cpu0, 0);
	return irq_set_affinity(irq, &cpu0);
}

TEST_F_TIMEOUT(daemon, proc_write_is_undone, 600)
{
	struct nictl_dev dev;
	struct nl_result res;

	START(self);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	ASSERT_EQ(0, move_to_cpu0(dev.irqs[0].num));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "vnode1: moved behind nictl's back"));
	EXPECT_TRUE(monitor_saw(self, 1, "drift", "vnode1", 0));
	EXPECT_TRUE(ANSWERED(self, 2, "vnode1"));
}

/*
 * "N threads, N astray": vnode1's NAPI threads in show's JSON, and those
 * not on exactly their IRQ's CPU.
 */
#define THREADS_ASTRAY \
	".[0].napi_threads.threads as $t | \"\\($t | length) threads, " \
	"\\([$t[] | select(.cpus_list != \"\\(.irq_cpu)\")] | length) astray\""

static int vnode1_threads(struct run_result *r, struct run_result *jq, char *out, size_t len)
{
	return run_ctl_jq(r, jq, (const char *const []){ "show", "vnode1", "-j", NULL },
			  THREADS_ASTRAY, out, len);
}

/* Within the daemon's wait, every NAPI thread of vnode1 on exactly its IRQ's CPU. */
static bool threads_followed(FIXTURE_DATA(daemon) *self, struct run_result *r,
			     struct run_result *jq)
{
	char want[64], got[128] = "";
	unsigned int i;

	snprintf(want, sizeof(want), "%u threads, 0 astray", self->vnode1.rx_queues);
	for (i = 0; i < DAEMON_WAIT_S * 5 && strcmp(got, want); i++) {
		usleep(200 * 1000);
		if (vnode1_threads(r, jq, got, sizeof(got)))
			break;
	}
	if (strcmp(got, want))
		fprintf(stderr, "# vnode1's NAPI threads: %s, want %s\n", got, want);
	return !strcmp(got, want);
}

/* Switch every NAPI of @ifindex's own thread @on (NAPI_SET): 0 or -errno. */
static int napis_threaded(uint32_t ifindex, unsigned int on)
{
	struct napicfgs *cfg = malloc(sizeof(*cfg));
	unsigned int i;
	int err;

	if (!cfg)
		return -ENOMEM;
	err = napicfg_read(ifindex, cfg);
	for (i = 0; !err && i < cfg->nr; i++)
		err = napicfg_set_threaded(cfg->n[i].id, on);
	free(cfg);
	return err;
}

/*
 * Threaded NAPI switched on after the daemon bound vnode1 makes threads on
 * the kernel's default CPUs, and no event says so: the daemon's look once a
 * second finds them off their IRQs' CPUs and re-applies its rule, which
 * moves every thread to its IRQ's CPU; with the daemon gone, verify says
 * which thread was moved off since. Switched on per NAPI (6.17+), which the
 * device's sysfs "threaded" does not show, and by that switch. Threads are
 * named by netdev-genl from 6.9 on; before, the daemon leaves them alone
 * and verify holds.
 */
TEST_F_TIMEOUT(daemon, napi_threads_made_later_are_moved, 600)
{
	const char *threaded = "/sys/class/net/vnode1/threaded";
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));

	ASSERT_TRUE(r && jq);
	START(self);
	if (!kernel_at_least(6, 9)) {
		/* Threads it cannot name, the daemon leaves alone: no fight, verify holds. */
		if (!access(threaded, F_OK))
			EXPECT_EQ(0, write_str(threaded, "1"));
		sleep(3);
		EXPECT_FALSE(daemon_log_has(DAEMON_LOG, "NAPI threads off"));
		EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "verify", "-c", CONF,
									       NULL }))
			TH_LOG("%s", r->out);
		if (!access(threaded, F_OK))
			EXPECT_EQ(0, write_str(threaded, "0"));
		goto out;
	}
	if (kernel_at_least(6, 17)) {
		/* No ASSERT here: the NAPIs' threads must go whatever fails. */
		EXPECT_EQ(0, napis_threaded(self->vnode1.ifindex, 1));
		EXPECT_TRUE(threads_followed(self, r, jq));
		EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "vnode1: NAPI threads off their IRQs' CPUs"));
		EXPECT_TRUE(ANSWERED(self, 2, "vnode1"));
		EXPECT_EQ(0, napis_threaded(self->vnode1.ifindex, 0));
	}
	ASSERT_EQ(0, write_str(threaded, "1"));
	/* No ASSERT from here: threaded must go back to 0 whatever fails. */
	EXPECT_TRUE(threads_followed(self, r, jq));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "vnode1: NAPI threads off their IRQs' CPUs"));
	EXPECT_TRUE(ANSWERED(self, kernel_at_least(6, 17) ? 3 : 2, "vnode1"));

	/* With the daemon gone, verify tells of a thread moved since. */
	EXPECT_EQ(0, daemon_stop(self->pid));
	self->pid = 0;
	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "verify", "-c", CONF, NULL }))
		TH_LOG("%s", r->out);
	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "show", "vnode1", "-j",
								       NULL }));
	EXPECT_EQ(0, run_jq(jq, r->out, ".[0].napi_threads.threads[0].pid"));
	jq->out[strcspn(jq->out, "\n")] = '\0';
	EXPECT_EQ(0, SH("taskset", "-pc", "0", jq->out));
	EXPECT_EQ(1, run_ctl(r, false, NULL, (const char *const []){ "verify", "-c", CONF, NULL }));
	EXPECT_NE(NULL, strstr(r->out, "vnode1: rule node1-nic")) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "NAPI threads off their IRQs' CPUs: napi/vnode1-"))
		TH_LOG("%s", r->out);
	EXPECT_EQ(0, write_str(threaded, "0"));
out:
	free(jq);
	free(r);
}

/* How often the fighter moves the IRQ, and for how long. */
#define FIGHT_WRITES	60
#define FIGHT_PERIOD_US	(500 * 1000)

/*
 * Someone moves a vnode1 IRQ to CPU 0 every 0.5 s, for 30 s: the daemon
 * backs off (1, 2, 4, 8, 16 s) instead of answering every move, and says
 * once that it is fighting. Without backoff it re-applies at each drift,
 * one per check period (1 s).
 */
TEST_F_TIMEOUT(daemon, fight_backs_off, 600)
{
	unsigned int before, after, i;
	struct nictl_dev dev;
	struct nl_result res;

	START(self);
	ASSERT_TRUE(ANSWERED(self, 1, "vnode1"));
	before = count_events(self->events, "bound", "vnode1", self->pid);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	for (i = 0; i < FIGHT_WRITES; i++) {
		ASSERT_EQ(0, move_to_cpu0(dev.irqs[0].num));
		usleep(FIGHT_PERIOD_US);
	}
	/* What the monitor has by now: drain it until a quiet second. */
	while (read_more(self->monitor.out, self->events, MONITOR_LEN, 1000) > 0)
		;
	after = count_events(self->events, "bound", "vnode1", self->pid);
	fprintf(stderr, "# %u re-applies during %u moves\n", after - before, FIGHT_WRITES);
	EXPECT_GE(8U, after - before);
	EXPECT_LE(2U, after - before);
	EXPECT_EQ(1U, daemon_dump_log(DAEMON_LOG, "vnode1: fighting over its IRQs"));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "(by unknown)"));
	/* Left alone, it is put back. */
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
}

/*
 * e1000e frees its IRQs at close and requests them at open. Whatever moved
 * them meanwhile (here a write to /proc while the device is down, when
 * nictl cannot see them as its queues) is undone once the device is up.
 */
TEST_F_TIMEOUT(daemon, e1k_down_up, 600)
{
	struct nictl_dev dev;
	struct nl_result res;
	unsigned int i;

	START(self);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "e1k", &dev, &res));
	ASSERT_EQ(0, netdev_set_up("e1k", false));
	for (i = 0; i < dev.n_irqs; i++)
		ASSERT_EQ(0, move_to_cpu0(dev.irqs[i].num));
	ASSERT_EQ(0, netdev_set_up("e1k", true));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &e1k));
	EXPECT_TRUE(monitor_saw(self, 1, "down", "e1k", 0));
	EXPECT_TRUE(monitor_saw(self, 1, "up", "e1k", 0));
	EXPECT_TRUE(ANSWERED(self, 2, "e1k"));
}

/* A bind by someone else is an audit line and is undone. */
TEST_F_TIMEOUT(daemon, foreign_bind_is_undone, 600)
{
	struct run_result *r = malloc(sizeof(*r));

	ASSERT_NE(NULL, r);
	START(self);
	EXPECT_EQ(0, run_ctl(r, false, NULL,
			     (const char *const []){ "bind", "vnode1", "--cpus", "1-2", NULL }));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	/* START's bind, the other one, and the daemon's answer to it. */
	EXPECT_TRUE(monitor_saw(self, 3, "bound", "vnode1", 0));
	EXPECT_TRUE(ANSWERED(self, 2, "vnode1"));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "vnode1: bound by pid "));
	free(r);
}

/*
 * In a PID namespace the daemon's pid is not the one the module sees: it
 * must know its own binds by its socket's port id, or it answers each of
 * them as someone else's (a "bound by" line in its log).
 */
TEST_F_TIMEOUT(daemon, pid_namespace_ignores_own_binds, 600)
{
	self->pid = daemon_start_pidns(CONF, DAEMON_LOG);
	ASSERT_LT(0, self->pid);
	ASSERT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	ASSERT_TRUE(back_in_policy(&self->env.nl, &e1k));
	/*
	 * Once the monitor has the daemon's bound events, so has the daemon's
	 * socket: it reads them before it reads the SIGTERM of the stop.
	 */
	EXPECT_TRUE(monitor_saw(self, 1, "bound", "vnode1", 0));
	EXPECT_TRUE(monitor_saw(self, 1, "bound", "e1k", 0));
	EXPECT_EQ(0, daemon_stop(self->pid));
	self->pid = 0;
	EXPECT_EQ(0U, daemon_dump_log(DAEMON_LOG, ": bound by ")) TH_LOG("it answered itself");
}

TEST_F_TIMEOUT(daemon, module_reload, 600)
{
	START(self);
	ASSERT_EQ(0, env_reload(&self->env, ""));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &e1k));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "module nictl is here"));
}

/*
 * A new device whose first binds fail (injected faults) is still governed:
 * the next bind by someone else is undone. Found by nictl_stress, where
 * the daemon ignored vnode1 for good after a PCI rebind in a fault window.
 */
TEST_F_TIMEOUT(daemon, failed_apply_still_governs, 600)
{
	struct run_result *r = malloc(sizeof(*r));
	const char *bdf = self->vnode1.bus_addr;

	ASSERT_NE(NULL, r);
	START(self);
	ASSERT_EQ(0, nictl_set_fault(1));
	ASSERT_EQ(0, pci_driver_bind(self->driver, bdf, false));
	ASSERT_EQ(0, pci_driver_bind(self->driver, bdf, true));
	EXPECT_EQ(0, netdev_revive(self->vnode1.pci_path, self->driver, "vnode1"));
	EXPECT_TRUE(monitor_saw(self, 1, "registered", NULL, 0));
	daemon_log_wait(DAEMON_LOG, "rule node1-nic (" CONF ":2) not applied", DAEMON_WAIT_S);
	/* Let the daemon fail on the rest of the new device's events too. */
	sleep(5);
	ASSERT_EQ(0, nictl_set_fault(0));
	EXPECT_EQ(0, run_ctl(r, false, NULL,
			     (const char *const []){ "bind", "vnode1", "--cpus", "1-2", NULL }));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	free(r);
}

/*
 * A rule whose steering fails is one transaction too: every value written
 * goes back, the IRQs with it, and the log says why and that the rule was
 * not applied.
 */
TEST_F_TIMEOUT(daemon, failed_steering_leaves_nothing, 600)
{
	struct nictl_dev dev;
	struct nl_result res;
	unsigned int i;

	/* The daemon inherits it: the third write of each steering fails. */
	ASSERT_EQ(0, setenv("NICTL_FAULT_STEER_WRITE", "3", 1));
	self->pid = daemon_start(CONF, DAEMON_LOG);
	unsetenv("NICTL_FAULT_STEER_WRITE");
	ASSERT_LT(0, self->pid);
	EXPECT_TRUE(back_in_policy(&self->env.nl, &e1k));
	EXPECT_TRUE(daemon_log_wait(DAEMON_LOG, "rule node1-nic (" CONF ":2) not applied",
				    DAEMON_WAIT_S));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "cannot steer vnode1: writing "));
	EXPECT_TRUE(steering_is("vnode1", &self->before));
	EXPECT_EQ(self->flow_before, flow_entries());
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	for (i = 0; i < dev.n_irqs; i++) {
		EXPECT_FALSE(dev.irqs[i].flags & NICTL_IRQ_F_BOUND) TH_LOG("IRQ %u", dev.irqs[i].num);
	}
}

/* A broken file on SIGHUP is refused by line; the rules in force still hold. */
TEST_F_TIMEOUT(daemon, sighup_keeps_old_config, 600)
{
	struct nictl_dev dev;
	struct nl_result res;

	START(self);
	ASSERT_EQ(0, write_file(CONF, "[rule x]\nmatch-name = vnode1\ncpus = nodes 1\n"));
	ASSERT_EQ(0, kill(self->pid, SIGHUP));
	EXPECT_TRUE(daemon_log_wait(DAEMON_LOG, "configuration not reloaded", DAEMON_WAIT_S));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, CONF ":3: cpus: 'nodes 1' is none of"));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	ASSERT_EQ(0, move_to_cpu0(dev.irqs[1].num));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	EXPECT_TRUE(monitor_saw(self, 1, "drift", "vnode1", 0));
}

/* Whether every queue IRQ of @ifname is on exactly CPU @cpu, within the wait. */
static bool all_on(struct nl_client *nl, const char *ifname, unsigned int cpu)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus mask;
	unsigned int i, tries;
	bool ok = false;

	for (tries = 0; !ok && tries < DAEMON_WAIT_S * 5; tries++) {
		if (tries)
			usleep(200 * 1000);
		ok = !nictl_dev_get(nl, ifname, &dev, &res) && dev.n_irqs;
		for (i = 0; ok && i < dev.n_irqs; i++)
			ok = !irq_affinity(dev.irqs[i].num, &mask, NULL) &&
			     cpus_count(&mask) == 1 && cpus_test(&mask, cpu);
	}
	return ok;
}

/* A valid file on SIGHUP replaces the rules, and every device follows. */
TEST_F_TIMEOUT(daemon, sighup_reloads, 600)
{
	START(self);
	ASSERT_EQ(0, write_conf_mac(CONF, "vnode1",
				    "[rule node1-nic]\nmatch-mac = %s\ncpus = numa-local\n"
				    "[rule onboard]\nmatch-driver = e1000e\ncpus = 3\n"));
	ASSERT_EQ(0, kill(self->pid, SIGHUP));
	EXPECT_TRUE(all_on(&self->env.nl, "e1k", 3));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "configuration " CONF " reloaded: 2 rules"));
	EXPECT_TRUE(in_policy(&self->env.nl, &vnode1, &(struct nictl_dev){ 0 }));
}

TEST_F_TIMEOUT(daemon, bad_config_refused, 300)
{
	struct run_result *r = malloc(sizeof(*r));

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, write_file(CONF, "[rule x]\nmatch-name = vnode1\nallow-siblings = often\n"));
	/* 78, EX_CONFIG: the status the unit does not restart on. */
	EXPECT_EQ(78, run_ctl(r, false, NULL,
			      (const char *const []){ "daemon", "-c", CONF, "--foreground", NULL }));
	EXPECT_TRUE(one_line_error(r, CONF ":3: allow-siblings: 'often' is neither yes nor no"));
	free(r);
}

TEST_F_TIMEOUT(daemon, once, 600)
{
	struct run_result *r = malloc(sizeof(*r));
	struct nictl_dev dev;

	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, run_ctl(r, false, NULL,
			     (const char *const []){ "daemon", "-c", CONF, "--once", NULL }));
	/* Applied before it exited: no wait. */
	EXPECT_TRUE(in_policy(&self->env.nl, &vnode1, &dev));
	EXPECT_TRUE(in_policy(&self->env.nl, &e1k, &dev));
	EXPECT_TRUE(vnode1_steered(&self->env.nl, true));

	/* A rule that cannot be applied fails the run, and says which. */
	ASSERT_EQ(0, write_file(CONF, "[rule far]\nmatch-name = vnode1\ncpus = node 7\n"));
	EXPECT_EQ(1, run_ctl(r, false, NULL,
			     (const char *const []){ "daemon", "-c", CONF, "--once", NULL }));
	EXPECT_NE(NULL, strstr(r->err, "vnode1: rule far (" CONF ":1) not applied"))
		TH_LOG("%s", r->err);
	free(r);
}

/*
 * One rule that lists both drivers and both names governs both NICs: a
 * list is any of its globs, never one glob that matches nothing.
 */
TEST_F_TIMEOUT(daemon, one_rule_lists_two_drivers, 600)
{
	struct run_result *r = malloc(sizeof(*r));
	struct nictl_dev dev;

	ASSERT_NE(NULL, r);
	ASSERT_FALSE(in_policy(&self->env.nl, &vnode1, &dev));
	ASSERT_FALSE(in_policy(&self->env.nl, &e1k, &dev));
	ASSERT_EQ(0, write_file(CONF, "[rule both]\nmatch-driver = virtio_net e1000e\n"
				"match-name = vnode1\te1k\ncpus = numa-local\n"));
	EXPECT_EQ(0, run_ctl(r, false, NULL,
			     (const char *const []){ "daemon", "-c", CONF, "--once", NULL }))
		TH_LOG("%s", r->err);
	EXPECT_TRUE(in_policy(&self->env.nl, &vnode1, &dev));
	EXPECT_TRUE(in_policy(&self->env.nl, &e1k, &dev));
	free(r);
}

/* nictlctl verify -c CONF, its output in @r: the exit status. */
static int verify(struct run_result *r, bool json)
{
	return run_ctl(r, false, NULL, (const char *const []){ "verify", "-c", CONF,
							       json ? "-j" : NULL, NULL });
}

/*
 * verify says what differs and changes nothing: 0 after an apply; 1 naming
 * an IRQ moved by hand (no daemon runs, and sticky = no: nothing puts it
 * back), the device after a restore; 78 for a refused file.
 */
TEST_F_TIMEOUT(daemon, verify_says_what_differs, 600)
{
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	struct nictl_dev dev;
	struct nl_result res;
	char want[160];
	unsigned int irq;

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, jq);
	ASSERT_EQ(0, write_conf_mac(CONF, "vnode1", "[rule node1-nic]\nmatch-mac = %s\n"
				    "cpus = numa-local\nsticky = no\n\n[rule onboard]\n"
				    "match-driver = e1000e\ncpus = node 0\nsticky = no\n"));
	EXPECT_EQ(1, verify(r, false));
	EXPECT_NE(NULL, strstr(r->out, "e1k: rule onboard (" CONF ":6): not bound by nictl\n"))
		TH_LOG("%s", r->out);
	ASSERT_EQ(0, run_ctl(r, false, NULL,
			     (const char *const []){ "daemon", "-c", CONF, "--once", NULL }))
		TH_LOG("%s", r->err);
	ASSERT_TRUE(in_policy(&self->env.nl, &e1k, &dev));
	EXPECT_EQ(0, verify(r, false)) TH_LOG("%s%s", r->out, r->err);
	EXPECT_NE(NULL, strstr(r->out, "vnode1: rule node1-nic (" CONF ":1): as configured\n"))
		TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "2 devices governed, 0 not as configured\n"))
		TH_LOG("%s", r->out);

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "e1k", &dev, &res));
	irq = dev.irqs[0].num;
	ASSERT_NE(0U, dev.irqs[0].target_cpu);
	ASSERT_EQ(0, move_to_cpu0(irq));
	EXPECT_EQ(1, verify(r, false));
	snprintf(want, sizeof(want), "e1k: rule onboard (" CONF ":6): IRQ %u is on CPUs 0, its "
		 "binding says %u\n", irq, dev.irqs[0].target_cpu);
	EXPECT_NE(NULL, strstr(r->out, want)) TH_LOG("got %s, want %s", r->out, want);
	EXPECT_EQ(1, verify(r, true));
	EXPECT_EQ(0, run_jq(jq, r->out, "[.governed, .not_as_configured, "
			    "(.devices[] | select(.ifname == \"e1k\") | .as_configured)] | "
			    "@csv"));
	EXPECT_STREQ("2,1,false\n", jq->out);
	/* It only looked. */
	EXPECT_EQ(0, irq_affinity(irq, &dev.irqs[0].affinity, NULL));
	EXPECT_TRUE(cpus_test(&dev.irqs[0].affinity, 0));

	ASSERT_EQ(0, write_file(CONF, "[rule x]\nmatch-name = vnode1\ncpus = often\n"));
	EXPECT_EQ(78, verify(r, false));
	EXPECT_TRUE(one_line_error(r, CONF ":3: cpus: 'often' is none of"));
	free(jq);
	free(r);
}

/* "IRQ:CPU ..." of @name's IRQs as nictl has them bound now. */
static void bound_map(FIXTURE_DATA(daemon) *self, const char *name, char *map, size_t len)
{
	struct nictl_dev dev;
	struct nl_result res;
	size_t n = 0;
	unsigned int i;

	map[0] = '\0';
	if (nictl_dev_get(&self->env.nl, name, &dev, &res))
		return;
	for (i = 0; i < dev.n_irqs && n < len; i++)
		n += snprintf(map + n, len - n, "%s%u:%u", i ? " " : "", dev.irqs[i].num,
			      dev.irqs[i].target_cpu);
}

/*
 * plan is the daemon's apply as a dry run: each governed device's rule and
 * the CPU of each queue IRQ, which daemon --once then gives them; nothing
 * moves meanwhile. A rule that leaves no CPU is 1, naming the device.
 */
TEST_F_TIMEOUT(daemon, plan_is_what_the_daemon_then_does, 600)
{
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	static const char *const by_irq = "[.devices[] | select(.ifname == \"%s\") | "
		".irqs[] | \"\\(.irq):\\(.target_cpu)\"] | join(\" \")";
	char filter[256], planned[2][256], bound[256];
	const char *names[] = { "vnode1", "e1k" };
	struct nictl_dev dev;
	struct nl_result res;
	unsigned int i;

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, jq);
	ASSERT_EQ(0, write_conf_mac(CONF, "vnode1", "[rule node1-nic]\nmatch-mac = %s\n"
				    "cpus = numa-local\n\n[rule onboard]\n"
				    "match-driver = e1000e\ncpus = node 0\n"));
	ASSERT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "plan", "-c", CONF, NULL }))
		TH_LOG("%s%s", r->out, r->err);
	EXPECT_NE(NULL, strstr(r->out, "vnode1: rule node1-nic (" CONF ":1) by match-mac = "))
		TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "e1k: rule onboard (" CONF ":5) by match-driver = "
			       "e1000e\n  CPUs "))
		TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "vnode0: no rule\n")) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "2 devices governed, 0 could not be placed\n"))
		TH_LOG("%s", r->out);

	ASSERT_EQ(0, run_ctl(r, false, NULL,
			     (const char *const []){ "plan", "-c", CONF, "-j", NULL }));
	for (i = 0; i < 2; i++) {
		snprintf(filter, sizeof(filter), by_irq, names[i]);
		ASSERT_EQ(0, run_jq(jq, r->out, filter));
		jq->out[strcspn(jq->out, "\n")] = '\0';
		strncpy(planned[i], jq->out, sizeof(planned[i]) - 1);
		planned[i][sizeof(planned[i]) - 1] = '\0';
		EXPECT_NE('\0', planned[i][0]) TH_LOG("%s has no placement in %s", names[i],
						       r->out);
		/* A dry run: nothing bound. */
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, names[i], &dev, &res));
		EXPECT_FALSE(dev.dev_flags & NICTL_DEV_F_BOUND) TH_LOG("plan bound %s", names[i]);
	}

	ASSERT_EQ(0, run_ctl(r, false, NULL,
			     (const char *const []){ "daemon", "-c", CONF, "--once", NULL }))
		TH_LOG("%s", r->err);
	for (i = 0; i < 2; i++) {
		bound_map(self, names[i], bound, sizeof(bound));
		EXPECT_STREQ(planned[i], bound) TH_LOG("%s: planned, then bound", names[i]);
	}

	ASSERT_EQ(0, write_file(CONF, "[rule none-left]\nmatch-name = vnode1\n"
				"cpus = node 1\nexclude = 0-63\n"));
	EXPECT_EQ(1, run_ctl(r, false, NULL, (const char *const []){ "plan", "-c", CONF, NULL }));
	EXPECT_NE(NULL, strstr(r->out, "1 device governed, 1 could not be placed\n"))
		TH_LOG("%s%s", r->out, r->err);
	free(jq);
	free(r);
}

#define NOTIFY_SOCKET	"/tmp/nictl-notify.sock"

/* The next message the daemon sends systemd, into @msg: its length or -errno. */
static ssize_t next_notify(int fd, char *msg, size_t len)
{
	ssize_t n = recv(fd, msg, len - 1, 0);

	if (n < 0)
		return -errno;
	msg[n] = '\0';
	return n;
}

/*
 * Type=notify: READY=1 comes once the rules are applied, so a unit ordered
 * after nictl finds every device placed; a SIGHUP is RELOADING=1, then
 * READY=1 once the new file is in force.
 */
TEST_F_TIMEOUT(daemon, notify_ready_after_first_apply, 600)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX, .sun_path = NOTIFY_SOCKET };
	struct timeval tv = { .tv_sec = DAEMON_WAIT_S };
	struct nictl_dev dev;
	char msg[512];
	int fd;

	unlink(NOTIFY_SOCKET);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, bind(fd, (struct sockaddr *)&addr, sizeof(addr)));
	ASSERT_EQ(0, setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)));
	ASSERT_EQ(0, setenv("NOTIFY_SOCKET", NOTIFY_SOCKET, 1));
	self->pid = daemon_start(CONF, DAEMON_LOG);
	unsetenv("NOTIFY_SOCKET");
	ASSERT_LT(0, self->pid);

	ASSERT_LT(0, next_notify(fd, msg, sizeof(msg)));
	EXPECT_EQ(0, strncmp(msg, "READY=1\n", 8)) TH_LOG("got '%s'", msg);
	/* Checked once, at READY: placed before it, not after a wait. */
	EXPECT_TRUE(in_policy(&self->env.nl, &vnode1, &dev));
	EXPECT_TRUE(in_policy(&self->env.nl, &e1k, &dev));
	EXPECT_NE(NULL, strstr(msg, "STATUS=2 rules applied; 0 devices not as configured"))
		TH_LOG("got '%s'", msg);

	ASSERT_EQ(0, kill(self->pid, SIGHUP));
	ASSERT_LT(0, next_notify(fd, msg, sizeof(msg)));
	EXPECT_EQ(0, strncmp(msg, "RELOADING=1\nMONOTONIC_USEC=", 26)) TH_LOG("got '%s'", msg);
	ASSERT_LT(0, next_notify(fd, msg, sizeof(msg)));
	EXPECT_EQ(0, strncmp(msg, "READY=1\n", 8)) TH_LOG("got '%s'", msg);
	close(fd);
	unlink(NOTIFY_SOCKET);
}

NICTL_TEST_MAIN
