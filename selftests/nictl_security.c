// SPDX-License-Identifier: GPL-2.0
/*
 * Who may do what ("Who may do what" in docs/design.md): only CAP_NET_ADMIN
 * in the initial user namespace changes anything, through netlink or
 * nictlctl; root of a user namespace and an unprivileged user are refused
 * every change, may read, and read nothing that /proc, sysfs and ethtool
 * do not show them already. The family lives in the initial network
 * namespace, and a device moved out of it is out of reach of every request
 * that does not name its namespace (nictl_netns: those that do) until it
 * comes back.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "env.h"
#include "events.h"
#include "main.h"
#include "netdev.h"
#include "nictl.h"
#include "run.h"
#include "stats.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

#define EPERM_MSG	"permission denied: needs CAP_NET_ADMIN in the initial user namespace"
#define NETNS_MSG	"reachable from the initial network namespace only"
/* The child network namespace vnode0 is moved into, and its name there. */
#define NETNS		"nictl-sec"
#define NETNS_PATH	"/run/netns/" NETNS
#define NOW_MS		5000

/*
 * The audit (docs/design.md): the only attributes a reader gets, each
 * also readable by that reader elsewhere. A new attribute fails these
 * tests until it is audited.
 */
#define AUDITED_DEV_ATTRS							\
	(ATTR_BIT(NICTL_A_IFINDEX) | ATTR_BIT(NICTL_A_IFNAME) |			\
	 ATTR_BIT(NICTL_A_DRIVER) | ATTR_BIT(NICTL_A_BUS_ADDR) |		\
	 ATTR_BIT(NICTL_A_PERM_ADDR) | ATTR_BIT(NICTL_A_NUMA_NODE) |		\
	 ATTR_BIT(NICTL_A_RX_QUEUES) | ATTR_BIT(NICTL_A_TX_QUEUES) |		\
	 ATTR_BIT(NICTL_A_DEV_FLAGS) | ATTR_BIT(NICTL_A_SOURCE) |		\
	 ATTR_BIT(NICTL_A_IRQ))
#define AUDITED_IRQ_ATTRS							\
	(ATTR_BIT(NICTL_A_IRQ_NUM) | ATTR_BIT(NICTL_A_IRQ_NAME) |		\
	 ATTR_BIT(NICTL_A_IRQ_QUEUE) | ATTR_BIT(NICTL_A_IRQ_KIND) |		\
	 ATTR_BIT(NICTL_A_IRQ_AFFINITY) | ATTR_BIT(NICTL_A_IRQ_EFFECTIVE) |	\
	 ATTR_BIT(NICTL_A_IRQ_FLAGS) | ATTR_BIT(NICTL_A_IRQ_NODE) |		\
	 ATTR_BIT(NICTL_A_IRQ_TARGET_CPU) | ATTR_BIT(NICTL_A_IRQ_QUEUE_REF) |	\
	 ATTR_BIT(NICTL_A_IRQ_GROUP))
#define AUDITED_EVENT_ATTRS							\
	(AUDITED_DEV_ATTRS | ATTR_BIT(NICTL_A_EVENT) |				\
	 ATTR_BIT(NICTL_A_EVENT_SEQ) | ATTR_BIT(NICTL_A_EVENT_TIME_NS) |	\
	 ATTR_BIT(NICTL_A_PORTID))
#define AUDITED_EVENT_IRQ_ATTRS							\
	(AUDITED_IRQ_ATTRS | ATTR_BIT(NICTL_A_IRQ_OLD_AFFINITY))
#define AUDITED_CPU_ATTRS							\
	(ATTR_BIT(NICTL_A_CPU) | ATTR_BIT(NICTL_A_STATS_ENABLED) |		\
	 ATTR_BIT(NICTL_A_STATS_START_NS) | ATTR_BIT(NICTL_A_STATS_NOW_NS) |	\
	 ATTR_BIT(NICTL_A_SOFTIRQ) | ATTR_BIT(NICTL_A_NAPI_UNATTRIBUTED) |	\
	 ATTR_BIT(NICTL_A_POLL) | ATTR_BIT(NICTL_A_NAPI))
#define AUDITED_POLL_ATTRS							\
	(ATTR_BIT(NICTL_A_POLL_KIND) | ATTR_BIT(NICTL_A_POLL_POLLS) |		\
	 ATTR_BIT(NICTL_A_POLL_PACKETS) | ATTR_BIT(NICTL_A_POLL_TIME_NS) |	\
	 ATTR_BIT(NICTL_A_POLL_UNTIMED) | ATTR_BIT(NICTL_A_POLL_BUSY_POLLS) |	\
	 ATTR_BIT(NICTL_A_POLL_BUSY_NS))
#define AUDITED_NAPI_TIME_ATTRS							\
	(ATTR_BIT(NICTL_A_NAPI_ID) | ATTR_BIT(NICTL_A_NAPI_TIME_NS) |		\
	 ATTR_BIT(NICTL_A_NAPI_BUSY_NS))
#define AUDITED_SOFTIRQ_ATTRS							\
	(ATTR_BIT(NICTL_A_SOFTIRQ_VEC) | ATTR_BIT(NICTL_A_SOFTIRQ_COUNT) |	\
	 ATTR_BIT(NICTL_A_SOFTIRQ_TIME_NS) | ATTR_BIT(NICTL_A_SOFTIRQ_MAX_NS) |	\
	 ATTR_BIT(NICTL_A_SOFTIRQ_HIST))
