// SPDX-License-Identifier: GPL-2.0
/* Matching devices to the rules of a configuration. */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"

#include "daemon/conf.h"
#include "daemon/rules.h"
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

TEST_HARNESS_MAIN
