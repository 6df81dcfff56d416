// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl as a user meets it: its table and JSON must say what DEV_GET
 * says, its binds must land in /proc/irq/N, and each failure must be one
 * line on stderr with exit status 1 (failure) or 2 (usage).
 */
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "main.h"
#include "module.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

/* One "path value" line per leaf of the document, values as JSON. */
#define JQ_FLATTEN \
	"paths(type != \"object\" and type != \"array\") as $p | " \
	"\"\\($p | map(tostring) | join(\".\")) \\(getpath($p) | tojson)\""

#define NO_SUCH_DEV	"nictl-nodev"

/* nictlctl's words for the protocol's enums (see ctl/show.c). */
static const char *kind_name(uint32_t kind)
{
	static const char *const names[] = { "rx", "tx", "combined" };

	return kind < 3 ? names[kind] : "unknown";
}

static const char *source_name(uint32_t source)
{
	static const char *const names[] = { "none", "napi", "msi" };

	return source < 3 ? names[source] : "unknown";
}

static const char *yes_no(bool b)
{
	return b ? "true" : "false";
}

FIXTURE(cli) {
	struct test_env env;
	struct run_result run;
	struct run_result jq;
};

FIXTURE_SETUP(cli)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_NE(NULL, getenv("NICTL_CTL")) TH_LOG("NICTL_CTL is not set");
}

FIXTURE_TEARDOWN(cli)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

#define CTL(self, ...) \
	run_ctl(&(self)->run, false, NULL, (const char *const []){ __VA_ARGS__, NULL })
#define CTL_UNPRIV(self, ...) \
	run_ctl(&(self)->run, true, NULL, (const char *const []){ __VA_ARGS__, NULL })
/* In new namespaces: unshare(1) with @flags, e.g. "-n". */
#define CTL_UNSHARED(self, flags, ...) \
	run_ctl(&(self)->run, false, (const char *const []){ "unshare", flags, NULL }, \
		(const char *const []){ __VA_ARGS__, NULL })
/* jq @filter over nictlctl's stdout; its output lands in self->jq.out. */
#define JQ(self, filter) run_jq(&(self)->jq, (self)->run.out, filter)

/* A "path value" line of a member that is a string or null. */
/* The devices stacked on @d as nictlctl joins them: "bond0,bond0.7". */
static const char *uppers(const struct nictl_dev *d, char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < d->n_uppers && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? "," : "", d->uppers[i]);
	return buf;
}

static void str_or_null(FILE *f, const char *path, bool present, const char *s)
{
	if (present)
		fprintf(f, "%s \"%s\"\n", path, s);
	else
		fprintf(f, "%s null\n", path);
}

static void flat_cpus(FILE *f, const char *irq, const char *key, const struct cpus *s)
{
	char list[CPUS_LIST_LEN];
	int cpu, i = 0;

	for_each_cpu(cpu, s)
		fprintf(f, "%s.%s.%d %d\n", irq, key, i++, cpu);
	cpus_format(s, list, sizeof(list));
	fprintf(f, "%s.%s_list \"%s\"\n", irq, key, list);
}

/* Placed by nictl, but not on its target CPU alone now. */
static bool off_target(const struct nictl_irq *irq)
{
	return (irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU)) &&
	       (cpus_count(&irq->affinity) != 1 || !cpus_test(&irq->affinity, irq->target_cpu));
}