#define AUDITED_NAPI_ATTRS							\
	(ATTR_BIT(NICTL_A_NAPI_ID) | ATTR_BIT(NICTL_A_NAPI_QUEUE) |		\
	 ATTR_BIT(NICTL_A_NAPI_POLLS) | ATTR_BIT(NICTL_A_NAPI_PACKETS) |	\
	 ATTR_BIT(NICTL_A_NAPI_CPUS) | ATTR_BIT(NICTL_A_NAPI_TIME_NS) |	\
	 ATTR_BIT(NICTL_A_NAPI_BUSY_NS))

/* ---- Changes: refused to everyone but CAP_NET_ADMIN in the initial user namespace ---- */

FIXTURE(changes) {
	struct test_env env;
	struct irq_snapshot bound;	/* the env's snapshot stays the one teardown restores */
	struct nl_result res;
	struct nictl_stats stats;
};

/* Who asks: see the variants. */
FIXTURE_VARIANT(changes) {
	bool userns;		/* root of a new user namespace, as `unshare -Ur` makes */
	bool unpriv;		/* starting from UNPRIV_ID */
	bool roots_socket;	/* through a socket root opened */
};

FIXTURE_VARIANT_ADD(changes, userns_root) {
	.userns = true,
};

FIXTURE_VARIANT_ADD(changes, userns_of_unprivileged_user) {
	.userns = true,
	.unpriv = true,
};

FIXTURE_VARIANT_ADD(changes, unprivileged_user) {
	.unpriv = true,
};

FIXTURE_VARIANT_ADD(changes, userns_root_with_roots_socket) {
	.userns = true,
	.roots_socket = true,
};

FIXTURE_VARIANT_ADD(changes, unprivileged_user_with_roots_socket) {
	.unpriv = true,
	.roots_socket = true,
};

/* vnode1 starts bound, so a restore would change something; accounting is on. */
static void start_bound(struct __test_metadata *_metadata, struct test_env *env,
			struct irq_snapshot *bound, struct nictl_stats *stats)
{
	struct nictl_bind_args args = { .ifname = "vnode1" };
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus node1;

	ASSERT_EQ(0, env_setup(env));
	ASSERT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	ASSERT_EQ(0, nictl_bind(&env->nl, &args, &reply, &res)) TH_LOG("%s", res.msg);
	ASSERT_EQ(0, irq_snapshot_take(bound));
	ASSERT_EQ(0, nictl_stats_get(&env->nl, stats, &res));
	ASSERT_TRUE(stats_enabled_is(stats, true));
}

FIXTURE_SETUP(changes)
{
	start_bound(_metadata, &self->env, &self->bound, &self->stats);
}

FIXTURE_TEARDOWN(changes)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* What the child that asks needs. */
struct asker {
	struct __test_metadata *_metadata;
	struct nl_client *roots;	/* root's client, or NULL: open one */
};

