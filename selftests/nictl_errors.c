// SPDX-License-Identifier: GPL-2.0
/*
 * Requests nictl must refuse: each gets its errno and an extack message
 * (naming the attribute by offset where the header says so) and leaves
 * every IRQ as it was. Also the same requests from a user without
 * CAP_NET_ADMIN, and from another network namespace, where the family does
 * not exist.
 */
#include <linux/genetlink.h>
#include <sched.h>
#include <string.h>

#include "kselftest_harness.h"

#include "env.h"
#include "main.h"
#include "netdev.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

/* Not a device of the guest. */
#define NO_SUCH_DEV	"nictl-nodev"

FIXTURE(errors) {
	struct test_env env;
	char buf[NL_REQ_SIZE];
	struct nictl_dev reply;
	struct nl_result res;
};

FIXTURE_SETUP(errors)
{
	ASSERT_EQ(0, env_setup(&self->env));
}

FIXTURE_TEARDOWN(errors)
{
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* Send a request built in self->buf; replies land in self->reply. */
static int send_req(FIXTURE_DATA(errors) *self, struct nlmsghdr *nlh)
{
	return nl_transact(&self->env.nl, nlh, nictl_dev_cb, &self->reply, &self->res);
}

/* A BIND of vnode1 with the given flags and nothing else yet. */
static struct nlmsghdr *bind_start(FIXTURE_DATA(errors) *self, uint32_t flags)
{
	struct nlmsghdr *nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_BIND, 0);

	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	mnl_attr_put_u32(nlh, NICTL_A_FLAGS, flags);
	return nlh;
}

/* A BIND of vnode1 to the CPU bitmap @bytes of @len bytes. */
static int bind_bitmap(FIXTURE_DATA(errors) *self, const void *bytes, size_t len)
{
	struct nlmsghdr *nlh = bind_start(self, 0);

	mnl_attr_put(nlh, NICTL_A_CPUS, len, bytes);
	return send_req(self, nlh);
}

static int bind_one_cpu(FIXTURE_DATA(errors) *self, unsigned int cpu)
{
	struct cpus s;

	cpus_zero(&s);
	cpus_set(&s, cpu);
	return bind_bitmap(self, s.bits, cpus_nbytes(&s));
}

TEST_F_TIMEOUT(errors, unknown_device_is_enodev, 120)
{
	struct nictl_bind_args args = { .ifname = NO_SUCH_DEV };
	struct cpus node1;

	ASSERT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	EXPECT_TRUE(refused(nictl_dev_get(&self->env.nl, NO_SUCH_DEV, &self->reply, &self->res),
			    &self->res, ENODEV, true, &self->env.snap));
	EXPECT_TRUE(refused(nictl_dev_get_index(&self->env.nl, 0x7fffffff, &self->reply,
						&self->res),
			    &self->res, ENODEV, true, &self->env.snap));
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, ENODEV, true, &self->env.snap));
	EXPECT_TRUE(refused(nictl_restore(&self->env.nl, NO_SUCH_DEV, &self->reply, &self->res),
			    &self->res, ENODEV, true, &self->env.snap));
}

TEST_F_TIMEOUT(errors, missing_device_attribute, 120)
{
	struct nlmsghdr *nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_BIND, 0);
	struct cpus node1;

	ASSERT_EQ(0, node_cpus(1, &node1));
	mnl_attr_put_u32(nlh, NICTL_A_FLAGS, 0);
	nictl_put_cpus(nlh, NICTL_A_CPUS, &node1);
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
}

TEST_F_TIMEOUT(errors, empty_cpu_set, 120)
{
	const uint8_t zero = 0;

	/* A bitmap with no bit set, and one with no bytes at all. */
	EXPECT_TRUE(refused(bind_bitmap(self, &zero, 1), &self->res, EINVAL, true,
			    &self->env.snap));
	EXPECT_TRUE(refused(bind_bitmap(self, &zero, 0), &self->res, EINVAL, true,
			    &self->env.snap));
}

