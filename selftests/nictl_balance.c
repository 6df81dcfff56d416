// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl balance, and the daemon's balance = yes, under real NET_RX load:
 * a flood of broadcast frames out of vnode0 that the bridge behind the
 * guest hands to vnode1's and igb0's receive queues (both on node 1), with
 * the module's accounting on. Balance moves the queue IRQs on the strength
 * of what it measured, so each test checks what it must leave behind
 * whatever the loads came out as: as /proc/irq/N/smp_affinity_list shows,
 * every IRQ of a queue on one same CPU of the policy (--numa-local,
 * --cpus with --exclude), loaded queues apart, a physical core each when
 * there are enough; the JSON's verdict and loads; nothing changed by a dry
 * run, a gain under the threshold or a failed apply (which puts the devices
 * moved before back); a queue off its policy moved whatever the threshold;
 * the daemon spreading a skewed start once and then holding still; and the
 * errors a user can make named. Never timings: TCG's are noise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "cpus.h"
#include "daemon.h"
#include "env.h"
#include "main.h"
#include "module.h"
#include "nictl.h"
#include "run.h"
#include "stats.h"
#include "sys.h"
#include "traffic.h"

/* The sender and its rate: enough that each loaded queue costs a few %. */
#define FLOOD_NIC	"vnode0"
#define FLOOD_CPU	0
#define FLOOD_RATE	3000

/* The measurement window of every balance: short, the loads are steady. */
#define WINDOW		"2"

#define CONF		"/tmp/nictl-balance.conf"
#define DAEMON_LOG	"/tmp/nictl-balance.log"
/* The daemon's balance-interval, and the decisions a daemon test reads. */
#define INTERVAL_S	3
#define ROUNDS		4
/* Its first decision comes after two rounds; then one per interval. */
#define ROUNDS_WAIT_S	(DAEMON_WAIT_S + INTERVAL_S * (ROUNDS + 1))

/* Queues of a guest NIC (igb0 has the most, 8). */
#define MAX_QUEUES	8
/* No IRQ of this queue seen yet. */
#define NO_CPU		(-1)

/* Where each queue of a device runs, as /proc/irq shows it. */
struct queue_map {
	const char *ifname;
	unsigned int n;
	int cpu[MAX_QUEUES];
};

/* The daemon's balance decisions, in the order it logged them. */
struct decisions {
	unsigned int n;
	bool moved[64];
};

#define BALANCE(r, ...) \
	run_ctl(r, false, NULL, (const char *const []){ "balance", "--window", WINDOW, \
							__VA_ARGS__, NULL })
#define CTL(r, ...) run_ctl(r, false, NULL, (const char *const []){ __VA_ARGS__, NULL })

/*
 * Read @ifname's queue map: false, with what is wrong printed when @loud,
 * unless every IRQ's mask is one CPU and the IRQs of a queue (rx and tx)
 * share it.
 */
static bool map_read(struct nl_client *nl, const char *ifname, struct queue_map *m, bool loud)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus mask, eff;
	unsigned int i, q;
	char why[320] = "";
	int cpu;

	memset(m, 0, sizeof(*m));
	m->ifname = ifname;
	for (q = 0; q < MAX_QUEUES; q++)
		m->cpu[q] = NO_CPU;
	if (nictl_dev_get(nl, ifname, &dev, &res)) {
		snprintf(why, sizeof(why), "DEV_GET: %s", res.msg);
		dev.n_irqs = 0;
	}
	for (i = 0; i < dev.n_irqs && !*why; i++) {
		q = dev.irqs[i].queue;
		if (q >= MAX_QUEUES || irq_affinity(dev.irqs[i].num, &mask, &eff)) {
			snprintf(why, sizeof(why), "IRQ %u of queue %u unreadable", dev.irqs[i].num, q);
			break;
		}
		cpu = cpus_first(&mask);
		if (cpus_count(&mask) != 1)
			snprintf(why, sizeof(why), "queue %u: IRQ %u on %u CPUs, want one", q,
				 dev.irqs[i].num, cpus_count(&mask));
		else if (m->cpu[q] != NO_CPU && m->cpu[q] != cpu)
			snprintf(why, sizeof(why), "queue %u: IRQ %u on CPU %d, its other IRQ on "
				 "%d: want them together", q, dev.irqs[i].num, cpu, m->cpu[q]);
		m->cpu[q] = cpu;
		if (q >= m->n)
			m->n = q + 1;
	}
	if (!*why && !m->n)
		snprintf(why, sizeof(why), "no queue IRQ");
	if (*why && loud)
		fprintf(stderr, "# %s: %s\n", ifname, why);
	return !*why;
}

