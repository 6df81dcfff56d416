// SPDX-License-Identifier: GPL-2.0
/* The lines `nictlctl monitor` prints for events, as text and as JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "event_fmt.h"

/* 2023-11-14 22:13:20.250 UTC */
static const struct timespec when = { .tv_sec = 1700000000, .tv_nsec = 250000000 };

FIXTURE(fmt) {
	struct ctl_event ev;
	struct nictl_dev dev;
	struct nictl_irq irqs[2];
	struct cpuset was[2];
	unsigned int old_irqs[3];
	char *text;
	size_t size;
	FILE *f;
};

FIXTURE_SETUP(fmt)
{
	static const unsigned char mac[] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0xab };
	unsigned int i;

	setenv("TZ", "UTC", 1);
	tzset();
	memset(&self->ev, 0, sizeof(self->ev));
	memset(&self->dev, 0, sizeof(self->dev));
	memset(self->irqs, 0, sizeof(self->irqs));
	memset(self->was, 0, sizeof(self->was));
	self->dev = (struct nictl_dev){
		.ifindex = 3, .ifname = "lan0", .driver = "e1000e", .bus_addr = "0000:00:1f.6",
		.numa_node = 1, .rx_queues = 2, .tx_queues = 2, .flags = NICTL_DEV_F_UP,
		.source = NICTL_IRQ_SOURCE_MSI, .irqs = self->irqs, .nr_irqs = 2,
	};
	for (i = 0; i < 2; i++) {
		self->irqs[i] = (struct nictl_irq){
			.queue = i, .kind = NICTL_QUEUE_KIND_COMBINED, .irq = 45 + i,
			.name = "lan0-TxRx", .node = 1, .flags = NICTL_IRQ_F_BOUND,
			.target_cpu = 6 + i,
		};
		ASSERT_EQ(0, cpuset_add(&self->irqs[i].affinity, 6 + i));
		ASSERT_EQ(0, cpuset_add(&self->irqs[i].effective, 6 + i));
		ASSERT_EQ(0, cpuset_parse(&self->was[i], "0-7"));
	}
	self->ev.seq = 7;
	self->ev.time_ns = 123456789;
	self->ev.dev = (struct dev_list){ &self->dev, 1, NULL, 0 };
	self->ev.was = self->was;
	memcpy(self->ev.perm_addr, mac, sizeof(mac));
	self->ev.perm_addr_len = sizeof(mac);
	self->ev.old_rx_queues = -1;
	self->ev.old_tx_queues = -1;
	self->text = NULL;
	self->f = open_memstream(&self->text, &self->size);
	ASSERT_NE(NULL, self->f);
}

FIXTURE_TEARDOWN(fmt)
{
	unsigned int i;

	for (i = 0; i < 2; i++) {
		cpuset_free(&self->irqs[i].affinity);
		cpuset_free(&self->irqs[i].effective);
		cpuset_free(&self->was[i]);
	}
	free(self->text);
}

static unsigned int lines(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static const char *text(FIXTURE_DATA(fmt) *self)
{
	fclose(self->f);
	return self->text;
}

TEST_F(fmt, device_event_names_the_device)
{
	self->ev.type = NICTL_EVENT_DOWN;
	self->dev.nr_irqs = 0;
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 down lan0 ifindex 3, e1000e at 0000:00:1f.6, "
		     "mac 52:54:00:12:34:ab, node 1, queues 2/2\n", text(self));
}

TEST_F(fmt, rename_says_the_old_name)
{
	self->ev.type = NICTL_EVENT_RENAMED;
	self->ev.old_ifname = "eth0";
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 renamed lan0 from eth0\n", text(self));
}

TEST_F(fmt, queue_change_old_and_new)
{
	self->ev.type = NICTL_EVENT_QUEUES_CHANGED;
	self->ev.old_rx_queues = 3;
	self->ev.old_tx_queues = 3;
	self->old_irqs[0] = 45;
	self->old_irqs[1] = 46;
	self->old_irqs[2] = 47;
	self->ev.old_irqs = self->old_irqs;
	self->ev.nr_old_irqs = 3;
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 queues-changed lan0 queues 3/3 -> 2/2, "
		     "irqs 45,46,47 -> 45,46\n", text(self));
}

TEST_F(fmt, drift_expected_and_found)
{
	self->ev.type = NICTL_EVENT_DRIFT;
	self->dev.nr_irqs = 1;
	cpuset_free(&self->was[0]);
	ASSERT_EQ(0, cpuset_add(&self->was[0], 6));
	cpuset_free(&self->irqs[0].affinity);
	ASSERT_EQ(0, cpuset_parse(&self->irqs[0].affinity, "0-7"));
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 drift lan0 irq 45 expected 6 found 0-7\n", text(self));
}

TEST_F(fmt, bind_says_who_and_old_to_new)
{
	self->ev.type = NICTL_EVENT_BOUND;
	self->ev.who = true;
	self->ev.pid = 123;
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 bound lan0 by pid 123 uid 0: irq 45 0-7 -> 6, "
		     "irq 46 0-7 -> 7\n", text(self));
}