static void flat_irq(FILE *f, unsigned int i, const struct nictl_irq *irq)
{
	unsigned int k;
	char p[32];

	snprintf(p, sizeof(p), "0.irqs.%u", i);
	fprintf(f, "%s.queue %u\n%s.kind \"%s\"\n", p, irq->queue, p, kind_name(irq->kind));
	for (k = 0; k < irq->n_queues; k++)
		fprintf(f, "%s.queues.%u.queue %u\n%s.queues.%u.kind \"%s\"\n", p, k,
			irq->queues[k].queue, p, k, kind_name(irq->queues[k].kind));
	fprintf(f, "%s.group %u\n%s.irq %u\n", p, irq->group, p, irq->num);
	fprintf(f, "%s.name", p);
	str_or_null(f, "", irq->present & ATTR_BIT(NICTL_A_IRQ_NAME), irq->name);
	flat_cpus(f, p, "affinity", &irq->affinity);
	flat_cpus(f, p, "effective", &irq->effective);
	fprintf(f, "%s.node %d\n%s.managed %s\n%s.bound %s\n%s.pending %s\n", p, irq->node, p,
		yes_no(irq->flags & NICTL_IRQ_F_MANAGED), p, yes_no(irq->flags & NICTL_IRQ_F_BOUND),
		p, yes_no(irq->flags & NICTL_IRQ_F_PENDING));
	fprintf(f, "%s.shared %s\n", p, yes_no(irq->flags & NICTL_IRQ_F_SHARED));
	fprintf(f, "%s.off_target %s\n", p, yes_no(off_target(irq)));
	if (irq->owner)
		fprintf(f, "%s.owner_ifindex %u\n", p, irq->owner);
	else
		fprintf(f, "%s.owner_ifindex null\n", p);
	/* No test here makes an IRQ drift twice: never fighting. */
	fprintf(f, "%s.drifts %u\n%s.fighting false\n", p, irq->drifts, p);
	if (irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU))
		fprintf(f, "%s.target_cpu %u\n", p, irq->target_cpu);
	else
		fprintf(f, "%s.target_cpu null\n", p);
}

/* What JQ_FLATTEN prints for nictlctl's one-device JSON of @d. */
static char *flat_json(const struct nictl_dev *d)
{
	char *buf = NULL;
	size_t len;
	unsigned int i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "0.ifname \"%s\"\n0.ifindex %u\n", d->ifname, d->ifindex);
	str_or_null(f, "0.driver", d->present & ATTR_BIT(NICTL_A_DRIVER), d->driver);
	str_or_null(f, "0.bus_addr", d->present & ATTR_BIT(NICTL_A_BUS_ADDR), d->bus_addr);
	fprintf(f, "0.numa_node %d\n0.rx_queues %u\n0.tx_queues %u\n0.up %s\n0.bound %s\n",
		d->numa_node, d->rx_queues, d->tx_queues, yes_no(d->dev_flags & NICTL_DEV_F_UP),
		yes_no(d->dev_flags & NICTL_DEV_F_BOUND));
	str_or_null(f, "0.sticky_id", d->present & ATTR_BIT(NICTL_A_STICKY_ID), d->sticky_id);
	fprintf(f, "0.source \"%s\"\n", source_name(d->source));
	fprintf(f, "0.via \"module\"\n");
	for (i = 0; i < d->n_uppers; i++)
		fprintf(f, "0.uppers.%u \"%s\"\n", i, d->uppers[i]);
	for (i = 0; i < d->n_irqs; i++)
		flat_irq(f, i, &d->irqs[i]);
	fclose(f);
	return buf;
}

static void table_cpus(FILE *f, const struct cpus *s)
{
	char list[CPUS_LIST_LEN];

	cpus_format(s, list, sizeof(list));
	fprintf(f, " %s", list[0] ? list : "-");
}

/* FLAGS as nictlctl prints them, for the flags the guests' NICs can have. */
static void table_flags(FILE *f, const struct nictl_irq *irq)
{
	static const char *const texts[] = {
		"-", "managed", "bound", "managed,bound",
		"pending", "managed,pending", "bound,pending", "managed,bound,pending",
	};
	uint32_t flags = irq->flags & (NICTL_IRQ_F_MANAGED | NICTL_IRQ_F_BOUND |
				       NICTL_IRQ_F_PENDING);

	if (!off_target(irq))
		fprintf(f, " %s\n", texts[flags]);
	else if (flags)
		fprintf(f, " %s,off-target\n", texts[flags]);
	else
		fprintf(f, " off-target\n");
}

/*
 * The table nictlctl prints for @d, with every run of blanks squeezed to
 * one space and lines unindented (see squeeze()).
 */
