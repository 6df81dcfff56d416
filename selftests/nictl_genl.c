// SPDX-License-Identifier: GPL-2.0
/*
 * The module's genetlink side under load and over time: a stats operation
 * held up in the middle (the test build's fault_stall) holds up no other
 * genl family and no other nictl request; NAPI_GET dumps resume where they
 * stopped, and so do DEV_GET dumps, which say when a device changed between
 * two of their parts; the per-CPU NAPI tables outlive any number of NAPIs
 * that come and go; the probes leave a TSC the kernel stops trusting; and the module
 * keeps no static per-CPU data (modules share a few KiB of it).
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "env.h"
#include "main.h"
#include "module.h"
#include "netdev.h"
#include "nicops.h"
#include "nictl.h"
#include "run.h"
#include "stats.h"
#include "sys.h"
#include "traffic.h"

/* The device under test: two queue pairs, so two receive NAPIs. */
#define DEV		"vnode1"
#define DEV_QUEUES	2U
/* The CPU that polls every new NAPI of DEV first (virtio_net polls at open). */
#define POLL_CPU	5
/* Per-CPU NAPI slots of the module (kmod/stats.h). */
#define NAPI_SLOTS	64
/* How long a request that should not wait may take before it counts as stuck. */
#define STUCK_S		60
#define POLL_US		(50 * 1000)

FIXTURE(genl) {
	struct test_env env;
	struct nl_result res;
	struct netdev_info info;
	char driver[64];
	pid_t child[3];
};

FIXTURE_SETUP(genl)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info(DEV, &self->info));
	ASSERT_EQ(DEV_QUEUES, self->info.rx_queues);
	pci_driver_name(self->info.pci_path, self->driver, sizeof(self->driver));
	ASSERT_STRNE("", self->driver);
}

/* Knobs off, children gone, the module and DEV as they were. */
FIXTURE_TEARDOWN(genl)
{
	cpu_set_t all;
	unsigned int i;

	CPU_ZERO(&all);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
	if (nictl_module_loaded()) {
		EXPECT_EQ(0, nictl_param_write("fault_stall", "0"));
		EXPECT_EQ(0, nictl_param_write("fault_dump_items", "0"));
		EXPECT_EQ(0, nictl_param_write("fault_tsc_unstable", "0"));
	}
	for (i = 0; i < ARRAY_SIZE(self->child); i++) {
		if (self->child[i] > 0) {
			kill(self->child[i], SIGKILL);
			waitpid(self->child[i], NULL, 0);
		}
	}
	EXPECT_EQ(0, netdev_revive(self->info.pci_path, self->driver, DEV));
	EXPECT_EQ(0, stats_defaults());
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* The child *@pid exits 0 within @secs (then *@pid becomes 0); prints what it saw. */
static bool exits_ok(pid_t *pid, const char *what, unsigned int secs)
{
	unsigned int i;
	int status;
	pid_t got;

	for (i = 0; i < secs * timeout_scale() * (1000000 / POLL_US); i++) {
		got = waitpid(*pid, &status, WNOHANG);
		if (got == *pid) {
			*pid = 0;
			if (WIFEXITED(status) && !WEXITSTATUS(status))
				return true;
			fprintf(stderr, "# %s: ended with status %#x, want exit 0\n", what, status);
			return false;
		}
		if (got < 0) {
			fprintf(stderr, "# %s: waitpid: %s\n", what, strerror(errno));
			return false;
		}
		usleep(POLL_US);
	}
	fprintf(stderr, "# %s: still waiting after %u s\n", what, secs);
	return false;
}

static int op_napi_dump(struct nl_client *nl)
{
	struct nictl_napis *napis = malloc(sizeof(*napis));
	struct nl_result res;
	unsigned int msgs;
	int ret;

	if (!napis)
		return -ENOMEM;
	ret = nictl_napi_dump(nl, DEV, napis, &msgs, &res);
	if (ret)
		fprintf(stderr, "# NAPI_GET dump: %s (%s)\n", strerror(-ret), res.msg);
	else if (napis->n != DEV_QUEUES)
		fprintf(stderr, "# NAPI_GET dump: %u NAPIs, want %u\n", napis->n, DEV_QUEUES);
	ret = ret ?: napis->n == DEV_QUEUES ? 0 : -EPROTO;
	free(napis);
	return ret;
}

/*
 * Resolving the family asks the genl controller (CTRL_CMD_GETFAMILY, under
 * genl_mutex); then a DEV_GET dump (rtnl) and a second NAPI_GET of nictl.
 */
static int op_others(struct nl_client *nl)
{
	struct nictl_devs *devs = malloc(sizeof(*devs));
	struct nl_client ctrl;
	struct nl_result res;
	int ret;

	ret = nl_open(&ctrl, "nlctrl");
	if (ret)
		fprintf(stderr, "# CTRL_CMD_GETFAMILY nlctrl: %s\n", strerror(-ret));
	else
		nl_close(&ctrl);
	if (!ret && devs) {
		ret = nictl_dev_dump(nl, devs, &res);
		if (ret)
			fprintf(stderr, "# DEV_GET dump: %s (%s)\n", strerror(-ret), res.msg);
	}
	free(devs);
	return ret;
}

TEST_F_TIMEOUT(genl, a_held_stats_op_holds_up_no_other_request, 900)
{
	struct nictl_stats *st = malloc(sizeof(*st));

	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, nictl_param_write("fault_stall", "1"));
	/* A privileged op under the stats mutex, an unprivileged dump under nothing. */
	self->child[0] = nictl_fork_op(nictl_op_reset);
	self->child[1] = nictl_fork_op(op_napi_dump);
	ASSERT_LT(0, self->child[0]);
	ASSERT_LT(0, self->child[1]);
	EXPECT_TRUE(nictl_ops_held(2, STUCK_S * timeout_scale()));
	self->child[2] = nictl_fork_op(op_others);
	ASSERT_LT(0, self->child[2]);
	EXPECT_TRUE(exits_ok(&self->child[2], "nlctrl GETFAMILY and a DEV_GET dump", STUCK_S));
	ASSERT_EQ(0, nictl_param_write("fault_stall", "0"));
	EXPECT_TRUE(exits_ok(&self->child[0], "STATS_RESET", STUCK_S));
	EXPECT_TRUE(exits_ok(&self->child[1], "NAPI_GET dump", STUCK_S));
	/* Reaped already when it did not wait for the held ops. */
	if (self->child[2])
		EXPECT_TRUE(exits_ok(&self->child[2], "the requests after the release", STUCK_S));
	EXPECT_TRUE(nictl_ops_held(0, 0));
	ASSERT_EQ(0, nictl_stats_get(&self->env.nl, st, &self->res));
	EXPECT_TRUE(stats_consistent(st));
	EXPECT_TRUE(stats_enabled_is(st, true));
	free(st);
}

