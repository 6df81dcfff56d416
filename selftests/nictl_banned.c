// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl daemon keeps queue IRQs off the CPUs reserved for
 * latency-critical work, as a container runtime announces them to
 * irqbalance: its banned list in irqbalance's environment file (a cpulist,
 * IRQBALANCE_BANNED_CPULIST, or a hex mask, IRQBALANCE_BANNED_CPUS) and
 * /proc/irq/default_smp_affinity. With the daemon keeping vnode1 on node 1
 * (CPUs 4-7, a core per queue: CPUs 4 and 6), each source in turn bans the
 * CPUs its queues are on while it runs: they must move to the CPUs left, as
 * /proc/irq shows, and the log must say which CPUs and why; when the ban is
 * lifted they must come back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "main.h"
#include "nictl.h"
#include "sys.h"
#include "verify.h"

#define CONF		"/tmp/nictl-banned.conf"
#define DAEMON_LOG	"/tmp/nictl-banned.log"
#define ENV_DIR		"/tmp/nictl-banned"
#define ENV_FILE	ENV_DIR "/irqbalance"
#define DEFAULT_AFFINITY "/proc/irq/default_smp_affinity"
/* Where irqbalance's Debian package keeps the file, and the daemon looks by default. */
#define DEBIAN_DIR	"/etc/default"

static const char rule[] =
	"[rule node1-nic]\n"
	"match-mac = %s\n"
	"cpus = numa-local\n";

FIXTURE(banned) {
	struct test_env env;
	char affinity[64];	/* default_smp_affinity as the guest had it */
	bool mounted;		/* a tmpfs over DEBIAN_DIR */
	pid_t pid;
	struct cpus start;	/* vnode1's CPUs before any ban */
	struct cpus ban;	/* the CPUs the tests ban: those */
	struct governed vnode1;
};

/* Write @conf's [daemon] section, then the rule for vnode1; start the daemon. */
static int start(FIXTURE_DATA(banned) *self, const char *daemon_keys)
{
	char text[512];

	snprintf(text, sizeof(text), "[daemon]\n%s\n%s", daemon_keys, rule);
	if (write_conf_mac(CONF, "vnode1", text))
		return -1;
	self->pid = daemon_start(CONF, DAEMON_LOG);
	return self->pid > 0 ? 0 : -1;
}

/* vnode1's target CPUs once it is placed as its rule, without @banned, says. */
static bool placed(FIXTURE_DATA(banned) *self, const struct cpus *banned, struct cpus *on)
{
	struct nictl_dev dev;

	self->vnode1.banned = banned;
	if (!back_in_policy(&self->env.nl, &self->vnode1) ||
	    !in_policy(&self->env.nl, &self->vnode1, &dev))
		return false;
	target_cpus(&dev, on);
	return true;
}

/*
 * Wait for nictl to place vnode1 on @want again; then check it as placed()
 * does. A lifted ban leaves vnode1 in policy before the daemon moves it
 * back, so being in policy alone says nothing yet.
 */
static bool placed_on(FIXTURE_DATA(banned) *self, const struct cpus *want, struct cpus *on)
{
	struct nictl_dev dev;
	struct nl_result res;
	unsigned int i;

	for (i = 0; i < DAEMON_WAIT_S * 5; i++) {
		if (!nictl_dev_get(&self->env.nl, self->vnode1.ifname, &dev, &res)) {
			target_cpus(&dev, on);
			if (cpus_equal(on, want))
				return placed(self, NULL, on);
		}
		usleep(200 * 1000);
	}
	return false;
}

/* Write an environment file as the runtimes do: a new file renamed over the old. */
static int replace_file(const char *path, const char *text)
{
	char tmp[128];

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	if (write_file(tmp, text))
		return -1;
	return rename(tmp, path) ? -errno : 0;
}

/* Wait for a line with @what in the daemon's log. */
static bool logged(const char *what)
{
	return daemon_log_wait(DAEMON_LOG, what, DAEMON_WAIT_S);
}

/* The CPUs of @s as a cpulist, into @buf. */
static const char *list(const struct cpus *s, char *buf, size_t len)
{
	cpus_format(s, buf, len);
	return buf;
}

/*
 * Ban, with @apply, the CPUs vnode1 started on; they must leave them for
 * the others of node 1, and the log must name the ban as @why says it;
 * @lift lifts it, and they must come back.
 */
