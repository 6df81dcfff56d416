// SPDX-License-Identifier: GPL-2.0
/*
 * The commands end to end, against a fake nictl module. The test defines the
 * libnl calls through which nictlctl reaches the kernel (family lookup,
 * callback registration, send, receive); the linker prefers them to libnl's,
 * so requests land here and replies are handed straight to nictlctl's
 * callbacks. The topology comes from a fake sysfs: 8 CPUs, node 0 = 0-3,
 * node 1 = 4-7, SMT pairs (0,1) (2,3) (4,5) (6,7).
 */
#include "ctl_fakesys.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>

#include "commands.h"
#include "cpuset.h"
#include "ctl_capture.h"
#include "ctl_fakenl.h"
#include "netns.h"
#include "report.h"
#include "steer/knob.h"
#include "util.h"

#define FAMILY	0x42
/* What the fake root, with no module tree, makes of a missing module (module_absent.c). */
#define NOT_INSTALLED	"nictlctl: module nictl is not loaded: nictl.ko is not installed for kernel "

/* The device the fake module knows: 4 combined queues, IRQs 40-43. */
struct fake_dev {
	unsigned int ifindex;
	const char *name;
	int node;
	unsigned int queues;
};

/* The fake module: what it answers and what it was asked. */
static struct {
	struct fake_dev dev;
	int error;				/* answer every request with this */
	const char *extack;			/* ... and this message */
	uint8_t reply_cmd;			/* reply with this command, not the request's */
} fk;

static struct nl_msg *new_reply(uint8_t cmd)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg || !genlmsg_put(msg, 0, 0, FAMILY, 0, 0, cmd, NICTL_FAMILY_VERSION))
		abort();
	return msg;
}

static void deliver(enum nl_cb_type type, struct nl_msg *msg)
{
	fnl.cb[type](msg, fnl.cb_arg[type]);
	nlmsg_free(msg);
}

static void put_cpu_bitmap(struct nl_msg *msg, int type, uint8_t byte)
{
	if (nla_put(msg, type, 1, &byte))
		abort();
}

/*
 * Describe the device: all IRQs on CPU 0 (the operators' problem), or, for
 * a bind reply, queue q on the q-th CPU of @targets.
 */
static void send_dev(uint8_t cmd, const struct cpuset *targets)
{
	struct nl_msg *msg = new_reply(fk.reply_cmd ?: cmd);
	unsigned int q, flags = targets ? NICTL_IRQ_F_BOUND : 0;
	char name[32];
	int cpu = -1;

	if (nla_put_u32(msg, NICTL_A_IFINDEX, fk.dev.ifindex) ||
	    nla_put_string(msg, NICTL_A_IFNAME, fk.dev.name) ||
	    nla_put_string(msg, NICTL_A_DRIVER, "virtio_net") ||
	    nla_put_string(msg, NICTL_A_BUS_ADDR, "0000:00:04.0") ||
	    nla_put_s32(msg, NICTL_A_NUMA_NODE, fk.dev.node) ||
	    nla_put_u32(msg, NICTL_A_RX_QUEUES, fk.dev.queues) ||
	    nla_put_u32(msg, NICTL_A_TX_QUEUES, fk.dev.queues) ||
	    nla_put_u32(msg, NICTL_A_DEV_FLAGS, NICTL_DEV_F_UP | (targets ? NICTL_DEV_F_BOUND : 0)) ||
	    nla_put_u32(msg, NICTL_A_SOURCE, NICTL_IRQ_SOURCE_NAPI))
		abort();
	for (q = 0; q < fk.dev.queues; q++) {
		struct nlattr *nest = nla_nest_start(msg, NICTL_A_IRQ);

		snprintf(name, sizeof(name), "virtio0-input.%u", q);
		if (targets)
			cpu = cpuset_next(targets, cpu);
		if (!nest ||
		    nla_put_u32(msg, NICTL_A_IRQ_NUM, 40 + q) ||
		    nla_put_string(msg, NICTL_A_IRQ_NAME, name) ||
		    nla_put_u32(msg, NICTL_A_IRQ_QUEUE, q) ||
		    nla_put_u32(msg, NICTL_A_IRQ_KIND, NICTL_QUEUE_KIND_COMBINED) ||
		    nla_put_u32(msg, NICTL_A_IRQ_FLAGS, flags) ||
		    nla_put_s32(msg, NICTL_A_IRQ_NODE, cpu >= 4))
			abort();
		put_cpu_bitmap(msg, NICTL_A_IRQ_AFFINITY, targets ? 1 << cpu : 0xff);
		put_cpu_bitmap(msg, NICTL_A_IRQ_EFFECTIVE, targets ? 1 << cpu : 0x01);
		if (targets && nla_put_u32(msg, NICTL_A_IRQ_TARGET_CPU, cpu))
			abort();
		nla_nest_end(msg, nest);
	}
	deliver(NL_CB_VALID, msg);
}

