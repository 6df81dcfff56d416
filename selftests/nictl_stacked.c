// SPDX-License-Identifier: GPL-2.0
/*
 * Stacked devices: a bond of the guest's two virtio NICs (vnode0 on node 0,
 * vnode1 on node 1), a VLAN on the bond, a macvlan on a NIC, and a bond
 * with a port that has no IRQs. A request naming the stacked device acts
 * on every physical device beneath it, all or nothing, judged by
 * /proc/irq/N of each.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "events.h"
#include "main.h"
#include "module.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

#define BOND	"nictlbond0"
#define VLAN	"nictlbond0.7"

/* The two ports of the bond and their nodes (the module lists them in ifindex order). */
static const char *const ports[] = { "vnode0", "vnode1" };
static const int port_node[] = { 0, 1 };

/* What `nictlctl bind --numa-local` asks for. */
#define NUMA_LOCAL	(NICTL_BIND_F_NUMA_STRICT | NICTL_BIND_F_SMT_EXCLUSIVE)

/* BIND @name to @cpus with @flags: 0 or -errno, the extack printed on failure. */
static int bind_on(struct nl_client *nl, const char *name, uint32_t flags,
		   const struct cpus *cpus, struct nictl_dev *reply, struct nl_result *res)
{
	const struct nictl_bind_args args = { .ifname = name, .flags = flags, .cpus = cpus };
	int ret = nictl_bind(nl, &args, reply, res);

	if (ret)
		fprintf(stderr, "# bind %s: %s (%s)\n", name, strerror(-ret), res->msg);
	return ret;
}

/* @name is the ifname of one of @dev's NICTL_A_LOWER nests. */
static bool has_lower(const struct nictl_dev *dev, const char *name)
{
	unsigned int i;

	for (i = 0; i < dev->n_lowers; i++)
		if (!strcmp(dev->lowers[i].ifname, name))
			return true;
	fprintf(stderr, "# %s: no lower nest for %s among %u\n", dev->ifname, name,
		dev->n_lowers);
	return false;
}

/* @name is among @dev's NICTL_A_UPPER nests. */
static bool has_upper(const struct nictl_dev *dev, const char *name)
{
	unsigned int i;

	for (i = 0; i < dev->n_uppers; i++)
		if (!strcmp(dev->uppers[i], name))
			return true;
	fprintf(stderr, "# %s: %s is not among its %u upper devices\n", dev->ifname, name,
		dev->n_uppers);
	return false;
}

/* A reply about stacked device @name, with every port of the bond beneath it. */
static bool describes_bond(const struct nictl_dev *reply, const char *name, uint8_t cmd)
{
	bool ok = reply->cmd == cmd && !strcmp(reply->ifname, name) &&
		  (reply->dev_flags & NICTL_DEV_F_STACKED) && !reply->n_irqs &&
		  reply->n_lowers == 2;

	if (!ok)
		fprintf(stderr, "# reply: cmd %u name %s flags %#x irqs %u lowers %u; "
			"want cmd %u %s stacked, 0 irqs, 2 lowers\n", reply->cmd, reply->ifname,
			reply->dev_flags, reply->n_irqs, reply->n_lowers, cmd, name);
	return ok && has_lower(reply, ports[0]) && has_lower(reply, ports[1]);
}

/*
 * @name is bound on @allowed, one core per queue, as /proc/irq shows; @now
 * is what DEV_GET says of it then. placement_ok() makes each IRQ fire, so
 * the effective CPUs compared after it have settled.
 */
static bool bound_on(struct nl_client *nl, const char *name, const struct cpus *allowed,
		     struct nictl_dev *now)
{
	struct nl_result res;

	if (nictl_dev_get(nl, name, now, &res))
		return false;
	if (!(now->dev_flags & NICTL_DEV_F_BOUND)) {
		fprintf(stderr, "# %s is not bound\n", name);
		return false;
	}
	return placement_ok(now, allowed, true) && !nictl_dev_get(nl, name, now, &res) &&
	       dev_matches_proc(now);
}

/* Port @i is bound on its node's CPUs, under the bond. */
static bool port_on_its_node(struct nl_client *nl, unsigned int i)
{
	struct nictl_dev now;
	struct cpus node;

	return !node_cpus(port_node[i], &node) && bound_on(nl, ports[i], &node, &now) &&
	       has_upper(&now, BOND);
}