static bool read_queue_map(struct nl_client *nl, const char *ifname, struct queue_map *m)
{
	return map_read(nl, ifname, m, true);
}

static void print_map(const struct queue_map *m)
{
	unsigned int q;

	fprintf(stderr, "# %s:", m->ifname);
	for (q = 0; q < m->n; q++)
		fprintf(stderr, " queue %u CPU %d%s", q, m->cpu[q], q + 1 < m->n ? "," : "\n");
}

/* Every queue of @m runs on a CPU of @allowed. */
static bool map_within(const struct queue_map *m, const struct cpus *allowed)
{
	char list[CPUS_LIST_LEN];
	unsigned int q;
	bool ok = true;

	for (q = 0; q < m->n; q++)
		if (m->cpu[q] < 0 || !cpus_test(allowed, m->cpu[q]))
			ok = false;
	if (!ok) {
		cpus_format(allowed, list, sizeof(list));
		fprintf(stderr, "# want every queue on CPUs %s\n", list);
		print_map(m);
	}
	return ok;
}

/*
 * No two queues of @m share a CPU or, when @cores, a physical core (the
 * lowest of its SMT siblings stands for it).
 */
static bool map_apart(const struct queue_map *m, bool cores)
{
	int id[MAX_QUEUES];
	struct cpus core;
	unsigned int q, p;
	bool ok = true;

	for (q = 0; q < m->n; q++) {
		id[q] = m->cpu[q];
		if (cores && !cpu_core(m->cpu[q], &core))
			id[q] = cpus_first(&core);
		for (p = 0; p < q; p++)
			if (id[p] == id[q])
				ok = false;
	}
	if (!ok) {
		fprintf(stderr, "# want every queue on a %s of its own\n",
			cores ? "physical core" : "CPU");
		print_map(m);
	}
	return ok;
}

/* The CPUs @m's queues run on. */
static void map_cpus(const struct queue_map *m, struct cpus *s)
{
	unsigned int q;

	cpus_zero(s);
	for (q = 0; q < m->n; q++)
		cpus_set(s, m->cpu[q]);
}

static bool same_map(const struct queue_map *a, const struct queue_map *b)
{
	bool same = a->n == b->n && !memcmp(a->cpu, b->cpu, sizeof(a->cpu));

	if (!same) {
		fprintf(stderr, "# the queues moved, from / to:\n");
		print_map(a);
		print_map(b);
	}
	return same;
}

/* `jq -r @filter` over @json prints @want; else says what it printed. */
static bool jq_says(const char *json, const char *filter, const char *want)
{
	static struct run_result jq;
	size_t len;

	if (run_jq(&jq, json, filter))
		return false;
	len = strlen(jq.out);
	while (len && jq.out[len - 1] == '\n')
		jq.out[--len] = '\0';
	if (!strcmp(jq.out, want))
		return true;
	fprintf(stderr, "# JSON %s is '%s', want '%s', in: %s\n", filter, jq.out, want, json);
	return false;
}

/* A balance that moved queues for a real gain: the JSON says so. */
#define LOADS_DROP	"([.cpus[].planned_ns] | max) < ([.cpus[].now_ns] | max)"

static bool json_applied(const char *json)
{
	return jq_says(json, ".applied", "true") & jq_says(json, ".moves >= 1", "true") &
	       jq_says(json, LOADS_DROP, "true");
}