/* An error message as the kernel sends it, capped, with an extended ACK. */
static void send_error(const struct nlmsghdr *req)
{
	struct nl_msg *msg = nlmsg_alloc_simple(NLMSG_ERROR, NLM_F_CAPPED);
	struct nlmsgerr err = { .error = fk.error, .msg = *req };

	if (!msg || nlmsg_append(msg, &err, sizeof(err), NLMSG_ALIGNTO))
		abort();
	if (fk.extack) {
		nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_ACK_TLVS;
		if (nla_put_string(msg, NLMSGERR_ATTR_MSG, fk.extack))
			abort();
	}
	fnl.err_cb(NULL, nlmsg_data(nlmsg_hdr(msg)), fnl.err_arg);
	nlmsg_free(msg);
}

/* The fake module at work: answer the last request. */
int nl_recvmsgs(struct nl_sock *sk, struct nl_cb *cb)
{
	const struct nlmsghdr *req = fnl.req[fnl.nr_req - 1];
	const struct genlmsghdr *gnlh = nlmsg_data(req);
	struct nlattr *tb[NICTL_A_MAX + 1];
	struct cpuset targets = CPUSET_INIT;
	struct nl_msg *done;

	(void)sk;
	(void)cb;
	if (fk.error)
		send_error(req);
	else if (gnlh->cmd == NICTL_CMD_BIND) {
		if (genlmsg_parse((struct nlmsghdr *)req, 0, tb, NICTL_A_MAX, NULL) ||
		    !tb[NICTL_A_CPUS] ||
		    cpuset_from_bytes(&targets, nla_data(tb[NICTL_A_CPUS]),
				      nla_len(tb[NICTL_A_CPUS])))
			abort();
		send_dev(NICTL_CMD_BIND, &targets);
		cpuset_free(&targets);
	} else {
		send_dev(gnlh->cmd, NULL);
	}
	if (fk.error)
		return -NLE_FAILURE;
	if (req->nlmsg_flags & NLM_F_DUMP) {
		done = nlmsg_alloc_simple(NLMSG_DONE, NLM_F_MULTI);
		if (!done || nlmsg_append(done, &fk.error, sizeof(fk.error), NLMSG_ALIGNTO))
			abort();
		deliver(NL_CB_FINISH, done);
	} else {
		deliver(NL_CB_ACK, nlmsg_alloc_simple(NLMSG_ERROR, 0));
	}
	return 0;
}

FIXTURE(cmd) {
	struct fakesys fs;
	char *out;
	char *err;
};

FIXTURE_SETUP(cmd)
{
	fakesys_create(&self->fs);
	fakesys_write(&self->fs, "0-7\n", "devices/system/cpu/online");
	fakesys_write(&self->fs, "0-7\n", "devices/system/cpu/present");
	fakesys_write(&self->fs, "0-3\n", "devices/system/node/node0/cpulist");
	fakesys_write(&self->fs, "4-7\n", "devices/system/node/node1/cpulist");
	fakesys_write(&self->fs, "0-1\n", "devices/system/node/online");
	fakesys_smt_pairs(&self->fs, 8);
	memset(&fk, 0, sizeof(fk));
	fnl_reset();
	fnl.family = FAMILY;
	fk.dev = (struct fake_dev){ 3, "vnode1", 1, 4 };
	self->out = NULL;
	self->err = NULL;
}

FIXTURE_TEARDOWN(cmd)
{
	fnl_reset();
	free(self->out);
	free(self->err);
	fakesys_destroy(&self->fs);
}

