// SPDX-License-Identifier: GPL-2.0
/*
 * Devices in other network namespaces (issue 20): vnode0 moved into a
 * namespace made by `ip netns add` is shown, bound, restored and measured
 * from the initial namespace, named by the namespace's fd (nictlctl -n,
 * --netns) or id; replies and events carry the id; a namespace that is
 * gone, a name that exists in both namespaces and requesters without
 * CAP_NET_ADMIN in the initial user namespace get one clear answer each
 * and change nothing. Teardown brings vnode0 back, named and up as before.
 */
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "cpus.h"
#include "daemon.h"
#include "env.h"
#include "events.h"
#include "main.h"
#include "netdev.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

#define NETNS		"nictl-ns"
#define NETNS_PATH	"/run/netns/" NETNS
#define NOW_MS		5000
/* What a command run inside the namespace hears (nl.c). */
#define NETNS_MSG	"reachable from the initial network namespace only"
#define CONF		"/tmp/nictl-netns.conf"
#define DAEMON_LOG	"/tmp/nictl-netns-daemon.log"

FIXTURE(netns) {
	struct test_env env;
	struct run_result run;
	struct run_result jq;
	struct nictl_dev reply;
	struct nl_result res;
	char buf[NL_REQ_SIZE];
	uint32_t ifindex;	/* vnode0's */
	uint32_t ifindex1;	/* vnode1's */
	int fd;			/* of the namespace */
	struct cpus node0;
	pid_t daemon;		/* 0 when not running */
};

/* Move vnode0 (by @name) into the namespace and up there, or back (@in false). */
static int move_vnode0(bool in)
{
	if (in)
		return SH("ip", "link", "set", "vnode0", "netns", NETNS) ?:
		       SH("ip", "-n", NETNS, "link", "set", "vnode0", "up");
	return SH("ip", "-n", NETNS, "link", "set", "vnode0", "netns", "1");
}

FIXTURE_SETUP(netns)
{
	struct netdev_info info;

	self->fd = -1;
	self->daemon = 0;
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, netdev_info("vnode0", &info));
	self->ifindex = info.ifindex;
	ASSERT_EQ(0, netdev_info("vnode1", &info));
	self->ifindex1 = info.ifindex;
	ASSERT_EQ(0, node_cpus(0, &self->node0));
	ASSERT_EQ(0, SH("ip", "netns", "add", NETNS));
	self->fd = open(NETNS_PATH, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, move_vnode0(true));
}

/* Wait for the device @ifindex to be back in the initial namespace as @name, up. */
static int come_back(uint32_t ifindex, const char *name)
{
	char now[IF_NAMESIZE];
	int tries;

	for (tries = 0; tries < 100 && !if_indextoname(ifindex, now); tries++)
		usleep(100 * 1000);
	if (!if_indextoname(ifindex, now)) {
		fprintf(stderr, "# ifindex %u (%s) did not come back\n", ifindex, name);
		return -ENODEV;
	}
	if (strcmp(now, name) && netdev_set_up(now, false))
		return -EIO;
	if (strcmp(now, name) && netdev_rename(now, name))
		return -EIO;
	return netdev_set_up(name, true);
}

/*
 * Deleting the namespace sends vnode0 back (if a test did not) under the
 * name it had there; vnode1 may have been renamed.
 */