static void ban_and_lift(struct __test_metadata *_metadata, FIXTURE_DATA(banned) *self,
			 int (*apply)(const char *value), const char *value, const char *why,
			 int (*lift)(void))
{
	struct cpus on, left;
	char want[512], a[64], b[64];

	ASSERT_EQ(0, apply(value));
	snprintf(want, sizeof(want), "banned CPUs %s, kept free of queue IRQs: %s",
		 list(&self->ban, a, sizeof(a)), why);
	EXPECT_TRUE(logged(want));
	ASSERT_TRUE(placed(self, &self->ban, &on));
	governed_cpus(&self->vnode1, &left);
	EXPECT_TRUE(cpus_subset(&on, &left) && !cpus_intersects(&on, &self->ban))
		TH_LOG("vnode1 on %s with %s banned", list(&on, a, sizeof(a)),
		       list(&self->ban, b, sizeof(b)));
	ASSERT_EQ(0, lift());
	EXPECT_TRUE(logged("no CPU is banned any more; applying every rule again"));
	EXPECT_TRUE(placed_on(self, &self->start, &on))
		TH_LOG("vnode1 on %s after the ban was lifted, was on %s before it",
		       list(&on, a, sizeof(a)), list(&self->start, b, sizeof(b)));
}

static int write_list(const char *cpus)
{
	char text[128];

	snprintf(text, sizeof(text), "# written by nictl_banned\nIRQBALANCE_BANNED_CPULIST=%s\n",
		 cpus);
	return replace_file(ENV_FILE, text);
}

static int write_mask(const char *mask)
{
	char text[128];

	/* Written in place this time: inotify reports the close of a write. */
	snprintf(text, sizeof(text), "IRQBALANCE_BANNED_CPUS=\"%s\"\n", mask);
	return write_file(ENV_FILE, text);
}

static int remove_file(void)
{
	return unlink(ENV_FILE) ? -errno : 0;
}

static int write_debian(const char *cpus)
{
	char text[128];

	snprintf(text, sizeof(text), "IRQBALANCE_BANNED_CPULIST=%s\n", cpus);
	return replace_file(DEBIAN_DIR "/irqbalance", text);
}

static int empty_debian(void)
{
	return replace_file(DEBIAN_DIR "/irqbalance", "#IRQBALANCE_BANNED_CPULIST=\n");
}

static int write_affinity(const char *mask)
{
	return write_str(DEFAULT_AFFINITY, mask);
}

static int all_affinity(void)
{
	return write_str(DEFAULT_AFFINITY, "ff");
}

/* The mask of every CPU but those of @s, as default_smp_affinity takes it. */
static void mask_without(const struct cpus *s, char *buf, size_t len)
{
	unsigned int cpu, bits = 0;

	for (cpu = 0; cpu < 8; cpu++)
		if (!cpus_test(s, cpu))
			bits |= 1U << cpu;
	snprintf(buf, len, "%x", bits);
}

FIXTURE_SETUP(banned)
{
	ASSERT_EQ(0, env_setup(&self->env));
	self->vnode1 = (struct governed){ "vnode1", 1, 4, true, false, NULL };
	self->pid = 0;
	self->mounted = false;
	ASSERT_EQ(0, read_str(DEFAULT_AFFINITY, self->affinity, sizeof(self->affinity)));
	ASSERT_EQ(0, all_affinity());
	ASSERT_TRUE(mkdir(ENV_DIR, 0755) == 0 || errno == EEXIST);
	unlink(ENV_FILE);
	unlink(DAEMON_LOG);
}

FIXTURE_TEARDOWN(banned)
{
	if (self->pid)
		EXPECT_EQ(0, daemon_stop(self->pid));
	daemon_dump_log(DAEMON_LOG, NULL);
	EXPECT_EQ(0, write_affinity(self->affinity));
	unlink(ENV_FILE);
	if (self->mounted)
		EXPECT_EQ(0, umount(DEBIAN_DIR));
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Start the daemon with @keys in [daemon]; note where vnode1 goes: the CPUs to ban. */
#define START(self, keys) do { \
	ASSERT_EQ(0, start(self, keys)); \
	ASSERT_TRUE(placed(self, NULL, &(self)->start)); \
	(self)->ban = (self)->start; \
	ASSERT_EQ(2U, cpus_count(&(self)->ban)); \
} while (0)