/* Run @fn on the NULL-terminated arguments, capturing what it prints. */
static int run(FIXTURE_DATA(cmd) *self, int (*fn)(int, char **), ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;

	va_start(ap, fn);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	return capture_command(fn, argv, &self->out, &self->err);
}

/* The attributes of request @i. */
static void req_attrs(unsigned int i, struct nlattr **tb)
{
	if (genlmsg_parse(fnl.req[i], 0, tb, NICTL_A_MAX, NULL))
		abort();
}

static uint8_t req_cpus(unsigned int i)
{
	struct nlattr *tb[NICTL_A_MAX + 1];

	req_attrs(i, tb);
	if (!tb[NICTL_A_CPUS] || nla_len(tb[NICTL_A_CPUS]) != 1)
		return 0;
	return *(uint8_t *)nla_data(tb[NICTL_A_CPUS]);
}

static uint32_t req_flags(unsigned int i)
{
	struct nlattr *tb[NICTL_A_MAX + 1];

	req_attrs(i, tb);
	return tb[NICTL_A_FLAGS] ? nla_get_u32(tb[NICTL_A_FLAGS]) : 0xdead;
}

/*
 * The host-wide RFS table size: the host's own, as no test can fake it.
 * The test devices have rps_flow_cnt 0, so its value makes no warning.
 */
static unsigned int host_flow_entries(void)
{
	unsigned int entries;

	if (flow_entries_read(&entries))
		abort();
	return entries;
}

/* vnode1's queues in sysfs: RPS of rx queue 1 on node 1, all its IRQs on CPU 0 (node 0). */
static void fake_queues(const struct fakesys *fs)
{
	static const char *const rps[] = { "f\n", "f0\n", "0\n", "0\n" };
	static const char *const xps[] = { "1\n", "2\n", "4\n", "8\n" };
	unsigned int q;

	for (q = 0; q < 4; q++) {
		fakesys_write(fs, rps[q], "class/net/vnode1/queues/rx-%u/rps_cpus", q);
		fakesys_write(fs, "0\n", "class/net/vnode1/queues/rx-%u/rps_flow_cnt", q);
		fakesys_write(fs, xps[q], "class/net/vnode1/queues/tx-%u/xps_cpus", q);
	}
}

TEST_F(cmd, show_dumps_all_devices)
{
	char want[2048];

	fake_queues(&self->fs);
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", NULL));
	ASSERT_EQ(1, fnl.nr_req);
	EXPECT_EQ(NLM_F_DUMP, fnl.req[0]->nlmsg_flags & NLM_F_DUMP);
	EXPECT_STREQ("", self->err);
	snprintf(want, sizeof(want),
		 "vnode1 (ifindex 3): driver virtio_net, bus 0000:00:04.0, node 1, "
		 "queues rx 4 tx 4, up, not bound, irqs from napi\n"
		 "  QUEUE  KIND      IRQ  NAME             CPUS  EFFECTIVE  NODE  TARGET  FLAGS\n"
		 "  0      combined  40   virtio0-input.0  0-7   0          0     -       -\n"
		 "  1      combined  41   virtio0-input.1  0-7   0          0     -       -\n"
		 "  2      combined  42   virtio0-input.2  0-7   0          0     -       -\n"
		 "  3      combined  43   virtio0-input.3  0-7   0          0     -       -\n"
		 "  steering: net.core.rps_sock_flow_entries %u\n"
		 "    RXQ  IRQ_CPU  NODE  RPS_CPUS  RPS_FLOW_CNT\n"
		 "    0    0        0     0-3       0\n"
		 "    1    0        0     4-7       0\n"
		 "    2    0        0     -         0\n"
		 "    3    0        0     -         0\n"
		 "    TXQ  IRQ_CPU  NODE  XPS_CPUS\n"
		 "    0    0        0     0\n"
		 "    1    0        0     1\n"
		 "    2    0        0     2\n"
		 "    3    0        0     3\n"
		 "  warning: rx queue 1: rps_cpus has CPUs 4-7 of another node than its IRQ's "
		 "CPU 0 (node 0): RPS moves its packets across nodes; steer it to node 0 "
		 "(bind --steer)\n",
		 host_flow_entries());
	EXPECT_STREQ(want, self->out);
}