/* Each queue of @m runs where the JSON's plan put it. */
static bool map_follows_plan(const struct queue_map *m, const char *json)
{
	char filter[160], want[16];
	unsigned int q;
	bool ok = true;

	for (q = 0; q < m->n; q++) {
		snprintf(filter, sizeof(filter), "[.queues[] | select(.ifname == \"%s\" and "
			 ".queue == %u) | .planned_cpu] | join(\",\")", m->ifname, q);
		snprintf(want, sizeof(want), "%d", m->cpu[q]);
		ok &= jq_says(json, filter, want);
	}
	return ok;
}

/* The daemon's log has, or gets within DAEMON_WAIT_S, a line with @what. */
static bool log_says(const char *what)
{
	/* The daemon logs a re-apply after its writes, which a test may see first. */
	bool found = daemon_log_wait(DAEMON_LOG, what, DAEMON_WAIT_S);

	if (!found)
		fprintf(stderr, "# want '%s' in the daemon's log\n", what);
	return found;
}

/* @text contains @what; else shows it. */
static bool says(const char *text, const char *what)
{
	if (strstr(text, what))
		return true;
	fprintf(stderr, "# want '%s' in: %s\n", what, text);
	return false;
}

FIXTURE(balance) {
	struct test_env env;
	int flood;		/* its pid; 0 when not running */
	pid_t daemon;		/* 0 when not running */
	struct cpus node1;	/* node 1's CPUs */
	struct irq_snapshot before;
	struct queue_map map, map2;
	struct run_result r;
};

/*
 * The sender's transmit completions in a NAPI of their own (virtio_net's
 * TX NAPI) cost a node 0 CPU more NET_RX time than the receivers take, and
 * balance weighs its gain against the hottest CPU of all: without it,
 * virtio_net frees sent frames as it sends, outside NET_RX. It changes
 * while the NIC is down (5.10 refuses it otherwise).
 */
static int sender_tx_napi(bool on)
{
	return SH("ip", "link", "set", FLOOD_NIC, "down") ?:
	       SH("ethtool", "-C", FLOOD_NIC, "tx-frames", on ? "1" : "0") ?:
	       SH("ip", "link", "set", FLOOD_NIC, "up");
}

FIXTURE_SETUP(balance)
{
	struct nl_result res;

	self->flood = 0;
	self->daemon = 0;
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, nictl_stats_set(&self->env.nl, true, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, node_cpus(1, &self->node1));
	ASSERT_EQ(4, cpus_count(&self->node1));
	/*
	 * e1k would take the flood too, on a node 0 CPU that no policy here
	 * uses: teardown brings it back up.
	 */
	ASSERT_EQ(0, SH("ip", "link", "set", "e1k", "down"));
	ASSERT_EQ(0, sender_tx_napi(false));
	self->flood = traffic_flood_start(FLOOD_NIC, FLOOD_CPU, FLOOD_RATE);
	ASSERT_LT(0, self->flood) TH_LOG("flood: %s", strerror(-self->flood));
}

FIXTURE_TEARDOWN(balance)
{
	if (self->daemon > 0)
		EXPECT_EQ(0, daemon_stop(self->daemon));
	if (self->flood > 0)
		EXPECT_EQ(0, traffic_flood_stop(self->flood));
	EXPECT_EQ(0, sender_tx_napi(true));
	EXPECT_EQ(0, nictl_faults_off());
	EXPECT_EQ(0, env_teardown(&self->env));
}

/*
 * For the tests of vnode1 alone: igb0 takes the flood too, on CPUs of
 * either node, which would blur the gain (teardown brings it back up).
 */
static int vnode1_alone(void)
{
	return SH("ip", "link", "set", "igb0", "down");
}

/* Bind every queue of @ifname to @cpu, as an explicit placement does. */
static int bind_all_on(struct nl_client *nl, const char *ifname, unsigned int cpu)
{
	struct nictl_dev dev, reply;
	struct nl_result res;

	return nictl_dev_get(nl, ifname, &dev, &res) ?: bind_queues(nl, &dev, &cpu, 1, &reply);
}