/* A user who may not join the audit group learns the requester's port only. */
TEST_F(fmt, bind_heard_without_audit_names_the_port)
{
	self->ev.type = NICTL_EVENT_BOUND;
	self->ev.portid = 4242;
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 bound lan0 by port 4242: irq 45 0-7 -> 6, "
		     "irq 46 0-7 -> 7\n", text(self));
}

/* Nobody asked for a sticky apply: the line names the identity instead. */
TEST_F(fmt, sticky_apply_names_the_identity)
{
	self->ev.type = NICTL_EVENT_STICKY_APPLIED;
	self->dev.sticky_id = "pci:0000:00:1f.6";
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 sticky-applied lan0 as pci:0000:00:1f.6: "
		     "irq 45 0-7 -> 6, irq 46 0-7 -> 7\n", text(self));
}

TEST_F(fmt, sticky_failure_says_why)
{
	static const char want[] = "22:13:20.250 seq 7 sticky-failed lan0 as pci:0000:00:1f.6: "
				   "CPU 6 is offline (EINVAL)\n";
	const char *out;

	self->ev.type = NICTL_EVENT_STICKY_FAILED;
	self->ev.err = EINVAL;
	self->ev.message = "CPU 6 is offline";
	self->dev.sticky_id = "pci:0000:00:1f.6";
	self->dev.nr_irqs = 0;
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	ASSERT_EQ(0, event_print_json(self->f, &self->ev, &when));
	out = text(self);
	EXPECT_EQ(0, strncmp(out, want, strlen(want))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"sticky_id\":\"pci:0000:00:1f.6\"")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"errno\":\"EINVAL\",\"message\":\"CPU 6 is offline\","))
		TH_LOG("%s", out);
}

TEST_F(fmt, linked_names_the_upper_and_what_the_device_is_under_now)
{
	static const char want[] = "22:13:20.250 seq 7 linked lan0 under bond0.7, "
				   "under bond0,bond0.7 now\n";
	const char *out;

	self->ev.type = NICTL_EVENT_LINKED;
	self->ev.link = "bond0.7";
	self->dev.uppers = "bond0,bond0.7";
	self->dev.nr_irqs = 0;
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	ASSERT_EQ(0, event_print_json(self->f, &self->ev, &when));
	out = text(self);
	EXPECT_EQ(0, strncmp(out, want, strlen(want))) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"uppers\":[\"bond0\",\"bond0.7\"]")) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"link\":\"bond0.7\"")) TH_LOG("%s", out);
}

TEST_F(fmt, unlinked_names_the_upper_it_left)
{
	self->ev.type = NICTL_EVENT_UNLINKED;
	self->ev.link = "bond0";
	self->dev.nr_irqs = 0;
	ASSERT_EQ(0, event_print_text(self->f, &self->ev, &when));
	EXPECT_STREQ("22:13:20.250 seq 7 unlinked lan0 from bond0\n", text(self));
}

TEST_F(fmt, json_is_one_object_on_one_line)
{
	const char *out;

	self->ev.type = NICTL_EVENT_RESTORED;
	self->ev.portid = 77;
	self->ev.who = true;
	self->ev.pid = 9;
	self->ev.uid = 1000;
	ASSERT_EQ(0, event_print_json(self->f, &self->ev, &when));
	out = text(self);
	EXPECT_EQ('{', out[0]);
	EXPECT_EQ(strlen(out) - 1, (size_t)(strchr(out, '\n') - out));
	EXPECT_EQ(0, strncmp(out, "{\"time\":\"2023-11-14T22:13:20.250Z\",\"seq\":7,"
			     "\"event\":\"restored\",\"time_ns\":123456789,\"ifname\":\"lan0\",",
			     70)) TH_LOG("%s", out);
	EXPECT_NE(NULL, strstr(out, "\"perm_addr\":\"52:54:00:12:34:ab\",\"portid\":77,\"pid\":9,"
				    "\"uid\":1000,"
				    "\"irqs\":[{\"queue\":0,"));
	EXPECT_NE(NULL, strstr(out, "\"target_cpu\":6,\"old_affinity\":[0,1,2,3,4,5,6,7],"
				    "\"old_affinity_list\":\"0-7\"}"));
	EXPECT_EQ(NULL, strstr(out, "old_ifname"));
}

TEST_F(fmt, json_of_a_drift_and_a_rename)
{
	const char *out;

	self->ev.type = NICTL_EVENT_DRIFT;
	self->dev.nr_irqs = 1;
	ASSERT_EQ(0, event_print_json(self->f, &self->ev, &when));
	self->ev.type = NICTL_EVENT_RENAMED;
	self->ev.old_ifname = "eth0";
	self->dev.nr_irqs = 0;
	ASSERT_EQ(0, event_print_json(self->f, &self->ev, &when));
	out = text(self);
	EXPECT_NE(NULL, strstr(out, "\"expected\":[0,1,2,3,4,5,6,7],\"expected_list\":\"0-7\"}]}\n"));
	EXPECT_NE(NULL, strstr(out, "\"old_ifname\":\"eth0\",\"irqs\":[]}\n"));
	EXPECT_EQ(2U, lines(out));
}

TEST_HARNESS_MAIN