TEST_F_TIMEOUT(errors, nonexistent_cpus, 120)
{
	int nr_cpu_ids = sys_nr_cpu_ids();

	ASSERT_LT(0, nr_cpu_ids);
	ASSERT_GT(4096, nr_cpu_ids);
	EXPECT_TRUE(refused(bind_one_cpu(self, 4096), &self->res, EINVAL, true,
			    &self->env.snap));
	EXPECT_TRUE(mentions_number(self->res.msg, 4096)) TH_LOG("'%s'", self->res.msg);
	/* The first CPU past the last possible one, inside the same bitmap byte or not. */
	EXPECT_TRUE(refused(bind_one_cpu(self, nr_cpu_ids), &self->res, EINVAL, true,
			    &self->env.snap));
	EXPECT_TRUE(mentions_number(self->res.msg, nr_cpu_ids)) TH_LOG("'%s'", self->res.msg);
}

/* Longer than needed is fine (the bits are zero); longer than the maximum is not. */
TEST_F_TIMEOUT(errors, bitmap_length_limits, 300)
{
	uint8_t bytes[NICTL_CPUMASK_MAX_BYTES + 1] = { 0 };
	struct cpus node1;

	/* Node 1 is CPUs 4-7: all in the first byte. */
	ASSERT_EQ(0, node_cpus(1, &node1));
	ASSERT_EQ(1U, cpus_nbytes(&node1));
	bytes[0] = node1.bits[0];
	EXPECT_TRUE(refused(bind_bitmap(self, bytes, sizeof(bytes)), &self->res, ERANGE, true,
			    &self->env.snap));
	ASSERT_EQ(0, bind_bitmap(self, bytes, NICTL_CPUMASK_MAX_BYTES)) TH_LOG("%s", self->res.msg);
	EXPECT_TRUE(placement_ok(&self->reply, &node1, true));
}

/* CPU 7 goes offline; teardown brings it back. */
TEST_F_TIMEOUT(errors, offline_cpu, 300)
{
	const struct nictl_place place = { .queue = 0, .cpu = 7 };
	struct nictl_bind_args args = {
		.ifname = "vnode1",
		.n_place = 1,
		.place = &place,
	};
	struct irq_snapshot *offline = malloc(sizeof(*offline));

	ASSERT_NE(NULL, offline);
	ASSERT_EQ(0, cpu_set_online(7, false));
	/* virtio_net re-targets its IRQs on hotplug: compare from here on. */
	ASSERT_EQ(0, irq_snapshot_take(offline));
	EXPECT_TRUE(refused(bind_one_cpu(self, 7), &self->res, EINVAL, true, offline));
	EXPECT_TRUE(mentions_number(self->res.msg, 7)) TH_LOG("'%s'", self->res.msg);
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, offline));
	EXPECT_TRUE(mentions_number(self->res.msg, 7)) TH_LOG("'%s'", self->res.msg);
	free(offline);
}

TEST_F_TIMEOUT(errors, cpus_and_placement_exclusive, 120)
{
	const struct nictl_place place = { .queue = 0, .cpu = 4 };
	struct nictl_bind_args args = { .ifname = "vnode1" };
	struct cpus node1;

	ASSERT_EQ(0, node_cpus(1, &node1));
	/* Neither... */
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->env.snap));
	/* ...nor both. */
	args.cpus = &node1;
	args.n_place = 1;
	args.place = &place;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->env.snap));
}

TEST_F_TIMEOUT(errors, unknown_queue_in_placement, 120)
{
	const struct nictl_place place = { .queue = 99, .cpu = 4 };
	struct nictl_bind_args args = { .ifname = "vnode1", .n_place = 1, .place = &place };

	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(mentions_number(self->res.msg, 99)) TH_LOG("'%s'", self->res.msg);
}

/*
 * A placement CPU past what any CPU bitmap can name is out of the
 * attribute's range; one inside it that this machine lacks does not exist.
 */
