// SPDX-License-Identifier: GPL-2.0
/*
 * The banned CPUs the daemon keeps queue IRQs off: irqbalance's environment
 * file in both of its formats, and /proc/irq/default_smp_affinity, read
 * from a fake procfs ($NICTL_PROCFS) and sysfs (8 CPUs online).
 */
#include "ctl_fakesys.h"

#include <poll.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "ctl_cpulist.h"

#include "daemon/banned.h"

/* Parse @text as an environment file into @env: 0, or -1 with @err set. */
static int parse(const char *text, struct banned_env *env, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	if (!f)
		return -2;
	ret = banned_parse_env(f, env, err, errlen);
	fclose(f);
	return ret;
}

TEST(env_both_formats)
{
	static const char text[] =
		"# irqbalance's file, as Debian ships it, edited by a runtime\n"
		"#IRQBALANCE_BANNED_CPULIST=0-7\n"
		"IRQBALANCE_ONESHOT=\n"
		"IRQBALANCE_BANNED_CPULIST=\"2-3\"\n"
		"  export IRQBALANCE_BANNED_CPUS='00000000,00000050'\n"
		"IRQBALANCE_ARGS=\"--policyscript=/x\"\n";
	struct banned_env env;
	char err[256] = "";

	ASSERT_EQ(0, parse(text, &env, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_STREQ("2-3", cpulist_of(&env.list));
	EXPECT_STREQ("4,6", cpulist_of(&env.mask));
	EXPECT_STREQ("2-3", env.list_text);
	EXPECT_STREQ("00000000,00000050", env.mask_text);
	banned_env_free(&env);
}

TEST(env_last_assignment_wins_and_empty_bans_nothing)
{
	static const char text[] =
		"IRQBALANCE_BANNED_CPULIST=1\n"
		"IRQBALANCE_BANNED_CPULIST=5-6 # the pods' CPUs\n"
		"IRQBALANCE_BANNED_CPUS=f\n"
		"IRQBALANCE_BANNED_CPUS=\n";
	struct banned_env env;
	char err[256] = "";

	ASSERT_EQ(0, parse(text, &env, err, sizeof(err))) TH_LOG("%s", err);
	EXPECT_STREQ("5-6", cpulist_of(&env.list));
	EXPECT_TRUE(cpuset_empty(&env.mask));
	EXPECT_EQ(NULL, env.mask_text);
	banned_env_free(&env);
}

TEST(env_bad_values_name_their_line)
{
	struct banned_env env;
	char err[256] = "";

	ASSERT_EQ(-1, parse("\nIRQBALANCE_BANNED_CPULIST=2-x\n", &env, err, sizeof(err)));
	EXPECT_STREQ("line 2: IRQBALANCE_BANNED_CPULIST='2-x' is not a CPU list", err);
	ASSERT_EQ(-1, parse("IRQBALANCE_BANNED_CPUS=0xzz\n", &env, err, sizeof(err)));
	EXPECT_STREQ("line 1: IRQBALANCE_BANNED_CPUS='0xzz' is not a hex CPU mask", err);
}

FIXTURE(banned) {
	struct fakesys fs;	/* sysfs and procfs under one root */
	char env_path[128];
	struct banned b;
};

FIXTURE_SETUP(banned)
{
	fakesys_create(&self->fs);
	ASSERT_EQ(0, setenv("NICTL_PROCFS", self->fs.root, 1));
	fakesys_write(&self->fs, "0-7\n", "devices/system/cpu/online");
	fakesys_write(&self->fs, "ff\n", "irq/default_smp_affinity");
	snprintf(self->env_path, sizeof(self->env_path), "%s/etc/irqbalance", self->fs.root);
	fakesys_write(&self->fs, "# nothing banned\n", "etc/irqbalance");
	banned_init(&self->b);
	ASSERT_EQ(0, banned_start(&self->b, self->env_path, true));
}

FIXTURE_TEARDOWN(banned)
{
	banned_free(&self->b);
	fakesys_destroy(&self->fs);
}

/* What the daemon does each time: refresh; "-" when it failed. */
static const char *refresh(struct banned *b, bool *news)
{
	return banned_refresh(b, 0, news) ? "-" : cpulist_of(&b->cpus);
}

TEST_F(banned, sources_add_up_and_changes_are_news_once)
{
	bool news;

	EXPECT_STREQ("", refresh(&self->b, &news));
	EXPECT_FALSE(news);
	fakesys_write(&self->fs, "IRQBALANCE_BANNED_CPULIST=4\n", "etc/irqbalance");
	EXPECT_STREQ("4", refresh(&self->b, &news));
	EXPECT_TRUE(news);
	EXPECT_NE(NULL, strstr(self->b.why, "IRQBALANCE_BANNED_CPULIST=4 in /tmp/"))
		TH_LOG("%s", self->b.why);
	EXPECT_NE(NULL, strstr(self->b.why, "/etc/irqbalance (4)")) TH_LOG("%s", self->b.why);
	EXPECT_STREQ("4", refresh(&self->b, &news));
	EXPECT_FALSE(news);	/* the same CPUs: nothing to log */
	fakesys_write(&self->fs, "IRQBALANCE_BANNED_CPUS=40\n", "etc/irqbalance");
	fakesys_write(&self->fs, "7f\n", "irq/default_smp_affinity");
	EXPECT_STREQ("6-7", refresh(&self->b, &news));
	EXPECT_TRUE(news);
	EXPECT_NE(NULL, strstr(self->b.why, "IRQBALANCE_BANNED_CPUS=40 in ")) TH_LOG("%s", self->b.why);
	EXPECT_NE(NULL, strstr(self->b.why, "irq/default_smp_affinity=7f (7)")) TH_LOG("%s", self->b.why);
}

TEST_F(banned, a_removed_file_bans_nothing)
{
	bool news;

	fakesys_write(&self->fs, "IRQBALANCE_BANNED_CPULIST=2-3\n", "etc/irqbalance");
	EXPECT_STREQ("2-3", refresh(&self->b, &news));
	ASSERT_EQ(0, unlink(self->env_path));
	EXPECT_STREQ("", refresh(&self->b, &news));
	EXPECT_TRUE(news);
}

/* A broken file keeps what was banned, and is news once, not every second. */
TEST_F(banned, a_broken_file_keeps_the_ban)
{
	bool news;

	fakesys_write(&self->fs, "IRQBALANCE_BANNED_CPULIST=2-3\n", "etc/irqbalance");
	EXPECT_STREQ("2-3", refresh(&self->b, &news));
	fakesys_write(&self->fs, "IRQBALANCE_BANNED_CPULIST=2-\n", "etc/irqbalance");
	EXPECT_STREQ("-", refresh(&self->b, &news));
	EXPECT_TRUE(news);
	ASSERT_NE(NULL, self->b.error);
	EXPECT_NE(NULL, strstr(self->b.error, "line 1: IRQBALANCE_BANNED_CPULIST='2-' is not a CPU list"))
		TH_LOG("%s", self->b.error);
	EXPECT_STREQ("-", refresh(&self->b, &news));
	EXPECT_FALSE(news);
	EXPECT_STREQ("2-3", cpulist_of(&self->b.cpus));
	fakesys_write(&self->fs, "zz\n", "irq/default_smp_affinity");
	fakesys_write(&self->fs, "\n", "etc/irqbalance");
	EXPECT_STREQ("-", refresh(&self->b, &news));
	EXPECT_TRUE(news);
	EXPECT_NE(NULL, strstr(self->b.error, "default_smp_affinity: not a hex CPU mask"))
		TH_LOG("%s", self->b.error);
}

/* inotify sees a file replaced by a rename, as the runtimes write it. */
TEST_F(banned, inotify_sees_a_rename)
{
	char tmp[160];
	struct pollfd pfd;
	bool news;

	ASSERT_LE(0, self->b.inotify_fd);
	EXPECT_STREQ("", refresh(&self->b, &news));
	banned_drain(&self->b);
	snprintf(tmp, sizeof(tmp), "%s.new", self->env_path);
	fakesys_write(&self->fs, "IRQBALANCE_BANNED_CPUS=c\n", "etc/irqbalance.new");
	ASSERT_EQ(0, rename(tmp, self->env_path));
	pfd = (struct pollfd){ .fd = self->b.inotify_fd, .events = POLLIN };
	ASSERT_EQ(1, poll(&pfd, 1, 5000));
	banned_drain(&self->b);
	EXPECT_STREQ("2-3", refresh(&self->b, &news));
	EXPECT_TRUE(news);
	pfd.revents = 0;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
}

/* Without a file name, Debian's and Red Hat's files are both read. */
TEST(default_paths)
{
	struct banned b;

	banned_init(&b);
	ASSERT_EQ(0, banned_start(&b, NULL, false));
	EXPECT_STREQ("/etc/default/irqbalance", b.paths[0]);
	EXPECT_STREQ("/etc/sysconfig/irqbalance", b.paths[1]);
	EXPECT_EQ(-1, b.inotify_fd);
	banned_free(&b);
}

TEST_HARNESS_MAIN