/* Port @i is as nictl found it: not bound. */
static bool port_unbound(struct nl_client *nl, unsigned int i)
{
	struct nictl_dev now;
	struct nl_result res;

	return !nictl_dev_get(nl, ports[i], &now, &res) && dev_unbound(&now);
}

FIXTURE(bond) {
	struct test_env env;
	struct cpus online;
	struct nictl_dev reply;
	struct nl_result res;
};

FIXTURE_VARIANT(bond) {
	const char *mode;
};

FIXTURE_VARIANT_ADD(bond, active_backup) {
	.mode = "active-backup",
};

FIXTURE_VARIANT_ADD(bond, lacp) {
	.mode = "802.3ad",
};

/* A port joins a bond while down; the bond brings it up. */
static int enslave(const char *port, const char *bond)
{
	return SH("ip", "link", "set", port, "down") ?:
	       SH("ip", "link", "set", port, "master", bond);
}

FIXTURE_SETUP(bond)
{
	unsigned int i;

	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, sys_online_cpus(&self->online));
	ASSERT_EQ(0, SH("ip", "link", "add", BOND, "type", "bond", "mode", variant->mode));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, enslave(ports[i], BOND));
	ASSERT_EQ(0, SH("ip", "link", "set", BOND, "up"));
}

/* The bond goes, and with it the VLAN; the ports come back up on their own. */
FIXTURE_TEARDOWN(bond)
{
	unsigned int i;

	EXPECT_EQ(0, SH("ip", "link", "del", BOND));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(0, SH("ip", "link", "set", ports[i], "up"));
	EXPECT_EQ(0, nictl_set_param("sticky_max", 64));
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* `nictlctl bind BOND --numa-local`: each port on its own node, in one request. */
TEST_F_TIMEOUT(bond, numa_local_keeps_each_port_on_its_node, 300)
{
	ASSERT_EQ(0, bind_on(&self->env.nl, BOND, NUMA_LOCAL, &self->online, &self->reply,
			     &self->res));
	EXPECT_TRUE(describes_bond(&self->reply, BOND, NICTL_CMD_BIND));
	EXPECT_TRUE(port_on_its_node(&self->env.nl, 0));
	EXPECT_TRUE(port_on_its_node(&self->env.nl, 1));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, BOND, &self->reply, &self->res));
	EXPECT_TRUE(describes_bond(&self->reply, BOND, NICTL_CMD_DEV_GET));
	EXPECT_STREQ("bond", self->reply.kind);
}

/* One restore of the bond puts back every port, and forgets them all. */
TEST_F_TIMEOUT(bond, restore_puts_every_port_back, 300)
{
	ASSERT_EQ(0, bind_on(&self->env.nl, BOND, NUMA_LOCAL, &self->online, &self->reply,
			     &self->res));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, BOND, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(describes_bond(&self->reply, BOND, NICTL_CMD_RESTORE));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	EXPECT_TRUE(port_unbound(&self->env.nl, 0));
	EXPECT_TRUE(port_unbound(&self->env.nl, 1));
	EXPECT_TRUE(refused(nictl_restore(&self->env.nl, BOND, &self->reply, &self->res),
			    &self->res, ENODATA, true, &self->env.snap));
}

/* Port @i has a sticky binding (@sticky) or none. */
static bool port_sticky(struct nl_client *nl, unsigned int i, bool sticky)
{
	struct nictl_dev now;
	struct nl_result res;

	if (nictl_dev_get(nl, ports[i], &now, &res))
		return false;
	if (!!(now.dev_flags & NICTL_DEV_F_STICKY) == sticky)
		return true;
	fprintf(stderr, "# %s: sticky flag %s, want %s\n", ports[i],
		now.dev_flags & NICTL_DEV_F_STICKY ? "set" : "clear", sticky ? "set" : "clear");
	return false;
}