FIXTURE_TEARDOWN(netns)
{
	if (self->daemon) {
		EXPECT_EQ(0, daemon_stop(self->daemon));
		daemon_dump_log(DAEMON_LOG, NULL);
	}
	if (self->fd >= 0)
		close(self->fd);
	EXPECT_EQ(0, SH("ip", "netns", "del", NETNS));
	EXPECT_EQ(0, come_back(self->ifindex1, "vnode1"));
	EXPECT_EQ(0, come_back(self->ifindex, "vnode0"));
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* A request for @cmd on vnode0 in the namespace, by NETNS_FD @fd or NETNS_ID @id (>= 0). */
static struct nlmsghdr *ns_msg(FIXTURE_DATA(netns) *self, uint8_t cmd, int fd, int id)
{
	struct nlmsghdr *nlh = nictl_msg(&self->env.nl, self->buf, cmd, 0);

	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode0");
	if (fd >= 0)
		mnl_attr_put_u32(nlh, NICTL_A_NETNS_FD, fd);
	if (id >= 0)
		mnl_attr_put_u32(nlh, NICTL_A_NETNS_ID, id);
	return nlh;
}

/* DEV_GET of vnode0 in the namespace by @fd or @id into self->reply: 0 or -errno. */
static int ns_get(FIXTURE_DATA(netns) *self, int fd, int id)
{
	memset(&self->reply, 0, sizeof(self->reply));
	return nl_transact(&self->env.nl, ns_msg(self, NICTL_CMD_DEV_GET, fd, id), nictl_dev_cb,
			   &self->reply, &self->res);
}

/* The id `ip netns list-id` gives the namespace, or -1. */
static int listed_id(FIXTURE_DATA(netns) *self)
{
	const char *const argv[] = { "ip", "netns", "list-id", NULL };
	const char *p;
	int id;

	if (run_cmd(&self->run, false, NULL, argv) || self->run.status)
		return -1;
	for (p = self->run.out; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (sscanf(p, "nsid %d (iproute2 netns name: " NETNS ")", &id) == 1)
			return id;
	fprintf(stderr, "# no nsid of " NETNS " in:\n%s", self->run.out);
	return -1;
}

/* jq @filter over the last command's stdout prints exactly @want. */
static bool jq_says(FIXTURE_DATA(netns) *self, const char *filter, const char *want)
{
	if (run_jq(&self->jq, self->run.out, filter))
		return false;
	if (!strcmp(self->jq.out, want))
		return true;
	fprintf(stderr, "# jq '%s' printed '%s', expected '%s'\n", filter, self->jq.out, want);
	return false;
}

#define CTL(self, ...) \
	run_ctl(&(self)->run, false, NULL, (const char *const []){ __VA_ARGS__, NULL })

/*
 * The namespace's fd and its id find vnode0 there; the replies carry the
 * id `ip netns list-id` shows, and describe what /proc shows.
 */
TEST_F_TIMEOUT(netns, fd_and_id_find_the_device, 300)
{
	int id;

	ASSERT_EQ(0, ns_get(self, self->fd, -1)) TH_LOG("%s", self->res.msg);
	EXPECT_EQ(self->ifindex, self->reply.ifindex);
	EXPECT_STREQ("vnode0", self->reply.ifname);
	ASSERT_TRUE(self->reply.present & ATTR_BIT(NICTL_A_NETNS_ID));
	id = self->reply.netns_id;
	EXPECT_EQ(listed_id(self), id);
	EXPECT_LT(0U, self->reply.n_irqs);
	EXPECT_TRUE(dev_matches_proc(&self->reply));

	ASSERT_EQ(0, ns_get(self, -1, id)) TH_LOG("%s", self->res.msg);
	EXPECT_EQ(self->ifindex, self->reply.ifindex);
	EXPECT_EQ(id, self->reply.netns_id);

	/* vnode1 stays in the initial namespace: no id. */
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &self->reply, &self->res));
	EXPECT_FALSE(self->reply.present & ATTR_BIT(NICTL_A_NETNS_ID));
}

