// SPDX-License-Identifier: GPL-2.0
/*
 * nictl's softirq and NAPI accounting, judged by what the guest sees for
 * itself: binding vnode1's queue IRQs to a CPU moves its receive work
 * there, its NAPI counters add up to the device's packet counter, every
 * reply holds the invariants of the header, STATS_SET and STATS_RESET do
 * what they say and only for CAP_NET_ADMIN, the module unloads under
 * traffic without a splat, RPS moves DEV's protocol work to the backlog of
 * the CPUs it steers to, and nictlctl stats prints what the module says in
 * the formats it documents.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "busypoll.h"
#include "env.h"
#include "main.h"
#include "module.h"
#include "nicops.h"
#include "nictl.h"
#include "rps.h"
#include "run.h"
#include "stats.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

/* The device under test: two queue pairs on NUMA node 1 (CPUs 4-7). */
#define DEV		"vnode1"
#define DEV_QUEUES	2U
/* `stats -i 0.5` must report spans of about that (a slow guest may lag). */
#define INTERVAL_MIN_NS	400000000ULL
#define INTERVAL_MAX_NS	10000000000ULL
/* promtool, from Debian's prometheus package (make deps installs it). */
#define PROMTOOL	"/usr/bin/promtool"
/* Two CPUs of its node, on different cores. */
#define FIRST_CPU	5
#define SECOND_CPU	6
/*
 * Where the traffic into DEV comes from: SENDER, out of SENDER_CPU. The
 * receive tests put every queue IRQ of the other NICs on SENDER_CPU too,
 * so all the NET_RX work the traffic makes outside DEV (the sender's
 * transmit completions, e1k and igb0 receiving the same broadcasts) runs
 * there.
 */
#define SENDER		"vnode0"
#define SENDER_CPU	0
/* Paced rounds of traffic into DEV for one measurement. */
#define ROUNDS		24
/* The share of DEV's receive work its bound CPU must take. */
#define SHARE_PERCENT	90
/* traffic_burst()s of a child that keeps traffic going while a test acts. */
#define CHILD_BURSTS	12
/* STATS_GETs taken while that traffic flows. */
#define SAMPLES_MIN	5
#define SAMPLE_GAP_US	(50 * 1000)
/*
 * RPS on DEV with one queue pair, its IRQ on FIRST_CPU: the protocol work
 * goes to the other CPUs of its node, RPS_CPUS (mask RPS_MASK).
 */
#define RPS_MASK	"d0"
static const unsigned int RPS_CPUS[] = { 4, 6, 7 };
/* The share of DEV's packets the RPS CPUs' backlogs must take. */
#define RPS_SHARE_PERCENT	90
/*
 * A task busy-polls one of DEV's queues from BUSY_CPU, on DEV's node but
 * away from its IRQs (FIRST_CPU), each read spinning up to BUSY_US.
 */
#define BUSY_CPU	7
#define BUSY_US		1000
/*
 * Each busy-poll loop's first poll is untimed and its last one
 * (busy_poll_stop()'s) timed unless the task was switched out (PREEMPT_RT);
 * most loops poll many times in between. At least this share of the busy
 * polls must have been timed. (The reader's
 * CPU time is no measure to hold the busy time to from below: while
 * NET_RX owns the NAPI, the loop spins without polling, and how often
 * that happens depends on how busy the host is.)
 */
#define BUSY_TIMED_PERCENT	40
/* How long an operation held by the test build may take to reach the hold. */
#define HELD_S		60

/* What the module and the device say at one moment. */
struct sample {
	struct nictl_stats stats;
	struct nictl_napis napis;
	uint64_t rx_packets;
};

FIXTURE(stats) {
	struct test_env env;
	struct nictl_dev dev;
	struct nl_result res;
	char buf[NL_REQ_SIZE];
	struct sample s[3];
	/* nictlctl's output, and jq's or promtool's on it. */
	struct run_result run;
	struct run_result tool;
	/* What the RPS test changed, for the teardown to put back. */
	bool channels_changed;
	bool rps_changed;
	char rps_saved[RPS_MASK_LEN];
};

FIXTURE_SETUP(stats)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &self->dev, &self->res));
	ASSERT_EQ(1, self->dev.numa_node);
	ASSERT_EQ(DEV_QUEUES, self->dev.rx_queues);
}

/* Accounting on, as loaded by default; then IRQs and bindings as found. */
FIXTURE_TEARDOWN(stats)
{
	if (self->rps_changed)
		EXPECT_EQ(0, rps_cpus_set(DEV, 0, self->rps_saved));
	if (self->channels_changed)
		EXPECT_EQ(0, netdev_set_channels(DEV, DEV_QUEUES));
	EXPECT_EQ(0, stats_defaults());
	EXPECT_EQ(0, env_teardown(&self->env));
}

static int take_sample(struct nl_client *nl, struct sample *s)
{
	struct nl_result res = { 0 };
	int ret;

	ret = nictl_stats_get(nl, &s->stats, &res) ?:
	      nictl_napi_get(nl, DEV, &s->napis, &res) ?:
	      netdev_rx_packets(DEV, &s->rx_packets);
	if (ret)
		fprintf(stderr, "# sample: %s (%s)\n", strerror(-ret), res.msg);
	return ret;
}

static bool consistent(const struct sample *s)
{
	return stats_consistent(&s->stats) & napis_consistent(&s->napis, DEV, DEV_QUEUES);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Start a child that runs @bursts traffic_burst()s through every NIC and
 * exits 0 (1 when one failed), and wait until its first burst is out, so
 * that traffic flows: its pid, or -1.
 */
static pid_t start_traffic(unsigned int bursts)
{
	unsigned int i;
	int fds[2], failed = 0;
	pid_t pid;
	char c;

	if (pipe(fds))
		return -1;
	pid = fork_flushed();
	if (!pid) {
		close(fds[0]);
		for (i = 0; i < bursts; i++) {
			failed |= !!traffic_burst(test_nics);
			if (!i && write(fds[1], "", 1) != 1)
				failed = 1;
		}
		_exit(failed);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], &c, 1) != 1)
		pid = -1;
	close(fds[0]);
	return pid;
}