/*
 * vnode1's two queues bound to one CPU, then balanced within node 1: they
 * end on two CPUs of the node, each queue's rx and tx IRQ together, where
 * the plan said, and the JSON reports moves that cool the hottest CPU.
 */
TEST_F_TIMEOUT(balance, moves_loaded_queues_off_a_shared_cpu, 120)
{
	ASSERT_EQ(0, vnode1_alone());
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "vnode1", 4));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "--numa-local", "--allow-siblings", "-j"));
	EXPECT_TRUE(json_applied(self->r.out));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "vnode1", &self->map));
	EXPECT_TRUE(map_within(&self->map, &self->node1));
	EXPECT_TRUE(map_apart(&self->map, false));
	EXPECT_TRUE(map_follows_plan(&self->map, self->r.out));
}

/* Without --allow-siblings, node 1's two cores take a queue each. */
TEST_F_TIMEOUT(balance, numa_local_gives_each_queue_a_core, 120)
{
	ASSERT_EQ(0, vnode1_alone());
	/* Both on CPU 5: a core shared, off the policy. */
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "vnode1", 5));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "--numa-local", "-j"));
	EXPECT_TRUE(jq_says(self->r.out, ".applied", "true"));
	EXPECT_TRUE(jq_says(self->r.out, ".shared_cores", "false"));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "vnode1", &self->map));
	EXPECT_TRUE(map_within(&self->map, &self->node1));
	EXPECT_TRUE(map_apart(&self->map, true));
}

/* --cpus with --exclude: the excluded CPUs are never used, even to stay. */
TEST_F_TIMEOUT(balance, cpus_and_exclude_are_kept, 120)
{
	struct cpus allowed, used;

	ASSERT_EQ(0, vnode1_alone());
	ASSERT_EQ(0, cpus_parse(&allowed, "2,4,5,7"));
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "vnode1", 3));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "--cpus", "2-7", "--exclude", "3,6",
			     "--allow-siblings", "-j"));
	EXPECT_TRUE(jq_says(self->r.out, ".applied", "true"));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "vnode1", &self->map));
	EXPECT_TRUE(map_within(&self->map, &allowed));
	EXPECT_TRUE(map_apart(&self->map, false));
	map_cpus(&self->map, &used);
	EXPECT_FALSE(cpus_test(&used, 3) || cpus_test(&used, 6));
}

/*
 * vnode1 and igb0, both on node 1, all ten queues on CPU 4: one command
 * plans them together (one JSON, every queue of both), and each device
 * ends where that plan put it, spread over the node.
 */
TEST_F_TIMEOUT(balance, two_nics_of_a_node_together, 120)
{
	struct cpus used, both;
	int cpu;

	ASSERT_EQ(0, bind_all_on(&self->env.nl, "vnode1", 4));
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "igb0", 4));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "igb0", "--numa-local", "-j"));
	EXPECT_TRUE(json_applied(self->r.out));
	EXPECT_TRUE(jq_says(self->r.out, "[.queues[].ifname] | group_by(.) | "
			    "map(\"\\(.[0]) \\(length)\") | join(\",\")", "igb0 8,vnode1 2"));
	/* Ten queue groups, node 1 has two cores: some must share. */
	EXPECT_TRUE(jq_says(self->r.out, ".shared_cores", "true"));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "vnode1", &self->map));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "igb0", &self->map2));
	EXPECT_TRUE(map_within(&self->map, &self->node1));
	EXPECT_TRUE(map_within(&self->map2, &self->node1));
	EXPECT_TRUE(map_follows_plan(&self->map, self->r.out));
	EXPECT_TRUE(map_follows_plan(&self->map2, self->r.out));
	map_cpus(&self->map, &both);
	map_cpus(&self->map2, &used);
	for (cpu = cpus_first(&used); cpu >= 0; cpu = cpus_next(&used, cpu))
		cpus_set(&both, cpu);
	EXPECT_LT(2, cpus_count(&both));
}