TEST_F_TIMEOUT(errors, placement_cpu_range, 120)
{
	struct nictl_place place = { .queue = 0, .cpu = NICTL_CPUMASK_MAX_BYTES * 8 };
	struct nictl_bind_args args = { .ifname = "vnode1", .n_place = 1, .place = &place };

	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, ERANGE, true, &self->env.snap));
	place.cpu--;
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(mentions_number(self->res.msg, place.cpu)) TH_LOG("'%s'", self->res.msg);
}

TEST_F_TIMEOUT(errors, unknown_attribute, 120)
{
	const uint32_t value = 0;
	struct nlmsghdr *nlh;
	struct nlattr *bad;

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_DEV_GET, 0);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, NICTL_A_MAX + 1, sizeof(value), &value);
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(points_at(&self->res, nlh, bad));

	nlh = bind_start(self, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, NICTL_A_MAX + 1, sizeof(value), &value);
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(points_at(&self->res, nlh, bad));
}

/* Commands without a policy: any attribute is refused, none is ignored. */
TEST_F_TIMEOUT(errors, attribute_to_a_command_that_takes_none, 120)
{
	struct nlmsghdr *nlh;
	struct nlattr *bad;

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_STATS_RESET, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(points_at(&self->res, nlh, bad));

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_STATS_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, false, &self->env.snap));
}

/*
 * The genetlink header's reserved field must be 0, and the netlink flags
 * those the family gives a meaning (6.1's check, which compat_genl.c makes
 * before 6.1, where a dump's refusal has no message).
 */
TEST_F_TIMEOUT(errors, reserved_header_bits, 120)
{
	struct genlmsghdr *genl;
	struct nlmsghdr *nlh;

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_DEV_GET, 0);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	genl = mnl_nlmsg_get_payload(nlh);
	genl->reserved = 1;
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_DEV_GET, NLM_F_DUMP);
	genl = mnl_nlmsg_get_payload(nlh);
	genl->reserved = 1;
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, false, &self->env.snap));

	/* Half of NLM_F_DUMP asks for nothing a do command knows. */
	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_DEV_GET, NLM_F_ROOT);
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
}

TEST_F_TIMEOUT(errors, wrong_attribute_length, 120)
{
	const uint8_t byte = 1;
	struct nlmsghdr *nlh;
	struct nlattr *bad;

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_DEV_GET, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, NICTL_A_IFINDEX, sizeof(byte), &byte);
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(points_at(&self->res, nlh, bad));

	nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_BIND, 0);
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put(nlh, NICTL_A_IFINDEX, sizeof(byte), &byte);
	mnl_attr_put_u32(nlh, NICTL_A_FLAGS, 0);
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(points_at(&self->res, nlh, bad));
}

TEST_F_TIMEOUT(errors, flags_outside_mask, 120)
{
	struct nlmsghdr *nlh = nictl_msg(&self->env.nl, self->buf, NICTL_CMD_BIND, 0);
	struct nlattr *bad;
	struct cpus node1;

	ASSERT_EQ(0, node_cpus(1, &node1));
	mnl_attr_put_strz(nlh, NICTL_A_IFNAME, "vnode1");
	bad = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, NICTL_A_FLAGS, NICTL_BIND_F_ALL + 1);
	nictl_put_cpus(nlh, NICTL_A_CPUS, &node1);
	EXPECT_TRUE(refused(send_req(self, nlh), &self->res, EINVAL, true, &self->env.snap));
	EXPECT_TRUE(points_at(&self->res, nlh, bad));
}

