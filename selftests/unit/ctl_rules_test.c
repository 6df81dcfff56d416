// SPDX-License-Identifier: GPL-2.0
/* Matching devices to the rules of a configuration. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "conf/conf.h"
#include "conf/rules.h"
#include "util.h"

static const char rules_text[] =
	"[rule by-mac]\n"
	"match-mac = 52:54:00:AB:*\n"
	"[rule by-pci]\n"
	"match-pci = 0000:80:*\n"
	"match-driver = virtio_net\n"
	"[rule by-name]\n"
	"match-name = eth[0-3]\n"
	"[rule by-driver]\n"
	"match-driver = e1000e\n"
	"[rule by-list]\n"
	"match-driver =  mlx5_core ice\ti40e  ixgbe\n"
	"match-name = ens* eth9\n"
	"[rule pod-vfs]\n"
	"match-netns = pod-*\n"
	"match-driver = igbvf\n"
	"[rule any-pod]\n"
	"match-netns = *\n";

FIXTURE(rules) {
	struct conf conf;
};

FIXTURE_SETUP(rules)
{
	FILE *f = fmemopen((void *)rules_text, strlen(rules_text), "r");
	char err[256];

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, conf_parse(f, "t.conf", &self->conf, err, sizeof(err))) TH_LOG("%s", err);
	fclose(f);
}

FIXTURE_TEARDOWN(rules)
{
	conf_free(&self->conf);
}

/* The name of the rule that governs a device, "-" for none. */
static const char *which(const struct conf *conf, const char *name, const char *pci,
			 const char *mac, const char *driver)
{
	struct dev_facts f = { .value = {
		[RULE_MATCH_NAME] = name, [RULE_MATCH_PCI] = pci,
		[RULE_MATCH_MAC] = mac, [RULE_MATCH_DRIVER] = driver,
	} };
	const struct rule *r = rules_find(conf, &f);

	return r ? r->name : "-";
}

TEST_F(rules, each_key_matches)
{
	const struct conf *c = &self->conf;

	EXPECT_STREQ("by-mac", which(c, "x", NULL, "52:54:00:ab:00:01", NULL));
	/* MAC and PCI hex digits match in either case. */
	EXPECT_STREQ("by-mac", which(c, "x", NULL, "52:54:00:AB:00:01", NULL));
	EXPECT_STREQ("by-pci", which(c, "x", "0000:80:00.0", "52:54:00:12:00:01", "virtio_net"));
	EXPECT_STREQ("by-name", which(c, "eth2", "0000:00:03.0", NULL, "virtio_net"));
	EXPECT_STREQ("by-driver", which(c, "e1k", "0000:00:05.0", "52:54:00:00:00:02", "e1000e"));
}

TEST_F(rules, every_key_of_a_rule_must_match)
{
	const struct conf *c = &self->conf;

	/* by-pci also needs the driver. */
	EXPECT_STREQ("-", which(c, "x", "0000:80:00.0", NULL, "e1000"));
	/* A device without a PCI address never matches a match-pci rule. */
	EXPECT_STREQ("-", which(c, "x", NULL, NULL, "virtio_net"));
	/* Globs match the whole value. */
	EXPECT_STREQ("-", which(c, "eth4", NULL, NULL, NULL));
	EXPECT_STREQ("-", which(c, "eth0x", NULL, NULL, NULL));
	/* Names are case-sensitive, as the kernel's are. */
	EXPECT_STREQ("-", which(c, "ETH1", NULL, NULL, NULL));
	EXPECT_STREQ("-", which(c, "x", NULL, NULL, "e1000e-x"));
}

/* A key with several globs matches when any of them does. */
TEST_F(rules, any_glob_of_a_list_matches)
{
	const struct conf *c = &self->conf;

	EXPECT_STREQ("mlx5_core ice i40e ixgbe", c->rules[4].match[RULE_MATCH_DRIVER]);
	EXPECT_STREQ("by-list", which(c, "ens1f0", NULL, NULL, "mlx5_core"));
	EXPECT_STREQ("by-list", which(c, "ens1f0", NULL, NULL, "ice"));
	EXPECT_STREQ("by-list", which(c, "eth9", NULL, NULL, "i40e"));
	EXPECT_STREQ("by-list", which(c, "ens2", NULL, NULL, "ixgbe"));
	/* Each glob matches a whole value, never the list as one string. */
	EXPECT_STREQ("-", which(c, "ens2", NULL, NULL, "ic"));
	EXPECT_STREQ("-", which(c, "ens2", NULL, NULL, "mlx5_core ice"));
	EXPECT_STREQ("-", which(c, "eth8", NULL, NULL, "ice"));
	/* Every key still has to match. */
	EXPECT_STREQ("-", which(c, "ens2", NULL, NULL, "igb"));
}

TEST_F(rules, first_match_wins)
{
	/* by-mac and by-driver both match: by-mac comes first in the file. */
	EXPECT_STREQ("by-mac", which(&self->conf, "eth1", NULL, "52:54:00:ab:cd:ef", "e1000e"));
	EXPECT_STREQ("by-name", which(&self->conf, "eth1", NULL, "52:54:00:00:cd:ef", "e1000e"));
}