/* What names no namespace, or names it twice, gets one clear error. */
TEST_F_TIMEOUT(netns, bad_namespaces_are_refused, 300)
{
	struct irq_snapshot *before = malloc(sizeof(*before));
	int mnt, id;

	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, ns_get(self, self->fd, -1));
	id = self->reply.netns_id;

	EXPECT_TRUE(refused(ns_get(self, self->fd, id), &self->res, EINVAL, true, before));
	EXPECT_NE(NULL, strstr(self->res.msg, "netns-id and netns-fd")) TH_LOG("%s",
									      self->res.msg);
	EXPECT_TRUE(refused(ns_get(self, -1, 4242), &self->res, ENOENT, true, before));
	EXPECT_STREQ("no network namespace has id 4242", self->res.msg);
	EXPECT_TRUE(refused(ns_get(self, 1000, -1), &self->res, EBADF, true, before));
	EXPECT_STREQ("fd 1000 is not open", self->res.msg);
	mnt = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, mnt);
	EXPECT_TRUE(refused(ns_get(self, mnt, -1), &self->res, EINVAL, true, before));
	EXPECT_NE(NULL, strstr(self->res.msg, "is not a network namespace")) TH_LOG("%s",
										   self->res.msg);
	close(mnt);

	/* nictlctl: one line, and no bind. */
	EXPECT_EQ(1, CTL(self, "-n", "nictl-gone", "bind", "vnode0", "--numa-local"));
	EXPECT_TRUE(one_line_error(&self->run, "no network namespace named nictl-gone "
				   "(/run/netns/nictl-gone: No such file or directory)"));
	EXPECT_EQ(1, CTL(self, "--netns", "/proc/self/ns/mnt", "show", "vnode0"));
	EXPECT_TRUE(one_line_error(&self->run, "/proc/self/ns/mnt is not a network namespace"));
	EXPECT_EQ(2, CTL(self, "-n", NETNS, "monitor"));
	EXPECT_TRUE(one_line_error(&self->run, "-n and --netns apply to show, bind, restore "
				   "and stats, not to monitor"));
	EXPECT_EQ(0, irq_snapshot_changes(before));
	free(before);
}

/*
 * nictlctl -n: show names the namespace, bind --numa-local puts the IRQs on
 * node 0 as /proc shows, stats measures the device's queues, restore puts
 * every affinity back; --netns PID reaches the same device.
 */
TEST_F_TIMEOUT(netns, ctl_binds_and_restores, 300)
{
	struct irq_snapshot *before = malloc(sizeof(*before));
	char id[16], want[32];

	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, ns_get(self, self->fd, -1));
	snprintf(id, sizeof(id), "%d\n", self->reply.netns_id);

	ASSERT_EQ(0, CTL(self, "-n", NETNS, "show", "vnode0", "-j")) TH_LOG("%s", self->run.err);
	EXPECT_TRUE(jq_says(self, ".[0].ifname, .[0].netns", "vnode0\n" NETNS "\n"));
	EXPECT_TRUE(jq_says(self, ".[0].netns_id", id));
	ASSERT_EQ(0, CTL(self, "-n", NETNS, "show", "vnode0")) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "netns " NETNS " id ")) TH_LOG("%s", self->run.out);

	ASSERT_EQ(0, CTL(self, "-n", NETNS, "bind", "vnode0", "--numa-local"))
		TH_LOG("%s", self->run.err);
	ASSERT_EQ(0, ns_get(self, self->fd, -1));
	EXPECT_TRUE(masks_placed(&self->reply, &self->node0, true));
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_BOUND);

	ASSERT_EQ(0, CTL(self, "-n", NETNS, "stats", "vnode0", "-i", "200ms", "--count", "1", "-j"))
		TH_LOG("%s", self->run.err);
	snprintf(want, sizeof(want), "vnode0\n%u\n", self->ifindex);
	EXPECT_TRUE(jq_says(self, ".dev.ifname, .dev.ifindex", want));

	ASSERT_EQ(0, CTL(self, "--netns", NETNS_PATH, "restore", "vnode0"))
		TH_LOG("%s", self->run.err);
	EXPECT_EQ(0, irq_snapshot_changes(before));
	ASSERT_EQ(0, ns_get(self, self->fd, -1));
	EXPECT_TRUE(dev_unbound(&self->reply));
	free(before);
}

/*
 * A bound device that moves to another namespace keeps its binding: the
 * move unregisters it from one namespace and registers it in the other,
 * with the same driver and IRQs. vnode0, bound in the namespace, comes
 * back to the initial one still bound there, and a restore puts back every
 * affinity it had before the bind.
 */