/*
 * Within its policy (bind --numa-local), a placement whose gain cannot reach
 * --threshold 100 stays: both the text and the JSON say nothing moved.
 */
TEST_F_TIMEOUT(balance, under_the_threshold_nothing_moves, 120)
{
	ASSERT_EQ(0, vnode1_alone());
	ASSERT_EQ(0, CTL(&self->r, "bind", "vnode1", "--numa-local"));
	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, irq_snapshot_take(&self->before));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "--numa-local", "--threshold", "100"));
	EXPECT_TRUE(strstr(self->r.out, "the gain is under the threshold: nothing moved") ||
		    says(self->r.out, "already balanced: nothing to move"));
	EXPECT_EQ(NULL, strstr(self->r.out, "moved: "));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "--numa-local", "--threshold", "100", "-j"));
	EXPECT_TRUE(jq_says(self->r.out, ".applied", "false"));
	EXPECT_TRUE(jq_says(self->r.out, ".off_policy", "false"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->before));
}

/* --dry-run prints the plan and moves nothing, in text and in JSON. */
TEST_F_TIMEOUT(balance, dry_run_changes_nothing, 120)
{
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "vnode1", 4));
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "igb0", 4));
	ASSERT_EQ(0, irq_snapshot_take(&self->before));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "igb0", "--numa-local", "--dry-run"));
	/* Which queues the plan moves is the measurement's to say. */
	EXPECT_TRUE(says(self->r.out, "\nplanned: "));
	EXPECT_TRUE(says(self->r.out, "dry run: nothing moved"));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "igb0", "--numa-local", "--dry-run", "-j"));
	EXPECT_TRUE(jq_says(self->r.out, ".applied", "false"));
	EXPECT_TRUE(jq_says(self->r.out, ".moves >= 1", "true"));
	EXPECT_TRUE(jq_says(self->r.out, "[.queues[] | select(.cpu != .planned_cpu)] | "
			    "length >= 1", "true"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->before));
}

/* vnode1 on CPU 0, its policy node 1: moved, --threshold 100 or not. */
TEST_F_TIMEOUT(balance, off_policy_moves_whatever_the_threshold, 120)
{
	ASSERT_EQ(0, vnode1_alone());
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "vnode1", 0));
	ASSERT_EQ(0, BALANCE(&self->r, "vnode1", "--numa-local", "--threshold", "100", "-j"));
	EXPECT_TRUE(jq_says(self->r.out, ".applied", "true"));
	EXPECT_TRUE(jq_says(self->r.out, ".off_policy", "true"));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "vnode1", &self->map));
	EXPECT_TRUE(map_within(&self->map, &self->node1));
}

/*
 * All or nothing: vnode1 is bound by the balance, then igb0's bind fails
 * (the write after vnode1's last fails in every apply): vnode1 goes back
 * where it was, igb0 stays, the command exits 1 and says why. Both start
 * off their policy (CPU 0, node 0), so the balance moves both whatever the
 * loads it measures: loads alone may leave vnode1 where it is, and the
 * failing write is then igb0's with nothing to put back (seen beside a
 * CPU hog).
 */
TEST_F_TIMEOUT(balance, failure_puts_back_every_device, 120)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus used;

	ASSERT_EQ(0, bind_all_on(&self->env.nl, "vnode1", 0));
	ASSERT_EQ(0, bind_all_on(&self->env.nl, "igb0", 0));
	ASSERT_EQ(0, irq_snapshot_take(&self->before));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	ASSERT_EQ(4, dev.n_irqs);
	ASSERT_EQ(0, nictl_set_fault(dev.n_irqs + 1));
	EXPECT_EQ(1, BALANCE(&self->r, "vnode1", "igb0", "--numa-local"));
	ASSERT_EQ(0, nictl_set_fault(0));
	EXPECT_TRUE(says(self->r.err, "igb0"));
	EXPECT_TRUE(says(self->r.err, "vnode1 put back"));
	EXPECT_EQ(NULL, strstr(self->r.out, "moved: "));
	EXPECT_EQ(0, irq_snapshot_changes(&self->before));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "vnode1", &self->map));
	map_cpus(&self->map, &used);
	EXPECT_EQ(0, cpus_first(&used));
	EXPECT_EQ(1, cpus_count(&used));
}