/* @a and @b list the same NAPIs, ids ascending, with the same queues. */
static bool same_napis(const struct nictl_napis *a, const struct nictl_napis *b)
{
	bool ok = a->n == b->n;
	unsigned int i;

	if (!ok)
		fprintf(stderr, "# %u NAPIs against %u\n", a->n, b->n);
	for (i = 0; ok && i < a->n; i++) {
		if (a->napi[i].id != b->napi[i].id || a->napi[i].queue != b->napi[i].queue) {
			fprintf(stderr, "# NAPI %u: id %u queue %u against id %u queue %u\n", i,
				a->napi[i].id, a->napi[i].queue, b->napi[i].id, b->napi[i].queue);
			ok = false;
		}
		if (i && a->napi[i].id <= a->napi[i - 1].id) {
			fprintf(stderr, "# NAPI ids not ascending: %u after %u\n", a->napi[i].id,
				a->napi[i - 1].id);
			ok = false;
		}
	}
	return ok;
}

/* `nictlctl stats DEV -j` lists the NAPI ids of @n, queue by queue. */
static bool ctl_shows_napis(const struct nictl_napis *n)
{
	static const char *const args[] = { "stats", DEV, "-j", NULL };
	struct run_result *ctl = malloc(sizeof(*ctl)), *jq = malloc(sizeof(*jq));
	char want[128] = "", id[16];
	unsigned int q, i;
	bool ok = false;

	for (q = 0; q < DEV_QUEUES; q++) {
		for (i = 0; i < n->n && n->napi[i].queue != q; i++)
			;
		snprintf(id, sizeof(id), "%u\n", i < n->n ? n->napi[i].id : 0);
		strcat(want, id);
	}
	if (ctl && jq && !run_ctl(ctl, false, NULL, args) &&
	    !run_jq(jq, ctl->out, ".queues[].napi_id")) {
		ok = !strcmp(jq->out, want);
		if (!ok)
			fprintf(stderr, "# nictlctl: NAPI ids '%s', want '%s'\n", jq->out, want);
	}
	free(ctl);
	free(jq);
	return ok;
}