/* A sticky bind of the bond keeps one sticky binding per port; its restore drops both. */
TEST_F_TIMEOUT(bond, sticky_bind_keeps_each_port, 300)
{
	ASSERT_EQ(0, bind_on(&self->env.nl, BOND, NUMA_LOCAL | NICTL_BIND_F_STICKY,
			     &self->online, &self->reply, &self->res));
	EXPECT_TRUE(port_sticky(&self->env.nl, 0, true));
	EXPECT_TRUE(port_sticky(&self->env.nl, 1, true));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, BOND, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(port_sticky(&self->env.nl, 0, false));
	EXPECT_TRUE(port_sticky(&self->env.nl, 1, false));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/*
 * sticky_max counts every port a sticky bind of the bond would keep: with
 * room for one, the bond's two ports are refused whole, before anything
 * moves or is kept; with room for two, they bind.
 */
TEST_F_TIMEOUT(bond, sticky_max_counts_every_port, 300)
{
	int ret;

	/* The sticky bindings of devices gone (an earlier test's VFs) count too: none left. */
	ASSERT_EQ(0, env_reload(&self->env, ""));
	ASSERT_EQ(0, nictl_set_param("sticky_max", 1));
	ret = bind_on(&self->env.nl, BOND, NUMA_LOCAL | NICTL_BIND_F_STICKY, &self->online,
		      &self->reply, &self->res);
	EXPECT_TRUE(refused(ret, &self->res, ENOSPC, true, &self->env.snap));
	EXPECT_NE(NULL, strstr(self->res.msg, "sticky_max")) TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(port_sticky(&self->env.nl, 0, false));
	EXPECT_TRUE(port_sticky(&self->env.nl, 1, false));
	ASSERT_EQ(0, nictl_set_param("sticky_max", 2));
	ASSERT_EQ(0, bind_on(&self->env.nl, BOND, NUMA_LOCAL | NICTL_BIND_F_STICKY,
			     &self->online, &self->reply, &self->res)) TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(port_sticky(&self->env.nl, 0, true));
	EXPECT_TRUE(port_sticky(&self->env.nl, 1, true));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, BOND, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
}

/*
 * The second port's first write fails: the first port's writes, already
 * made, are undone, and neither port is bound.
 */
TEST_F_TIMEOUT(bond, failure_on_the_second_port_rolls_back_the_first, 300)
{
	struct nictl_dev first;

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, BOND, &self->reply, &self->res));
	ASSERT_EQ(2, self->reply.n_lowers);
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, self->reply.lowers[0].ifname, &first,
				   &self->res));
	ASSERT_LT(0, first.n_irqs);
	TH_LOG("write %u fails: the first of %s, after all %u of %s", first.n_irqs + 1,
	       self->reply.lowers[1].ifname, first.n_irqs, first.ifname);
	ASSERT_EQ(0, nictl_set_fault(first.n_irqs + 1));
	EXPECT_TRUE(refused(bind_on(&self->env.nl, BOND, NUMA_LOCAL, &self->online,
				    &self->reply, &self->res), &self->res, EIO, false,
			    &self->env.snap));
	ASSERT_EQ(0, nictl_set_fault(0));
	EXPECT_TRUE(port_unbound(&self->env.nl, 0));
	EXPECT_TRUE(port_unbound(&self->env.nl, 1));
}

/*
 * Without --allow-siblings no physical core takes queues of two ports: four
 * queues do not fit node 1's two cores, and a NUMA-strict set without a CPU
 * on node 0 cannot keep vnode0 local. Both refused, nothing changed.
 */
TEST_F_TIMEOUT(bond, rules_hold_across_the_ports, 300)
{
	struct nictl_bind_args args = {
		.ifname = BOND,
		.flags = NICTL_BIND_F_SMT_EXCLUSIVE,
	};
	struct cpus node1;

	ASSERT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->env.snap));
	EXPECT_NE(NULL, strstr(self->res.msg, "cores")) TH_LOG("%s", self->res.msg);
	args.flags |= NICTL_BIND_F_NUMA_STRICT;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->env.snap));
	EXPECT_NE(NULL, strstr(self->res.msg, "vnode0 is on node 0")) TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(port_unbound(&self->env.nl, 0));
	EXPECT_TRUE(port_unbound(&self->env.nl, 1));
}

/* Add the cores @dev's IRQs target to @cores: false when one was there before. */
static bool add_cores(const struct nictl_dev *dev, struct cpus *cores)
{
	struct cpus mine, core;
	unsigned int i;
	int cpu;

	cpus_zero(&mine);
	for (i = 0; i < dev->n_irqs; i++) {
		if (cpu_core(dev->irqs[i].target_cpu, &core))
			return false;
		for (cpu = cpus_first(&core); cpu >= 0; cpu = cpus_next(&core, cpu))
			cpus_set(&mine, cpu);
	}
	if (cpus_intersects(&mine, cores)) {
		fprintf(stderr, "# %s shares a core with a port before it\n", dev->ifname);
		return false;
	}
	for (cpu = cpus_first(&mine); cpu >= 0; cpu = cpus_next(&mine, cpu))
		cpus_set(cores, cpu);
	return true;
}