TEST_F_TIMEOUT(banned, cpulist, 600)
{
	char cpus[64], why[256];

	START(self, "banned-cpus-file = " ENV_FILE);
	list(&self->ban, cpus, sizeof(cpus));
	snprintf(why, sizeof(why), "IRQBALANCE_BANNED_CPULIST=%s in " ENV_FILE " (%s)", cpus, cpus);
	ban_and_lift(_metadata, self, write_list, cpus, why, remove_file);
}

TEST_F_TIMEOUT(banned, mask, 600)
{
	char mask[32], cpus[64], why[256];
	unsigned int cpu, bits = 0;

	START(self, "banned-cpus-file = " ENV_FILE);
	for (cpu = 0; cpu < 8; cpu++)
		if (cpus_test(&self->ban, cpu))
			bits |= 1U << cpu;
	snprintf(mask, sizeof(mask), "00000000,%08x", bits);
	list(&self->ban, cpus, sizeof(cpus));
	snprintf(why, sizeof(why), "IRQBALANCE_BANNED_CPUS=%s in " ENV_FILE " (%s)", mask, cpus);
	ban_and_lift(_metadata, self, write_mask, mask, why, remove_file);
}

TEST_F_TIMEOUT(banned, default_smp_affinity, 600)
{
	char mask[32], shown[64], cpus[64], why[256];

	START(self, "banned-cpus-file = " ENV_FILE);
	mask_without(&self->ban, mask, sizeof(mask));
	list(&self->ban, cpus, sizeof(cpus));
	/* The log quotes the file as the kernel prints it, in nr_cpu_ids bits. */
	ASSERT_EQ(0, write_affinity(mask));
	ASSERT_EQ(0, read_str(DEFAULT_AFFINITY, shown, sizeof(shown)));
	snprintf(why, sizeof(why), "not in " DEFAULT_AFFINITY "=%s (%s)", shown, cpus);
	ban_and_lift(_metadata, self, write_affinity, mask, why, all_affinity);
}

/* Without banned-cpus-file the daemon reads irqbalance's own file. */
TEST_F_TIMEOUT(banned, debian_file, 600)
{
	char cpus[64], why[256];

	/* The guest's /etc is the host's, read-only: a tmpfs of its own. */
	ASSERT_EQ(0, mount("tmpfs", DEBIAN_DIR, "tmpfs", 0, "mode=755"));
	self->mounted = true;
	START(self, "");
	list(&self->ban, cpus, sizeof(cpus));
	snprintf(why, sizeof(why), "IRQBALANCE_BANNED_CPULIST=%s in " DEBIAN_DIR "/irqbalance (%s)",
		 cpus, cpus);
	ban_and_lift(_metadata, self, write_debian, cpus, why, empty_debian);
}

/* Every CPU of the rule banned: no bind on them, and the log says why. */
TEST_F_TIMEOUT(banned, all_banned_is_an_error, 600)
{
	struct cpus on;
	char a[64];

	START(self, "banned-cpus-file = " ENV_FILE);
	ASSERT_EQ(0, write_list("4-7"));
	EXPECT_TRUE(logged("every CPU it may use (4-7) is banned"));
	/* Nothing was bound instead: the IRQs stay where they were. */
	ASSERT_TRUE(placed(self, NULL, &on));
	EXPECT_TRUE(cpus_equal(&on, &self->start)) TH_LOG("vnode1 on %s", list(&on, a, sizeof(a)));
	ASSERT_EQ(0, remove_file());
	EXPECT_TRUE(logged("no CPU is banned any more"));
}

/* banned-cpus = ignore: the file is not read, nothing moves. */
TEST_F_TIMEOUT(banned, ignore, 600)
{
	struct cpus on;
	char cpus[64];

	START(self, "banned-cpus = ignore\nbanned-cpus-file = " ENV_FILE);
	ASSERT_EQ(0, write_list(list(&self->ban, cpus, sizeof(cpus))));
	/* A daemon that read it would have said so within a second or two. */
	sleep(5);
	EXPECT_FALSE(daemon_log_has(DAEMON_LOG, "banned CPUs"));
	ASSERT_TRUE(placed(self, NULL, &on));
	EXPECT_TRUE(cpus_equal(&on, &self->start));
}

NICTL_TEST_MAIN