/* Whether @pid exited with status 0. */
static bool child_ok(pid_t pid)
{
	int status;

	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

/*
 * Where DEV's receive work ran: between a reset and a sample, ROUNDS
 * paced bursts from SENDER_CPU out of SENDER into DEV, then another
 * sample. The reset makes NICTL_A_NAPI_CPUS say where DEV's NAPIs ran
 * during this burst only: on @cpu, where its IRQs are, and nowhere else.
 * The shares leave SENDER_CPU out, which carries the sending and every
 * other NIC's receiving (see SENDER): what the other CPUs ran of NET_RX is
 * DEV's receive work, and @cpu must have had SHARE_PERCENT of it.
 */
static void receive_work_on(struct __test_metadata *_metadata, FIXTURE_DATA(stats) *self,
			    unsigned int cpu, struct stats_share *share)
{
	struct sample *before = &self->s[0], *after = &self->s[1];
	const struct nictl_napi *napi;
	char list[CPUS_LIST_LEN];
	struct cpus counted, bound;
	unsigned int i;

	/* The traffic that made the IRQs move is in, on the CPUs it is for. */
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, nictl_stats_reset(&self->env.nl, &self->res)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	ASSERT_EQ(0, traffic_rounds(SENDER, SENDER_CPU, ROUNDS, DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_TRUE(consistent(after));
	EXPECT_TRUE(stats_advanced(&before->stats, &after->stats));
	/* The burst arrived, at least the larger part of it. */
	EXPECT_LE(ROUNDS * TRAFFIC_ROUND_FRAMES / 2, after->rx_packets - before->rx_packets);
	EXPECT_TRUE(counts_agree("packets DEV's NAPIs counted, against rx_packets",
				 napis_packets(&after->napis) - napis_packets(&before->napis),
				 after->rx_packets - before->rx_packets));

	cpus_zero(&bound);
	cpus_set(&bound, cpu);
	for (i = 0; i < after->napis.n; i++) {
		napi = &after->napis.napi[i];
		cpus_format(&napi->cpus, list, sizeof(list));
		EXPECT_TRUE(cpus_subset(&napi->cpus, &bound))
			TH_LOG("queue %u polled on CPUs %s, its IRQs are on CPU %u", napi->queue,
			       list, cpu);
	}

	ASSERT_EQ(0, sys_online_cpus(&counted));
	cpus_clear(&counted, SENDER_CPU);
	ASSERT_TRUE(stats_share(&before->stats, &after->stats, NICTL_SOFTIRQ_NET_RX, cpu,
				&counted, share));
	/* Every round costs DEV an interrupt: enough runs for a share to say something. */
	EXPECT_LE(ROUNDS / 2, share->runs_all);
	EXPECT_TRUE(share_at_least("NET_RX runs on the bound CPU", share->runs, share->runs_all,
				   SHARE_PERCENT));
	EXPECT_TRUE(share_at_least("NET_RX time on the bound CPU", share->time_ns,
				   share->time_all_ns, SHARE_PERCENT));
}

/* Bind every queue of @ifname to @cpu and wait until the IRQs are there. */
static void bind_all_to(struct __test_metadata *_metadata, FIXTURE_DATA(stats) *self,
			const char *ifname, unsigned int cpu)
{
	struct nictl_dev dev, reply;

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, ifname, &dev, &self->res));
	ASSERT_EQ(0, bind_queues(&self->env.nl, &dev, &cpu, 1, &reply));
	ASSERT_TRUE(irqs_moved(&self->env.nl, &reply));
}

/*
 * The end-to-end proof of a bind: all of DEV's queue IRQs on FIRST_CPU,
 * its receive work runs there; bound to SECOND_CPU, the work moves along.
 */
TEST_F_TIMEOUT(stats, receive_work_follows_the_binding, 1800)
{
	struct stats_share first, second, left;
	const char *const *nic;
	struct cpus counted;

	for (nic = test_nics; *nic; nic++)
		if (strcmp(*nic, DEV))
			bind_all_to(_metadata, self, *nic, SENDER_CPU);

	bind_all_to(_metadata, self, DEV, FIRST_CPU);
	receive_work_on(_metadata, self, FIRST_CPU, &first);

	bind_all_to(_metadata, self, DEV, SECOND_CPU);
	receive_work_on(_metadata, self, SECOND_CPU, &second);
	/* What FIRST_CPU kept of the second burst is what it lost. */
	ASSERT_EQ(0, sys_online_cpus(&counted));
	cpus_clear(&counted, SENDER_CPU);
	ASSERT_TRUE(stats_share(&self->s[0].stats, &self->s[1].stats, NICTL_SOFTIRQ_NET_RX,
				FIRST_CPU, &counted, &left));
	EXPECT_LT(left.runs * first.runs_all, first.runs * left.runs_all)
		TH_LOG("CPU %u: %" PRIu64 " of %" PRIu64 " runs before the move, %" PRIu64 " of %"
		       PRIu64 " after", FIRST_CPU, first.runs, first.runs_all, left.runs,
		       left.runs_all);
	EXPECT_LT(left.time_ns * first.time_all_ns, first.time_ns * left.time_all_ns);
}

/*
 * Each queue of DEV on a CPU of its own. After a burst from every CPU
 * through the other NICs, the packets DEV's NAPIs counted add up to the
 * device's own count, and each NAPI ran on its queue's CPU alone (the
 * counters were reset after the IRQs moved, and only a queue's IRQ
 * schedules its NAPI): this also checks NICTL_A_NAPI_QUEUE.
 */
TEST_F_TIMEOUT(stats, napi_counts_match_the_device, 900)
{
	const unsigned int cpus[] = { FIRST_CPU, SECOND_CPU };
	const char *const senders[] = { SENDER, "e1k", NULL };
	struct sample *before = &self->s[0], *after = &self->s[1];
	const struct nictl_napi *napi;
	char list[CPUS_LIST_LEN];
	struct nictl_dev reply;
	struct cpus want;
	uint64_t rx;
	unsigned int i;

	ASSERT_EQ(0, bind_queues(&self->env.nl, &self->dev, cpus, ARRAY_SIZE(cpus), &reply));
	ASSERT_TRUE(irqs_moved(&self->env.nl, &reply));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, nictl_stats_reset(&self->env.nl, &self->res)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	ASSERT_EQ(0, traffic_burst(senders));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_TRUE(consistent(after));
	EXPECT_TRUE(napis_advanced(&before->napis, &after->napis));

	rx = after->rx_packets - before->rx_packets;
	EXPECT_LE(100U, rx) TH_LOG("too little traffic arrived to compare");
	EXPECT_TRUE(counts_agree("packets DEV's NAPIs counted, against rx_packets",
				 napis_packets(&after->napis) - napis_packets(&before->napis), rx));

	ASSERT_EQ(DEV_QUEUES, after->napis.n);
	for (i = 0; i < reply.n_irqs; i++) {
		if (reply.irqs[i].kind == NICTL_QUEUE_KIND_TX)
			continue;
		napi = napis_queue(&after->napis, reply.irqs[i].queue);
		ASSERT_NE(NULL, napi) TH_LOG("no NAPI serves queue %u", reply.irqs[i].queue);
		cpus_zero(&want);
		cpus_set(&want, reply.irqs[i].target_cpu);
		cpus_format(&napi->cpus, list, sizeof(list));
		EXPECT_TRUE(cpus_equal(&want, &napi->cpus))
			TH_LOG("queue %u polled on CPUs '%s', its IRQ %u is on CPU %u",
			       napi->queue, list, reply.irqs[i].num, reply.irqs[i].target_cpu);
	}
}

/* jq @filter over `nictlctl stats DEV -j` run now, its first line in @out. */
static int stats_jq(struct run_result *r, struct run_result *jq, const char *filter,
		    char *out, size_t len)
{
	return run_ctl_jq(r, jq, (const char *const []){ "stats", DEV, "-j", NULL }, filter,
			  out, len);
}

/*
 * "N threaded, N astray, T": DEV's queues polled in threads, those whose
 * thread is not on its IRQ's CPUs, and the threads' time.
 */
#define THREADS_TIME \
	"[.queues[] | select(.thread != null)] as $q | \"\\($q | length) threaded, " \
	"\\([$q[] | select(.thread.cpus != .irq_cpus)] | length) astray, " \
	"\\([$q[].thread.time_ns] | add)\""

/*
 * DEV polled in threads, bound to its node: stats DEV shows each queue's
 * thread on its IRQ's CPU, and the threads' CPU time grows with traffic
 * into DEV: threaded polls are timed where NET_RX's probes cannot. Threads
 * are named by netdev-genl from 6.9 on; before, no queue is given a thread.
 */
TEST_F_TIMEOUT(stats, threaded_polls_are_timed_on_the_threads_cpus, 900)
{
	const char *const senders[] = { SENDER, NULL };
	const char *threaded = "/sys/class/net/" DEV "/threaded";
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	unsigned long long before = 0, after = 0;
	char want[64], got[128];
	unsigned int n = 0, astray = 0;

	ASSERT_TRUE(r && jq);
	if (!kernel_at_least(6, 9)) {
		/* Threads the kernel does not name are given no queue's time. */
		if (!access(threaded, F_OK))
			EXPECT_EQ(0, write_str(threaded, "1"));
		EXPECT_EQ(0, stats_jq(r, jq, "[.queues[] | select(.thread != null)] | length", got,
				      sizeof(got)));
		EXPECT_STREQ("0", got);
		if (!access(threaded, F_OK))
			EXPECT_EQ(0, write_str(threaded, "0"));
		goto out;
	}
	ASSERT_EQ(0, write_str(threaded, "1"));
	/* No ASSERT from here: threaded must go back to 0 whatever fails. */
	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "bind", DEV, "--numa-local",
								       NULL }));
	EXPECT_EQ(0, rx_settle(DEV));
	EXPECT_EQ(0, stats_jq(r, jq, THREADS_TIME, got, sizeof(got)));
	EXPECT_EQ(3, sscanf(got, "%u threaded, %u astray, %llu", &n, &astray, &before))
		TH_LOG("%s", got);
	snprintf(want, sizeof(want), "%u threaded, 0 astray", DEV_QUEUES);
	EXPECT_EQ(0, strncmp(got, want, strlen(want))) TH_LOG("got '%s', want '%s'", got, want);
	EXPECT_EQ(0, traffic_burst(senders));
	EXPECT_EQ(0, rx_settle(DEV));
	EXPECT_EQ(0, stats_jq(r, jq, THREADS_TIME, got, sizeof(got)));
	EXPECT_EQ(3, sscanf(got, "%u threaded, %u astray, %llu", &n, &astray, &after))
		TH_LOG("%s", got);
	EXPECT_LT(before, after) TH_LOG("the threads' time did not grow with traffic: %s", got);
	EXPECT_EQ(0, run_ctl(r, false, NULL, (const char *const []){ "restore", DEV, NULL }));
	EXPECT_EQ(0, write_str(threaded, "0"));
out:
	free(jq);
	free(r);
}

/*
 * Dumps taken while traffic flows through every NIC: each whole and
 * within its bounds (a histogram that adds up to its count even while the
 * CPUs count), each after the one before.
 */