TEST_F(cmd, show_one_device_as_json)
{
	struct nlattr *tb[NICTL_A_MAX + 1];

	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", "-j", "vnode1", NULL));
	EXPECT_EQ(0, fnl.req[0]->nlmsg_flags & NLM_F_DUMP);
	req_attrs(0, tb);
	ASSERT_NE(NULL, tb[NICTL_A_IFNAME]);
	EXPECT_STREQ("vnode1", nla_get_string(tb[NICTL_A_IFNAME]));
	EXPECT_EQ(0, strncmp("[{\"ifname\":\"vnode1\",\"ifindex\":3,", self->out, 32));
	EXPECT_EQ(']', self->out[strlen(self->out) - 2]);
}

/* The steering in JSON; without queue files in sysfs (no CONFIG_RPS): null, no warning. */
TEST_F(cmd, show_steering_as_json)
{
	char want[1024];

	fk.dev.queues = 1;
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", "-j", "vnode1", NULL));
	snprintf(want, sizeof(want), "\"steering\":{\"rps_sock_flow_entries\":%u,\"rx\":[{"
		 "\"queue\":0,\"irq_cpu\":0,\"node\":0,\"rps_cpus\":null,\"rps_cpus_list\":null,"
		 "\"rps_flow_cnt\":null}],\"tx\":[{\"queue\":0,\"irq_cpu\":0,\"node\":0,"
		 "\"xps_cpus\":null,\"xps_cpus_list\":null}],\"warnings\":[]}}]\n",
		 host_flow_entries());
	EXPECT_NE(NULL, strstr(self->out, want)) TH_LOG("want %s in %s", want, self->out);
	fake_queues(&self->fs);
	fk.dev.queues = 4;
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", "-j", "vnode1", NULL));
	EXPECT_NE(NULL, strstr(self->out, "\"rps_cpus\":[4,5,6,7],\"rps_cpus_list\":\"4-7\","
			       "\"rps_flow_cnt\":0}")) TH_LOG("%s", self->out);
	EXPECT_NE(NULL, strstr(self->out, "\"warnings\":[{\"what\":\"rps-other-node\","
			       "\"queue\":1,\"message\":\"rx queue 1: rps_cpus has CPUs 4-7"))
		TH_LOG("%s", self->out);
}

/* One line that says why the module is absent: bind --sticky stops there, show reads sysfs. */
TEST_F(cmd, missing_module)
{
	fnl.family = -NLE_OBJ_NOTFOUND;
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", "--sticky", NULL));
	EXPECT_EQ(0, strncmp(self->err, NOT_INSTALLED, strlen(NOT_INSTALLED))) TH_LOG("%s", self->err);
	EXPECT_EQ(strchr(self->err, '\n'), strrchr(self->err, '\n')) TH_LOG("one line: %s", self->err);
	EXPECT_STREQ("", self->out);

	EXPECT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", NULL));
	EXPECT_EQ(0, strncmp(self->err, NOT_INSTALLED, strlen(NOT_INSTALLED))) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, ". Shown from sysfs, /proc and the NAPI links of "
			       "netdev-genl, without managed flags"));
	EXPECT_EQ(strchr(self->err, '\n'), strrchr(self->err, '\n')) TH_LOG("one line: %s", self->err);
	EXPECT_STREQ("no network devices with a bus parent\n", self->out);
	ctl_netns_select_id(7);
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_show, "show", NULL));
	ctl_netns_select_none();
	EXPECT_NE(NULL, strstr(self->err, "Without it, show reads this network namespace only"))
		TH_LOG("%s", self->err);
}

TEST_F(cmd, family_hidden_in_another_network_namespace)
{
	/* Loaded (sysfs lists it) yet not found: a netns other than init_net. */
	fnl.family = -NLE_OBJ_NOTFOUND;
	fakesys_write(&self->fs, "live\n", "module/nictl/initstate");
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_show, "show", NULL));
	EXPECT_STREQ("nictlctl: nictl is reachable from the initial network namespace only; "
		     "run nictlctl there (e.g. nsenter -t 1 -n nictlctl ...)\n", self->err);
	EXPECT_STREQ("", self->out);
}

/*
 * sysfs lists a module from before its init until after its exit, while
 * the family exists only in between: found by the stress run, where
 * nictlctl blamed the network namespace during every reload.
 */