TEST_F_TIMEOUT(genl, napi_dump_resumes_message_by_message, 600)
{
	struct nictl_napis *one = malloc(sizeof(*one)), *split = malloc(sizeof(*split));
	unsigned int msgs;

	ASSERT_NE(NULL, one);
	ASSERT_NE(NULL, split);
	ASSERT_EQ(0, nictl_napi_get(&self->env.nl, DEV, one, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(napis_consistent(one, DEV, DEV_QUEUES));
	EXPECT_EQ(DEV_QUEUES, one->n);

	ASSERT_EQ(0, nictl_napi_dump(&self->env.nl, DEV, split, &msgs, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_EQ(1U, msgs);
	EXPECT_TRUE(same_napis(one, split));

	/* One NAPI per message: the dump must resume after the last one sent. */
	ASSERT_EQ(0, nictl_param_write("fault_dump_items", "1"));
	ASSERT_EQ(0, nictl_napi_dump(&self->env.nl, DEV, split, &msgs, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_EQ(DEV_QUEUES, msgs);
	EXPECT_TRUE(same_napis(one, split));
	EXPECT_TRUE(napis_consistent(split, DEV, DEV_QUEUES));
	/* nictlctl stats reads every message's NAPIs. */
	EXPECT_TRUE(ctl_shows_napis(split));
	/* A do that cannot hold them all says so instead of cutting the list. */
	EXPECT_EQ(EMSGSIZE, -nictl_napi_get(&self->env.nl, DEV, one, &self->res));
	EXPECT_NE(NULL, strstr(self->res.msg, "dump")) TH_LOG("extack: %s", self->res.msg);
	EXPECT_EQ(0, nictl_param_write("fault_dump_items", "0"));

	/* A device that does not exist fails the dump at its start, with the reason. */
	EXPECT_EQ(ENODEV, -nictl_napi_dump(&self->env.nl, "nonexistent0", split, &msgs,
					   &self->res));
	EXPECT_NE(NULL, strstr(self->res.msg, "no such device"))
		TH_LOG("extack: %s", self->res.msg);
	free(one);
	free(split);
}

/* A DEV_GET dump as it arrived: its devices, messages per device, and whether one was flagged. */
struct dev_dump {
	struct nictl_devs devs;
	unsigned int msgs[NICTL_MAX_DEVS];
	bool intr;
};

static int dev_dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dev_dump *d = data;
	int ret;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		d->intr = true;
	ret = nictl_devs_cb(nlh, &d->devs);
	if (!ret)
		d->msgs[d->devs.n - 1]++;
	return ret;
}

/*
 * Dump DEV_GET into @d, one datagram at a time; once a datagram held a part
 * of @ifindex, run @between (if any) before asking for the rest.
 */
static int dev_dump_paced(struct nl_client *nl, struct dev_dump *d, uint32_t ifindex,
			  int (*between)(void), struct nl_result *res)
{
	char req[NL_REQ_SIZE], *buf = malloc(NL_RECV_SIZE);
	struct nlmsghdr *nlh = nictl_msg(nl, req, NICTL_CMD_DEV_GET, NLM_F_DUMP);
	const struct nictl_dev *last;
	ssize_t n;
	int ret;

	memset(d, 0, sizeof(*d));
	memset(res, 0, sizeof(*res));
	if (!buf)
		return -ENOMEM;
	if (mnl_socket_sendto(nl->sock, nlh, nlh->nlmsg_len) < 0) {
		free(buf);
		return -errno;
	}
	do {
		n = nl_recv_timeout(nl, buf, NL_RECV_SIZE, STUCK_S * 1000);
		if (n <= 0) {
			ret = n ? (int)n : -ETIMEDOUT;
			break;
		}
		ret = nl_parse_buf(buf, n, nlh->nlmsg_seq, dev_dump_cb, d, res);
		last = d->devs.n ? &d->devs.dev[d->devs.n - 1] : NULL;
		if (ret > 0 && between && last && last->ifindex == ifindex) {
			ret = between();
			between = NULL;
			if (ret)
				fprintf(stderr, "# between two parts of the dump: %s\n", strerror(-ret));
			ret = ret ?: 1;
		}
	} while (ret > 0);
	free(buf);
	return ret;
}

/* @a and @b list the same devices with the same IRQs in the same order; prints the first difference. */
static bool same_devs(const struct nictl_devs *a, const struct nictl_devs *b)
{
	unsigned int i, j;

	if (a->n != b->n) {
		fprintf(stderr, "# %u devices in one dump, %u in the other\n", a->n, b->n);
		return false;
	}
	for (i = 0; i < a->n; i++) {
		const struct nictl_dev *x = &a->dev[i], *y = &b->dev[i];

		if (x->ifindex != y->ifindex || x->n_irqs != y->n_irqs) {
			fprintf(stderr, "# device %u: %s with %u IRQs, then %s with %u\n", i,
				x->ifname, x->n_irqs, y->ifname, y->n_irqs);
			return false;
		}
		for (j = 0; j < x->n_irqs; j++) {
			if (x->irqs[j].num != y->irqs[j].num) {
				fprintf(stderr, "# %s: IRQ %u is %u in one dump, %u in the other\n",
					x->ifname, j, x->irqs[j].num, y->irqs[j].num);
				return false;
			}
		}
	}
	return true;
}

static int one_channel(void)
{
	return netdev_set_channels(DEV, 1);
}

/*
 * A device whose IRQs take several messages continues where it stopped,
 * whatever else the dump holds; an ethtool -L between two of its parts
 * would resume at the wrong IRQ, so the dump says it was interrupted.
 */
TEST_F_TIMEOUT(genl, dev_dump_resumes_and_flags_a_change, 600)
{
	struct dev_dump *whole = malloc(sizeof(*whole)), *split = malloc(sizeof(*split));
	const struct nictl_dev *dev;
	unsigned int i;

	ASSERT_NE(NULL, whole);
	ASSERT_NE(NULL, split);
	ASSERT_EQ(0, dev_dump_paced(&self->env.nl, whole, 0, NULL, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_FALSE(whole->intr);
	dev = nictl_devs_find(&whole->devs, DEV);
	ASSERT_NE(NULL, dev);
	/*
	 * The kernel fills the next datagram of a dump as the last is read, so
	 * the change lands in DEV's third part at the earliest.
	 */
	ASSERT_LE(3U, dev->n_irqs);
	for (i = 0; i < whole->devs.n; i++) {
		EXPECT_EQ(1U, whole->msgs[i]) TH_LOG("%s", whole->devs.dev[i].ifname);
	}

	/* One IRQ per message: every device resumes after the IRQ it sent last. */
	ASSERT_EQ(0, nictl_param_write("fault_dump_items", "1"));
	ASSERT_EQ(0, dev_dump_paced(&self->env.nl, split, 0, NULL, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_FALSE(split->intr);
	EXPECT_TRUE(same_devs(&whole->devs, &split->devs));
	for (i = 0; i < split->devs.n; i++) {
		EXPECT_EQ(split->devs.dev[i].n_irqs ?: 1, split->msgs[i])
			TH_LOG("%s: messages", split->devs.dev[i].ifname);
	}

	/* DEV goes to one queue pair after its first part: the rest is flagged. */
	ASSERT_EQ(0, dev_dump_paced(&self->env.nl, split, self->info.ifindex, one_channel,
				    &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(split->intr) TH_LOG("no message of the dump has NLM_F_DUMP_INTR");
	EXPECT_EQ(0, nictl_param_write("fault_dump_items", "0"));
	EXPECT_EQ(0, netdev_set_channels(DEV, DEV_QUEUES));
	free(whole);
	free(split);
}

static uint64_t unattributed(const struct nictl_stats *st)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < st->n; i++)
		sum += st->cpu[i].napi_unattributed;
	return sum;
}

/* Every NAPI of DEV was polled, so its polls were attributed to it. */
static bool all_polled(const struct nictl_napis *n, unsigned int cycle)
{
	bool ok = n->n == DEV_QUEUES;
	unsigned int i;

	if (!ok)
		fprintf(stderr, "# cycle %u: %u NAPIs, want %u\n", cycle, n->n, DEV_QUEUES);
	for (i = 0; i < n->n; i++) {
		if (!n->napi[i].polls) {
			fprintf(stderr, "# cycle %u: NAPI %u (queue %u) has no poll\n", cycle,
				n->napi[i].id, n->napi[i].queue);
			ok = false;
		}
	}
	return ok;
}

static int pin_to(unsigned int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	return sched_setaffinity(0, sizeof(one), &one) ? -errno : 0;
}

/*
 * Each rebind of DEV's PCI function makes two new NAPI ids, which the open
 * of the new device polls at once on this process's CPU. More ids than a
 * CPU has slots pass through POLL_CPU's table, with no reset: the slots of
 * the NAPIs gone must come back, or the new ones' polls go unattributed.
 */
TEST_F_TIMEOUT(genl, napi_slots_of_gone_napis_are_reused, 3600)
{
	struct nictl_napis *napis = malloc(sizeof(*napis));
	struct nictl_stats *st = malloc(sizeof(*st));
	unsigned int cycle, cycles = NAPI_SLOTS / DEV_QUEUES + 2, msgs;
	uint64_t lost;
	uint32_t first_id = 0;

	ASSERT_NE(NULL, napis);
	ASSERT_NE(NULL, st);
	ASSERT_EQ(0, nictl_stats_get(&self->env.nl, st, &self->res));
	lost = unattributed(st);
	for (cycle = 0; cycle < cycles; cycle++) {
		ASSERT_EQ(0, pin_to(POLL_CPU));
		ASSERT_EQ(0, pci_driver_bind(self->driver, self->info.bus_addr, false));
		ASSERT_EQ(0, pci_driver_bind(self->driver, self->info.bus_addr, true));
		ASSERT_EQ(0, netdev_revive(self->info.pci_path, self->driver, DEV));
		ASSERT_EQ(0, nictl_napi_dump(&self->env.nl, DEV, napis, &msgs, &self->res))
			TH_LOG("%s", self->res.msg);
		if (!cycle)
			first_id = napis->napi[0].id;
		ASSERT_TRUE(all_polled(napis, cycle));
		ASSERT_EQ(0, nictl_stats_get(&self->env.nl, st, &self->res));
		ASSERT_EQ(lost, unattributed(st))
			TH_LOG("cycle %u: polls no slot took grew from %" PRIu64, cycle, lost);
	}
	/* The ids that passed: the kernel hands them out in increasing order. */
	EXPECT_LT(NAPI_SLOTS, napis->napi[napis->n - 1].id - first_id + DEV_QUEUES);
	free(napis);
	free(st);
}

static bool clock_is(const char *want, unsigned int secs)
{
	char now[32] = "";
	unsigned int i;

	for (i = 0; i <= secs * timeout_scale() * (1000000 / POLL_US); i++) {
		if (!nictl_param_read("stats_clock", now, sizeof(now)) && !strcmp(now, want))
			return true;
		usleep(POLL_US);
	}
	fprintf(stderr, "# stats_clock is '%s' after %u s, want '%s'\n", now, secs, want);
	return false;
}

/*
 * Loaded to use the raw TSC (fault_tsc_trusted stands for constant_tsc,
 * which TCG guests lack, and for the kernel's verdict, which their
 * clocksource watchdog may change at any time), the module must leave it
 * once the TSC is marked unstable (fault_tsc_unstable stands for the
 * kernel's flag), and keep counting runs whose times still add up.
 */
TEST_F_TIMEOUT(genl, an_unstable_tsc_is_left_for_local_clock, 900)
{
	struct nictl_stats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	char cs[64] = "";

	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	ASSERT_EQ(0, env_reload(&self->env, "fault_tsc_trusted=1"));
	read_str("/sys/devices/system/clocksource/clocksource0/current_clocksource", cs,
		 sizeof(cs));
	ASSERT_TRUE(clock_is("tsc", 0)) TH_LOG("the kernel's clocksource: %s", cs);

	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, nictl_stats_get(&self->env.nl, a, &self->res));
	EXPECT_TRUE(stats_consistent(a));
	EXPECT_LT(0U, stats_runs(a, NICTL_SOFTIRQ_NET_RX));

	ASSERT_EQ(0, nictl_param_write("fault_tsc_unstable", "1"));
	EXPECT_TRUE(clock_is("local_clock", STUCK_S));
	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, nictl_stats_get(&self->env.nl, b, &self->res));
	EXPECT_TRUE(stats_consistent(b));
	EXPECT_TRUE(stats_enabled_is(b, true));
	EXPECT_TRUE(stats_advanced(a, b));
	EXPECT_LT(stats_runs(a, NICTL_SOFTIRQ_NET_RX), stats_runs(b, NICTL_SOFTIRQ_NET_RX));

	/* Back to a module loaded as users load it. */
	EXPECT_EQ(0, nictl_param_write("fault_tsc_unstable", "0"));
	ASSERT_EQ(0, env_reload(&self->env, ""));
	free(a);
	free(b);
}

/* Static per-CPU data would show as a section of the module. */
TEST_F(genl, no_static_per_cpu_data)
{
	struct stat st;
	int ret = stat("/sys/module/nictl/sections/.data..percpu", &st) ? errno : 0;

	EXPECT_EQ(ENOENT, ret) TH_LOG("/sys/module/nictl/sections/.data..percpu: %s",
				      ret ? strerror(ret) : "exists");
	EXPECT_EQ(0, stat("/sys/module/nictl/sections/.text", &st));
}

NICTL_TEST_MAIN