/* The rule of a device in namespace @netns (NULL: unnamed), "-" for none. */
static const char *which_in(const struct conf *conf, const char *netns, const char *name,
			    const char *driver)
{
	struct dev_facts f = { .value = {
		[RULE_MATCH_NAME] = name, [RULE_MATCH_DRIVER] = driver,
		[RULE_MATCH_NETNS] = netns,
	}, .other_netns = true };
	const struct rule *r = rules_find(conf, &f);

	return r ? r->name : "-";
}

TEST_F(rules, other_namespaces_need_match_netns)
{
	const struct conf *c = &self->conf;

	/* by-name and by-driver are the initial namespace's. */
	EXPECT_STREQ("pod-vfs", which_in(c, "pod-1", "eth0", "igbvf"));
	EXPECT_STREQ("any-pod", which_in(c, "pod-1", "eth0", "e1000e"));
	EXPECT_STREQ("any-pod", which_in(c, "web", "vf0", "igbvf"));
	/* A namespace without a name under /run/netns matches none. */
	EXPECT_STREQ("-", which_in(c, NULL, "eth0", "igbvf"));
	/* A match-netns rule never matches the initial namespace. */
	EXPECT_STREQ("-", which(c, "vf0", NULL, NULL, "igbvf"));
	EXPECT_TRUE(rules_want_netns(c, "pod-7"));
	EXPECT_TRUE(rules_want_netns(c, "web"));
}

/*
 * A value of @glob's: '*' matches nothing, '?' and a bracket their first
 * character ('0' for '?', a hex digit in every key). Enough for the globs
 * the shipped files use.
 */
static void instance(const char *glob, char *out, size_t len)
{
	size_t n = 0;

	for (; *glob && n + 1 < len; glob++) {
		if (*glob == '*')
			continue;
		if (*glob == '?') {
			out[n++] = '0';
		} else if (*glob == '[') {
			out[n++] = glob[1];
			glob = strchr(glob, ']');
		} else {
			out[n++] = *glob;
		}
	}
	out[n] = '\0';
}

/*
 * Every glob of every rule in @conf governs a device with a value of it:
 * the rule that rules_find() picks for it is that rule. The other keys of
 * the device take a value of their first glob.
 */
static void each_glob_governs(struct __test_metadata *_metadata, const struct conf *conf,
			      const char *path)
{
	char values[NR_RULE_MATCH][64], one[64], globs[256], *glob, *save;
	const struct rule *r, *found;
	struct dev_facts f;
	unsigned int i, k, key;

	for (i = 0; i < conf->nr_rules; i++) {
		r = &conf->rules[i];
		memset(&f, 0, sizeof(f));
		f.other_netns = r->match[RULE_MATCH_NETNS];
		for (k = 0; k < NR_RULE_MATCH; k++) {
			if (!r->match[k])
				continue;
			snprintf(globs, sizeof(globs), "%s", r->match[k]);
			instance(strtok_r(globs, " ", &save), values[k], sizeof(values[k]));
			f.value[k] = values[k];
		}
		for (key = 0; key < NR_RULE_MATCH; key++) {
			if (!r->match[key])
				continue;
			snprintf(globs, sizeof(globs), "%s", r->match[key]);
			for (glob = strtok_r(globs, " ", &save); glob;
			     glob = strtok_r(NULL, " ", &save)) {
				instance(glob, one, sizeof(one));
				f.value[key] = one;
				found = rules_find(conf, &f);
				EXPECT_EQ(r, found)
					TH_LOG("%s: a device with '%s' from rule %s is governed by %s",
					       path, one, r->name, found ? found->name : "no rule");
			}
			f.value[key] = values[key];
		}
	}
}

static void load_and_check(struct __test_metadata *_metadata, FILE *f, const char *path,
			   unsigned int nr_rules)
{
	struct conf c;
	char err[512];

	ASSERT_NE(NULL, f) TH_LOG("%s", path);
	ASSERT_EQ(0, conf_parse(f, path, &c, err, sizeof(err))) TH_LOG("%s", err);
	fclose(f);
	EXPECT_EQ(nr_rules, c.nr_rules) TH_LOG("%s", path);
	each_glob_governs(_metadata, &c, path);
	conf_free(&c);
}

/* The nictl.conf of the ConfigMap: the block under "nictl.conf: |", unindented. */
static FILE *configmap_conf(const char *path)
{
	FILE *yaml = fopen(path, "r"), *conf = tmpfile();
	char line[512];
	bool in = false;

	if (!yaml || !conf)
		return NULL;
	while (fgets(line, sizeof(line), yaml)) {
		if (strstr(line, "nictl.conf: |"))
			in = true;
		else if (in && line[0] != '\n' && strncmp(line, "    ", 4))
			in = false;
		else if (in)
			fputs(line[0] == '\n' ? line : line + 4, conf);
	}
	fclose(yaml);
	rewind(conf);
	return conf;
}

/*
 * What the shipped configurations say is what they do: each driver, PCI
 * address, name or MAC their rules list governs a device that has it.
 */
TEST(shipped_configurations_govern_what_they_name)
{
	load_and_check(_metadata, fopen(NICTL_REPO "/deploy/systemd/nictl.conf", "r"),
		       "deploy/systemd/nictl.conf", 2);
	load_and_check(_metadata, fopen(NICTL_REPO "/etc/nictl.conf.example", "r"),
		       "etc/nictl.conf.example", 5);
	load_and_check(_metadata, configmap_conf(NICTL_REPO "/deploy/kubernetes/configmap.yaml"),
		       "deploy/kubernetes/configmap.yaml", 1);
}

TEST_HARNESS_MAIN