TEST_F(cmd, module_going_or_stuck_coming_is_not_loaded)
{
	/* A module whose init never ends is not loaded, once nictlctl has waited for it. */
	static const char *const states[] = { "going\n", "coming\n" };
	unsigned int i;

	fnl.family = -NLE_OBJ_NOTFOUND;
	for (i = 0; i < ARRAY_SIZE(states); i++) {
		fakesys_write(&self->fs, states[i], "module/nictl/initstate");
		EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", "--sticky", NULL));
		EXPECT_EQ(0, strncmp(self->err, NOT_INSTALLED, strlen(NOT_INSTALLED)))
			TH_LOG("%s", self->err);
		EXPECT_EQ(i + 1, fnl.lookups);
	}
}

struct turn_live {
	struct fakesys *fs;
	unsigned int after_ms;
};

/* Renamed into place, as sysfs changes it: no reader sees the file half written. */
static void *turn_live(void *arg)
{
	const struct turn_live *t = arg;
	char from[512], to[512];

	usleep(t->after_ms * 1000);
	fakesys_write(t->fs, "live\n", "module/nictl/initstate.new");
	snprintf(from, sizeof(from), "%s/module/nictl/initstate.new", t->fs->root);
	snprintf(to, sizeof(to), "%s/module/nictl/initstate", t->fs->root);
	if (rename(from, to))
		abort();
	return NULL;
}

/*
 * A command run while the module loads (its lookup finds no family, sysfs
 * says "coming") waits for the init and looks again: the stress run's
 * monitors, restarted as insmod ran, blamed the network namespace or said
 * the module was not loaded.
 */
TEST_F(cmd, module_coming_is_waited_for)
{
	struct turn_live t = { .fs = &self->fs, .after_ms = 200 };
	pthread_t thread;

	fnl.family = -NLE_OBJ_NOTFOUND;
	fnl.family_later = FAMILY;
	fakesys_write(&self->fs, "coming\n", "module/nictl/initstate");
	ASSERT_EQ(0, pthread_create(&thread, NULL, turn_live, &t));
	EXPECT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", NULL));
	pthread_join(thread, NULL);
	EXPECT_STREQ("", self->err);
	EXPECT_EQ(2U, fnl.lookups);
}

TEST_F(cmd, no_such_device)
{
	fk.error = -ENODEV;
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_show, "show", "eth9", NULL));
	EXPECT_STREQ("nictlctl: no such device: eth9\n", self->err);
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "eth9", NULL));
	EXPECT_EQ(2, fnl.nr_req);	/* the DEV_GET failed; no bind was sent */
}

TEST_F(cmd, bind_by_default_keeps_off_cpu0)
{
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", NULL));
	ASSERT_EQ(2, fnl.nr_req);
	EXPECT_EQ(NICTL_CMD_DEV_GET, ((struct genlmsghdr *)nlmsg_data(fnl.req[0]))->cmd);
	EXPECT_EQ(NICTL_CMD_BIND, ((struct genlmsghdr *)nlmsg_data(fnl.req[1]))->cmd);
	EXPECT_EQ(0xfe, req_cpus(1));
	EXPECT_EQ(NICTL_BIND_F_SMT_EXCLUSIVE, req_flags(1));
	EXPECT_STREQ("nictlctl: using CPUs 1-7 (kept off CPU 0)\n", self->err);
	EXPECT_STREQ(
		"vnode1 (ifindex 3): driver virtio_net, bus 0000:00:04.0, node 1, "
		"queues rx 4 tx 4, up, bound, irqs from napi\n"
		"  QUEUE  KIND      IRQ  NAME             CPUS  EFFECTIVE  NODE  TARGET  FLAGS\n"
		"  0      combined  40   virtio0-input.0  1     1          0     1       bound\n"
		"  1      combined  41   virtio0-input.1  2     2          0     2       bound\n"
		"  2      combined  42   virtio0-input.2  3     3          0     3       bound\n"
		"  3      combined  43   virtio0-input.3  4     4          1     4       bound\n",
		self->out);
}