static char *table(const struct nictl_dev *d)
{
	const struct nictl_irq *irq;
	char *buf = NULL, list[NICTL_MAX_LINKS * IFNAMSIZ];
	size_t len;
	unsigned int i;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "%s (ifindex %u): driver %s, bus %s, ", d->ifname, d->ifindex,
		d->present & ATTR_BIT(NICTL_A_DRIVER) ? d->driver : "-",
		d->present & ATTR_BIT(NICTL_A_BUS_ADDR) ? d->bus_addr : "-");
	if (d->numa_node < 0)
		fprintf(f, "node ?, ");
	else
		fprintf(f, "node %d, ", d->numa_node);
	fprintf(f, "queues rx %u tx %u, %s, %s, ", d->rx_queues, d->tx_queues,
		d->dev_flags & NICTL_DEV_F_UP ? "up" : "down",
		d->dev_flags & NICTL_DEV_F_BOUND ? "bound" : "not bound");
	if (d->present & ATTR_BIT(NICTL_A_STICKY_ID))
		fprintf(f, "sticky as %s, ", d->sticky_id);
	if (d->n_uppers)
		fprintf(f, "under %s, ", uppers(d, list, sizeof(list)));
	fprintf(f, "irqs from %s\n", source_name(d->source));
	fprintf(f, "QUEUE KIND IRQ NAME CPUS EFFECTIVE NODE TARGET FLAGS\n");
	for (i = 0; i < d->n_irqs; i++) {
		irq = &d->irqs[i];
		fprintf(f, "%u %s %u %s", irq->queue, kind_name(irq->kind), irq->num, irq->name);
		table_cpus(f, &irq->affinity);
		table_cpus(f, &irq->effective);
		if (irq->node < 0)
			fprintf(f, " ?");
		else
			fprintf(f, " %d", irq->node);
		if (irq->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU))
			fprintf(f, " %u", irq->target_cpu);
		else
			fprintf(f, " -");
		table_flags(f, irq);
	}
	fclose(f);
	return buf;
}

/* Squeeze runs of blanks in @s to one space and drop them at line starts. */
static void squeeze(char *s)
{
	char *out = s;
	bool line_start = true, blank = false;

	for (; *s; s++) {
		if (*s == ' ' || *s == '\t') {
			blank = !line_start;
			continue;
		}
		if (blank && *s != '\n')
			*out++ = ' ';
		blank = false;
		*out++ = *s;
		line_start = *s == '\n';
	}
	*out = '\0';
}

/*
 * Cut the squeezed table @out before the steering show prints after the
 * IRQs (nictl_steer checks it against sysfs); false when it has none.
 */
static bool cut_steering(char *out)
{
	char *steering = strstr(out, "\nsteering: net.core.rps_sock_flow_entries ");

	if (!steering) {
		fprintf(stderr, "# no steering after the IRQs in:\n%s", out);
		return false;
	}
	steering[1] = '\0';
	return true;
}

/* Whether @got equals @want; if not, print the first line that differs. */
static bool same_text(const char *want, const char *got)
{
	size_t n = 0;

	if (!want || !got)
		return false;
	if (!strcmp(want, got))
		return true;
	while (want[n] && want[n] == got[n])
		n++;
	while (n && want[n - 1] != '\n')
		n--;
	fprintf(stderr, "# want: %.*s\n# got:  %.*s\n", (int)strcspn(want + n, "\n"), want + n,
		(int)strcspn(got + n, "\n"), got + n);
	return false;
}

/* DEV_GET of @ifname through our own client. */
static bool dev_get(FIXTURE_DATA(cli) *self, const char *ifname, struct nictl_dev *dev)
{
	struct nl_result res;

	if (!nictl_dev_get(&self->env.nl, ifname, dev, &res))
		return true;
	fprintf(stderr, "# DEV_GET %s: %s\n", ifname, res.msg);
	return false;
}

/* `show DEV` and `show DEV -j` agree with DEV_GET for @ifname. */
static bool show_matches(FIXTURE_DATA(cli) *self, const char *ifname)
{
	struct nictl_dev dev;
	char *want;
	bool ok;

	if (!dev_get(self, ifname, &dev))
		return false;
	ok = !CTL(self, "show", ifname) && !self->run.err[0];
	want = table(&dev);
	squeeze(self->run.out);
	ok &= cut_steering(self->run.out) && same_text(want, self->run.out);
	free(want);

	ok &= !CTL(self, "show", ifname, "-j") && count_lines(self->run.out) == 1;
	/* No device polls in threads here (nictl_discovery turns it on for vnode1). */
	ok &= !JQ(self, ".[0].napi_threads | \"\\(.unknown) \\(.threads)\"") &&
	      same_text("false []\n", self->jq.out);
	/* nictl_steer checks the steering against sysfs. */
	ok &= !JQ(self, "del(.[].steering, .[].napi_threads) | " JQ_FLATTEN);
	want = flat_json(&dev);
	ok &= same_text(want, self->jq.out);
	free(want);
	return ok;
}