TEST_F_TIMEOUT(netns, a_bound_device_keeps_its_binding_across_namespaces, 300)
{
	struct irq_snapshot *before = malloc(sizeof(*before));

	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, CTL(self, "-n", NETNS, "bind", "vnode0", "--numa-local"))
		TH_LOG("%s", self->run.err);
	ASSERT_EQ(0, move_vnode0(false));
	ASSERT_EQ(0, come_back(self->ifindex, "vnode0"));

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode0", &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_BOUND);
	EXPECT_TRUE(masks_placed(&self->reply, &self->node0, true));
	ASSERT_EQ(0, CTL(self, "restore", "vnode0")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(0, irq_snapshot_changes(before));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode0", &self->reply, &self->res));
	EXPECT_TRUE(dev_unbound(&self->reply));

	/* And into a namespace: bound in the initial one, restored in the other. */
	ASSERT_EQ(0, CTL(self, "bind", "vnode0", "--numa-local")) TH_LOG("%s", self->run.err);
	ASSERT_EQ(0, move_vnode0(true));
	ASSERT_EQ(0, CTL(self, "-n", NETNS, "restore", "vnode0")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(0, irq_snapshot_changes(before));
	free(before);
}

/*
 * With vnode1 renamed vnode0 in the initial namespace, each request finds
 * the vnode0 of the namespace it names, and a bind there leaves the other
 * alone.
 */
TEST_F_TIMEOUT(netns, a_name_in_two_namespaces, 300)
{
	struct irq_snapshot *before = malloc(sizeof(*before));
	char want[64];

	ASSERT_NE(NULL, before);
	ASSERT_EQ(0, netdev_set_up("vnode1", false));
	ASSERT_EQ(0, netdev_rename("vnode1", "vnode0"));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	ASSERT_EQ(0, irq_snapshot_take(before));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode0", &self->reply, &self->res));
	EXPECT_EQ(self->ifindex1, self->reply.ifindex);
	EXPECT_FALSE(self->reply.present & ATTR_BIT(NICTL_A_NETNS_ID));
	ASSERT_EQ(0, ns_get(self, self->fd, -1));
	EXPECT_EQ(self->ifindex, self->reply.ifindex);

	ASSERT_EQ(0, CTL(self, "-n", NETNS, "show", "vnode0", "-j")) TH_LOG("%s", self->run.err);
	snprintf(want, sizeof(want), "%u\n" NETNS "\n", self->ifindex);
	EXPECT_TRUE(jq_says(self, ".[0].ifindex, .[0].netns", want));
	ASSERT_EQ(0, CTL(self, "show", "vnode0", "-j")) TH_LOG("%s", self->run.err);
	snprintf(want, sizeof(want), "%u\nnull\n", self->ifindex1);
	EXPECT_TRUE(jq_says(self, ".[0].ifindex, .[0].netns", want));

	ASSERT_EQ(0, CTL(self, "-n", NETNS, "bind", "vnode0", "--numa-local"))
		TH_LOG("%s", self->run.err);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode0", &self->reply, &self->res));
	EXPECT_TRUE(dev_unbound(&self->reply));
	ASSERT_EQ(0, CTL(self, "-n", NETNS, "restore", "vnode0")) TH_LOG("%s", self->run.err);
	EXPECT_EQ(0, irq_snapshot_changes(before));
	free(before);
}

/* What the user namespace's root asks, in a child: see run_in_user_ns(). */
struct asker {
	struct __test_metadata *_metadata;
	int fd;
};

/* Naming another namespace is refused even for a read; reports through EXPECT_*() only. */
static void ask(void *arg)
{
	const struct asker *a = arg;
	struct __test_metadata *_metadata = a->_metadata;
	char buf[NL_REQ_SIZE];
	struct nictl_dev reply;
	struct nl_result res;
	struct nlmsghdr *nlh;
	static const uint8_t cmds[] = { NICTL_CMD_DEV_GET, NICTL_CMD_BIND, NICTL_CMD_RESTORE,
					NICTL_CMD_NAPI_GET };
	struct nl_client nl;
	struct cpus node0;
	unsigned int i;

	EXPECT_EQ(0, node_cpus(0, &node0));
	if (nictl_open(&nl)) {
		EXPECT_TRUE(false) TH_LOG("no nictl client in the user namespace");
		return;
	}
	for (i = 0; i < sizeof(cmds); i++) {
		nlh = nictl_msg(&nl, buf, cmds[i], 0);
		mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode0");
		mnl_attr_put_u32(nlh, NICTL_A_NETNS_FD, a->fd);
		if (cmds[i] == NICTL_CMD_BIND)
			nictl_put_cpus(nlh, NICTL_A_CPUS, &node0);
		EXPECT_EQ(-EPERM, nl_transact(&nl, nlh, NULL, NULL, &res)) TH_LOG("cmd %u", cmds[i]);
		EXPECT_EQ(EPERM, res.err);
	}
	/* Without the attribute it reads the initial namespace, where vnode0 is not. */
	EXPECT_EQ(-ENODEV, nictl_dev_get(&nl, "vnode0", &reply, &res));
	nl_close(&nl);
}

/*
 * Root of a user namespace (unshare -Ur, in the initial network namespace)
 * gets EPERM for every request that names the namespace; inside the
 * namespace the family does not even exist.
 */
TEST_F_TIMEOUT(netns, others_are_refused, 300)
{
	struct asker a = { _metadata, self->fd };

	ASSERT_EQ(0, run_in_user_ns(false, ask, &a));
	EXPECT_EQ(1, run_ctl(&self->run, false,
			     (const char *const []){ "ip", "netns", "exec", NETNS, NULL },
			     (const char *const []){ "-n", NETNS, "show", "vnode0", NULL }));
	EXPECT_TRUE(one_line_error(&self->run, NETNS_MSG));
	EXPECT_EQ(1, run_ctl(&self->run, false, (const char *const []){ "unshare", "-Ur", NULL },
			     (const char *const []){ "-n", NETNS, "show", "vnode0", NULL }));
	EXPECT_TRUE(one_line_error(&self->run, "needs CAP_NET_ADMIN"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/*
 * Events: vnode0 leaving the namespace is unregistered with its id and
 * registered without one, coming in again the reverse; what happens to it
 * inside (a rename) is heard with the id. All of that in the audit group;
 * the events group, open to every user, hears only vnode0's events in the
 * initial namespace, numbered without a gap.
 */
TEST_F_TIMEOUT(netns, events_carry_the_namespace, 300)
{
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	struct nictl_listener l, open;
	int id;

	ASSERT_NE(NULL, ev);
	ASSERT_EQ(0, ns_get(self, self->fd, -1));
	id = self->reply.netns_id;
	ASSERT_EQ(0, nictl_listen_group(&l, NICTL_MCGRP_AUDIT));
	ASSERT_EQ(0, nictl_listen(&open));

	ASSERT_EQ(0, SH("ip", "-n", NETNS, "link", "set", "vnode0", "down"));
	ASSERT_EQ(0, SH("ip", "-n", NETNS, "link", "set", "vnode0", "name", "nsvnode0"));
	EXPECT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_RENAMED, self->ifindex, NOW_MS, ev));
	EXPECT_STREQ("nsvnode0", ev->dev.ifname);
	EXPECT_TRUE(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID));
	EXPECT_EQ(id, ev->dev.netns_id);
	ASSERT_EQ(0, SH("ip", "-n", NETNS, "link", "set", "nsvnode0", "name", "vnode0"));

	ASSERT_EQ(0, move_vnode0(false));
	EXPECT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_UNREGISTERED, self->ifindex, NOW_MS, ev));
	EXPECT_TRUE(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID));
	EXPECT_EQ(id, ev->dev.netns_id);
	EXPECT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_REGISTERED, self->ifindex, NOW_MS, ev));
	EXPECT_FALSE(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID));

	ASSERT_EQ(0, move_vnode0(true));
	EXPECT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_UNREGISTERED, self->ifindex, NOW_MS, ev));
	EXPECT_FALSE(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID));
	EXPECT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_REGISTERED, self->ifindex, NOW_MS, ev));
	EXPECT_TRUE(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID));
	EXPECT_EQ(id, ev->dev.netns_id);
	EXPECT_EQ(0U, l.gaps);
	nictl_unlisten(&l);

	/* The open group: vnode0 registered in the initial namespace, then leaving it. */
	EXPECT_EQ(1, nictl_wait_event(&open, NICTL_EVENT_REGISTERED, self->ifindex, NOW_MS, ev));
	EXPECT_FALSE(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID));
	EXPECT_EQ(1, nictl_wait_event(&open, NICTL_EVENT_UNREGISTERED, self->ifindex, NOW_MS, ev));
	EXPECT_FALSE(ev->dev.present & ATTR_BIT(NICTL_A_NETNS_ID));
	EXPECT_EQ(0, nictl_wait_event(&open, NICTL_EVENT_REGISTERED, self->ifindex, 1000, ev))
		TH_LOG("the events group heard of vnode0 in " NETNS);
	EXPECT_EQ(0U, open.gaps);
	nictl_unlisten(&open);
	free(ev);
}