TEST_F(cmd, bind_sends_the_ifindex_it_found)
{
	struct nlattr *tb[NICTL_A_MAX + 1];

	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "--allow-siblings", "vnode1", NULL));
	req_attrs(1, tb);
	ASSERT_NE(NULL, tb[NICTL_A_IFINDEX]);
	EXPECT_EQ(3, nla_get_u32(tb[NICTL_A_IFINDEX]));
	EXPECT_EQ(0, req_flags(1));
}

TEST_F(cmd, numa_local_refuses_too_few_cores)
{
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", "--numa-local", NULL));
	EXPECT_EQ(1, fnl.nr_req);
	EXPECT_STREQ("nictlctl: vnode1 has 4 queues but CPUs 4-7 have only 2 physical cores; "
		     "add CPUs or pass --allow-siblings\n", self->err);
	EXPECT_STREQ("", self->out);
}

TEST_F(cmd, numa_local_with_siblings_allowed)
{
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", "--numa-local",
				    "--allow-siblings", NULL));
	EXPECT_EQ(0xf0, req_cpus(1));
	EXPECT_EQ(NICTL_BIND_F_NUMA_STRICT, req_flags(1));
	EXPECT_STREQ("nictlctl: using CPUs 4-7 (node 1)\n", self->err);
}

TEST_F(cmd, numa_local_needs_a_known_node)
{
	fk.dev.node = -1;
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_bind, "bind", "vnode1", "--numa-local", NULL));
	EXPECT_STREQ("nictlctl: the NUMA node of vnode1 is unknown; use --node N or --cpus LIST\n",
		     self->err);
	EXPECT_EQ(1, fnl.nr_req);
}

TEST_F(cmd, node_and_exclude)
{
	fk.dev.queues = 2;
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "--node", "0", "vnode1",
				    "--exclude", "2", NULL));
	EXPECT_EQ(0x0a, req_cpus(1));	/* 0-3, without 2, then without CPU 0 */
	EXPECT_EQ(NICTL_BIND_F_SMT_EXCLUSIVE, req_flags(1));
	EXPECT_STREQ("nictlctl: using CPUs 1,3 (node 0, without --exclude 2, kept off CPU 0)\n",
		     self->err);
}

TEST_F(cmd, explicit_cpus_are_sent_as_given)
{
	fk.dev.queues = 1;
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", "--cpus", "0", NULL));
	EXPECT_EQ(0x01, req_cpus(1));
	EXPECT_STREQ("nictlctl: using CPUs 0 (as given)\n", self->err);
}

TEST_F(cmd, dry_run_says_nothing_changed)
{
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_bind, "bind", "vnode1", "--dry-run", "-j", NULL));
	EXPECT_EQ(NICTL_BIND_F_SMT_EXCLUSIVE | NICTL_BIND_F_DRY_RUN, req_flags(1));
	EXPECT_STREQ("nictlctl: using CPUs 1-7 (kept off CPU 0)\n"
		     "nictlctl: dry run: nothing changed; shown is the placement bind would "
		     "apply\n", self->err);
	EXPECT_EQ('[', self->out[0]);
	EXPECT_NE(NULL, strstr(self->out, "\"target_cpu\":4}]}]\n"));
}

TEST_F(cmd, kernel_refusal_is_one_line)
{
	fk.dev.queues = 1;
	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_show, "show", "vnode1", NULL));
	fk.error = -EINVAL;
	fk.extack = "CPU 9 does not exist";
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_restore, "restore", "vnode1", NULL));
	EXPECT_STREQ("nictlctl: restore vnode1: CPU 9 does not exist (Invalid argument)\n",
		     self->err);
}

/* A module older than the rule "a reply carries its request's command". */
TEST_F(cmd, reply_of_another_command_is_refused)
{
	fk.dev.queues = 1;
	fk.reply_cmd = NICTL_CMD_DEV_GET;
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_restore, "restore", "vnode1", NULL));
	EXPECT_STREQ("nictlctl: restore vnode1: malformed reply; nictlctl and the nictl module "
		     "must be of one release (Protocol error)\n", self->err);
}

TEST_F(cmd, permission_denied)
{
	fk.error = -EPERM;
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_restore, "restore", "vnode1", NULL));
	EXPECT_STREQ("nictlctl: permission denied: needs CAP_NET_ADMIN in the initial "
		     "user namespace (run as root on the host)\n",
		     self->err);
}