TEST_F_TIMEOUT(stats, counters_hold_their_invariants_under_traffic, 900)
{
	struct sample *prev = &self->s[0], *cur;
	unsigned int n = 0;
	uint64_t first_runs;
	pid_t pid, done;
	bool ok = true;
	int status;

	ASSERT_EQ(0, take_sample(&self->env.nl, prev));
	first_runs = stats_runs(&prev->stats, NICTL_SOFTIRQ_NET_RX);
	pid = start_traffic(CHILD_BURSTS);
	ASSERT_LT(0, pid);
	/* Until the first sample that fails: one report is enough. */
	while (ok && (done = waitpid(pid, &status, WNOHANG)) == 0) {
		cur = &self->s[1 + n % 2];
		ok = !take_sample(&self->env.nl, cur) && consistent(cur) &&
		     stats_enabled_is(&cur->stats, true) &&
		     stats_advanced(&prev->stats, &cur->stats) &&
		     napis_advanced(&prev->napis, &cur->napis);
		EXPECT_TRUE(ok) TH_LOG("sample %u", n);
		prev = cur;
		n++;
		usleep(SAMPLE_GAP_US);
	}
	EXPECT_TRUE(done == pid ? WIFEXITED(status) && !WEXITSTATUS(status) : child_ok(pid));
	EXPECT_LE(SAMPLES_MIN, n) TH_LOG("only %u samples while the traffic ran", n);
	EXPECT_LT(first_runs, stats_runs(&prev->stats, NICTL_SOFTIRQ_NET_RX));
}

TEST_F_TIMEOUT(stats, reset_zeroes_counters_and_restarts_the_clock, 600)
{
	struct sample *counted = &self->s[0], *reset = &self->s[1], *again = &self->s[2];
	uint64_t t0, t1;

	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, counted));
	ASSERT_LT(0U, stats_runs(&counted->stats, NICTL_SOFTIRQ_NET_RX));
	ASSERT_LT(0U, napis_packets(&counted->napis));

	/* Off first, so that nothing counts between the reset and the sample. */
	ASSERT_EQ(0, nictl_stats_set(&self->env.nl, false, &self->res)) TH_LOG("%s", self->res.msg);
	t0 = monotonic_ns();
	ASSERT_EQ(0, nictl_stats_reset(&self->env.nl, &self->res)) TH_LOG("%s", self->res.msg);
	t1 = monotonic_ns();
	ASSERT_EQ(0, take_sample(&self->env.nl, reset));
	EXPECT_TRUE(consistent(reset));
	EXPECT_TRUE(stats_zero(&reset->stats));
	EXPECT_TRUE(napis_zero(&reset->napis));
	EXPECT_TRUE(stats_enabled_is(&reset->stats, false));
	/* START_NS is CLOCK_MONOTONIC: the reset's own moment. */
	EXPECT_LT(counted->stats.cpu[0].start_ns, reset->stats.cpu[0].start_ns);
	EXPECT_LE(t0, reset->stats.cpu[0].start_ns);
	EXPECT_GE(t1, reset->stats.cpu[0].start_ns);

	/* A reset while counting: the clock restarts and counting goes on. */
	ASSERT_EQ(0, nictl_stats_set(&self->env.nl, true, &self->res)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, nictl_stats_reset(&self->env.nl, &self->res)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, again));
	EXPECT_TRUE(consistent(again));
	EXPECT_TRUE(stats_enabled_is(&again->stats, true));
	EXPECT_LT(reset->stats.cpu[0].start_ns, again->stats.cpu[0].start_ns);
	EXPECT_LT(0U, stats_runs(&again->stats, NICTL_SOFTIRQ_NET_RX));
	EXPECT_LT(0U, napis_packets(&again->napis));
}

/* Off: traffic arrives, nothing counts, the clock runs. On: all counts again. */
TEST_F_TIMEOUT(stats, off_stops_counting_and_on_resumes, 900)
{
	struct sample *before = &self->s[0], *after = &self->s[1];
	bool on;

	for (on = false; ; on = true) {
		/* Twice: switching to the state it is in is no error. */
		ASSERT_EQ(0, nictl_stats_set(&self->env.nl, on, &self->res))
			TH_LOG("%s", self->res.msg);
		ASSERT_EQ(0, nictl_stats_set(&self->env.nl, on, &self->res))
			TH_LOG("%s", self->res.msg);
		ASSERT_EQ(0, take_sample(&self->env.nl, before));
		ASSERT_EQ(0, traffic_burst(test_nics));
		ASSERT_EQ(0, rx_settle(DEV));
		ASSERT_EQ(0, take_sample(&self->env.nl, after));
		EXPECT_TRUE(consistent(after));
		EXPECT_TRUE(stats_enabled_is(&before->stats, on));
		EXPECT_TRUE(stats_enabled_is(&after->stats, on));
		EXPECT_LT(0U, after->rx_packets - before->rx_packets) TH_LOG("no traffic arrived");
		if (on)
			break;
		EXPECT_TRUE(stats_frozen(&before->stats, &after->stats));
		EXPECT_TRUE(napis_frozen(&before->napis, &after->napis));
	}
	EXPECT_TRUE(stats_advanced(&before->stats, &after->stats));
	EXPECT_LT(stats_runs(&before->stats, NICTL_SOFTIRQ_NET_RX),
		  stats_runs(&after->stats, NICTL_SOFTIRQ_NET_RX));
	EXPECT_TRUE(napis_advanced(&before->napis, &after->napis));
	EXPECT_TRUE(counts_agree("packets DEV's NAPIs counted, against rx_packets",
				 napis_packets(&after->napis) - napis_packets(&before->napis),
				 after->rx_packets - before->rx_packets));
}

/* Reports through EXPECT_*() only: see run_unprivileged(). */
static void unprivileged(void *arg)
{
	struct __test_metadata *_metadata = arg;
	struct sample *s = malloc(sizeof(*s));
	struct nl_result res;
	struct nl_client nl;

	EXPECT_NE(NULL, s);
	/* The socket is opened after the switch, so it carries no root creds. */
	EXPECT_EQ(0, nictl_open(&nl));
	if (!s || !nl.sock) {
		free(s);
		return;
	}
	EXPECT_EQ(-EPERM, nictl_stats_set(&nl, false, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(-EPERM, nictl_stats_reset(&nl, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(0, take_sample(&nl, s));
	EXPECT_TRUE(consistent(s));
	EXPECT_TRUE(stats_enabled_is(&s->stats, true));
	nl_close(&nl);
	free(s);
}

TEST_F_TIMEOUT(stats, unprivileged_user_may_only_read, 300)
{
	struct sample *before = &self->s[0], *after = &self->s[1];

	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	ASSERT_EQ(0, run_unprivileged(unprivileged, _metadata)) TH_LOG("uid %d", UNPRIV_ID);
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	/* Still on, and not reset. */
	EXPECT_TRUE(stats_enabled_is(&after->stats, true));
	EXPECT_TRUE(stats_advanced(&before->stats, &after->stats));
}

/* Send a request built in self->buf; a NAPI_GET reply would land in s[0]. */
static int send_req(FIXTURE_DATA(stats) *self, struct nlmsghdr *nlh)
{
	return nl_transact(&self->env.nl, nlh, nictl_napis_cb, &self->s[0].napis, &self->res);
}

/* @nlh refused with @err, the extack pointing at @bad (NULL: pointing nowhere). */
static bool refused_at(FIXTURE_DATA(stats) *self, struct nlmsghdr *nlh, int err,
		       const struct nlattr *bad)
{
	return refused(send_req(self, nlh), &self->res, err, true, &self->env.snap) &&
	       (!bad || points_at(&self->res, nlh, bad));
}

/*
 * The new commands validate like the others (see the header): an unknown
 * attribute, one the command does not take, a wrong length, a value out of
 * range, an unknown device, each named by the error's offset. None may
 * change the accounting.
 */
TEST_F_TIMEOUT(stats, malformed_requests_are_refused, 300)
{
	static const uint8_t cmds[] = {
		NICTL_CMD_STATS_GET, NICTL_CMD_STATS_SET, NICTL_CMD_STATS_RESET, NICTL_CMD_NAPI_GET,
	};
	struct sample *before = &self->s[1], *after = &self->s[2];
	const uint32_t wide = 1;
	struct nlmsghdr *nlh;
	struct nlattr *bad;
	unsigned int i;

	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		nlh = nictl_msg(&self->env.nl, self->buf, cmds[i],
				cmds[i] == NICTL_CMD_STATS_GET ? NLM_F_DUMP : 0);
		/* Otherwise valid: what makes each one wrong comes last. */
		if (cmds[i] == NICTL_CMD_STATS_SET)
			mnl_attr_put_u8(nlh, NICTL_A_STATS_ENABLED, 1);
		if (cmds[i] == NICTL_CMD_NAPI_GET)
			mnl_attr_put_strz(nlh, NICTL_A_IFNAME, DEV);
		bad = mnl_nlmsg_get_payload_tail(nlh);
		mnl_attr_put(nlh, NICTL_A_MAX + 1, sizeof(wide), &wide);
		EXPECT_TRUE(refused_at(self, nlh, EINVAL, bad)) TH_LOG("command %u", cmds[i]);
	}

	/* Attributes of other commands. */
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_STATS_RESET, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u8(nlh, NICTL_A_STATS_ENABLED, 0);
	EXPECT_TRUE(refused_at(self, nlh, EINVAL, bad));
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_STATS_GET, NLM_F_DUMP);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, DEV);
	EXPECT_TRUE(refused_at(self, nlh, EINVAL, bad));

	/* STATS_SET: its attribute too wide, or neither on nor off. */
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_STATS_SET, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, NICTL_A_STATS_ENABLED, sizeof(wide), &wide);
	EXPECT_TRUE(refused_at(self, nlh, EINVAL, bad));
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_STATS_SET, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u8(nlh, NICTL_A_STATS_ENABLED, 2);
	EXPECT_TRUE(refused_at(self, nlh, ERANGE, bad));

	/* NAPI_GET: no device by that name, ifindex 0. */
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_NAPI_GET, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "nictl-nodev");
	EXPECT_TRUE(refused_at(self, nlh, ENODEV, bad));
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_NAPI_GET, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, NICTL_A_IFINDEX, 0);
	EXPECT_TRUE(refused_at(self, nlh, ERANGE, bad));

	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_TRUE(stats_enabled_is(&after->stats, true));
	EXPECT_TRUE(stats_advanced(&before->stats, &after->stats));
}