/* Every change is refused with EPERM; every read is answered. */
static void ask(void *arg)
{
	const struct asker *a = arg;
	struct __test_metadata *_metadata = a->_metadata;
	struct nictl_bind_args args = { .ifname = "vnode1" };
	struct nictl_stats *stats = malloc(sizeof(*stats));
	struct nictl_napis *napis = malloc(sizeof(*napis));
	struct nl_client own, *nl = a->roots ?: &own;
	int ret = a->roots ? 0 : nictl_open(&own);
	struct nictl_dev reply;
	struct nl_result res;
	struct cpus node1;

	EXPECT_EQ(0, ret);
	if (ret)
		goto out;
	EXPECT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	EXPECT_EQ(-EPERM, nictl_bind(nl, &args, &reply, &res));
	EXPECT_EQ(EPERM, res.err);
	args.flags = NICTL_BIND_F_DRY_RUN;
	EXPECT_EQ(-EPERM, nictl_bind(nl, &args, &reply, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(-EPERM, nictl_restore(nl, "vnode1", &reply, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(-EPERM, nictl_stats_set(nl, false, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(-EPERM, nictl_stats_set(nl, true, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(-EPERM, nictl_stats_reset(nl, &res));
	EXPECT_EQ(EPERM, res.err);

	EXPECT_EQ(0, nictl_dev_get(nl, "vnode1", &reply, &res));
	EXPECT_TRUE(reply.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_NE(NULL, stats);
	if (stats)
		EXPECT_EQ(0, nictl_stats_get(nl, stats, &res));
	EXPECT_NE(NULL, napis);
	if (napis)
		EXPECT_EQ(0, nictl_napi_get(nl, "vnode1", napis, &res));
	if (!a->roots)
		nl_close(&own);
out:
	free(stats);
	free(napis);
}

TEST_F_TIMEOUT(changes, refused_over_netlink, 300)
{
	struct asker a = { _metadata, variant->roots_socket ? &self->env.nl : NULL };
	struct nictl_stats *after = malloc(sizeof(*after));

	ASSERT_NE(NULL, after);
	ASSERT_EQ(0, variant->userns ? run_in_user_ns(variant->unpriv, ask, &a) :
				       run_unprivileged(ask, &a));
	EXPECT_EQ(0, irq_snapshot_changes(&self->bound));
	/* Neither switched off nor reset. */
	ASSERT_EQ(0, nictl_stats_get(&self->env.nl, after, &self->res));
	EXPECT_TRUE(stats_enabled_is(after, true));
	EXPECT_EQ(self->stats.cpu[0].start_ns, after->cpu[0].start_ns);
	free(after);
}

/* nictlctl, which opens its own socket, asked by the same users. */
FIXTURE(ctl_changes) {
	struct test_env env;
	struct irq_snapshot bound;
	struct nictl_stats stats;
};

FIXTURE_VARIANT(ctl_changes) {
	bool userns;
	bool unpriv;
};

FIXTURE_VARIANT_ADD(ctl_changes, userns_root) {
	.userns = true,
};

FIXTURE_VARIANT_ADD(ctl_changes, userns_of_unprivileged_user) {
	.userns = true,
	.unpriv = true,
};

FIXTURE_VARIANT_ADD(ctl_changes, unprivileged_user) {
	.unpriv = true,
};

FIXTURE_SETUP(ctl_changes)
{
	start_bound(_metadata, &self->env, &self->bound, &self->stats);
}

FIXTURE_TEARDOWN(ctl_changes)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Each change fails with one line that says what is missing; reading works. */
TEST_F_TIMEOUT(ctl_changes, refused, 300)
{
	static const char *const changes[][5] = {
		{ "bind", "vnode1", "--cpus", "4-7", NULL },
		{ "bind", "vnode1", "--numa-local", "--dry-run", NULL },
		{ "restore", "vnode1", NULL },
		{ "stats", "--off", NULL },
		{ "stats", "--on", NULL },
		{ "stats", "--reset", NULL },
	};
	const char *const *wrap = variant->userns ?
		(const char *const []){ "unshare", "-Ur", NULL } : NULL;
	struct run_result *r = malloc(sizeof(*r));
	unsigned int i;

	ASSERT_NE(NULL, r);
	for (i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
		EXPECT_EQ(1, run_ctl(r, variant->unpriv, wrap, changes[i]));
		EXPECT_TRUE(one_line_error(r, EPERM_MSG));
	}
	EXPECT_EQ(0, run_ctl(r, variant->unpriv, wrap,
			     (const char *const []){ "show", "vnode1", NULL }));
	EXPECT_NE(NULL, strstr(r->out, "vnode1"));
	EXPECT_EQ(0, run_ctl(r, variant->unpriv, wrap, (const char *const []){ "stats", NULL }));
	EXPECT_EQ(0, irq_snapshot_changes(&self->bound));
	free(r);
}

/*
 * ---- Reads: what an unprivileged user gets, against what it can read itself ----
 *
 * The readers run in a child that dropped root, so they report through
 * EXPECT_*() only (see run_unprivileged()).
 */

FIXTURE(reads) {
	struct test_env env;
	struct nictl_dev bound;
	struct nl_result res;
};

/* vnode1 bound, so the binding's attributes are audited too. */
FIXTURE_SETUP(reads)
{
	struct nictl_bind_args args = { .ifname = "vnode1" };
	struct cpus node1;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &self->bound, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_TRUE(effective_follows(&self->bound));
}

FIXTURE_TEARDOWN(reads)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* The permanent address `ethtool -P` shows this user: 0 or -errno. */
static int ethtool_perm_addr(const char *ifname, char *buf, size_t len)
{
	struct run_result *r = malloc(sizeof(*r));
	const char *p;
	int ret;

	if (!r)
		return -ENOMEM;
	ret = run_cmd(r, false, NULL, (const char *const []){ "ethtool", "-P", ifname, NULL });
	p = ret || r->status ? NULL : strstr(r->out, "Permanent address: ");
	if (p)
		snprintf(buf, len, "%.17s", p + strlen("Permanent address: "));
	free(r);
	return p ? 0 : -EIO;
}

static void format_mac(const struct nictl_dev *dev, char *buf, size_t len)
{
	const uint8_t *a = dev->perm_addr;

	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1], a[2], a[3], a[4], a[5]);
}

/*
 * One IRQ as an unprivileged user sees it in /proc: the line of
 * /proc/interrupts with its name, queue and kind as the name says, the
 * mask of /proc/irq/N, the node of its first effective CPU in sysfs, and
 * flags that follow from them and from the binding the reader was told of.
 */
static void irq_audit(struct __test_metadata *_metadata, const struct nictl_irq *irq,
		      const struct proc_irqs *proc, const char *prefix, bool bound,
		      uint64_t audited)
{
	const struct proc_irq *line = proc_irqs_find(proc, irq->num);
	struct cpus target, mask;
	uint32_t queue, kind;
	int first;

	EXPECT_EQ(0ULL, irq->present & ~audited) TH_LOG("IRQ %u: unaudited attributes %#llx",
		irq->num, (unsigned long long)(irq->present & ~audited));
	EXPECT_NE(NULL, line) TH_LOG("IRQ %u is not in /proc/interrupts", irq->num);
	if (!line)
		return;
	EXPECT_TRUE(proc_irq_has_name(line, irq->name)) TH_LOG("IRQ %u", irq->num);
	EXPECT_TRUE(queue_irq_name(irq->name, prefix, &queue, &kind)) TH_LOG("%s", irq->name);
	EXPECT_EQ(queue, irq->queue);
	EXPECT_EQ(kind, irq->kind);
	/* The guests' NICs give each queue IRQs of its own: the name says it all. */
	EXPECT_EQ(1U, irq->n_queues) TH_LOG("IRQ %u", irq->num);
	EXPECT_EQ(queue, irq->queues[0].queue);
	EXPECT_EQ(kind, irq->queues[0].kind);
	EXPECT_EQ(queue, irq->group);
	EXPECT_EQ(0, irq_affinity(irq->num, &mask, NULL));
	EXPECT_TRUE(cpus_equal(&mask, &irq->affinity)) TH_LOG("IRQ %u", irq->num);
	first = cpus_first(&irq->effective);
	EXPECT_EQ(first < 0 ? -1 : cpu_node(first), irq->node) TH_LOG("IRQ %u", irq->num);
	/* Managed IRQs are refused a write to /proc: none of these is. */
	EXPECT_EQ(0U, irq->flags & NICTL_IRQ_F_MANAGED);
	EXPECT_EQ(bound, !!(irq->flags & NICTL_IRQ_F_BOUND));
	EXPECT_EQ(bound, !!(irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU)));
	if (bound) {
		/* The target is the mask /proc shows. */
		cpus_zero(&target);
		cpus_set(&target, irq->target_cpu);
		EXPECT_TRUE(cpus_equal(&target, &irq->affinity));
	}
}

/*
 * A device as an unprivileged user sees it in sysfs and through ethtool,
 * bound by root when @bound, and each of its IRQs through irq_audit();
 * @audited and @audited_irq are the attributes allowed.
 */
static void dev_audit(struct __test_metadata *_metadata, const struct nictl_dev *dev,
		      const struct proc_irqs *proc, bool bound, uint64_t audited,
		      uint64_t audited_irq)
{
	struct netdev_info info;
	char want[32], got[32];
	unsigned int i;
	int ret;

	EXPECT_EQ(0ULL, dev->present & ~audited) TH_LOG("%s: unaudited attributes %#llx",
		dev->ifname, (unsigned long long)(dev->present & ~audited));
	ret = netdev_info(dev->ifname, &info);
	EXPECT_EQ(0, ret) TH_LOG("%s not in sysfs", dev->ifname);
	if (ret)
		return;
	EXPECT_EQ(info.ifindex, dev->ifindex);
	EXPECT_STREQ(info.driver, dev->driver);
	EXPECT_STREQ(info.bus_addr, dev->bus_addr);
	EXPECT_EQ(info.numa_node, dev->numa_node);
	EXPECT_EQ(info.rx_queues, dev->rx_queues);
	EXPECT_EQ(info.tx_queues, dev->tx_queues);
	EXPECT_EQ(info.up, !!(dev->dev_flags & NICTL_DEV_F_UP));
	EXPECT_EQ(6U, dev->perm_addr_len);
	EXPECT_EQ(0, ethtool_perm_addr(dev->ifname, want, sizeof(want)));
	format_mac(dev, got, sizeof(got));
	EXPECT_STREQ(want, got);
	/* The binding shows in /proc as each IRQ's mask: one CPU, its target. */
	EXPECT_EQ(bound, !!(dev->dev_flags & NICTL_DEV_F_BOUND)) TH_LOG("%s", dev->ifname);
	for (i = 0; i < dev->n_irqs; i++)
		irq_audit(_metadata, &dev->irqs[i], proc, info.irq_prefix, bound, audited_irq);
}

/* How many netdevs have a bus parent, as sysfs shows them. */
static unsigned int bus_netdevs(void)
{
	char path[PATH_MAX];
	struct dirent *de;
	unsigned int n = 0;
	DIR *d = opendir("/sys/class/net");

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.' &&
		     !pathf(path, sizeof(path), "/sys/class/net/%s/device", de->d_name) &&
		     !access(path, F_OK);
	if (d)
		closedir(d);
	return n;
}

struct reader {
	struct __test_metadata *_metadata;
};

static void read_devices(void *arg)
{
	struct __test_metadata *_metadata = ((struct reader *)arg)->_metadata;
	struct nictl_devs *devs = malloc(sizeof(*devs));
	struct proc_irqs *proc = malloc(sizeof(*proc));
	const struct nictl_dev *dev;
	struct nl_result res;
	struct nl_client nl;
	int ret = -ENOMEM;
	unsigned int i, nics;

	nics = bus_netdevs();
	if (devs && proc)
		ret = nictl_open(&nl);
	EXPECT_EQ(0, ret);
	if (ret)
		goto out;
	ret = nictl_dev_dump(&nl, devs, &res) ?: proc_interrupts(proc);
	EXPECT_EQ(0, ret);
	/* Every netdev with a bus parent (the guest's NICs, usb0 too), and no other. */
	EXPECT_EQ(nics, devs->n);
	for (i = 0; !ret && i < devs->n; i++) {
		dev = &devs->dev[i];
		dev_audit(_metadata, dev, proc, !strcmp(dev->ifname, "vnode1"), AUDITED_DEV_ATTRS,
			  AUDITED_IRQ_ATTRS);
		/* Masks, effective affinities and nodes: what /proc/irq/N shows now. */
		EXPECT_TRUE(dev_matches_proc(dev));
	}
	nl_close(&nl);
out:
	free(proc);
	free(devs);
}

TEST_F_TIMEOUT(reads, devices_show_what_sysfs_and_proc_show, 300)
{
	struct reader r = { _metadata };

	ASSERT_EQ(0, run_unprivileged(read_devices, &r));
}

/*
 * NET_RX and NET_TX runs per CPU in /proc/softirqs, one column per
 * possible CPU (the header names them): 0 or -errno.
 */
static int proc_softirqs(uint64_t rx[NICTL_MAX_CPUS], uint64_t tx[NICTL_MAX_CPUS])
{
	FILE *f = fopen("/proc/softirqs", "re");
	int cpus[NICTL_MAX_CPUS], n = 0, off, i, found = 0;
	char line[4096], *p;
	uint64_t *row;

	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return -EIO;
	}
	for (p = line; n < NICTL_MAX_CPUS && sscanf(p, " CPU%d%n", &cpus[n], &off) == 1; n++)
		p += off;
	while (fgets(line, sizeof(line), f)) {
		p = line + strspn(line, " ");
		row = !strncmp(p, "NET_RX:", 7) ? rx : !strncmp(p, "NET_TX:", 7) ? tx : NULL;
		if (!row)
			continue;
		p += 7;
		for (i = 0; i < n && sscanf(p, " %lu%n", &row[cpus[i]], &off) == 1; i++)
			p += off;
		found += i == n;
	}
	fclose(f);
	return found == 2 ? 0 : -EIO;
}

static void read_stats(void *arg)
{
	struct __test_metadata *_metadata = ((struct reader *)arg)->_metadata;
	struct nictl_stats *st = malloc(sizeof(*st));
	struct nictl_napis *napis = malloc(sizeof(*napis));
	uint64_t rx[NICTL_MAX_CPUS] = { 0 }, tx[NICTL_MAX_CPUS] = { 0 }, packets;
	const struct nictl_cpu_stats *c;
	struct nl_result res;
	struct nl_client nl;
	int cpu, ret = -ENOMEM;
	unsigned int i, v;

	if (st && napis)
		ret = nictl_open(&nl);
	EXPECT_EQ(0, ret);
	if (ret)
		goto out;
	/* Read after nictl: the kernel's counts can only be higher. */
	ret = nictl_stats_get(&nl, st, &res) ?: nictl_napi_get(&nl, "vnode1", napis, &res) ?:
	      proc_softirqs(rx, tx) ?: netdev_rx_packets("vnode1", &packets);
	nl_close(&nl);
	EXPECT_EQ(0, ret);
	if (ret)
		goto out;
	EXPECT_TRUE(stats_consistent(st));
	EXPECT_LT(0U, stats_runs(st, NICTL_SOFTIRQ_NET_RX));
	for (i = 0; i < st->n; i++) {
		c = &st->cpu[i];
		EXPECT_EQ(0ULL, c->present & ~AUDITED_CPU_ATTRS) TH_LOG("CPU %u", c->cpu);
		EXPECT_GT(NICTL_MAX_CPUS, c->cpu);
		if (c->cpu >= NICTL_MAX_CPUS)
			continue;
		/* Runs since load: some of those /proc/softirqs counts since boot. */
		EXPECT_GE(rx[c->cpu], c->vec[NICTL_SOFTIRQ_NET_RX].count) TH_LOG("CPU %u", c->cpu);
		EXPECT_GE(tx[c->cpu], c->vec[NICTL_SOFTIRQ_NET_TX].count) TH_LOG("CPU %u", c->cpu);
		for (v = 0; v < __NICTL_SOFTIRQ_MAX; v++)
			EXPECT_EQ(0ULL, c->vec[v].present & ~AUDITED_SOFTIRQ_ATTRS);
		for (v = 0; v < __NICTL_POLL_MAX; v++)
			EXPECT_EQ(0ULL, c->poll[v].present & ~AUDITED_POLL_ATTRS);
		for (v = 0; v < c->n_napi_times; v++)
			EXPECT_EQ(0ULL, c->napi_time[v].present & ~AUDITED_NAPI_TIME_ATTRS);
	}
	/* Packets the device counted in sysfs; polls on CPUs that ran NET_RX. */
	EXPECT_TRUE(napis_consistent(napis, "vnode1", 2));
	EXPECT_GE(packets, napis_packets(napis));
	for (i = 0; i < napis->n; i++) {
		EXPECT_EQ(0ULL, napis->napi[i].present & ~AUDITED_NAPI_ATTRS);
		for_each_cpu(cpu, &napis->napi[i].cpus)
			EXPECT_LT(0U, rx[cpu]) TH_LOG("NAPI %u on CPU %d", napis->napi[i].id, cpu);
	}
out:
	free(napis);
	free(st);
}

TEST_F_TIMEOUT(reads, accounting_within_proc_softirqs_and_sysfs, 300)
{
	struct reader r = { _metadata };

	ASSERT_EQ(0, traffic_burst(test_nics));
	ASSERT_EQ(0, rx_settle("vnode1"));
	ASSERT_EQ(0, run_unprivileged(read_stats, &r));
}

/* A listener that dropped root, and what it must make of root's bind and restore. */
/*
 * Fork a child that drops root and runs @fn(@arg), which writes a byte to
 * *@ready (set to a pipe's write end here) once it listens; wait for that
 * byte. The child's pid, *@ready then the read end for any later byte; -1
 * when the child could not start or listen (reaped).
 */
static pid_t start_user_listener(void (*fn)(void *arg), void *arg, int *ready)
{
	int pipefd[2];
	char byte;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	*ready = pipefd[1];
	pid = fork_flushed();
	if (!pid) {
		if (drop_privileges())
			_exit(1);
		fn(arg);
		_exit(0);
	}
	close(pipefd[1]);
	*ready = pipefd[0];
	if (pid > 0 && read(pipefd[0], &byte, 1) == 1)
		return pid;
	close(pipefd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return -1;
}

struct listener_args {
	struct __test_metadata *_metadata;
	int ready;		/* a byte once in the group, one after the bound event */
	uint32_t binder;	/* the netlink port id of the binder's socket */
	uint32_t ifindex;	/* vnode1 */
};

/*
 * A bound or restored event (@bound: which) as this user can check it:
 * the device against sysfs and /proc (dev_audit(), which also refuses the
 * binder's pid and uid: only the audit group carries them), the binder by
 * the port id of its socket, and each IRQ's old affinity against the mask
 * @before[i] of the IRQ dev.irqs[i] that the user read before.
 */
static void event_audit(struct __test_metadata *_metadata, const struct nictl_event_msg *ev,
			uint32_t binder, bool bound, const struct nictl_dev *dev,
			const struct cpus *before, const struct proc_irqs *proc)
{
	unsigned int i, j;

	dev_audit(_metadata, &ev->dev, proc, bound, AUDITED_EVENT_ATTRS, AUDITED_EVENT_IRQ_ATTRS);
	EXPECT_FALSE(ev->dev.present & (ATTR_BIT(NICTL_A_PID) | ATTR_BIT(NICTL_A_UID)))
		TH_LOG("an unprivileged listener got pid %u uid %u", ev->pid, ev->uid);
	EXPECT_EQ(binder, ev->portid);
	/* The old affinity is what /proc showed before. */
	EXPECT_EQ(dev->n_irqs, ev->dev.n_irqs);
	for (i = 0; i < ev->dev.n_irqs; i++) {
		for (j = 0; j < dev->n_irqs && dev->irqs[j].num != ev->dev.irqs[i].num; j++)
			;
		EXPECT_GT(dev->n_irqs, j) TH_LOG("IRQ %u", ev->dev.irqs[i].num);
		if (j < dev->n_irqs)
			EXPECT_TRUE(cpus_equal(&before[j], &ev->dev.irqs[i].old_affinity))
				TH_LOG("IRQ %u", ev->dev.irqs[i].num);
	}
}

/* The affinity mask of every IRQ of @dev, as this user reads /proc/irq: 0 or -errno. */
static int read_masks(const struct nictl_dev *dev, struct cpus *masks)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; !ret && i < dev->n_irqs; i++)
		ret = irq_affinity(dev->irqs[i].num, &masks[i], NULL);
	return ret;
}

/* Tell the binder to go on, then wait for its event of @type: 0 or -errno. */
static int go_and_wait(const struct listener_args *a, struct nictl_listener *l, uint32_t type,
		       struct nictl_event_msg *ev)
{
	if (write(a->ready, "", 1) != 1)
		return -EPIPE;
	return nictl_wait_event(l, type, a->ifindex, NOW_MS, ev) == 1 ? 0 : -ETIMEDOUT;
}

static void listen_as_user(void *arg)
{
	struct listener_args *a = arg;
	struct __test_metadata *_metadata = a->_metadata;
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	struct proc_irqs *proc = malloc(sizeof(*proc));
	struct cpus before[NICTL_MAX_IRQS];
	struct nictl_listener l;
	struct nictl_dev dev;
	struct nl_result res;
	int ret = -ENOMEM;

	/* Who asked is for administrators: the audit group refuses this user. */
	EXPECT_EQ(-EPERM, nictl_listen_group(&l, NICTL_MCGRP_AUDIT));
	if (ev && proc)
		ret = nictl_listen(&l);
	EXPECT_EQ(0, ret);
	if (ret)
		goto out;
	ret = nictl_dev_get(&l.nl, "vnode1", &dev, &res) ?: proc_interrupts(proc) ?:
	      read_masks(&dev, before) ?: go_and_wait(a, &l, NICTL_EVENT_BOUND, ev);
	EXPECT_EQ(0, ret) TH_LOG("no bound event");
	if (!ret) {
		event_audit(_metadata, ev, a->binder, true, &dev, before, proc);
		/* The restore's old affinity is the bind's, which /proc shows now. */
		ret = read_masks(&dev, before) ?: go_and_wait(a, &l, NICTL_EVENT_RESTORED, ev);
		EXPECT_EQ(0, ret) TH_LOG("no restored event");
	}
	if (!ret)
		event_audit(_metadata, ev, a->binder, false, &dev, before, proc);
	nictl_unlisten(&l);
out:
	free(proc);
	free(ev);
}

TEST_F_TIMEOUT(reads, events_show_what_proc_shows, 300)
{
	struct listener_args a = { _metadata, -1, mnl_socket_get_portid(self->env.nl.sock),
				   self->bound.ifindex };
	struct nictl_bind_args args = { .ifname = "vnode1" };
	struct cpus node0;
	int status;
	char byte;
	pid_t pid;

	ASSERT_EQ(0, nictl_restore(&self->env.nl, "vnode1", &self->bound, &self->res));
	ASSERT_EQ(0, node_cpus(0, &node0));
	args.cpus = &node0;
	pid = start_user_listener(listen_as_user, &a, &a.ready);
	ASSERT_LT(0, pid) TH_LOG("the listener did not start");
	EXPECT_EQ(0, nictl_bind(&self->env.nl, &args, &self->bound, &self->res));
	/* The listener reads /proc before the restore changes it. */
	EXPECT_EQ(1, read(a.ready, &byte, 1)) TH_LOG("the listener missed the bind");
	close(a.ready);
	EXPECT_EQ(0, nictl_restore(&self->env.nl, "vnode1", &self->bound, &self->res));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
}

/* ---- Network namespaces: the family and the devices of the initial one only ---- */

FIXTURE(netns) {
	struct test_env env;
	struct nictl_dev reply;
	struct nl_result res;
	char buf[NL_REQ_SIZE];
	uint32_t ifindex;	/* vnode0's */
};

/* Move vnode0 (by @name) into the child namespace, or back (@in false). */
static int move_vnode0(const char *name, bool in)
{
	if (in)
		return SH("ip", "link", "set", name, "netns", NETNS);
	return SH("ip", "-n", NETNS, "link", "set", name, "netns", "1");
}

FIXTURE_SETUP(netns)
{
	struct netdev_info info;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info("vnode0", &info));
	self->ifindex = info.ifindex;
	ASSERT_EQ(0, SH("ip", "netns", "add", NETNS));
}

/*
 * Whatever the test left in the child namespace comes back when it goes;
 * wait for vnode0 to reappear under its own name.
 */
FIXTURE_TEARDOWN(netns)
{
	char name[IF_NAMESIZE];
	int tries;

	EXPECT_EQ(0, SH("ip", "netns", "del", NETNS));
	for (tries = 0; tries < 100 && !if_indextoname(self->ifindex, name); tries++)
		usleep(100 * 1000);
	EXPECT_NE(NULL, if_indextoname(self->ifindex, name)) TH_LOG("vnode0 did not come back");
	if (strcmp(name, "vnode0"))
		EXPECT_EQ(0, netdev_rename(name, "vnode0"));
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* In the child namespace, which holds a NIC, the family does not exist. */
TEST_F_TIMEOUT(netns, child_namespace_has_no_family, 300)
{
	struct run_result *r = malloc(sizeof(*r));
	struct nl_client nl;
	int status, fd;
	pid_t pid;

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, move_vnode0("vnode0", true));
	pid = fork_flushed();
	ASSERT_LE(0, pid);
	if (!pid) {
		fd = open(NETNS_PATH, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || setns(fd, CLONE_NEWNET))
			_exit(1);
		EXPECT_NE(0U, if_nametoindex("vnode0"));
		EXPECT_EQ(-ENOENT, nictl_open(&nl));
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status)) TH_LOG("cannot enter " NETNS);
	EXPECT_EQ(1, run_ctl(r, false, (const char *const []){ "ip", "netns", "exec", NETNS, NULL },
			     (const char *const []){ "show", "vnode0", NULL }));
	EXPECT_TRUE(one_line_error(r, NETNS_MSG));
	EXPECT_EQ(1, run_ctl(r, false, (const char *const []){ "ip", "netns", "exec", NETNS, NULL },
			     (const char *const []){ "bind", "vnode0", "--cpus", "2-3", NULL }));
	EXPECT_TRUE(one_line_error(r, NETNS_MSG));
	/* Root of a user namespace with its own network namespace: the same. */
	EXPECT_EQ(1, run_ctl(r, false, (const char *const []){ "unshare", "-Urn", NULL },
			     (const char *const []){ "show", NULL }));
	EXPECT_TRUE(one_line_error(r, NETNS_MSG));
	EXPECT_EQ(0, move_vnode0("vnode0", false));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	free(r);
}

/*
 * Request @cmd naming vnode0 by @type only: -ENODEV with the extack at that
 * attribute, and no IRQ changed from @before.
 */
static bool unreachable_by(FIXTURE_DATA(netns) *self, uint8_t cmd, uint16_t type,
			   const struct irq_snapshot *before)
{
	struct nlmsghdr *nlh = nictl_msg(&self->env.nl, self->buf, cmd, 0);
	struct nlattr *attr = mnl_nlmsg_get_payload_tail(nlh);
	struct cpus node0;
	int ret;

	if (type == NICTL_A_IFINDEX)
		mnl_attr_put_u32(nlh, type, self->ifindex);
	else
		mnl_attr_put_strz(nlh, type, "vnode0");
	if (cmd == NICTL_CMD_BIND) {
		mnl_attr_put_u32(nlh, NICTL_A_FLAGS, 0);
		if (node_cpus(0, &node0))
			return false;
		nictl_put_cpus(nlh, NICTL_A_CPUS, &node0);
	}
	ret = nl_transact(&self->env.nl, nlh, NULL, NULL, &self->res);
	return refused(ret, &self->res, ENODEV, true, before) &&
	       points_at(&self->res, nlh, attr);
}

/*
 * Moved out, vnode0 is out of reach by name and by ifindex (ENODEV, the
 * extack at the attribute) and missing from the dump, even though its
 * IRQs stay on the host; its binding stays with it. Back, it is reachable
 * again, still bound, and a restore puts back what it had before the bind.
 */
TEST_F_TIMEOUT(netns, moved_device_is_out_of_reach, 300)
{
	static const uint8_t cmds[] = { NICTL_CMD_DEV_GET, NICTL_CMD_BIND, NICTL_CMD_RESTORE,
					NICTL_CMD_NAPI_GET };
	struct nictl_bind_args args = { .ifname = "vnode0" };
	struct irq_snapshot *moved = malloc(sizeof(*moved));
	struct irq_snapshot *before = malloc(sizeof(*before));
	struct nictl_devs *devs = malloc(sizeof(*devs));
	struct run_result *r = malloc(sizeof(*r));
	struct cpus node0;
	unsigned int i;

	ASSERT_NE(NULL, moved);
	ASSERT_NE(NULL, before);
	ASSERT_NE(NULL, devs);
	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, node_cpus(0, &node0));
	args.cpus = &node0;
	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &self->reply, &self->res));
	ASSERT_EQ(0, move_vnode0("vnode0", true));
	ASSERT_EQ(0, irq_snapshot_take(moved));
	for (i = 0; i < sizeof(cmds); i++) {
		EXPECT_TRUE(unreachable_by(self, cmds[i], NICTL_A_IFNAME, moved))
			TH_LOG("cmd %u by name", cmds[i]);
		EXPECT_TRUE(unreachable_by(self, cmds[i], NICTL_A_IFINDEX, moved))
			TH_LOG("cmd %u by ifindex", cmds[i]);
	}
	ASSERT_EQ(0, nictl_dev_dump(&self->env.nl, devs, &self->res));
	for (i = 0; i < devs->n; i++)
		EXPECT_NE(self->ifindex, devs->dev[i].ifindex);
	EXPECT_EQ(1, run_ctl(r, false, NULL, (const char *const []){ "show", "vnode0", NULL }));
	EXPECT_TRUE(one_line_error(r, "no such device: vnode0"));

	ASSERT_EQ(0, move_vnode0("vnode0", false));
	ASSERT_EQ(0, nictl_dev_get_index(&self->env.nl, self->ifindex, &self->reply, &self->res));
	EXPECT_STREQ("vnode0", self->reply.ifname);
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_EQ(0, nictl_restore(&self->env.nl, "vnode0", &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_EQ(0, irq_snapshot_changes(before));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	EXPECT_EQ(0, nictl_bind(&self->env.nl, &args, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	free(r);
	free(devs);
	free(before);
	free(moved);
}

/* Two macvlans on vnode0: one created in the child namespace, one here. */
#define HIDDEN		"nictl-hidden"
#define SHOWN		"nictl-shown"

static bool names_upper(const struct nictl_dev *dev, const char *name)
{
	unsigned int i;

	for (i = 0; i < dev->n_uppers; i++)
		if (!strcmp(dev->uppers[i], name))
			return true;
	return false;
}

struct uppers_args {
	struct __test_metadata *_metadata;
	int ready;		/* written once the user listens */
	unsigned int ifindex;	/* vnode0's */
};

/*
 * As the unprivileged user: every event up to SHOWN's linked one, and a
 * DEV_GET after it, name SHOWN among vnode0's uppers and never HIDDEN.
 */
static void uppers_as_user(void *arg)
{
	struct uppers_args *a = arg;
	struct __test_metadata *_metadata = a->_metadata;
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	struct nictl_listener l;
	struct nl_result res;
	int ret = -ENOMEM;

	if (ev)
		ret = nictl_listen(&l);
	EXPECT_EQ(0, ret);
	if (ret)
		goto out;
	EXPECT_EQ(1, write(a->ready, "", 1));
	while ((ret = nictl_next_event(&l, ev, NOW_MS * timeout_scale())) == 1) {
		EXPECT_STRNE(HIDDEN, ev->link);
		EXPECT_FALSE(names_upper(&ev->dev, HIDDEN))
			TH_LOG("a %s event of %s names " HIDDEN, nictl_event_name(ev->type),
			       ev->dev.ifname);
		if (ev->type == NICTL_EVENT_LINKED && !strcmp(ev->link, SHOWN))
			break;
	}
	EXPECT_EQ(1, ret) TH_LOG("no linked event of vnode0 naming " SHOWN);
	if (ret == 1)
		EXPECT_TRUE(names_upper(&ev->dev, SHOWN));
	ret = nictl_dev_get_index(&l.nl, a->ifindex, &ev->dev, &res);
	EXPECT_EQ(0, ret) TH_LOG("%s", res.msg);
	if (!ret) {
		EXPECT_TRUE(names_upper(&ev->dev, SHOWN));
		EXPECT_FALSE(names_upper(&ev->dev, HIDDEN)) TH_LOG("DEV_GET names " HIDDEN);
	}
	nictl_unlisten(&l);
out:
	free(ev);
}

/*
 * A macvlan created in a container on a NIC of the initial namespace is
 * the container's: as sysfs links uppers within one namespace only, no
 * reader of the initial namespace learns its name, neither among vnode0's
 * uppers nor from a linked event; the audit group hears of it. One made in
 * the initial namespace is named as before.
 */
TEST_F_TIMEOUT(netns, uppers_elsewhere_stay_unnamed, 300)
{
	struct uppers_args a = { _metadata, -1, self->ifindex };
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	struct nictl_listener audit;
	int status;
	pid_t pid;

	ASSERT_NE(NULL, ev);
	ASSERT_EQ(0, nictl_listen_group(&audit, NICTL_MCGRP_AUDIT));
	pid = start_user_listener(uppers_as_user, &a, &a.ready);
	ASSERT_LT(0, pid) TH_LOG("the listener did not start");
	close(a.ready);
	EXPECT_EQ(0, SH("ip", "link", "add", "link", "vnode0", "name", HIDDEN, "netns", NETNS,
			"type", "macvlan", "mode", "bridge"));
	EXPECT_EQ(0, SH("ip", "link", "add", "link", "vnode0", "name", SHOWN,
			"type", "macvlan", "mode", "bridge"));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_EQ(1, nictl_wait_event(&audit, NICTL_EVENT_LINKED, self->ifindex, NOW_MS, ev));
	EXPECT_STREQ(HIDDEN, ev->link);
	EXPECT_FALSE(names_upper(&ev->dev, HIDDEN));
	nictl_unlisten(&audit);
	EXPECT_EQ(0, SH("ip", "link", "del", SHOWN));
	free(ev);
}

NICTL_TEST_MAIN