TEST_F_TIMEOUT(cli, show_matches_dev_get, 300)
{
	const char *const *nic;

	for (nic = test_nics; *nic; nic++)
		EXPECT_TRUE(show_matches(self, *nic));
}

TEST_F_TIMEOUT(cli, show_all_lists_every_nic, 300)
{
	const char *const *nic;
	char line[32];

	ASSERT_EQ(0, CTL(self, "show", "-j"));
	ASSERT_EQ(0, JQ(self, ".[].ifname"));
	for (nic = test_nics; *nic; nic++) {
		snprintf(line, sizeof(line), "%s\n", *nic);
		EXPECT_TRUE(strstr(self->jq.out, line)) TH_LOG("%s missing", line);
	}
	ASSERT_EQ(0, CTL(self, "show"));
	for (nic = test_nics; *nic; nic++) {
		snprintf(line, sizeof(line), "%s (ifindex", *nic);
		EXPECT_TRUE(strstr(self->run.out, line)) TH_LOG("%s missing", line);
	}
}

/*
 * nictlctl -j COMMAND is COMMAND -j, as with ip -j; -p indents the same
 * document; a command without JSON refuses -j as a usage error.
 */
TEST_F_TIMEOUT(cli, global_json_and_pretty, 300)
{
	char *own, *compact;

	ASSERT_EQ(0, CTL(self, "show", "vnode1", "-j"));
	EXPECT_EQ(1U, count_lines(self->run.out));
	own = strdup(self->run.out);
	ASSERT_NE(NULL, own);
	EXPECT_EQ(0, CTL(self, "-j", "show", "vnode1"));
	EXPECT_STREQ(own, self->run.out);
	EXPECT_EQ(0, CTL(self, "--json", "show", "vnode1"));
	EXPECT_STREQ(own, self->run.out);

	ASSERT_EQ(0, JQ(self, "tojson"));
	compact = strdup(self->jq.out);
	ASSERT_NE(NULL, compact);
	EXPECT_EQ(0, CTL(self, "-j", "-p", "show", "vnode1"));
	EXPECT_LT(10U, count_lines(self->run.out)) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "\n  {\n    \"ifname\": \"vnode1\",\n"))
		TH_LOG("%s", self->run.out);
	ASSERT_EQ(0, JQ(self, "tojson"));
	EXPECT_STREQ(compact, self->jq.out);
	/* Without JSON, -p changes nothing. */
	EXPECT_EQ(0, CTL(self, "-p", "show", "vnode1"));
	EXPECT_EQ(NULL, strchr(self->run.out, '{'));

	EXPECT_EQ(2, CTL(self, "-j", "daemon", "--check"));
	EXPECT_TRUE(one_line_error(&self->run, "-j: daemon prints no JSON"));
	free(compact);
	free(own);
}

TEST_F_TIMEOUT(cli, unknown_device_fails, 120)
{
	EXPECT_EQ(1, CTL(self, "show", NO_SUCH_DEV));
	EXPECT_TRUE(one_line_error(&self->run, "no such device"));
	EXPECT_EQ(1, CTL(self, "bind", NO_SUCH_DEV));
	EXPECT_TRUE(one_line_error(&self->run, "no such device"));
	EXPECT_EQ(1, CTL(self, "restore", NO_SUCH_DEV));
	EXPECT_TRUE(one_line_error(&self->run, "no such device"));
}

