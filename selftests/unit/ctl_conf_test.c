// SPDX-License-Identifier: GPL-2.0
/*
 * The daemon's configuration file: what a good file yields, and that every
 * bad one is refused whole with a message naming its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "ctl_cpulist.h"

#include "conf/conf.h"
#include "util.h"

/* Parse @text as the file "t.conf": conf_parse()'s result, @err filled. */
static int parse(const char *text, struct conf *conf, char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!f)
		abort();
	err[0] = '\0';
	ret = conf_parse(f, "t.conf", conf, err, len);
	fclose(f);
	return ret;
}

TEST(full_example)
{
	static const char text[] =
		"# the node-1 NIC\n"
		"\n"
		"[daemon]\n"
		"irq-wait = 30\n"
		"irqbalance = ignore\n"
		"banned-cpus = ignore\n"
		"banned-cpus-file = /etc/pods/irqbalance\n"
		"metrics = [::1]:9469\n"
		"\n"
		"[rule fast]\n"
		"  match-name = vnode*\n"
		"match-pci=0000:80:00.0\n"
		"match-mac = 52:54:00:*\n"
		"match-driver = virtio_net\n"
		"cpus = numa-local\n"
		"exclude = 5\n"
		"allow-siblings = yes\n"
		"xps = yes\n"
		"; another comment style\n"
		"[rule e1k]\n"
		"match-driver = e1000e\n"
		"cpus = node 0\n"
		"sticky = no\n"
		"[rule listed]\n"
		"match-name = eth9\n"
		"cpus = 2-3,6\n"
		"[rule all]\n"
		"match-name = *\n"
		"cpus = all\n";
	struct conf c;
	char err[256];

	ASSERT_EQ(0, parse(text, &c, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(30000U, c.irq_wait_ms);
	EXPECT_FALSE(c.irqbalance_ban);
	EXPECT_FALSE(c.banned_cpus);
	EXPECT_STREQ("/etc/pods/irqbalance", c.banned_cpus_file);
	EXPECT_STREQ("[::1]:9469", c.metrics);
	ASSERT_EQ(4U, c.nr_rules);

	EXPECT_STREQ("fast", c.rules[0].name);
	EXPECT_EQ(10U, c.rules[0].line);
	EXPECT_STREQ("vnode*", c.rules[0].match[RULE_MATCH_NAME]);
	EXPECT_STREQ("0000:80:00.0", c.rules[0].match[RULE_MATCH_PCI]);
	EXPECT_STREQ("52:54:00:*", c.rules[0].match[RULE_MATCH_MAC]);
	EXPECT_STREQ("virtio_net", c.rules[0].match[RULE_MATCH_DRIVER]);
	EXPECT_TRUE(c.rules[0].policy.numa_local);
	EXPECT_EQ(CPUS_NODE, c.rules[0].policy.req.source);
	EXPECT_STREQ("5", cpulist_of(&c.rules[0].policy.req.exclude));
	EXPECT_TRUE(c.rules[0].policy.allow_siblings);
	EXPECT_FALSE(c.rules[0].policy.dry_run);
	EXPECT_EQ(STEER_XPS, c.rules[0].steer);
	EXPECT_TRUE(c.rules[0].policy.sticky);

	EXPECT_STREQ("e1k", c.rules[1].name);
	EXPECT_EQ(NULL, c.rules[1].match[RULE_MATCH_NAME]);
	EXPECT_FALSE(c.rules[1].policy.numa_local);
	EXPECT_EQ(CPUS_NODE, c.rules[1].policy.req.source);
	EXPECT_EQ(0, c.rules[1].policy.req.node);
	EXPECT_FALSE(c.rules[1].policy.allow_siblings);
	EXPECT_EQ(0U, c.rules[1].steer);
	EXPECT_FALSE(c.rules[1].policy.sticky);

	EXPECT_EQ(CPUS_GIVEN, c.rules[2].policy.req.source);
	EXPECT_STREQ("2-3,6", cpulist_of(&c.rules[2].policy.req.given));
	EXPECT_EQ(CPUS_ONLINE, c.rules[3].policy.req.source);
	conf_free(&c);
	EXPECT_EQ(0U, c.nr_rules);
}

/* steer = auto asks for every part, less those their own keys turn off, in any order. */
TEST(steering_keys)
{
	static const struct {
		const char *keys;
		unsigned int parts;
	} cases[] = {
		{ "", 0 },
		{ "steer = no\n", 0 },
		{ "steer = auto\n", STEER_RPS | STEER_RFS | STEER_XPS },
		{ "steer = auto\nrfs = no\n", STEER_RPS | STEER_XPS },
		{ "xps = no\nsteer = auto\n", STEER_RPS | STEER_RFS },
		{ "steer = auto\nrps = no\nrfs = false\nxps = no\n", 0 },
		{ "rps = auto\n", STEER_RPS },
		{ "rfs = true\nxps = yes\n", STEER_RFS | STEER_XPS },
		{ "steer = no\nrps = auto\n", STEER_RPS },
		/* yes and no alike for every such key: auto is yes where it is taken. */
		{ "steer = yes\n", STEER_RPS | STEER_RFS | STEER_XPS },
		{ "steer = on\nrfs = off\nxps = 0\n", STEER_RPS },
		{ "rps = yes\nrfs = 1\nxps = on\n", STEER_RPS | STEER_RFS | STEER_XPS },
	};
	char text[256], err[256];
	struct conf c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(text, sizeof(text), "[rule a]\nmatch-name = x\n%s[rule b]\n"
			 "match-name = y\n", cases[i].keys);
		ASSERT_EQ(0, parse(text, &c, err, sizeof(err))) TH_LOG("%s", err);
		EXPECT_EQ(cases[i].parts, c.rules[0].steer) TH_LOG("%s", cases[i].keys);
		/* The next rule starts from nothing. */
		EXPECT_EQ(0U, c.rules[1].steer) TH_LOG("%s", cases[i].keys);
		conf_free(&c);
	}
}

/* match-netns is a match key of its own, and enough for a rule. */
TEST(match_netns)
{
	char err[256];
	struct conf c;

	ASSERT_EQ(0, parse("[rule pods]\nmatch-netns = pod-*\ncpus = node 1\n", &c, err,
			   sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(1U, c.nr_rules);
	EXPECT_STREQ("pod-*", c.rules[0].match[RULE_MATCH_NETNS]);
	EXPECT_EQ(NULL, c.rules[0].match[RULE_MATCH_NAME]);
	conf_free(&c);
}

/* The other boolean keys take the same words: yes, true, on, 1; no, false, off, 0. */
TEST(boolean_words)
{
	static const char *const on[] = { "yes", "true", "on", "1" };
	static const char *const off[] = { "no", "false", "off", "0" };
	char text[256], err[256];
	struct conf c;
	unsigned int i, v;

	for (v = 0; v < 2; v++)
		for (i = 0; i < ARRAY_SIZE(on); i++) {
			snprintf(text, sizeof(text), "[rule a]\nmatch-name = x\nallow-siblings = %s\n"
				 "sticky = %s\nbalance = %s\n", v ? on[i] : off[i],
				 v ? on[i] : off[i], v ? on[i] : off[i]);
			ASSERT_EQ(0, parse(text, &c, err, sizeof(err))) TH_LOG("%s", err);
			EXPECT_EQ(v, c.rules[0].policy.allow_siblings) TH_LOG("%s", text);
			EXPECT_EQ(v, c.rules[0].policy.sticky) TH_LOG("%s", text);
			EXPECT_EQ(v, c.rules[0].balance) TH_LOG("%s", text);
			conf_free(&c);
		}
}

TEST(balance_keys)
{
	static const char text[] =
		"[rule fast]\n"
		"match-name = vnode*\n"
		"balance = yes\n"
		"balance-interval = 20\n"
		"balance-threshold = 0\n"
		"[rule plain]\n"
		"match-name = e1k\n";
	struct conf c;
	char err[256];

	ASSERT_EQ(0, parse(text, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(2U, c.nr_rules);
	EXPECT_TRUE(c.rules[0].balance);
	EXPECT_EQ(20U, c.rules[0].balance_interval_s);
	EXPECT_EQ(0U, c.rules[0].balance_threshold_pct);
	/* The defaults, for when balance = yes is all a rule says. */
	EXPECT_FALSE(c.rules[1].balance);
	EXPECT_EQ(60U, c.rules[1].balance_interval_s);
	EXPECT_EQ(10U, c.rules[1].balance_threshold_pct);
	conf_free(&c);
}

TEST(napi_keys)
{
	static const char text[] =
		"[rule busy]\n"
		"match-name = vnode*\n"
		"defer-hard-irqs = 2\n"
		"gro-flush-timeout = 20000\n"
		"threaded = busy-poll\n"
		"[rule plain]\n"
		"match-name = e1k\n";
	struct conf c;
	char err[256];

	ASSERT_EQ(0, parse(text, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(2U, c.nr_rules);
	EXPECT_TRUE(c.rules[0].policy.napi.set[NAPI_CFG_DEFER_HARD_IRQS]);
	EXPECT_EQ(2, c.rules[0].policy.napi.v[NAPI_CFG_DEFER_HARD_IRQS]);
	EXPECT_TRUE(c.rules[0].policy.napi.set[NAPI_CFG_GRO_FLUSH_TIMEOUT]);
	EXPECT_EQ(20000, c.rules[0].policy.napi.v[NAPI_CFG_GRO_FLUSH_TIMEOUT]);
	EXPECT_FALSE(c.rules[0].policy.napi.set[NAPI_CFG_IRQ_SUSPEND_TIMEOUT]);
	EXPECT_TRUE(c.rules[0].policy.napi.set[NAPI_CFG_THREADED]);
	EXPECT_EQ(NAPI_THREADED_BUSY_POLL, c.rules[0].policy.napi.v[NAPI_CFG_THREADED]);
	EXPECT_FALSE(napi_config_asked(&c.rules[1].policy.napi));
	conf_free(&c);
	EXPECT_EQ(-1, parse("[rule r]\nmatch-name = x\ngro-flush-timeout = soon\n", &c, err,
			    sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "t.conf:3: gro-flush-timeout")) TH_LOG("%s", err);
	EXPECT_EQ(-1, parse("[rule r]\nmatch-name = x\nthreaded = yes\n", &c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "t.conf:3: threaded: 'yes' is neither off, on nor busy-poll"))
		TH_LOG("%s", err);
}

TEST(defaults)
{
	struct conf c;
	char err[256];

	ASSERT_EQ(0, parse("", &c, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(0U, c.nr_rules);
	EXPECT_EQ(10000U, c.irq_wait_ms);
	EXPECT_TRUE(c.irqbalance_ban);
	EXPECT_TRUE(c.banned_cpus);
	EXPECT_EQ(NULL, c.banned_cpus_file);
	EXPECT_EQ(NULL, c.metrics);
	conf_free(&c);
}

/* Where /metrics is served, as written; off is no address at all. */
TEST(metrics_key)
{
	static const char *const ok[] = {
		"127.0.0.1:9469", "0.0.0.0:9469", "[::1]:9469", "unix:/run/nictl/metrics.sock",
	};
	char text[128], err[256];
	struct conf c;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		snprintf(text, sizeof(text), "[daemon]\nmetrics = %s\n", ok[i]);
		ASSERT_EQ(0, parse(text, &c, err, sizeof(err))) TH_LOG("%s: %s", ok[i], err);
		EXPECT_STREQ(ok[i], c.metrics);
		conf_free(&c);
		EXPECT_EQ(NULL, c.metrics);
	}
	ASSERT_EQ(0, parse("[daemon]\nmetrics = off\n", &c, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_EQ(NULL, c.metrics);
	conf_free(&c);
}

TEST(errors_name_the_line)
{
	static const char *const cases[][2] = {
		{ "cpus = all\n",
		  "t.conf:1: 'cpus' comes before any [rule NAME] or [daemon] section" },
		{ "[rule a]\nmatch-name = x\n[frob]\n",
		  "t.conf:3: unknown section [frob]; the sections are [rule NAME] and [daemon]" },
		{ "[rule a]\nmatch-name = x\ncpu = 1\n", "t.conf:3: unknown key 'cpu' in a rule" },
		{ "[daemon]\nxps = yes\n", "t.conf:2: unknown key 'xps' in [daemon]" },
		{ "[rule a]\nmatch-name = x\nmatch-name = y\n",
		  "t.conf:3: 'match-name' is set twice in this section" },
		{ "[rule a]\nmatch-name = x\n[rule a]\nmatch-name = y\n",
		  "t.conf:3: a rule named 'a' already starts at t.conf:1" },
		{ "\n[rule a]\ncpus = all\n[rule b]\nmatch-name = y\n",
		  "t.conf:2: rule 'a' matches no device" },
		{ "[rule a]\nxps = yes\n", "t.conf:1: rule 'a' matches no device" },
		{ "[rule a]\nmatch-name = x\ncpus = four\n", "t.conf:3: cpus: 'four' is none of" },
		{ "[rule a]\nmatch-name = x\ncpus = 3-1x\n",
		  "t.conf:3: cpus: '3-1x' is not a CPU list" },
		{ "[rule a]\nmatch-name = x\ncpus = 99999\n",
		  "t.conf:3: cpus: CPU numbers go up to 8191" },
		{ "[rule a]\nmatch-name = x\ncpus = node x\n",
		  "t.conf:3: cpus = node: 'x' is not a number" },
		{ "[rule a]\nmatch-name = x\nexclude = ,\n",
		  "t.conf:3: exclude: ',' is not a CPU list" },
		{ "[rule a]\nmatch-name = x\nxps = maybe\n",
		  "t.conf:3: xps: 'maybe' is neither yes nor no" },
		{ "[rule a]\nmatch-name = x\nsteer = always\n",
		  "t.conf:3: steer: 'always' is neither auto, yes nor no" },
		{ "[rule a]\nmatch-name = x\nrps = Yes\n",
		  "t.conf:3: rps: 'Yes' is neither auto, yes nor no" },
		{ "[rule a]\nmatch-name = x\nrfs = auto\n",
		  "t.conf:3: rfs: 'auto' is neither yes nor no" },
		{ "[rule a]\nmatch-name = x\nsteer = auto\nsteer = no\n",
		  "t.conf:4: 'steer' is set twice in this section" },
		{ "[rule a]\nmatch-name =\n", "t.conf:2: 'match-name' needs a value" },
		{ "[rule a]\nmatch-driver = mlx5_core,ice\n",
		  "t.conf:2: match-driver: 'mlx5_core,ice' can never match a driver name: none "
		  "holds ','; separate patterns with spaces" },
		{ "[rule a]\nmatch-driver = ice \"ixgbe\"\n",
		  "t.conf:2: match-driver: '\"ixgbe\"' can never match a driver name: none holds "
		  "'\"'" },
		{ "[rule a]\nmatch-pci = 0000:80:00.* 0000:8g:*\n",
		  "t.conf:2: match-pci: '0000:8g:*' can never match a PCI address: none holds "
		  "'g'" },
		{ "[rule a]\nmatch-mac = 52-54-00-*\n",
		  "t.conf:2: match-mac: '52-54-00-*' can never match a MAC address" },
		{ "[rule a]\nmatch-name = eth0:1\n",
		  "t.conf:2: match-name: 'eth0:1' can never match an interface name: none holds "
		  "':'" },
		{ "[rule a]\nmatch-name = enp129s0f0np0v12\n",
		  "t.conf:2: match-name: 'enp129s0f0np0v12' can never match an interface name: it is "
		  "longer than 15 characters" },
		{ "[rule a]\nmatch-netns = pods/a\n",
		  "t.conf:2: match-netns: 'pods/a' can never match a namespace name" },
		{ "[rule a]\nmatch-name\n", "t.conf:2: expected 'key = value'" },
		{ "[rule a b]\n", "t.conf:1: rule name 'a b'" },
		{ "[rule]\n", "t.conf:1: unknown section [rule]" },
		{ "[rule a\n", "t.conf:1: a section header ends with ']'" },
		{ "[daemon]\n[daemon]\n", "t.conf:2: [daemon] may appear only once" },
		{ "[daemon]\nirq-wait = 0\n",
		  "t.conf:2: irq-wait: '0' is not a number from 1 to 600" },
		{ "[daemon]\nirqbalance = stop\n", "t.conf:2: irqbalance: 'stop' is neither" },
		{ "[daemon]\nbanned-cpus = yes\n",
		  "t.conf:2: banned-cpus: 'yes' is neither irqbalance nor ignore" },
		{ "[daemon]\nbanned-cpus-file = irqbalance\n",
		  "t.conf:2: banned-cpus-file: 'irqbalance' is not an absolute path" },
		{ "[rule a]\nbanned-cpus = ignore\n", "t.conf:2: unknown key 'banned-cpus' in a rule" },
		{ "[daemon]\nmetrics = 9469\n",
		  "t.conf:2: metrics: '9469' is neither ADDRESS:PORT, [IPV6]:PORT, unix:/PATH nor off" },
		{ "[daemon]\nmetrics = localhost:9469\n",
		  "t.conf:2: metrics: 'localhost:9469': 'localhost' is not an IPv4 address" },
		{ "[daemon]\nmetrics = 127.0.0.1:99999\n",
		  "t.conf:2: metrics: '127.0.0.1:99999': the port '99999' is not a number from 1 to "
		  "65535" },
		{ "[daemon]\nmetrics = unix:metrics.sock\n",
		  "t.conf:2: metrics: 'metrics.sock' is not an absolute path" },
		{ "[rule a]\nmetrics = off\n", "t.conf:2: unknown key 'metrics' in a rule" },
		{ "[rule a]\nmatch-netns = pod*\nsteer = auto\n",
		  "t.conf:1: rule 'a': steer, rps, rfs and xps do not reach a device in another "
		  "network namespace (match-netns)" },
		{ "[rule a]\nmatch-netns = pod\nxps = yes\n[rule b]\nmatch-name = x\n",
		  "t.conf:1: rule 'a': steer, rps, rfs and xps do not reach" },
		{ "[rule a]\nmatch-name = x\nbalance = yes\nsteer = auto\n",
		  "t.conf:1: rule 'a': balance does not go with steer, rps, rfs or xps" },
		{ "[rule a]\nmatch-name = x\nbalance-interval = 5\n",
		  "t.conf:1: rule 'a': balance-interval and balance-threshold need balance = yes" },
		{ "[rule a]\nmatch-name = x\nbalance = yes\nbalance-interval = 0\n",
		  "t.conf:4: balance-interval: '0' is not a number from 1 to 86400" },
		{ "[rule a]\nmatch-name = x\nbalance = yes\nbalance-threshold = 101\n",
		  "t.conf:4: balance-threshold: '101' is not a number from 0 to 100" },
		{ "[rule a]\nmatch-name = x\nbalance = often\n",
		  "t.conf:3: balance: 'often' is neither yes nor no" },
	};
	struct conf c;
	char err[512];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		EXPECT_EQ(-1, parse(cases[i][0], &c, err, sizeof(err))) TH_LOG("%s", cases[i][0]);
		EXPECT_EQ(0, strncmp(err, cases[i][1], strlen(cases[i][1])))
			TH_LOG("got '%s', want '%s...'", err, cases[i][1]);
		EXPECT_EQ(0U, c.nr_rules);
		EXPECT_EQ(NULL, c.rules);
	}
}

/* Globs a value cannot hold pass: brackets, classes, escapes, long globs with '*'. */
TEST(match_values_that_can_match)
{
	static const char text[] =
		"[rule a]\n"
		"match-name = enp129s0f0np0v1* eth[!:] ens\\*\n"
		"match-pci = 0000:[89]?:00.*\n"
		"match-mac = 52:54:00:[[:xdigit:]]*\n"
		"match-driver = \tmlx5_core\t ice  *-dwmac\n";
	struct conf c;
	char err[256];

	ASSERT_EQ(0, parse(text, &c, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_STREQ("enp129s0f0np0v1* eth[!:] ens\\*", c.rules[0].match[RULE_MATCH_NAME]);
	EXPECT_STREQ("mlx5_core ice *-dwmac", c.rules[0].match[RULE_MATCH_DRIVER]);
	conf_free(&c);
}

/* Write @text to @dir/@name. */
static void put(struct __test_metadata *_metadata, const char *dir, const char *name,
		const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f) TH_LOG("%s", path);
	fputs(text, f);
	fclose(f);
}

/*
 * The *.conf files of PATH.d: their rules before the main file's, in name
 * order, so a host's drop-in overrides the fleet's file; other names are
 * not read; a bad line names the drop-in; a rule name is unique across all
 * files.
 */
TEST(dropins)
{
	char dir[] = "/tmp/nictl-conf-XXXXXX", path[128], dropins[160], err[512];
	struct conf c;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/nictl.conf", dir);
	snprintf(dropins, sizeof(dropins), "%s.d", path);
	put(_metadata, dir, "nictl.conf", "[daemon]\nirq-wait = 5\n[rule fleet]\n"
	    "match-driver = ice\ncpus = numa-local\n");
	/* Without the directory: the main file alone. */
	ASSERT_EQ(0, conf_load(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(1U, c.nr_rules);
	conf_free(&c);

	ASSERT_EQ(0, mkdir(dropins, 0755));
	put(_metadata, dropins, "20-web.conf", "[rule web]\nmatch-name = eth1\ncpus = 2-3\n");
	put(_metadata, dropins, "10-host.conf", "# this host's own\n[rule host]\n"
	    "match-driver = ice\ncpus = node 0\n");
	put(_metadata, dropins, "30-old.conf.bak", "[rule old]\nmatch-name = x\n");
	put(_metadata, dropins, ".hidden.conf", "[rule hidden]\nmatch-name = x\n");
	ASSERT_EQ(0, conf_load(path, &c, err, sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(3U, c.nr_rules);
	EXPECT_STREQ("host", c.rules[0].name);
	EXPECT_EQ(2U, c.rules[0].line);
	EXPECT_EQ(0, strcmp(c.rules[0].file + strlen(c.rules[0].file) - 12, "10-host.conf"));
	EXPECT_STREQ("web", c.rules[1].name);
	EXPECT_STREQ("fleet", c.rules[2].name);
	EXPECT_STREQ(path, c.rules[2].file);
	EXPECT_EQ(5000U, c.irq_wait_ms);
	conf_free(&c);

	put(_metadata, dropins, "40-bad.conf", "[rule bad]\nmatch-name = x\ncpus = four\n");
	EXPECT_EQ(-1, conf_load(path, &c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "nictl.conf.d/40-bad.conf:3: cpus: 'four' is none of"))
		TH_LOG("%s", err);
	EXPECT_EQ(0U, c.nr_rules);
	put(_metadata, dropins, "40-bad.conf", "[rule fleet]\nmatch-name = x\n");
	EXPECT_EQ(-1, conf_load(path, &c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "/nictl.conf:3: a rule named 'fleet' already starts at "))
		TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "/nictl.conf.d/40-bad.conf:1")) TH_LOG("%s", err);
	/* A setting before any header of its own file is an error there too. */
	put(_metadata, dropins, "40-bad.conf", "cpus = 1\n");
	EXPECT_EQ(-1, conf_load(path, &c, err, sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "40-bad.conf:1: 'cpus' comes before any")) TH_LOG("%s", err);

	snprintf(err, sizeof(err), "rm -rf %s", dir);
	EXPECT_EQ(0, system(err));
}

TEST(missing_file)
{
	struct conf c;
	char err[512];

	EXPECT_EQ(-1, conf_load("/nonexistent/nictl.conf", &c, err, sizeof(err)));
	EXPECT_STREQ("/nonexistent/nictl.conf: cannot open: No such file or directory", err);
}

/* The example shipped in the repository is valid. */
TEST(shipped_example)
{
	struct conf c;
	char err[512];

	ASSERT_EQ(0, conf_load(NICTL_REPO "/etc/nictl.conf.example", &c, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_LT(0U, c.nr_rules);
	conf_free(&c);
}

TEST_HARNESS_MAIN