TEST_F(cmd, restore_by_ifindex)
{
	struct nlattr *tb[NICTL_A_MAX + 1];

	ASSERT_EQ(EXIT_SUCCESS, run(self, cmd_restore, "restore", "3", NULL));
	EXPECT_EQ(NICTL_CMD_RESTORE, ((struct genlmsghdr *)nlmsg_data(fnl.req[0]))->cmd);
	req_attrs(0, tb);
	ASSERT_NE(NULL, tb[NICTL_A_IFINDEX]);
	EXPECT_EQ(3, nla_get_u32(tb[NICTL_A_IFINDEX]));
	EXPECT_EQ(NULL, tb[NICTL_A_IFNAME]);
}

TEST_F(cmd, usage_errors_exit_2_without_asking_the_kernel)
{
	EXPECT_EQ(EXIT_USAGE, run(self, cmd_bind, "bind", "vnode1", "--node", "1", "--cpus", "4",
				  NULL));
	EXPECT_STREQ("nictlctl: bind: give only one of --numa-local, --node and --cpus; "
		     "see: nictlctl bind --help\n", self->err);
	EXPECT_EQ(EXIT_USAGE, run(self, cmd_bind, "bind", "vnode1", "--cpus", "3-1", NULL));
	EXPECT_EQ(EXIT_USAGE, run(self, cmd_restore, "restore", NULL));
	EXPECT_EQ(EXIT_USAGE, run(self, cmd_balance, "balance", "--window", "0", NULL));
	EXPECT_STREQ("nictlctl: balance: --window '0': give an interval from 1ms to 3600s, in "
		     "seconds or with a unit: 1, 0.5, 500ms, 2s, 1m; see: nictlctl balance --help\n",
		     self->err);
	EXPECT_EQ(EXIT_USAGE, run(self, cmd_balance, "balance", "--threshold", "101", NULL));
	EXPECT_EQ(EXIT_USAGE, run(self, cmd_balance, "balance", "--numa-local", "--node", "1",
				  "vnode1", NULL));
	EXPECT_STREQ("nictlctl: balance: give only one of --numa-local, --node and --cpus; "
		     "see: nictlctl balance --help\n", self->err);
	EXPECT_EQ(EXIT_USAGE, run(self, cmd_balance, "balance", "--exclude", "x", NULL));
	EXPECT_EQ(0, fnl.nr_req);
}

TEST_F(cmd, balance_refuses_a_config_file_with_an_error)
{
	EXPECT_EQ(EXIT_FAILURE, run(self, cmd_balance, "balance", "-c", "/nonexistent/nictl.conf",
				    NULL));
	EXPECT_STREQ("nictlctl: /nonexistent/nictl.conf: cannot open: No such file or directory\n",
		     self->err);
	EXPECT_EQ(0, fnl.nr_req);
}

/* --check reads the file and nothing else: no request, whatever the file says. */
TEST_F(cmd, daemon_check_only_reads_the_file)
{
	static const char bad[] = "[rule x]\nmatch-name = vnode1\ncpus = nodes 1\n";
	static const char good[] = "[rule x]\nmatch-name = vnode1\ncpus = node 1\n";
	char path[] = "/tmp/nictl-check-XXXXXX", want[128];
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)strlen(bad), pwrite(fd, bad, strlen(bad), 0));
	EXPECT_EQ(EXIT_CONFIG, run(self, cmd_daemon, "daemon", "--check", "-c", path, NULL));
	EXPECT_NE(NULL, strstr(self->err, ":3: cpus: 'nodes 1' is none of")) TH_LOG("%s", self->err);
	EXPECT_NE(NULL, strstr(self->err, "; not valid\n")) TH_LOG("%s", self->err);
	EXPECT_STREQ("", self->out);

	ASSERT_EQ(0, ftruncate(fd, 0));
	ASSERT_EQ((ssize_t)strlen(good), pwrite(fd, good, strlen(good), 0));
	EXPECT_EQ(0, run(self, cmd_daemon, "daemon", "--check", "-c", path, NULL));
	snprintf(want, sizeof(want), "%s: valid, 1 rule\n", path);
	EXPECT_STREQ(want, self->out);

	EXPECT_EQ(EXIT_USAGE, run(self, cmd_daemon, "daemon", "--once", "--check", "-c", path,
				  NULL));
	EXPECT_STREQ("nictlctl: daemon: --once applies the rules, --check only reads them: "
		     "give one of them; see: nictlctl daemon --help\n", self->err);
	EXPECT_EQ(0, fnl.nr_req);
	close(fd);
	unlink(path);
}