/*
 * A request without the attribute it needs gets EINVAL and, like every
 * refusal (see the header), an extack message that says what is missing.
 */
TEST_F_TIMEOUT(stats, missing_attributes_are_named, 120)
{
	struct nlmsghdr *nlh;

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_STATS_SET, 0);
	EXPECT_TRUE(refused_at(self, nlh, EINVAL, NULL)) TH_LOG("STATS_SET without ENABLED");
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_NAPI_GET, 0);
	EXPECT_TRUE(refused_at(self, nlh, EINVAL, NULL)) TH_LOG("NAPI_GET without a device");
}

/*
 * rmmod while traffic flows through every NIC, so the probes are busy on
 * several CPUs as they are taken out; then insmod, and the family answers.
 * A splat would also stop the guest (panic_on_warn), but the kernel log is
 * checked here too, for the lines that do not panic.
 */
TEST_F_TIMEOUT(stats, unload_under_traffic_leaves_no_splat, 900)
{
	struct sample *loaded = &self->s[0], *later = &self->s[1];
	struct nictl_dev dev;
	char mark[64];
	uint64_t t0;
	pid_t pid;
	int status;

	snprintf(mark, sizeof(mark), "unload under traffic, pid %d", getpid());
	ASSERT_EQ(0, kmsg_mark(mark));
	pid = start_traffic(CHILD_BURSTS);
	ASSERT_LT(0, pid);
	nl_close(&self->env.nl);
	t0 = monotonic_ns();
	EXPECT_EQ(0, nictl_module_unload());
	EXPECT_FALSE(nictl_module_loaded());
	EXPECT_EQ(0, nictl_module_load());
	/* Else the traffic had ended and this test proved less than it says. */
	EXPECT_EQ(0, waitpid(pid, &status, WNOHANG))
		TH_LOG("the traffic stopped before the reload");

	ASSERT_EQ(0, nictl_open(&self->env.nl));
	ASSERT_EQ(0, take_sample(&self->env.nl, loaded));
	EXPECT_TRUE(consistent(loaded));
	EXPECT_TRUE(stats_enabled_is(&loaded->stats, true));
	EXPECT_LE(t0, loaded->stats.cpu[0].start_ns);
	EXPECT_TRUE(child_ok(pid));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, later));
	EXPECT_TRUE(stats_advanced(&loaded->stats, &later->stats));
	EXPECT_LT(stats_runs(&loaded->stats, NICTL_SOFTIRQ_NET_RX),
		  stats_runs(&later->stats, NICTL_SOFTIRQ_NET_RX));
	EXPECT_EQ(0, nictl_dev_get(&self->env.nl, DEV, &dev, &self->res));
	EXPECT_TRUE(kmsg_clean_since(mark));
}