/*
 * A VLAN on the bond reaches both ports through it. Bound on every CPU, the
 * two ports' queues each get a core of their own: the bond's members do not
 * pile onto the first cores of the set.
 */
TEST_F_TIMEOUT(bond, vlan_on_the_bond_binds_both_ports_apart, 300)
{
	struct nictl_dev port;
	struct cpus cores;
	unsigned int i;

	ASSERT_EQ(0, SH("ip", "link", "add", "link", BOND, "name", VLAN, "type", "vlan",
			    "id", "7"));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, VLAN, &self->reply, &self->res));
	EXPECT_TRUE(describes_bond(&self->reply, VLAN, NICTL_CMD_DEV_GET));
	EXPECT_STREQ("vlan", self->reply.kind);
	EXPECT_TRUE(self->reply.n_uppers == 0);
	ASSERT_EQ(0, bind_on(&self->env.nl, VLAN, NICTL_BIND_F_SMT_EXCLUSIVE, &self->online,
			     &self->reply, &self->res));
	EXPECT_TRUE(describes_bond(&self->reply, VLAN, NICTL_CMD_BIND));
	cpus_zero(&cores);
	for (i = 0; i < 2; i++) {
		EXPECT_TRUE(bound_on(&self->env.nl, ports[i], &self->online, &port));
		EXPECT_TRUE(has_upper(&port, BOND) && has_upper(&port, VLAN));
		EXPECT_TRUE(add_cores(&port, &cores));
	}
}

/* Released and enslaved again: each time the port's event names the bond. */
TEST_F_TIMEOUT(bond, events_name_the_bond, 300)
{
	struct nictl_listener l;
	struct nictl_event_msg *ev = calloc(1, sizeof(*ev));
	unsigned int ifindex = if_nametoindex(ports[1]);

	ASSERT_NE(NULL, ev);
	ASSERT_EQ(0, nictl_listen(&l));
	ASSERT_EQ(0, SH("ip", "link", "set", ports[1], "nomaster"));
	EXPECT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_UNLINKED, ifindex, 10000, ev));
	EXPECT_STREQ(BOND, ev->link);
	EXPECT_EQ(0, ev->dev.n_uppers);
	ASSERT_EQ(0, enslave(ports[1], BOND));
	EXPECT_EQ(1, nictl_wait_event(&l, NICTL_EVENT_LINKED, ifindex, 10000, ev));
	EXPECT_STREQ(BOND, ev->link);
	EXPECT_TRUE(has_upper(&ev->dev, BOND));
	nictl_unlisten(&l);
	free(ev);
}

#define CTL(r, ...)	run_ctl(r, false, NULL, (const char *const []){ __VA_ARGS__, NULL })

/* What an operator types: show, bind --numa-local and restore of the bond. */
TEST_F_TIMEOUT(bond, nictlctl_shows_binds_and_restores_the_bond, 300)
{
	struct run_result *r = malloc(sizeof(*r));

	ASSERT_NE(NULL, r);
	ASSERT_EQ(0, CTL(r, "show", BOND));
	EXPECT_NE(NULL, strstr(r->out, BOND " is stacked on 2 physical devices:")) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "under " BOND ", ")) TH_LOG("%s", r->out);
	ASSERT_EQ(0, CTL(r, "bind", BOND, "--numa-local"));
	EXPECT_NE(NULL, strstr(r->err, "vnode0: ")) TH_LOG("%s", r->err);
	EXPECT_TRUE(port_on_its_node(&self->env.nl, 0));
	EXPECT_TRUE(port_on_its_node(&self->env.nl, 1));
	EXPECT_EQ(1, CTL(r, "bind", BOND, "--steer"));
	EXPECT_TRUE(one_line_error(r, "bind --steer each device beneath it"));
	EXPECT_TRUE(port_on_its_node(&self->env.nl, 0));
	ASSERT_EQ(0, CTL(r, "restore", BOND));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	EXPECT_TRUE(port_unbound(&self->env.nl, 0));
	EXPECT_TRUE(port_unbound(&self->env.nl, 1));
	free(r);
}