/*
 * --check refuses what can never apply on this host (8 CPUs, nodes 0 and
 * 1): CPUs or a node it does not have, an exclude that leaves nothing.
 */
TEST_F(cmd, daemon_check_refuses_what_this_host_cannot_do)
{
	static const char *const cases[][2] = {
		{ "[rule x]\nmatch-name = vnode1\ncpus = 6-9,12\n",
		  ":1: rule 'x': cpus: CPUs 8-9,12 are not on this host (it has 0-7); not valid\n" },
		{ "[rule x]\nmatch-name = vnode1\ncpus = 8\n",
		  ":1: rule 'x': cpus: CPU 8 is not on this host (it has 0-7); not valid\n" },
		{ "[rule x]\nmatch-name = vnode1\ncpus = node 2\n",
		  ":1: rule 'x': cpus: NUMA node 2 is not on this host (its nodes: 0-1); not "
		  "valid\n" },
		{ "[rule ok]\nmatch-name = a\n[rule x]\nmatch-name = vnode1\ncpus = node 1\n"
		  "exclude = 4-7\n",
		  ":3: rule 'x': exclude leaves none of its CPUs (4-7); not valid\n" },
		{ "[rule x]\nmatch-name = vnode1\ncpus = numa-local\nexclude = 0-7\n",
		  ":1: rule 'x': exclude leaves none of its CPUs (0-7); not valid\n" },
		{ "[rule x]\nmatch-name = vnode1\ncpus = 2-3\nexclude = 2-3\n",
		  ":1: rule 'x': exclude leaves none of its CPUs (2-3); not valid\n" },
	};
	static const char fine[] = "[rule x]\nmatch-name = vnode1\ncpus = node 1\nexclude = 4\n"
				   "[rule y]\nmatch-name = e1k\ncpus = 1-7\nexclude = 0\n";
	char path[] = "/tmp/nictl-check-XXXXXX", sys[256];
	int fd = mkstemp(path);
	unsigned int i;

	ASSERT_LE(0, fd);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, ftruncate(fd, 0));
		ASSERT_EQ((ssize_t)strlen(cases[i][0]),
			  pwrite(fd, cases[i][0], strlen(cases[i][0]), 0));
		EXPECT_EQ(EXIT_CONFIG, run(self, cmd_daemon, "daemon", "--check", "-c", path,
					   NULL));
		EXPECT_NE(NULL, strstr(self->err, cases[i][1]))
			TH_LOG("got '%s', want '...%s'", self->err, cases[i][1]);
		EXPECT_STREQ("", self->out);
	}
	ASSERT_EQ(0, ftruncate(fd, 0));
	ASSERT_EQ((ssize_t)strlen(fine), pwrite(fd, fine, strlen(fine), 0));
	EXPECT_EQ(0, run(self, cmd_daemon, "daemon", "--check", "-c", path, NULL))
		TH_LOG("%s", self->err);

	/* In a chroot without /sys the file is still checked, and the host part said skipped. */
	snprintf(sys, sizeof(sys), "%s/devices/system/cpu/present", self->fs.root);
	ASSERT_EQ(0, unlink(sys));
	ASSERT_EQ(0, ftruncate(fd, 0));
	ASSERT_EQ((ssize_t)strlen(cases[0][0]), pwrite(fd, cases[0][0], strlen(cases[0][0]), 0));
	EXPECT_EQ(0, run(self, cmd_daemon, "daemon", "--check", "-c", path, NULL));
	snprintf(sys, sizeof(sys), "%s: valid, 1 rule\n", path);
	EXPECT_STREQ(sys, self->out);
	EXPECT_NE(NULL, strstr(self->err, "shows no CPUs here (a chroot or a container?): the "
			       "rules were not checked against this host\n")) TH_LOG("%s", self->err);
	EXPECT_EQ(0, fnl.nr_req);
	close(fd);
	unlink(path);
}

TEST_HARNESS_MAIN