/* The daemon's balance decisions in its log so far. */
static void read_decisions(struct decisions *d)
{
	char line[4096];
	FILE *f = fopen(DAEMON_LOG, "r");

	d->n = 0;
	while (f && fgets(line, sizeof(line), f) && d->n < sizeof(d->moved)) {
		if (strstr(line, "balance: moved "))
			d->moved[d->n++] = true;
		else if (strstr(line, "balance: already balanced") ||
			 strstr(line, "balance: the gain is under the threshold"))
			d->moved[d->n++] = false;
	}
	if (f)
		fclose(f);
}

/* Wait until the daemon logged @n decisions: how many it did. */
static unsigned int wait_decisions(struct decisions *d, unsigned int n)
{
	time_t t0 = time(NULL);

	for (read_decisions(d); d->n < n && time(NULL) - t0 < ROUNDS_WAIT_S;
	     read_decisions(d))
		sleep(1);
	if (d->n < n)
		fprintf(stderr, "# the daemon logged %u balance decisions in %d s, want %u\n",
			d->n, ROUNDS_WAIT_S, n);
	return d->n;
}

/* Start the daemon on one rule for @ifname that balances; @siblings: allow them. */
static pid_t start_balancing_daemon(const char *ifname, bool siblings)
{
	char conf[256];

	snprintf(conf, sizeof(conf),
		 "[rule node1]\n"
		 "match-name = %s\n"
		 "cpus = numa-local\n"
		 "allow-siblings = %s\n"
		 "balance = yes\n"
		 "balance-interval = %d\n", ifname, siblings ? "yes" : "no", INTERVAL_S);
	unlink(DAEMON_LOG);
	return write_file(CONF, conf) ? -1 : daemon_start(CONF, DAEMON_LOG);
}

/*
 * Decisions @from to @d->n - 1 move nothing, and the map taken after
 * decision @from - 1 still holds; shows the log otherwise.
 */
static bool held_still(struct nl_client *nl, const struct decisions *d, unsigned int from,
		       const struct queue_map *then, struct queue_map *now)
{
	bool ok = d->n >= ROUNDS && read_queue_map(nl, "vnode1", now) && same_map(then, now);
	unsigned int i;

	for (i = from; i < d->n; i++)
		if (d->moved[i]) {
			fprintf(stderr, "# decision %u of %u moved queues, want none after %u\n",
				i + 1, d->n, from);
			ok = false;
		}
	if (!ok)
		daemon_dump_log(DAEMON_LOG, NULL);
	return ok;
}

/*
 * Steady symmetric load on vnode1, bound by the rule a core per queue: at
 * most the first decision moves; the later ones move nothing and the
 * queues stay where they are.
 */
TEST_F_TIMEOUT(balance, daemon_holds_still_under_steady_load, 180)
{
	struct decisions d;

	ASSERT_EQ(0, vnode1_alone());
	self->daemon = start_balancing_daemon("vnode1", false);
	ASSERT_LT(0, self->daemon);
	ASSERT_LE(1, wait_decisions(&d, 1));
	ASSERT_TRUE(read_queue_map(&self->env.nl, "vnode1", &self->map));
	EXPECT_TRUE(map_within(&self->map, &self->node1));
	EXPECT_TRUE(map_apart(&self->map, true));
	wait_decisions(&d, ROUNDS);
	EXPECT_TRUE(held_still(&self->env.nl, &d, 1, &self->map, &self->map2));
}