/* The IRQs of port @i, as DEV_GET of the port itself lists them, equal @lower's. */
static bool lower_is_port(struct nl_client *nl, const struct nictl_lower *lower)
{
	struct nictl_dev *port = malloc(sizeof(*port));
	struct nl_result res;
	unsigned int i;
	bool ok;

	ok = port && !nictl_dev_get(nl, lower->ifname, port, &res) &&
	     port->n_irqs == lower->n_irqs;
	for (i = 0; ok && i < lower->n_irqs; i++)
		ok = port->irqs[i].num == lower->irq[i];
	if (!ok)
		fprintf(stderr, "# %s: the reply's %u IRQs are not the %u DEV_GET lists\n",
			lower->ifname, lower->n_irqs, port ? port->n_irqs : 0);
	free(port);
	return ok;
}

/*
 * A port whose IRQs do not fit one LOWER nest (its length is 16 bits: a
 * few hundred IRQs) continues in the nests that follow. The test build's
 * fault_dump_items=1 puts one IRQ in each, so both ports take several:
 * BIND, DEV_GET and RESTORE replies carry every IRQ once, and nictlctl
 * joins the parts into one device each.
 */
TEST_F_TIMEOUT(bond, ports_continue_in_the_next_lower_nest, 300)
{
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));
	unsigned int i, irqs;

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, jq);
	ASSERT_EQ(0, nictl_param_write("fault_dump_items", "1"));
	ASSERT_EQ(0, bind_on(&self->env.nl, BOND, NUMA_LOCAL, &self->online, &self->reply,
			     &self->res)) TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(describes_bond(&self->reply, BOND, NICTL_CMD_BIND));
	for (i = 0, irqs = 0; i < self->reply.n_lowers; i++) {
		EXPECT_TRUE(lower_is_port(&self->env.nl, &self->reply.lowers[i]));
		irqs += self->reply.lowers[i].n_irqs;
	}
	EXPECT_EQ(irqs, self->reply.n_lower_parts);
	EXPECT_TRUE(port_on_its_node(&self->env.nl, 0));
	EXPECT_TRUE(port_on_its_node(&self->env.nl, 1));

	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, BOND, &self->reply, &self->res));
	EXPECT_TRUE(describes_bond(&self->reply, BOND, NICTL_CMD_DEV_GET));
	EXPECT_EQ(irqs, self->reply.n_lower_parts);

	ASSERT_EQ(0, CTL(r, "show", BOND));
	EXPECT_NE(NULL, strstr(r->out, BOND " is stacked on 2 physical devices:")) TH_LOG("%s", r->out);
	ASSERT_EQ(0, CTL(r, "show", BOND, "-j"));
	ASSERT_EQ(0, run_jq(jq, r->out, "[.[] | .irqs | length] | add, length"));
	snprintf(r->out, sizeof(r->out), "%u\n2\n", irqs);
	EXPECT_STREQ(r->out, jq->out);

	ASSERT_EQ(0, nictl_restore(&self->env.nl, BOND, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(describes_bond(&self->reply, BOND, NICTL_CMD_RESTORE));
	EXPECT_EQ(irqs, self->reply.n_lower_parts);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	EXPECT_EQ(0, nictl_param_write("fault_dump_items", "0"));
	free(jq);
	free(r);
}

/*
 * A user without CAP_NET_ADMIN may look at the bond, as at any device, and
 * change nothing through it.
 */
TEST_F_TIMEOUT(bond, unprivileged_user_sees_but_cannot_bind_the_bond, 300)
{
	struct run_result *r = malloc(sizeof(*r));

	ASSERT_NE(NULL, r);
	EXPECT_EQ(0, run_ctl(r, true, NULL, (const char *const []){ "show", BOND, NULL }));
	EXPECT_NE(NULL, strstr(r->out, BOND " is stacked on 2 physical devices:"));
	EXPECT_EQ(1, run_ctl(r, true, NULL,
			     (const char *const []){ "bind", BOND, "--numa-local", NULL }));
	EXPECT_TRUE(one_line_error(r, "permission denied: needs CAP_NET_ADMIN"));
	EXPECT_EQ(1, run_ctl(r, true, NULL, (const char *const []){ "restore", BOND, NULL }));
	EXPECT_TRUE(one_line_error(r, "permission denied: needs CAP_NET_ADMIN"));
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
	free(r);
}

#define CONF		"/tmp/nictl-stacked.conf"
#define DAEMON_LOG	"/tmp/nictl-stacked.log"

/*
 * A rule that names the bond governs its ports: both bound on their nodes
 * at start. A port released and changed behind the daemon's back is left
 * alone (no rule names it); enslaved again, it is bound with the bond.
 */
TEST_F_TIMEOUT(bond, daemon_governs_the_ports_through_the_bond, 600)
{
	const struct governed port0 = { "vnode0", 0, 4, true, false, NULL };
	const struct governed port1 = { "vnode1", 1, 4, true, false, NULL };
	struct nictl_dev dev;
	pid_t pid;

	ASSERT_EQ(0, write_file(CONF, "[rule ports]\nmatch-name = " BOND "\ncpus = numa-local\n"));
	unlink(DAEMON_LOG);
	pid = daemon_start(CONF, DAEMON_LOG);
	ASSERT_LT(0, pid);
	EXPECT_TRUE(back_in_policy(&self->env.nl, &port0));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &port1));
	ASSERT_EQ(0, SH("ip", "link", "set", ports[1], "nomaster"));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, ports[1], &dev, &self->res))
		TH_LOG("%s", self->res.msg);
	ASSERT_EQ(0, enslave(ports[1], BOND));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &port1));
	EXPECT_EQ(0, daemon_stop(pid));
	/* At start, through vnode0 or itself; after the restore, through itself. */
	EXPECT_LE(2, daemon_dump_log(DAEMON_LOG, "vnode1: rule ports: IRQ "));
}