/* e1000e requests its IRQs at open: down, the device has none to bind. */
TEST_F_TIMEOUT(errors, device_down_has_no_queue_irqs, 300)
{
	struct nictl_bind_args args = { .ifname = "e1k" };
	struct irq_snapshot *down = malloc(sizeof(*down));
	struct cpus node0;

	ASSERT_NE(NULL, down);
	ASSERT_EQ(0, node_cpus(0, &node0));
	args.cpus = &node0;
	ASSERT_EQ(0, netdev_set_up("e1k", false));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "e1k", &self->reply, &self->res));
	EXPECT_EQ(0U, self->reply.n_irqs);
	EXPECT_EQ((uint32_t)NICTL_IRQ_SOURCE_NONE, self->reply.source);
	EXPECT_EQ(0U, self->reply.dev_flags & NICTL_DEV_F_UP);
	ASSERT_EQ(0, irq_snapshot_take(down));
	EXPECT_TRUE(refused(nictl_bind(&self->env.nl, &args, &self->reply, &self->res),
			    &self->res, ENOENT, true, down));

	ASSERT_EQ(0, netdev_set_up("e1k", true));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "e1k", &self->reply, &self->res));
	EXPECT_EQ(2U, self->reply.n_irqs);
	EXPECT_TRUE(self->reply.dev_flags & NICTL_DEV_F_UP);
	free(down);
}

/* What the unprivileged half of a test, in a child that dropped root, needs. */
struct unpriv_args {
	struct __test_metadata *_metadata;
	bool bound;
};

/* Reports through EXPECT_*() only: see run_unprivileged(). */
static void unprivileged(void *arg)
{
	const struct unpriv_args *child = arg;
	struct __test_metadata *_metadata = child->_metadata;
	struct nictl_bind_args args = { .ifname = "vnode1" };
	struct nictl_devs *devs = malloc(sizeof(*devs));
	struct nictl_dev reply;
	struct nl_result res;
	struct nl_client nl;
	struct cpus node1;

	EXPECT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	/* The socket is opened after the switch, so it carries no root creds. */
	EXPECT_EQ(0, nictl_open(&nl));
	EXPECT_EQ(-EPERM, nictl_bind(&nl, &args, &reply, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(-EPERM, nictl_restore(&nl, "vnode1", &reply, &res));
	EXPECT_EQ(EPERM, res.err);
	EXPECT_EQ(0, nictl_dev_get(&nl, "vnode1", &reply, &res));
	EXPECT_EQ(2U * 2, reply.n_irqs);
	EXPECT_EQ(child->bound, !!(reply.dev_flags & NICTL_DEV_F_BOUND));
	EXPECT_NE(NULL, devs);
	if (devs) {
		EXPECT_EQ(0, nictl_dev_dump(&nl, devs, &res));
		EXPECT_NE(NULL, nictl_devs_find(devs, "vnode1"));
	}
	free(devs);
	nl_close(&nl);
}

TEST_F_TIMEOUT(errors, unprivileged_user_may_only_read, 300)
{
	struct unpriv_args child = { _metadata, false };

	ASSERT_EQ(0, run_unprivileged(unprivileged, &child)) TH_LOG("uid %d", UNPRIV_ID);
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

/* Nor may such a user undo root's binding. */
TEST_F_TIMEOUT(errors, unprivileged_user_cannot_restore, 300)
{
	struct nictl_bind_args args = { .ifname = "vnode1" };
	struct unpriv_args child = { _metadata, true };
	struct irq_snapshot *bound = malloc(sizeof(*bound));
	struct cpus node1;

	ASSERT_NE(NULL, bound);
	ASSERT_EQ(0, node_cpus(1, &node1));
	args.cpus = &node1;
	ASSERT_EQ(0, nictl_bind(&self->env.nl, &args, &self->reply, &self->res));
	ASSERT_EQ(0, irq_snapshot_take(bound));
	ASSERT_EQ(0, run_unprivileged(unprivileged, &child)) TH_LOG("uid %d", UNPRIV_ID);
	EXPECT_EQ(0, irq_snapshot_changes(bound));
	free(bound);
}

/* The family is registered in the initial network namespace only. */
TEST_F_TIMEOUT(errors, family_absent_from_other_network_namespaces, 300)
{
	struct nl_client nl;
	int status;
	pid_t pid;

	pid = fork_flushed();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (unshare(CLONE_NEWNET))
			_exit(1);
		EXPECT_EQ(-ENOENT, nictl_open(&nl));
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status)) TH_LOG("unshare(CLONE_NEWNET) failed");
	EXPECT_EQ(0, irq_snapshot_changes(&self->env.snap));
}

NICTL_TEST_MAIN