/*
 * Wait for the daemon's bind of vnode0, in the namespace (@in) or in the
 * initial one, and judge it in /proc against @node's CPUs.
 */
static bool daemon_bound(FIXTURE_DATA(netns) *self, struct nictl_listener *l, bool in, int node)
{
	struct nictl_event_msg *ev = malloc(sizeof(*ev));
	struct cpus allowed;
	bool ok = false;

	if (!ev)
		return false;
	if (nictl_wait_bound(l, self->ifindex, in, DAEMON_WAIT_S * 1000, ev) == 1) {
		allowed_cpus(node, &allowed);
		ok = (in ? ns_get(self, self->fd, -1) :
		      nictl_dev_get(&self->env.nl, "vnode0", &self->reply, &self->res)) == 0 &&
		     masks_placed(&self->reply, &allowed, true);
	}
	if (!ok)
		fprintf(stderr, "# no bind of vnode0 %s by the daemon onto node %d\n",
			in ? "in " NETNS : "in the initial namespace", node);
	free(ev);
	return ok;
}

/*
 * The daemon governs vnode0 by the match-netns rule while it is in the
 * namespace (at its start, and when it is moved in again), by the initial
 * namespace's rule when it is moved out.
 */
TEST_F_TIMEOUT(netns, daemon_follows_the_device, 600)
{
	struct nictl_listener l;

	ASSERT_EQ(0, write_file(CONF, "# written by nictl_netns\n"
				"[rule pod]\nmatch-netns = " NETNS "\nmatch-name = vnode0\n"
				"cpus = node 1\n\n"
				"[rule host]\nmatch-name = vnode0\ncpus = node 0\n"));
	/* The daemon's binds in the namespace are heard in the audit group. */
	ASSERT_EQ(0, nictl_listen_group(&l, NICTL_MCGRP_AUDIT));
	self->daemon = daemon_start(CONF, DAEMON_LOG);
	ASSERT_LT(0, self->daemon);
	EXPECT_TRUE(daemon_bound(self, &l, true, 1));
	ASSERT_EQ(0, move_vnode0(false));
	ASSERT_EQ(0, netdev_set_up("vnode0", true));
	EXPECT_TRUE(daemon_bound(self, &l, false, 0));
	ASSERT_EQ(0, move_vnode0(true));
	EXPECT_TRUE(daemon_bound(self, &l, true, 1));
	nictl_unlisten(&l);
}

NICTL_TEST_MAIN