/* ---- Stacked on one NIC, or on a device without IRQs ---- */

#define MACVLAN	"nictlmv0"
#define MIXED	"nictlbond1"
#define DUMMY	"nictldummy0"
#define TRIPLE	"nictlbond2"

FIXTURE(stack) {
	struct test_env env;
	struct cpus online;
	struct nictl_dev reply;
	struct nl_result res;
};

FIXTURE_SETUP(stack)
{
	ASSERT_EQ(0, env_setup(&self->env));
	ASSERT_EQ(0, sys_online_cpus(&self->online));
}

/* Whatever a test made goes; a port the mixed bond took comes back up. */
FIXTURE_TEARDOWN(stack)
{
	const char *const made[] = { MACVLAN, MIXED, DUMMY, TRIPLE };
	const char *const nics[] = { "vnode0", "vnode1", "igb0" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(made); i++)
		if (if_nametoindex(made[i]))
			EXPECT_EQ(0, SH("ip", "link", "del", made[i]));
	for (i = 0; i < ARRAY_SIZE(nics); i++)
		EXPECT_EQ(0, SH("ip", "link", "set", nics[i], "up"));
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* A macvlan on vnode1 binds vnode1, on node 1 with --numa-local. */
TEST_F_TIMEOUT(stack, macvlan_binds_its_nic, 300)
{
	struct nictl_dev port;
	struct cpus node1;

	ASSERT_EQ(0, SH("ip", "link", "add", "link", "vnode1", "name", MACVLAN, "type",
			    "macvlan", "mode", "bridge"));
	ASSERT_EQ(0, bind_on(&self->env.nl, MACVLAN, NUMA_LOCAL, &self->online, &self->reply,
			     &self->res));
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_STACKED);
	EXPECT_STREQ("macvlan", self->reply.kind);
	ASSERT_EQ(1, self->reply.n_lowers);
	EXPECT_STREQ("vnode1", self->reply.lowers[0].ifname);
	ASSERT_EQ(0, node_cpus(1, &node1));
	EXPECT_TRUE(bound_on(&self->env.nl, "vnode1", &node1, &port));
	EXPECT_TRUE(has_upper(&port, MACVLAN));
	ASSERT_EQ(0, nictl_restore(&self->env.nl, MACVLAN, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/*
 * A bond of three NICs binds and restores as one transaction: the bind
 * holds three instance locks at once, each taken under the stack mutex
 * (lockdep's nest lock), which the debug kernel checks.
 */
TEST_F_TIMEOUT(stack, bond_of_three_binds_and_restores_whole, 300)
{
	const char *const three[] = { "vnode0", "vnode1", "igb0" };
	struct nictl_dev port;
	unsigned int i;

	ASSERT_EQ(0, SH("ip", "link", "add", TRIPLE, "type", "bond", "mode", "active-backup"));
	for (i = 0; i < ARRAY_SIZE(three); i++)
		ASSERT_EQ(0, enslave(three[i], TRIPLE));
	ASSERT_EQ(0, SH("ip", "link", "set", TRIPLE, "up"));
	ASSERT_EQ(0, bind_on(&self->env.nl, TRIPLE, 0, &self->online, &self->reply, &self->res));
	EXPECT_EQ(ARRAY_SIZE(three), self->reply.n_lowers);
	for (i = 0; i < ARRAY_SIZE(three); i++) {
		EXPECT_TRUE(has_lower(&self->reply, three[i])) TH_LOG("%s", three[i]);
		ASSERT_EQ(0, nictl_dev_get(&self->env.nl, three[i], &port, &self->res));
		EXPECT_TRUE(port.dev_flags & NICTL_DEV_F_BOUND) TH_LOG("%s", three[i]);
		EXPECT_TRUE(has_upper(&port, TRIPLE)) TH_LOG("%s", three[i]);
		EXPECT_TRUE(dev_matches_proc(&port)) TH_LOG("%s", three[i]);
	}
	ASSERT_EQ(0, nictl_restore(&self->env.nl, TRIPLE, &self->reply, &self->res))
		TH_LOG("%s", self->res.msg);
	EXPECT_EQ(ARRAY_SIZE(three), self->reply.n_lowers);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/* A bond with a port that has no bus device cannot be bound whole: nothing is. */
TEST_F_TIMEOUT(stack, port_without_irqs_refuses_the_whole_bond, 300)
{
	ASSERT_EQ(0, SH("ip", "link", "add", DUMMY, "type", "dummy"));
	ASSERT_EQ(0, SH("ip", "link", "add", MIXED, "type", "bond", "mode", "active-backup"));
	ASSERT_EQ(0, enslave("vnode0", MIXED));
	ASSERT_EQ(0, enslave(DUMMY, MIXED));
	EXPECT_TRUE(refused(bind_on(&self->env.nl, MIXED, NICTL_BIND_F_SMT_EXCLUSIVE,
				    &self->online, &self->reply, &self->res), &self->res,
			    EOPNOTSUPP, true, &self->env.snap));
	EXPECT_NE(NULL, strstr(self->res.msg, DUMMY)) TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(refused(nictl_dev_get(&self->env.nl, MIXED, &self->reply, &self->res),
			    &self->res, EOPNOTSUPP, true, &self->env.snap));
	EXPECT_TRUE(port_unbound(&self->env.nl, 0));
}

/* Explicit placements name queues of one device: a stacked one says how instead. */
TEST_F_TIMEOUT(stack, queue_placement_of_a_stacked_device_is_refused, 300)
{
	const struct nictl_place place[] = { { 0, 0 } };
	struct nictl_bind_args args = { .ifname = MACVLAN, .n_place = 1, .place = place };

	ASSERT_EQ(0, SH("ip", "link", "add", "link", "vnode1", "name", MACVLAN, "type",
			    "macvlan", "mode", "bridge"));
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EOPNOTSUPP, true, &self->env.snap));
	EXPECT_NE(NULL, strstr(self->res.msg, "by name")) TH_LOG("%s", self->res.msg);
}

/*
 * `nictlctl stats BOND -j` shows the queues of both ports, each naming its
 * port; the names are sorted, as the module lists the ports in its order.
 */
TEST_F_TIMEOUT(bond, nictlctl_stats_shows_the_queues_of_each_port, 300)
{
	static const char filter[] =
		"\"\\(.dev.ifname) \\(.dev.stacked) \\([.dev.lower[].ifname] | sort | join(\",\")) "
		"\\([.queues[].ifname] | unique | join(\",\"))\"";
	struct run_result *r = malloc(sizeof(*r)), *jq = malloc(sizeof(*jq));

	ASSERT_NE(NULL, r);
	ASSERT_NE(NULL, jq);
	ASSERT_EQ(0, CTL(r, "stats", BOND, "-j")) TH_LOG("%s", r->err);
	ASSERT_EQ(0, run_jq(jq, r->out, filter));
	EXPECT_STREQ(BOND " true vnode0,vnode1 vnode0,vnode1\n", jq->out);
	ASSERT_EQ(0, CTL(r, "stats", BOND));
	EXPECT_NE(NULL, strstr(r->out, BOND " (ifindex ")) TH_LOG("%s", r->out);
	EXPECT_NE(NULL, strstr(r->out, "), stacked on vnode")) TH_LOG("%s", r->out);
	free(jq);
	free(r);
}

NICTL_TEST_MAIN