TEST_F_TIMEOUT(cli, usage_errors_exit_2, 120)
{
	EXPECT_EQ(2, CTL(self, "show", "--bogus"));
	EXPECT_TRUE(one_line_error(&self->run, "--bogus"));
	EXPECT_EQ(2, CTL(self, "--bogus"));
	EXPECT_TRUE(one_line_error(&self->run, "--bogus"));
	EXPECT_EQ(2, CTL(self, "bind", "vnode1", "--cpus"));
	EXPECT_TRUE(one_line_error(&self->run, "--cpus"));
	EXPECT_EQ(2, CTL(self, "bind", "vnode1", "--cpus", "4-x"));
	EXPECT_TRUE(one_line_error(&self->run, "4-x"));
	EXPECT_EQ(2, CTL(self, "frobnicate"));
	EXPECT_TRUE(one_line_error(&self->run, "frobnicate"));
	EXPECT_EQ(2, CTL(self, "bind"));
	EXPECT_EQ(1U, count_lines(self->run.err));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

TEST_F_TIMEOUT(cli, unprivileged_bind_is_refused, 300)
{
	EXPECT_EQ(1, CTL_UNPRIV(self, "bind", "vnode1", "--numa-local"));
	EXPECT_TRUE(one_line_error(&self->run, "permission denied: needs CAP_NET_ADMIN"));
	EXPECT_EQ(1, CTL_UNPRIV(self, "restore", "vnode1"));
	EXPECT_TRUE(one_line_error(&self->run, "permission denied: needs CAP_NET_ADMIN"));
	EXPECT_EQ(0, CTL_UNPRIV(self, "show", "vnode1", "-j"));
	EXPECT_EQ(0, JQ(self, ".[0].ifname"));
	EXPECT_STREQ("vnode1\n", self->jq.out);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/* The family, like the IRQs it moves, belongs to the initial network namespace. */
TEST_F_TIMEOUT(cli, other_network_namespace_is_told_where_to_go, 300)
{
	EXPECT_EQ(1, CTL_UNSHARED(self, "-n", "show"));
	EXPECT_TRUE(one_line_error(&self->run,
				   "reachable from the initial network namespace only"));
	EXPECT_EQ(1, CTL_UNSHARED(self, "-n", "bind", "vnode1", "--cpus", "4-7"));
	EXPECT_TRUE(one_line_error(&self->run,
				   "reachable from the initial network namespace only"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

#define JSON_CONF	"/tmp/nictl-json.conf"
#define JSON_DIR	"/tmp/nictl-json"

/*
 * Every command's -j output is what docs/json/nictlctl.schema.json says,
 * in each of its shapes: a device dump, one device, a bind, a dry run with
 * steering, a restore, stats since the start, of a device and by interval,
 * verify, plan, doctor, balance, and monitor's events of a bind and a
 * restore. No member the schema does not name, none of another type. All
 * are checked in one run of the checker (Python starts slowly here).
 */
TEST_F_TIMEOUT(cli, every_json_output_matches_its_schema, 600)
{
	static const char *const runs[][12] = {
		{ "show", "show", "-j" },
		{ "show", "show", "vnode1", "-j" },
		{ "bind", "bind", "vnode1", "--numa-local", "-j" },
		{ "bind", "bind", "e1k", "--node", "0", "--steer", "--dry-run", "-j" },
		{ "restore", "restore", "vnode1", "-j" },
		{ "stats", "stats", "-j" },
		{ "stats", "stats", "vnode1", "-j" },
		{ "stats", "stats", "-i", "100ms", "--count", "2", "-j" },
		{ "verify", "verify", "-c", JSON_CONF, "-j" },
		{ "plan", "plan", "-c", JSON_CONF, "-j" },
		{ "doctor", "doctor", "-i", "100ms", "-c", JSON_CONF, "-j" },
		{ "balance", "balance", "vnode1", "--window", "100ms", "--dry-run", "-j" },
	};
	static char files[ARRAY_SIZE(runs) + 1][64];
	const char *check[2 * ARRAY_SIZE(runs) + 3] = { NULL };
	const char *const monitor[] = { "monitor", "-j", NULL };
	struct spawned sp;
	unsigned int i, n = 0;

	ASSERT_EQ(0, mkdir(JSON_DIR, 0700) && errno != EEXIST ? -errno : 0);
	ASSERT_EQ(0, write_file(JSON_CONF, "[rule nic]\nmatch-name = vnode1\ncpus = numa-local\n"));
	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		/* doctor and verify may find something: 1 is an answer too. */
		EXPECT_GE(1, run_ctl(&self->run, false, NULL, &runs[i][1])) TH_LOG("%s", runs[i][1]);
		snprintf(files[i], sizeof(files[i]), JSON_DIR "/%02u-%s.json", i, runs[i][1]);
		ASSERT_EQ(0, write_file(files[i], self->run.out));
		check[n++] = runs[i][0];
		check[n++] = files[i];
	}

	ASSERT_EQ(0, spawn_ctl(&sp, monitor));
	usleep(300 * 1000);
	EXPECT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local"));
	EXPECT_EQ(0, CTL(self, "restore", "vnode1"));
	self->run.out[0] = '\0';
	while (read_more(sp.out, self->run.out, sizeof(self->run.out), 2000) > 0)
		;
	spawn_stop(&sp, SIGTERM, 5000);
	EXPECT_NE(NULL, strstr(self->run.out, "\"event\":\"bound\""))
		TH_LOG("monitor printed: %s", self->run.out);
	snprintf(files[i], sizeof(files[i]), JSON_DIR "/%02u-monitor.json", i);
	ASSERT_EQ(0, write_file(files[i], self->run.out));
	check[n++] = "monitor";
	check[n++] = files[i];

	EXPECT_EQ(0, run_json_check(&self->jq, check, NULL)) TH_LOG("outputs kept in " JSON_DIR);
	/* The check itself refuses what the schema does not allow. */
	EXPECT_EQ(1, run_json_check(&self->jq, (const char *const []){ "show", NULL },
				    "[{\"ifname\": 1}]"));
	unlink(JSON_CONF);
}

/* Teardown loads the module again should the test stop half-way. */
TEST_F_TIMEOUT(cli, module_not_loaded, 300)
{
	nl_close(&self->env.nl);
	ASSERT_EQ(0, nictl_module_unload());
	/* show reads sysfs itself, after one line that says so (nictl_absent compares). */
	EXPECT_EQ(0, CTL(self, "show", "vnode1"));
	EXPECT_TRUE(one_line_error(&self->run, "module nictl is not loaded"));
	EXPECT_NE(NULL, strstr(self->run.out, "irqs from msi via sysfs")) TH_LOG("%s", self->run.out);
	/* bind and restore work through /proc/irq (nictl_absent); --sticky cannot. */
	EXPECT_EQ(1, CTL(self, "bind", "vnode1", "--numa-local", "--sticky"));
	EXPECT_TRUE(one_line_error(&self->run, "module nictl is not loaded"));
	/* doctor looks without it (nictl_absent), but --fix cannot: EX_UNAVAILABLE, not 1. */
	EXPECT_NE(69, CTL(self, "doctor", "-i", "10ms"));
	EXPECT_NE(NULL, strstr(self->run.out, "module-absent")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(69, CTL(self, "doctor", "-i", "10ms", "--fix"));
	EXPECT_TRUE(one_line_error(&self->run, "module nictl is not loaded"));
	/* verify and plan judge sysfs without it (nictl_absent), after the same line. */
	EXPECT_EQ(0, CTL(self, "verify", "-c", "/dev/null"));
	EXPECT_TRUE(one_line_error(&self->run, "module nictl is not loaded"));
	EXPECT_NE(NULL, strstr(self->run.out, "no device is governed by a rule"))
		TH_LOG("%s", self->run.out);
	EXPECT_EQ(0, CTL(self, "plan", "-c", "/dev/null"));
	EXPECT_TRUE(one_line_error(&self->run, "module nictl is not loaded"));
	ASSERT_EQ(0, nictl_module_load());
	EXPECT_EQ(0, CTL(self, "show", "vnode1"));
}

/* The bound state as /proc shows it, and as show -j reports it. */
static bool bound_as(FIXTURE_DATA(cli) *self, const char *ifname, const struct cpus *allowed,
		     bool distinct_cores)
{
	struct nictl_dev dev;

	return dev_get(self, ifname, &dev) && (dev.dev_flags & NICTL_DEV_F_BOUND) &&
	       placement_ok(&dev, allowed, distinct_cores) && show_matches(self, ifname);
}

TEST_F_TIMEOUT(cli, bind_numa_local, 300)
{
	struct cpus node1;

	ASSERT_EQ(0, node_cpus(1, &node1));
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "-j"));
	EXPECT_EQ(0, JQ(self, ".[0].bound"));
	EXPECT_STREQ("true\n", self->jq.out);
	EXPECT_TRUE(bound_as(self, "vnode1", &node1, true));
}

/*
 * vnode1's node with every CPU offline, as a node with memory and no CPUs:
 * --numa-local takes the CPUs of the nearest node, says which, and the
 * kernel's NUMA check (NUMA_STRICT) accepts them. Teardown brings the CPUs
 * back.
 */
TEST_F_TIMEOUT(cli, numa_local_without_cpus_takes_the_nearest_node, 300)
{
	struct cpus node0, node1;
	int cpu;

	ASSERT_EQ(0, node_cpus(0, &node0));
	ASSERT_EQ(0, node_cpus(1, &node1));
	for_each_cpu(cpu, &node1)
		ASSERT_EQ(0, cpu_set_online(cpu, false)) TH_LOG("CPU %d", cpu);
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local")) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "node 1 has no online CPUs: nearest node 0"))
		TH_LOG("stderr: %s", self->run.err);
	cpus_clear(&node0, 0);
	EXPECT_TRUE(bound_as(self, "vnode1", &node0, true));
}

TEST_F_TIMEOUT(cli, dry_run_shows_the_bind, 300)
{
	const char *map = "[.[0].irqs[] | [.irq, .target_cpu]] | tojson";
	char *dry;

	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "--dry-run", "-j"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	ASSERT_EQ(0, JQ(self, map));
	dry = strdup(self->jq.out);
	ASSERT_NE(NULL, dry);
	EXPECT_EQ(NULL, strstr(dry, "null")) TH_LOG("dry run placed nothing: %s", dry);
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local", "-j"));
	ASSERT_EQ(0, JQ(self, map));
	EXPECT_STREQ(dry, self->jq.out);
	free(dry);
}

/* Two queues, one core: only with --allow-siblings, and the message counts. */
TEST_F_TIMEOUT(cli, bind_needs_a_core_per_queue, 300)
{
	struct cpus core;
	struct nictl_dev dev;

	ASSERT_EQ(0, cpus_parse(&core, "4-5"));
	EXPECT_EQ(1, CTL(self, "bind", "vnode1", "--cpus", "4-5"));
	EXPECT_TRUE(one_line_error(&self->run, "--allow-siblings"));
	EXPECT_TRUE(mentions_number(self->run.err, 2) && mentions_number(self->run.err, 1))
		TH_LOG("the queue and core counts (2, 1) are not named");
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));

	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--cpus", "4-5", "--allow-siblings"));
	EXPECT_TRUE(bound_as(self, "vnode1", &core, false));
	ASSERT_TRUE(dev_get(self, "vnode1", &dev));
	target_cpus(&dev, &core);
	EXPECT_EQ(2U, cpus_count(&core));
}

TEST_F_TIMEOUT(cli, default_bind_keeps_off_cpu0, 300)
{
	const char *const nics[] = { "vnode0", "e1k" };
	struct cpus allowed;
	unsigned int i;

	ASSERT_EQ(0, sys_online_cpus(&allowed));
	cpus_clear(&allowed, 0);
	for (i = 0; i < ARRAY_SIZE(nics); i++) {
		ASSERT_EQ(0, CTL(self, "bind", nics[i]));
		EXPECT_TRUE(bound_as(self, nics[i], &allowed, true));
	}
}

TEST_F_TIMEOUT(cli, restore_returns_originals, 300)
{
	ASSERT_EQ(0, CTL(self, "bind", "vnode1", "--numa-local"));
	EXPECT_EQ(0, CTL(self, "restore", "vnode1", "-j"));
	EXPECT_EQ(0, JQ(self, ".[0].bound"));
	EXPECT_STREQ("false\n", self->jq.out);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	EXPECT_EQ(1, CTL(self, "restore", "vnode1"));
	EXPECT_EQ(1U, count_lines(self->run.err));
}

NICTL_TEST_MAIN