/* Loaded with stats=0 the module counts nothing until switched on. */
TEST_F_TIMEOUT(stats, stats_param_off_loads_without_counting, 600)
{
	struct sample *before = &self->s[0], *after = &self->s[1];
	bool on = true;

	nl_close(&self->env.nl);
	ASSERT_EQ(0, nictl_module_unload());
	ASSERT_EQ(0, nictl_module_load_params("stats=0"));
	ASSERT_EQ(0, stats_param(&on));
	EXPECT_FALSE(on);
	ASSERT_EQ(0, nictl_open(&self->env.nl));

	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	EXPECT_TRUE(consistent(before));
	EXPECT_TRUE(stats_enabled_is(&before->stats, false));
	EXPECT_TRUE(stats_zero(&before->stats));
	EXPECT_TRUE(napis_zero(&before->napis));
	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_TRUE(stats_frozen(&before->stats, &after->stats));
	EXPECT_TRUE(napis_frozen(&before->napis, &after->napis));

	ASSERT_EQ(0, nictl_stats_set(&self->env.nl, true, &self->res)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	EXPECT_TRUE(stats_enabled_is(&before->stats, true));
	EXPECT_LT(0U, stats_runs(&before->stats, NICTL_SOFTIRQ_NET_RX));
	EXPECT_LT(0U, napis_packets(&before->napis));
}

/* nictlctl stats with the arguments given (maybe none), as root or as UNPRIV_ID. */
#define STATS(self, ...) \
	run_ctl(&(self)->run, false, NULL, \
		(const char *const []){ "stats", ##__VA_ARGS__, NULL })
#define STATS_UNPRIV(self, ...) \
	run_ctl(&(self)->run, true, NULL, \
		(const char *const []){ "stats", ##__VA_ARGS__, NULL })

/* jq @filter over nictlctl's stdout prints exactly @want. */
static bool jq_says(FIXTURE_DATA(stats) *self, const char *filter, const char *want)
{
	if (run_jq(&self->tool, self->run.out, filter))
		return false;
	if (!strcmp(self->tool.out, want))
		return true;
	fprintf(stderr, "# jq '%s': want '%s', got '%s'\n", filter, want, self->tool.out);
	return false;
}

/* @v, which nictlctl printed, lies between our samples before and after it. */
static bool between(const char *what, unsigned int id, uint64_t lo, uint64_t v, uint64_t hi)
{
	if (lo <= v && v <= hi)
		return true;
	fprintf(stderr, "# %s of %u: nictlctl says %" PRIu64 ", the module %" PRIu64 " then %"
		PRIu64 "\n", what, id, v, lo, hi);
	return false;
}

/* The entry of @cpu in a STATS_GET dump, or NULL. */
static const struct nictl_cpu_stats *cpu_of(const struct nictl_stats *st, unsigned int cpu)
{
	unsigned int i;

	for (i = 0; i < st->n; i++)
		if (st->cpu[i].cpu == cpu)
			return &st->cpu[i];
	return NULL;
}

/*
 * The CPU rows of `stats -j` (in self->run) against our samples around it:
 * a row for every online CPU, run counts between the samples, histograms
 * of 16 buckets that add up to them.
 */
static bool json_cpus_match(FIXTURE_DATA(stats) *self)
{
	const char *filter = ".cpus[] | \"\\(.cpu) \\(.net_rx.count) \\(.net_rx.hist | add) "
			     "\\(.net_tx.count) \\(.net_tx.hist | add) \\(.net_rx.hist | length) "
			     "\\(.net_tx.hist | length)\"";
	const struct nictl_cpu_stats *lo, *hi;
	uint64_t rx, rx_hist, tx, tx_hist;
	unsigned int cpu, rx_len, tx_len;
	struct cpus online, rows;
	const char *line;
	bool ok = true;
	int n;

	if (run_jq(&self->tool, self->run.out, filter) || sys_online_cpus(&online))
		return false;
	cpus_zero(&rows);
	for (line = self->tool.out; *line; line = strchr(line, '\n') + 1) {
		n = sscanf(line, "%u %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %u %u", &cpu,
			   &rx, &rx_hist, &tx, &tx_hist, &rx_len, &tx_len);
		lo = n == 7 ? cpu_of(&self->s[0].stats, cpu) : NULL;
		hi = lo ? cpu_of(&self->s[1].stats, cpu) : NULL;
		if (!hi) {
			fprintf(stderr, "# unexpected CPU row '%.*s'\n", (int)strcspn(line, "\n"),
				line);
			return false;
		}
		cpus_set(&rows, cpu);
		ok &= between("NET_RX runs", cpu, lo->vec[NICTL_SOFTIRQ_NET_RX].count, rx,
			      hi->vec[NICTL_SOFTIRQ_NET_RX].count) &
		      between("NET_TX runs", cpu, lo->vec[NICTL_SOFTIRQ_NET_TX].count, tx,
			      hi->vec[NICTL_SOFTIRQ_NET_TX].count);
		if (rx != rx_hist || tx != tx_hist || rx_len != NICTL_HIST_BUCKETS ||
		    tx_len != NICTL_HIST_BUCKETS) {
			fprintf(stderr, "# CPU %u: histograms of %u/%u buckets, adding up to %"
				PRIu64 "/%" PRIu64 "\n", cpu, rx_len, tx_len, rx_hist, tx_hist);
			ok = false;
		}
	}
	if (!cpus_equal(&rows, &online)) {
		fprintf(stderr, "# %u CPU rows for %u online CPUs\n", cpus_count(&rows),
			cpus_count(&online));
		ok = false;
	}
	return ok;
}

/* The affinity of the receive (or combined) IRQs of @queue of @dev. */
static void queue_irq_cpus(const struct nictl_dev *dev, uint32_t queue, struct cpus *s)
{
	unsigned int i;
	int cpu;

	cpus_zero(s);
	for (i = 0; i < dev->n_irqs; i++)
		if (dev->irqs[i].queue == queue && dev->irqs[i].kind != NICTL_QUEUE_KIND_TX)
			for_each_cpu(cpu, &dev->irqs[i].affinity)
				cpus_set(s, cpu);
}

/*
 * The queue rows of `stats DEV -j`: one per NAPI of DEV, with its id, its
 * packets and polls between our samples and its IRQs' affinity.
 */
static bool json_queues_match(FIXTURE_DATA(stats) *self)
{
	const char *filter = ".queues[] | \"\\(.queue) \\(.napi_id) \\(.packets) \\(.polls) "
			     "\\(.irq_cpus | map(tostring) | join(\",\"))\"";
	const struct nictl_napi *lo, *hi;
	unsigned int queue, id, rows = 0;
	char list[CPUS_LIST_LEN];
	uint64_t packets, polls;
	struct cpus printed, irq;
	const char *line;
	bool ok = true;
	int n;

	if (run_jq(&self->tool, self->run.out, filter))
		return false;
	for (line = self->tool.out; *line; line = strchr(line, '\n') + 1, rows++) {
		/* An empty irq_cpus leaves the list out. */
		list[0] = '\0';
		n = sscanf(line, "%u %u %" SCNu64 " %" SCNu64 " %255s", &queue, &id, &packets,
			   &polls, list);
		lo = n >= 4 ? napis_queue(&self->s[0].napis, queue) : NULL;
		hi = lo ? napis_queue(&self->s[1].napis, queue) : NULL;
		if (!hi || cpus_parse(&printed, list)) {
			fprintf(stderr, "# unexpected queue row '%.*s'\n", (int)strcspn(line, "\n"),
				line);
			return false;
		}
		queue_irq_cpus(&self->dev, queue, &irq);
		ok &= between("packets of queue", queue, lo->packets, packets, hi->packets) &
		      between("polls of queue", queue, lo->polls, polls, hi->polls);
		if (id != hi->id || !cpus_equal(&printed, &irq)) {
			fprintf(stderr, "# queue %u: NAPI %u, IRQ CPUs '%s'; the module: NAPI %u\n",
				queue, id, list, hi->id);
			ok = false;
		}
	}
	if (rows != self->s[1].napis.n) {
		fprintf(stderr, "# %u queue rows for %u NAPIs\n", rows, self->s[1].napis.n);
		ok = false;
	}
	return ok;
}

/* What one burst into DEV did, with RPS on or off (rps_phase()). */
struct rps_phase {
	uint64_t rx;			/* DEV's rx_packets */
	uint64_t backlog_packets;	/* on the RPS_CPUS */
	uint64_t backlog_ns;
	uint64_t backlog_untimed;
	uint64_t ipis;			/* received_rps on the RPS_CPUS */
	uint64_t irq_napi_ns;		/* device NAPI time on FIRST_CPU */
	uint64_t irq_dev_napi_ns;	/* of that, DEV's queue 0 NAPI's (its time there) */
};

/* The NET_RX time NAPI @id took on the CPU of @c, 0 when it was not polled there. */
static uint64_t napi_time_on(const struct nictl_cpu_stats *c, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < c->n_napi_times; i++)
		if (c->napi_time[i].id == id)
			return c->napi_time[i].time_ns;
	return 0;
}

/* The backlog packets on the RPS_CPUS in one STATS_GET dump. */
static uint64_t rps_backlog_packets(const struct nictl_stats *st)
{
	const struct nictl_cpu_stats *c;
	uint64_t packets = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(RPS_CPUS); i++) {
		c = cpu_of(st, RPS_CPUS[i]);
		packets += c ? c->poll[NICTL_POLL_BACKLOG].packets : 0;
	}
	return packets;
}

/*
 * With rx-0's rps_cpus at @mask, between a reset and a sample, ROUNDS
 * paced bursts from SENDER into DEV: what the RPS_CPUS' backlogs and DEV's
 * IRQ CPU did of it, in @ph.
 */
static void rps_phase(struct __test_metadata *_metadata, FIXTURE_DATA(stats) *self,
		      const char *mask, struct rps_phase *ph)
{
	struct sample *before = &self->s[0], *after = &self->s[1];
	uint64_t ipis0[NICTL_MAX_CPUS], ipis1[NICTL_MAX_CPUS];
	const struct nictl_cpu_stats *a, *b;
	const struct nictl_poll *pa, *pb;
	const struct nictl_napi *napi;
	unsigned int i;

	memset(ph, 0, sizeof(*ph));
	ASSERT_EQ(0, rps_cpus_set(DEV, 0, mask));
	ASSERT_EQ(0, rx_settle(DEV));
	ASSERT_EQ(0, nictl_stats_reset(&self->env.nl, &self->res)) TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	ASSERT_EQ(0, softnet_received_rps(ipis0, NICTL_MAX_CPUS));
	ASSERT_EQ(0, traffic_rounds(SENDER, SENDER_CPU, ROUNDS, DEV));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	ASSERT_EQ(0, softnet_received_rps(ipis1, NICTL_MAX_CPUS));
	/*
	 * Also: on every CPU, backlog and device polling within NET_RX's time.
	 * (Not NAPI_GET's queues: with one queue pair the NAPI of the other has
	 * no queue where the kernel links queues to NAPIs, 6.8+.)
	 */
	EXPECT_TRUE(stats_consistent(&after->stats));
	EXPECT_TRUE(stats_advanced(&before->stats, &after->stats));

	ph->rx = after->rx_packets - before->rx_packets;
	for (i = 0; i < ARRAY_SIZE(RPS_CPUS); i++) {
		a = cpu_of(&before->stats, RPS_CPUS[i]);
		b = cpu_of(&after->stats, RPS_CPUS[i]);
		ASSERT_TRUE(a && b) TH_LOG("CPU %u not in the dump", RPS_CPUS[i]);
		pa = &a->poll[NICTL_POLL_BACKLOG];
		pb = &b->poll[NICTL_POLL_BACKLOG];
		ph->backlog_packets += pb->packets - pa->packets;
		ph->backlog_ns += pb->time_ns - pa->time_ns;
		ph->backlog_untimed += pb->untimed - pa->untimed;
		ph->ipis += ipis1[RPS_CPUS[i]] - ipis0[RPS_CPUS[i]];
	}
	a = cpu_of(&before->stats, FIRST_CPU);
	b = cpu_of(&after->stats, FIRST_CPU);
	napi = napis_queue(&after->napis, 0);
	ASSERT_TRUE(a && b && napi);
	ph->irq_napi_ns = b->poll[NICTL_POLL_DEVICE].time_ns - a->poll[NICTL_POLL_DEVICE].time_ns;
	ph->irq_dev_napi_ns = napi_time_on(b, napi->id) - napi_time_on(a, napi->id);
	/* NAPI_GET's time of the NAPI holds its part on FIRST_CPU. */
	EXPECT_LE(napi_time_on(b, napi->id), napi->time_ns);
	fprintf(stderr, "# rps_cpus %s: %" PRIu64 " packets into %s; on CPUs 4,6,7 backlog %"
		PRIu64 " packets, %" PRIu64 " ns, %" PRIu64 " polls untimed, %" PRIu64
		" RPS IPIs; on CPU %u device NAPIs %" PRIu64 " ns, %s's queue 0 %" PRIu64 " ns\n",
		mask, ph->rx, DEV, ph->backlog_packets, ph->backlog_ns, ph->backlog_untimed,
		ph->ipis, FIRST_CPU, ph->irq_napi_ns, DEV, ph->irq_dev_napi_ns);
}

/*
 * DEV with one queue pair, its IRQ on FIRST_CPU, the other NICs' on
 * SENDER_CPU, a burst without RPS and one with RPS onto the rest of its
 * node: with RPS the RPS CPUs' backlog NAPIs take DEV's packets, and the
 * module times that work as backlog (with an RPS IPI each time), while
 * DEV's own NAPI stays timed on FIRST_CPU; without RPS their backlogs stay
 * (next to) idle. Backlog threads (PREEMPT_RT) poll outside NET_RX: there
 * the backlog work is counted untimed, and RPS sends no IPIs. nictlctl
 * shows the module's backlog packets.
 */
TEST_F_TIMEOUT(stats, rps_work_shows_as_backlog_time_and_ipis, 1800)
{
	const char *filter = "[.cpus[] | select(.cpu == 4 or .cpu == 6 or .cpu == 7) | "
			     ".poll.backlog.packets] | add";
	bool threaded = backlog_threaded();
	struct rps_phase off, on;
	const char *const *nic;
	uint64_t shown, lo, hi;

	for (nic = test_nics; *nic; nic++)
		if (strcmp(*nic, DEV))
			bind_all_to(_metadata, self, *nic, SENDER_CPU);
	ASSERT_EQ(0, rps_cpus_get(DEV, 0, self->rps_saved, sizeof(self->rps_saved)));
	self->channels_changed = true;
	ASSERT_EQ(0, netdev_set_channels(DEV, 1));
	bind_all_to(_metadata, self, DEV, FIRST_CPU);
	self->rps_changed = true;
	rps_phase(_metadata, self, "0", &off);
	rps_phase(_metadata, self, RPS_MASK, &on);

	EXPECT_LE(ROUNDS * TRAFFIC_ROUND_FRAMES / 2, off.rx);
	EXPECT_LE(ROUNDS * TRAFFIC_ROUND_FRAMES / 2, on.rx);
	/* DEV's NAPI ran on its IRQ's CPU, timed there, either way. */
	EXPECT_LT(0U, off.irq_dev_napi_ns);
	EXPECT_LT(0U, on.irq_dev_napi_ns);
	EXPECT_LE(on.irq_dev_napi_ns, on.irq_napi_ns);
	EXPECT_TRUE(share_at_least("DEV's packets the RPS CPUs' backlogs took", on.backlog_packets,
				   on.rx, RPS_SHARE_PERCENT));
	EXPECT_LT(off.backlog_packets * 10, on.backlog_packets)
		TH_LOG("backlog packets on the RPS CPUs: %" PRIu64 " without RPS, %" PRIu64
		       " with", off.backlog_packets, on.backlog_packets);
	if (threaded) {
		EXPECT_LT(0U, on.backlog_untimed) TH_LOG("backlog threads, yet every poll timed");
		EXPECT_EQ(0U, on.ipis) TH_LOG("backlog threads, yet RPS IPIs");
	} else {
		EXPECT_LT(off.backlog_ns, on.backlog_ns);
		EXPECT_EQ(0U, on.backlog_untimed) TH_LOG("backlog polled outside NET_RX");
		EXPECT_LT(off.ipis * 10, on.ipis)
			TH_LOG("RPS IPIs on the RPS CPUs: %" PRIu64 " without RPS, %" PRIu64
			       " with", off.ipis, on.ipis);
	}

	/* Nothing flows any more: nictlctl prints the counters the module has. */
	ASSERT_EQ(0, STATS(self, DEV, "-j")) TH_LOG("%s", self->run.err);
	ASSERT_EQ(0, take_sample(&self->env.nl, &self->s[2]));
	ASSERT_EQ(0, run_jq(&self->tool, self->run.out, filter));
	shown = strtoull(self->tool.out, NULL, 10);
	lo = rps_backlog_packets(&self->s[1].stats);
	hi = rps_backlog_packets(&self->s[2].stats);
	EXPECT_TRUE(lo <= shown && shown <= hi)
		TH_LOG("nictlctl says %" PRIu64 " backlog packets on CPUs 4,6,7, the module %"
		       PRIu64 " then %" PRIu64, shown, lo, hi);
}

/* The polls, untimed and busy ones, and the busy time, of @cpu's device NAPIs between two dumps. */
static struct nictl_poll poll_delta(const struct nictl_stats *a, const struct nictl_stats *b,
				    unsigned int cpu)
{
	const struct nictl_cpu_stats *x = cpu_of(a, cpu), *y = cpu_of(b, cpu);
	const struct nictl_poll *p, *q;

	if (!x || !y)
		return (struct nictl_poll){ 0 };
	p = &x->poll[NICTL_POLL_DEVICE];
	q = &y->poll[NICTL_POLL_DEVICE];
	return (struct nictl_poll){ .polls = q->polls - p->polls,
				    .untimed = q->untimed - p->untimed,
				    .busy_polls = q->busy_polls - p->busy_polls,
				    .busy_ns = q->busy_ns - p->busy_ns };
}

/*
 * The NAPI @id of DEV in a NAPI_GET reply, with its busy time, or NULL.
 */
static const struct nictl_napi *napi_of(const struct nictl_napis *n, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < n->n; i++)
		if (n->napi[i].id == id)
			return &n->napi[i];
	return NULL;
}

/*
 * A task on BUSY_CPU busy-polls the NAPI its socket's first datagram came
 * through, while traffic flows into DEV, whose IRQs are on FIRST_CPU. The
 * module times those polls as busy polling of BUSY_CPU: most of them
 * timed, the time within the task's own CPU time, the same time in that
 * NAPI's counters and none in the others', and no busy polling on any
 * other CPU. nictlctl stats DEV names BUSY_CPU as where that queue was
 * busy-polled. @reset: reset the counters first (else the caller did).
 */
static void busy_polls_checked(struct __test_metadata *_metadata, FIXTURE_DATA(stats) *self,
			       bool reset)
{
	struct sample *before = &self->s[0], *after = &self->s[1];
	const struct nictl_napi *napi, *was;
	struct busy_rx_report report = { 0 };
	struct nictl_poll d, busy = { 0 };
	uint64_t ns;
	struct busy_rx rx = { .pid = -1 };
	char filter[256], got[64], want[64];
	unsigned int i, cpu;

	bind_all_to(_metadata, self, DEV, FIRST_CPU);
	ASSERT_EQ(0, busy_rx_addr(DEV, true));
	/* No ASSERT until the address is gone. */
	EXPECT_EQ(0, rx_settle(DEV));
	if (reset)
		EXPECT_EQ(0, nictl_stats_reset(&self->env.nl, &self->res))
			TH_LOG("%s", self->res.msg);
	EXPECT_EQ(0, busy_rx_start(&rx, DEV, BUSY_CPU, BUSY_US));
	EXPECT_EQ(0, take_sample(&self->env.nl, before));
	EXPECT_EQ(0, traffic_rounds(SENDER, SENDER_CPU, ROUNDS, DEV));
	EXPECT_EQ(0, busy_rx_stop(&rx, &report));
	EXPECT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_EQ(0, busy_rx_addr(DEV, false));
	ASSERT_LT(0U, report.datagrams) TH_LOG("the busy-polling reader received nothing");
	EXPECT_TRUE(consistent(after));

	for (i = 0; i < after->stats.n; i++) {
		cpu = after->stats.cpu[i].cpu;
		d = poll_delta(&before->stats, &after->stats, cpu);
		/* DEV's NAPIs are not threaded: BUSY_CPU's untimed polls are busy ones. */
		if (cpu == BUSY_CPU) {
			busy = d;
			continue;
		}
		EXPECT_EQ(0U, d.busy_polls) TH_LOG("CPU %u: %" PRIu64 " busy polls, %" PRIu64
						  " ns; only CPU %u busy-polls", cpu,
						  d.busy_polls, d.busy_ns, BUSY_CPU);
	}
	fprintf(stderr, "# CPU %u: %" PRIu64 " busy polls, %" PRIu64 " untimed, in %" PRIu64
		" ns; the reader: %" PRIu64 " datagrams, %" PRIu64 " ns on a CPU\n", BUSY_CPU,
		busy.busy_polls, busy.untimed, busy.busy_ns, report.datagrams, report.runtime_ns);
	EXPECT_LT(0U, busy.busy_ns) TH_LOG("no busy-poll time on CPU %u", BUSY_CPU);
	EXPECT_LE(busy.untimed, busy.busy_polls);
	EXPECT_TRUE(share_at_least("busy polls timed", busy.busy_polls - busy.untimed,
				   busy.busy_polls, BUSY_TIMED_PERCENT));
	/* Ticks and timer softirqs on BUSY_CPU count in both, as the clocks may differ a little. */
	EXPECT_LE(busy.busy_ns, report.runtime_ns + report.runtime_ns / 10)
		TH_LOG("busy polling took %" PRIu64 " ns, the reader ran %" PRIu64 " ns",
		       busy.busy_ns, report.runtime_ns);

	ASSERT_NE(NULL, napi_of(&after->napis, report.napi_id))
		TH_LOG("the reader's NAPI %u is not one of " DEV "'s", report.napi_id);
	for (i = 0; i < after->napis.n; i++) {
		napi = &after->napis.napi[i];
		was = napi_of(&before->napis, napi->id);
		ns = napi->busy_ns - (was ? was->busy_ns : 0);
		if (napi->id != report.napi_id) {
			EXPECT_EQ(0U, ns) TH_LOG("NAPI %u, not busy-polled, has %" PRIu64
						  " ns of it", napi->id, ns);
			continue;
		}
		EXPECT_EQ(busy.busy_ns, ns) TH_LOG("NAPI %u: %" PRIu64 " ns busy, its CPU %"
						   PRIu64, napi->id, ns, busy.busy_ns);
		EXPECT_TRUE(cpus_test(&napi->cpus, BUSY_CPU))
			TH_LOG("NAPI %u busy-polled on CPU %u, not among its CPUs", napi->id,
			       BUSY_CPU);
	}

	snprintf(filter, sizeof(filter), ".queues[] | select(.napi_id == %u) | "
		 "\"\\(.busy_cpus) \\(.busy_ns > 0) \\(.outside_cpus | index(%u) != null)\"",
		 report.napi_id, BUSY_CPU);
	EXPECT_EQ(0, stats_jq(&self->run, &self->tool, filter, got, sizeof(got)));
	snprintf(want, sizeof(want), "[%u] true true", BUSY_CPU);
	EXPECT_STREQ(want, got);
}

TEST_F_TIMEOUT(stats, busy_polls_are_timed_on_the_polling_cpu, 900)
{
	busy_polls_checked(_metadata, self, true);
}

/* @cpu's NET_RX runs so far (/proc/softirqs), or -1. */
static long long net_rx_runs(unsigned int cpu)
{
	FILE *f = fopen("/proc/softirqs", "r");
	char line[4096], *p = NULL, *end;
	long long n = -1;
	unsigned int i;

	if (!f)
		return -1;
	while (!p && fgets(line, sizeof(line), f))
		p = strstr(line, "NET_RX:");
	fclose(f);
	if (!p)
		return -1;
	p += strlen("NET_RX:");
	for (i = 0; i <= cpu; i++, p = end) {
		n = strtoll(p, &end, 10);
		if (end == p)
			return -1;
	}
	return n;
}

/* Pin @ifname's NAPI threads (napi/IFNAME-ID) to @cpu: how many, or -errno. */
static int pin_napi_threads(const char *ifname, unsigned int cpu)
{
	char path[64], comm[32], prefix[32];
	struct dirent *e;
	cpu_set_t set;
	int n = 0;
	DIR *d;

	snprintf(prefix, sizeof(prefix), "napi/%s-", ifname);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	d = opendir("/proc");
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (pathf(path, sizeof(path), "/proc/%s/comm", e->d_name) ||
		    read_str(path, comm, sizeof(comm)) || strncmp(comm, prefix, strlen(prefix)))
			continue;
		if (sched_setaffinity(atoi(e->d_name), sizeof(set), &set)) {
			n = -errno;
			break;
		}
		n++;
	}
	closedir(d);
	return n;
}

/*
 * DEV's NAPIs polled in threads pinned to BUSY_CPU, its IRQs elsewhere: no
 * NET_RX runs there, so every device poll on BUSY_CPU is one outside NET_RX,
 * untimed. (5.10 has no threaded NAPI: nothing to check there.)
 */
static void thread_polls_untimed(struct __test_metadata *_metadata, FIXTURE_DATA(stats) *self)
{
	const char *threaded = "/sys/class/net/" DEV "/threaded";
	struct nictl_poll d;

	if (access(threaded, F_OK))
		return;
	ASSERT_EQ(0, write_str(threaded, "1"));
	/* No ASSERT from here: threaded must go back to 0 whatever fails. */
	EXPECT_LT(0, pin_napi_threads(DEV, BUSY_CPU));
	EXPECT_EQ(0, take_sample(&self->env.nl, &self->s[0]));
	EXPECT_EQ(0, traffic_rounds(SENDER, SENDER_CPU, 1, DEV));
	EXPECT_EQ(0, take_sample(&self->env.nl, &self->s[1]));
	EXPECT_EQ(0, write_str(threaded, "0"));
	d = poll_delta(&self->s[0].stats, &self->s[1].stats, BUSY_CPU);
	EXPECT_LT(0U, d.polls) TH_LOG("no device poll on CPU %u, where DEV's threads are",
				      BUSY_CPU);
	EXPECT_EQ(d.polls, d.untimed) TH_LOG("CPU %u: %" PRIu64 " threaded polls, %" PRIu64
					     " untimed: the others counted as NET_RX's", BUSY_CPU,
					     d.polls, d.untimed);
}

/*
 * A NET_RX run on BUSY_CPU while STATS_RESET attaches the accounting (the
 * test build holds it after its first probe) leaves nothing behind that
 * misleads a later poll there: threaded and busy polls are still told from
 * NET_RX's. Attached entry probe first, that run's entry time stayed, and
 * every such poll counted as NET_RX until BUSY_CPU's next run.
 */
TEST_F_TIMEOUT(stats, a_net_rx_run_while_attaching_misleads_no_later_poll, 900)
{
	const char *const *nic;
	long long runs;
	pid_t reset;

	/* No other NIC's receive work on BUSY_CPU: its runs there would hide the leftover. */
	for (nic = test_nics; *nic; nic++)
		if (strcmp(*nic, DEV))
			bind_all_to(_metadata, self, *nic, SENDER_CPU);
	bind_all_to(_metadata, self, DEV, FIRST_CPU);
	ASSERT_EQ(0, nictl_param_write("fault_stall", "1"));
	reset = nictl_fork_op(nictl_op_reset);
	ASSERT_LT(0, reset);
	EXPECT_TRUE(nictl_ops_held(1, HELD_S * timeout_scale()));
	runs = net_rx_runs(BUSY_CPU);
	/* The move back sends one burst more, whose first IRQ may still land on BUSY_CPU. */
	bind_all_to(_metadata, self, DEV, BUSY_CPU);
	EXPECT_EQ(0, traffic_rounds(SENDER, SENDER_CPU, 1, DEV));
	bind_all_to(_metadata, self, DEV, FIRST_CPU);
	EXPECT_EQ(0, rx_settle(DEV));
	EXPECT_LT(runs, net_rx_runs(BUSY_CPU)) TH_LOG("no NET_RX run on CPU %u meanwhile",
						      BUSY_CPU);
	EXPECT_EQ(0, nictl_param_write("fault_stall", "0"));
	ASSERT_TRUE(child_ok(reset)) TH_LOG("STATS_RESET failed");
	/* Threads first: a busy poll may itself run NET_RX on BUSY_CPU. */
	thread_polls_untimed(_metadata, self);
	busy_polls_checked(_metadata, self, false);
}

/* `stats DEV -j` has the members stats.c documents, in its order, with our numbers. */
TEST_F_TIMEOUT(stats, cli_json_has_the_documented_fields, 300)
{
	char want[64];

	ASSERT_EQ(0, take_sample(&self->env.nl, &self->s[0]));
	ASSERT_EQ(0, STATS(self, DEV, "-j"));
	ASSERT_EQ(0, take_sample(&self->env.nl, &self->s[1]));
	EXPECT_EQ(1U, count_lines(self->run.out));
	EXPECT_TRUE(jq_says(self, "keys_unsorted | join(\",\")",
			    "since_ns,via,enabled,cpus,hottest_cpu,dev,queues\n"));
	EXPECT_TRUE(jq_says(self, "[.cpus[] | keys_unsorted | join(\",\")] | unique[]",
			    "cpu,net_rx,net_tx,poll,net_rx_split,napi_unattributed,softirq_pct,"
			    "softnet\n"));
	EXPECT_TRUE(jq_says(self, "[.cpus[] | .poll | keys_unsorted | join(\",\")] | unique[]",
			    "device,backlog\n"));
	EXPECT_TRUE(jq_says(self, "[.cpus[] | .poll[] | keys_unsorted | join(\",\")] | unique[]",
			    "polls,packets,time_ns,untimed,pct,packets_per_sec,busy_polls,busy_ns,"
			    "busy_pct\n"));
	EXPECT_TRUE(jq_says(self, "[.cpus[] | .net_rx_split | keys_unsorted | join(\",\")] | "
			    "unique[]",
			    "napi_ns,backlog_ns,other_ns,napi_pct,backlog_pct,other_pct\n"));
	EXPECT_TRUE(jq_says(self, "[.cpus[] | .softnet | keys_unsorted | join(\",\")] | unique[]",
			    "processed,dropped,time_squeeze,received_rps\n"));
	/* The split adds up to NET_RX, whichever part the time went to. */
	EXPECT_TRUE(jq_says(self, "[.cpus[] | .net_rx_split.napi_ns + .net_rx_split.backlog_ns + "
			    ".net_rx_split.other_ns == .net_rx.time_ns] | all", "true\n"));
	EXPECT_TRUE(jq_says(self, "[.cpus[] | (.net_rx, .net_tx) | keys_unsorted | join(\",\")]"
			    " | unique[]",
			    "count,time_ns,max_ns,max_new,hist,pct,per_sec,avg_ns\n"));
	EXPECT_TRUE(jq_says(self, ".dev | keys_unsorted | join(\",\")",
			    "ifname,ifindex,packets\n"));
	EXPECT_TRUE(jq_says(self, "[.queues[] | keys_unsorted | join(\",\")] | unique[]",
			    "queue,napi_id,polls,packets,time_ns,busy_ns,polls_per_sec,"
			    "packets_per_sec,share_pct,irq_cpus,napi_cpus,outside_cpus,busy_cpus,"
			    "thread\n"));
	EXPECT_TRUE(jq_says(self,
			    "[.since_ns, .enabled, .hottest_cpu // 0] | map(type) | join(\",\")",
			    "number,boolean,number\n"));
	EXPECT_TRUE(jq_says(self, ".enabled", "true\n"));
	snprintf(want, sizeof(want), "%s %u\n", DEV, self->dev.ifindex);
	EXPECT_TRUE(jq_says(self, ".dev | \"\\(.ifname) \\(.ifindex)\"", want));
	EXPECT_TRUE(json_cpus_match(self));
	EXPECT_TRUE(json_queues_match(self));
}

/*
 * -i INTERVAL --count N: N lines, each an interval of about SECONDS. The
 * span is the module's clock between two samples: nictlctl keeps its
 * deadlines from before its first read, which takes its time, so the first
 * span may come out a little short.
 */
TEST_F_TIMEOUT(stats, cli_json_intervals, 300)
{
	const char *line;
	uint64_t ns;

	ASSERT_EQ(0, STATS(self, "-i", "0.5", "--count", "2", "-j"));
	EXPECT_EQ(2U, count_lines(self->run.out));
	EXPECT_TRUE(jq_says(self, "keys_unsorted[0]", "interval_ns\ninterval_ns\n"));
	EXPECT_TRUE(jq_says(self, "[.cpus[] | .net_rx.max_new, .net_tx.max_new | type] | unique[]",
			    "boolean\nboolean\n"));
	ASSERT_EQ(0, run_jq(&self->tool, self->run.out, ".interval_ns"));
	for (line = self->tool.out; *line; line = strchr(line, '\n') + 1) {
		ASSERT_EQ(1, sscanf(line, "%" SCNu64, &ns)) TH_LOG("'%s'", line);
		EXPECT_LE(INTERVAL_MIN_NS, ns);
		EXPECT_GE(INTERVAL_MAX_NS, ns);
	}
}

/* The value of the sample @series ("name{labels}") in Prometheus @text. */
static bool prom_sample(const char *text, const char *series, uint64_t *v)
{
	const char *p;
	size_t len = strlen(series);

	for (p = text; (p = strstr(p, series)); p += len)
		if ((p == text || p[-1] == '\n') && p[len] == ' ')
			return sscanf(p + len + 1, "%" SCNu64, v) == 1;
	fprintf(stderr, "# no sample %s\n", series);
	return false;
}

/*
 * --prometheus passes promtool (the host's, which make deps installs) and
 * our own grammar check, with our numbers in it.
 */
TEST_F_TIMEOUT(stats, cli_prometheus_passes_promtool, 300)
{
	const char *const promtool[] = { PROMTOOL, "check", "metrics", NULL };
	const struct nictl_cpu_stats *lo, *hi;
	const struct nictl_napi *napi;
	char series[128];
	unsigned int i;
	uint64_t v;

	ASSERT_EQ(0, take_sample(&self->env.nl, &self->s[0]));
	ASSERT_EQ(0, STATS(self, DEV, "--prometheus"));
	ASSERT_EQ(0, take_sample(&self->env.nl, &self->s[1]));
	EXPECT_TRUE(prom_text_ok(self->run.out));
	ASSERT_EQ(0, access(PROMTOOL, X_OK))
		TH_LOG("no %s: make deps installs Debian's prometheus package", PROMTOOL);
	ASSERT_EQ(0, run_cmd(&self->tool, false, self->run.out, promtool));
	EXPECT_EQ(0, self->tool.status) TH_LOG("promtool: %s%s", self->tool.out, self->tool.err);

	EXPECT_TRUE(prom_sample(self->run.out, "nictl_softirq_accounting_enabled", &v) && v == 1);
	for (i = 0; i < self->s[0].stats.n; i++) {
		lo = &self->s[0].stats.cpu[i];
		hi = &self->s[1].stats.cpu[i];
		snprintf(series, sizeof(series),
			 "nictl_softirq_runs_total{cpu=\"%u\",vec=\"net_rx\"}", lo->cpu);
		EXPECT_TRUE(prom_sample(self->run.out, series, &v) &&
			    between("NET_RX runs", lo->cpu, lo->vec[NICTL_SOFTIRQ_NET_RX].count, v,
				    hi->vec[NICTL_SOFTIRQ_NET_RX].count));
	}
	for (i = 0; i < self->s[1].napis.n; i++) {
		napi = &self->s[1].napis.napi[i];
		/* Without a queue, the instance is told by its NAPI id. */
		if (napi->present & ATTR_BIT(NICTL_A_NAPI_QUEUE))
			snprintf(series, sizeof(series),
				 "nictl_napi_packets_total{device=\"%s\",queue=\"%u\"}", DEV,
				 napi->queue);
		else
			snprintf(series, sizeof(series),
				 "nictl_napi_packets_total{device=\"%s\",queue=\"napi-%u\"}", DEV,
				 napi->id);
		EXPECT_TRUE(prom_sample(self->run.out, series, &v) &&
			    between("packets of NAPI", napi->id,
				    self->s[0].napis.napi[i].packets, v, napi->packets));
	}
}

/* The first line of the default table says whether accounting is @on. */
static bool table_says(FIXTURE_DATA(stats) *self, bool on)
{
	const char *want = on ? "; accounting on" : "; accounting off";

	if (STATS(self) == 0 && strstr(self->run.out, want) &&
	    strstr(self->run.out, want) < strchr(self->run.out, '\n'))
		return true;
	fprintf(stderr, "# want '%s' in the heading of:\n%s", want, self->run.out);
	return false;
}

/* --off, --on and --reset act for root only; reading is for everyone. */
TEST_F_TIMEOUT(stats, cli_switches_need_cap_net_admin, 300)
{
	const char *const switches[] = { "--off", "--reset", "--on" };
	struct sample *before = &self->s[0], *after = &self->s[1];
	unsigned int i;
	uint64_t t0;

	ASSERT_EQ(0, take_sample(&self->env.nl, before));
	for (i = 0; i < ARRAY_SIZE(switches); i++) {
		EXPECT_EQ(1, STATS_UNPRIV(self, switches[i]));
		EXPECT_TRUE(one_line_error(&self->run, "permission denied: needs CAP_NET_ADMIN"));
	}
	EXPECT_EQ(0, STATS_UNPRIV(self, DEV, "-j"));
	EXPECT_TRUE(jq_says(self, ".enabled", "true\n"));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_TRUE(stats_enabled_is(&after->stats, true));
	EXPECT_TRUE(stats_advanced(&before->stats, &after->stats));

	EXPECT_EQ(0, STATS(self, "--off"));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_TRUE(stats_enabled_is(&after->stats, false));
	EXPECT_TRUE(table_says(self, false));
	EXPECT_EQ(0, STATS(self, "--on"));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_TRUE(stats_enabled_is(&after->stats, true));
	EXPECT_TRUE(table_says(self, true));
	t0 = monotonic_ns();
	EXPECT_EQ(0, STATS(self, "--reset"));
	ASSERT_EQ(0, take_sample(&self->env.nl, after));
	EXPECT_LE(t0, after->stats.cpu[0].start_ns);
	EXPECT_TRUE(stats_enabled_is(&after->stats, true));
}

NICTL_TEST_MAIN