/* Every queue of @ifname on CPU 4, bound there by the rule, within a wait. */
static bool all_on_4(struct nl_client *nl, const char *ifname, struct queue_map *m)
{
	time_t t0 = time(NULL);
	struct cpus used;
	bool ok;

	do {
		ok = map_read(nl, ifname, m, false);
		map_cpus(m, &used);
		ok = ok && cpus_count(&used) == 1 && cpus_test(&used, 4);
	} while (!ok && time(NULL) - t0 < DAEMON_WAIT_S && !sleep(1));
	if (!ok)
		print_map(m);
	return ok;
}

/*
 * Move queue 0's IRQ of @ifname, which a balance placed as @balanced says,
 * to another node-1 CPU behind the daemon's back: the daemon must put it
 * back where the balance put it (not where its rule alone would), and say
 * so. @now: scratch.
 */
static bool drift_comes_back(struct nl_client *nl, const char *ifname,
			     const struct queue_map *balanced, struct queue_map *now)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus elsewhere;
	time_t t0;
	bool back;

	if (nictl_dev_get(nl, ifname, &dev, &res) || !dev.n_irqs) {
		fprintf(stderr, "# %s: DEV_GET: %s\n", ifname, res.msg);
		return false;
	}
	cpus_zero(&elsewhere);
	cpus_set(&elsewhere, balanced->cpu[0] == 7 ? 6 : 7);
	if (irq_set_affinity(dev.irqs[0].num, &elsewhere)) {
		fprintf(stderr, "# cannot move IRQ %u\n", dev.irqs[0].num);
		return false;
	}
	t0 = time(NULL);
	do {
		back = map_read(nl, ifname, now, false) && same_map(balanced, now);
	} while (!back && time(NULL) - t0 < DAEMON_WAIT_S && !sleep(1));
	if (!back) {
		fprintf(stderr, "# IRQ %u moved to CPU %d: want the balanced placement back\n",
			dev.irqs[0].num, cpus_first(&elsewhere));
		print_map(balanced);
		print_map(now);
	}
	if (back && !log_says("where the last balance put them")) {
		daemon_dump_log(DAEMON_LOG, NULL);
		back = false;
	}
	return back;
}

/*
 * Stop the flood, then wait for @n more decisions: each sampled after the
 * stop, so from the second on their windows hold no traffic and they move
 * nothing (a gain under 0.5 % of the window never moves a queue).
 */
static bool quietened(int *flood, struct decisions *d, unsigned int n)
{
	unsigned int want;
	int err = traffic_flood_stop(*flood);

	*flood = 0;
	read_decisions(d);
	want = d->n + n;
	return !err && wait_decisions(d, want) >= want;
}

/*
 * The daemon's decisions after the first @from, at most ROUNDS of them,
 * until igb0's queues use three CPUs or more and one of those decisions
 * moved them; the map after the last in @m.
 */
static bool spread_by_decisions(struct nl_client *nl, struct decisions *d, unsigned int from,
				struct queue_map *m)
{
	unsigned int i, want = from;
	struct cpus used;
	bool moved;

	while (want < from + ROUNDS) {
		want = d->n + 1;
		if (wait_decisions(d, want) < want || !read_queue_map(nl, "igb0", m))
			break;
		for (moved = false, i = from; i < d->n; i++)
			moved |= d->moved[i];
		map_cpus(m, &used);
		if (moved && cpus_count(&used) >= 3)
			return true;
	}
	/* The log first: the lines a summary shows are the last. */
	daemon_dump_log(DAEMON_LOG, NULL);
	print_map(m);
	fprintf(stderr, "# %u decisions since the flood came back to CPUs 4-7: want 3+ CPUs "
		"within %u\n", d->n - from, ROUNDS);
	return false;
}

/*
 * Quieten the flood until two decisions measured none: the second moved
 * nothing, and the placement in @m holds still from then on. With the
 * flood on, a later decision may spread further while a drift is being
 * checked (seen beside a CPU hog).
 */
static bool settled(struct nl_client *nl, int *flood, struct decisions *d, struct queue_map *m)
{
	if (!quietened(flood, d, 2) || !read_queue_map(nl, "igb0", m))
		return false;
	if (d->moved[d->n - 1]) {
		fprintf(stderr, "# decision %u moved queues without traffic\n", d->n);
		daemon_dump_log(DAEMON_LOG, NULL);
		return false;
	}
	return true;
}

/*
 * A skewed start: node 1 has only CPU 4 online when the daemon binds igb0
 * by its rule (siblings allowed), so its eight queues land there (igb,
 * unlike virtio_net, leaves its IRQs alone when CPUs come online). Once
 * CPUs 5-7 are back, the decisions spread them over the node; once they
 * settle, a drift brings back the balanced placement. A CPU takes seconds
 * to come online on a busy host, and a decision between two would spread
 * the queues over those back and hold what it moved for a round: the CPUs
 * come back while the flood is quiet, when no decision moves.
 */
TEST_F_TIMEOUT(balance, daemon_spreads_a_skewed_start, 180)
{
	struct decisions d;
	struct cpus used;
	unsigned int cpu;

	for (cpu = 5; cpu <= 7; cpu++)
		ASSERT_EQ(0, cpu_set_online(cpu, false));
	self->daemon = start_balancing_daemon("igb0", true);
	ASSERT_LT(0, self->daemon);
	ASSERT_TRUE(all_on_4(&self->env.nl, "igb0", &self->map));
	/* The decision that ends the last window with traffic sees CPU 4 alone: no move. */
	ASSERT_TRUE(quietened(&self->flood, &d, 1));
	for (cpu = 5; cpu <= 7; cpu++)
		ASSERT_EQ(0, cpu_set_online(cpu, true));
	self->flood = traffic_flood_start(FLOOD_NIC, FLOOD_CPU, FLOOD_RATE);
	ASSERT_LT(0, self->flood) TH_LOG("flood: %s", strerror(-self->flood));
	read_decisions(&d);
	ASSERT_TRUE(spread_by_decisions(&self->env.nl, &d, d.n, &self->map));
	ASSERT_TRUE(settled(&self->env.nl, &self->flood, &d, &self->map));
	EXPECT_TRUE(map_within(&self->map, &self->node1));
	map_cpus(&self->map, &used);
	EXPECT_LE(3, cpus_count(&used)) {
		print_map(&self->map);
		daemon_dump_log(DAEMON_LOG, NULL);
	}
	EXPECT_TRUE(drift_comes_back(&self->env.nl, "igb0", &self->map, &self->map2));
}

FIXTURE(errors) {
	struct test_env env;
	struct run_result r;
};

FIXTURE_SETUP(errors)
{
	ASSERT_EQ(0, env_setup(&self->env));
}

FIXTURE_TEARDOWN(errors)
{
	EXPECT_EQ(0, stats_defaults());
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Without the accounting there is nothing to measure: exit 1, naming the cure. */
TEST_F_TIMEOUT(errors, accounting_off_names_stats_on, 60)
{
	ASSERT_EQ(0, CTL(&self->r, "stats", "--off"));
	EXPECT_EQ(1, BALANCE(&self->r, "vnode1"));
	EXPECT_TRUE(says(self->r.err, "stats --on"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

TEST_F_TIMEOUT(errors, unknown_device_is_named, 60)
{
	EXPECT_EQ(1, BALANCE(&self->r, "nosuchnic0"));
	EXPECT_TRUE(says(self->r.err, "nosuchnic0"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/* Bad numbers are usage errors (exit 2) that name the option. */
TEST_F_TIMEOUT(errors, bad_window_and_threshold_are_usage_errors, 60)
{
	EXPECT_EQ(2, CTL(&self->r, "balance", "vnode1", "--window", "0"));
	EXPECT_TRUE(says(self->r.err, "--window"));
	EXPECT_EQ(2, CTL(&self->r, "balance", "vnode1", "--threshold", "101"));
	EXPECT_TRUE(says(self->r.err, "--threshold"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

NICTL_TEST_MAIN
