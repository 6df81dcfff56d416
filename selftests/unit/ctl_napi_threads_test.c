// SPDX-License-Identifier: GPL-2.0
/*
 * ctl/napi/threads.c: which queue IRQ each NAPI thread serves, with the
 * kernel's links and without them, and the lines and JSON `show` prints,
 * from a fake sysfs (two nodes) and a fake /proc.
 */
#include "ctl_fakesys.h"

#include "kselftest_harness.h"

#include "napi/threads.h"

FIXTURE(threads) {
	struct fakesys sys;
	struct irq_queue served[2];
	struct nictl_irq irqs[2];
	struct nictl_dev dev;
	struct napi_threads out;
};

/*
 * vnode1, two combined queues on IRQs 45 (placed on CPU 4) and 46 (on
 * CPU 5); CPUs 0-3 are node 0, 4-7 node 1. Thread 312 may run anywhere,
 * thread 313 on node 1 only.
 */
FIXTURE_SETUP(threads)
{
	unsigned int i;

	fakesys_create(&self->sys);
	setenv("NICTL_PROCFS", self->sys.root, 1);
	fakesys_write(&self->sys, "0-1\n", "devices/system/node/online");
	fakesys_write(&self->sys, "0-3\n", "devices/system/node/node0/cpulist");
	fakesys_write(&self->sys, "4-7\n", "devices/system/node/node1/cpulist");
	fakesys_write(&self->sys, "napi/vnode1-8193\n", "312/comm");
	fakesys_write(&self->sys, "Name:\tnapi/vnode1-8193\nCpus_allowed_list:\t0-7\n",
		      "312/status");
	fakesys_write(&self->sys, "napi/vnode1-8194\n", "313/comm");
	fakesys_write(&self->sys, "Name:\tnapi/vnode1-8194\nCpus_allowed_list:\t4-7\n",
		      "313/status");
	memset(self->irqs, 0, sizeof(self->irqs));
	for (i = 0; i < 2; i++) {
		self->served[i] = (struct irq_queue){ i, NICTL_QUEUE_KIND_COMBINED };
		self->irqs[i] = (struct nictl_irq){
			.queue = i, .kind = NICTL_QUEUE_KIND_COMBINED, .irq = 45 + i,
			.queues = &self->served[i], .nr_queues = 1, .target_cpu = 4 + i,
			.node = 1,
		};
	}
	self->dev = (struct nictl_dev){
		.ifindex = 3, .ifname = "vnode1", .numa_node = 1, .irqs = self->irqs,
		.nr_irqs = 2,
	};
	memset(&self->out, 0, sizeof(self->out));
}

FIXTURE_TEARDOWN(threads)
{
	napi_threads_release(&self->out);
	unsetenv("NICTL_PROCFS");
	fakesys_destroy(&self->sys);
}

/* The driver links each NAPI to its IRQ (igb, 6.13+): the links decide. */
TEST_F(threads, irq_links_decide)
{
	const struct napi_info napis[] = {
		{ .id = 8194, .irq = 45, .pid = 313, .rx_queue = -1, .threaded = -1 },
		{ .id = 8193, .irq = 46, .pid = 312, .rx_queue = -1, .threaded = -1 },
	};

	ASSERT_EQ(0, napi_threads_tie(&self->dev, napis, 2, true, &self->out));
	ASSERT_EQ(2, self->out.n);
	EXPECT_EQ(8193, self->out.t[0].napi_id);
	EXPECT_EQ(46, self->out.t[0].irq);
	EXPECT_EQ(8194, self->out.t[1].napi_id);
	EXPECT_EQ(45, self->out.t[1].irq);
}

/* Only queues are linked to NAPIs: a NAPI's receive queue gives its IRQ. */
TEST_F(threads, queue_links_decide)
{
	const struct napi_info napis[] = {
		{ .id = 8193, .pid = 312, .rx_queue = 1, .threaded = -1 },
		{ .id = 8194, .pid = 313, .rx_queue = 0, .threaded = -1 },
	};

	ASSERT_EQ(0, napi_threads_tie(&self->dev, napis, 2, true, &self->out));
	ASSERT_EQ(2, self->out.n);
	EXPECT_EQ(46, self->out.t[0].irq);
	EXPECT_EQ(45, self->out.t[1].irq);
}

/*
 * No link at all (virtio_net before 6.14): NAPIs in id order serve receive
 * queues 0, 1, ...; a NAPI that is not threaded is no thread but keeps its
 * place in that order.
 */
TEST_F(threads, id_order_without_links)
{
	const struct napi_info napis[] = {
		{ .id = 8194, .pid = 313, .rx_queue = -1, .threaded = -1 },
		{ .id = 8193, .pid = 0, .rx_queue = -1, .threaded = -1 },
	};

	ASSERT_EQ(0, napi_threads_tie(&self->dev, napis, 2, true, &self->out));
	ASSERT_EQ(1, self->out.n);
	EXPECT_EQ(8194, self->out.t[0].napi_id);
	EXPECT_EQ(46, self->out.t[0].irq);
}

/* Links exist, but not for this NAPI: it is tied to no IRQ rather than guessed. */
TEST_F(threads, unlinked_napi_among_linked_ones_is_untied)
{
	const struct napi_info napis[] = {
		{ .id = 8193, .irq = 45, .pid = 312, .rx_queue = 0, .threaded = -1 },
		{ .id = 8194, .pid = 313, .rx_queue = -1, .threaded = -1 },
	};

	ASSERT_EQ(0, napi_threads_tie(&self->dev, napis, 2, true, &self->out));
	ASSERT_EQ(2, self->out.n);
	EXPECT_EQ(45, self->out.t[0].irq);
	EXPECT_EQ(0, self->out.t[1].irq);
}

/*
 * A thread outlives threaded mode switched off: where the NAPI says (6.17+)
 * its word counts, else the device's sysfs "threaded".
 */
TEST_F(threads, a_thread_that_does_not_poll_is_no_napi_thread)
{
	const struct napi_info napis[] = {
		{ .id = 8193, .irq = 45, .pid = 312, .rx_queue = -1, .threaded = 0 },
		{ .id = 8194, .irq = 46, .pid = 313, .rx_queue = -1, .threaded = 2 },
		{ .id = 8195, .pid = 314, .rx_queue = -1, .threaded = -1 },
	};

	ASSERT_EQ(0, napi_threads_tie(&self->dev, napis, 3, false, &self->out));
	ASSERT_EQ(1, self->out.n);
	EXPECT_EQ(313, self->out.t[0].pid);
	napi_threads_release(&self->out);
	ASSERT_EQ(0, napi_threads_tie(&self->dev, napis, 3, true, &self->out));
	ASSERT_EQ(2, self->out.n);
	EXPECT_EQ(313, self->out.t[0].pid);
	EXPECT_EQ(314, self->out.t[1].pid);
}

/* Names and CPUs from /proc; a thread gone since the dump is dropped. */
TEST_F(threads, fill_reads_proc_and_drops_ended_threads)
{
	const struct napi_info napis[] = {
		{ .id = 8193, .irq = 45, .pid = 312, .rx_queue = -1, .threaded = -1 },
		{ .id = 8194, .irq = 46, .pid = 999, .rx_queue = -1, .threaded = -1 },
		{ .id = 8195, .pid = 313, .rx_queue = -1, .threaded = -1 },
	};
	char *cpus;

	ASSERT_EQ(0, napi_threads_tie(&self->dev, napis, 3, true, &self->out));
	ASSERT_EQ(3, self->out.n);
	napi_threads_fill(&self->out);
	ASSERT_EQ(2, self->out.n);
	EXPECT_STREQ("napi/vnode1-8193", self->out.t[0].name);
	cpus = cpuset_format(&self->out.t[0].cpus);
	EXPECT_STREQ("0-7", cpus);
	free(cpus);
	EXPECT_EQ(313, self->out.t[1].pid);
	EXPECT_EQ(0, self->out.t[1].irq);
	cpus = cpuset_format(&self->out.t[1].cpus);
	EXPECT_STREQ("4-7", cpus);
	free(cpus);
}

static char *table_of(struct __test_metadata *_metadata, const struct nictl_dev *dev,
		      struct napi_threads *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, napi_threads_table(f, dev, t));
	fclose(f);
	return text;
}

/* The rows, and a warning for the thread that may leave its IRQ's node. */
TEST_F(threads, table_warns_of_a_thread_off_its_irqs_node)
{
	struct napi_thread t[2] = {
		{ .napi_id = 8193, .irq = 45, .pid = 312, .name = "napi/vnode1-8193" },
		{ .napi_id = 8194, .irq = 46, .pid = 313, .name = "napi/vnode1-8194" },
	};
	struct napi_threads threads = { .t = t, .n = 2, .looked = true };
	char *text;

	ASSERT_EQ(0, cpuset_parse(&t[0].cpus, "0-7"));
	ASSERT_EQ(0, cpuset_parse(&t[1].cpus, "4-7"));
	text = table_of(_metadata, &self->dev, &threads);
	EXPECT_STREQ("  napi threads:\n"
		     "    IRQ  NAPI  PID  THREAD            CPUS\n"
		     "    45   8193  312  napi/vnode1-8193  0-7\n"
		     "    46   8194  313  napi/vnode1-8194  4-7\n"
		     "  warning: irq 45 interrupts CPU 4 of node 1, its NAPI thread "
		     "napi/vnode1-8193 (pid 312) may run on CPUs 0-3 of another node\n", text);
	free(text);
	cpuset_free(&t[0].cpus);
	cpuset_free(&t[1].cpus);
}

/* A device that polls in threads the kernel does not name says so; one that does not, nothing. */
TEST_F(threads, table_of_unnamed_threads_and_of_none)
{
	struct napi_threads threads = { .untied_threaded = true, .looked = true };
	char *text;

	text = table_of(_metadata, &self->dev, &threads);
	EXPECT_STREQ("  napi threads: polled in threads the kernel does not tie to queues "
		     "(no netdev-genl NAPI_GET)\n", text);
	free(text);
	threads.untied_threaded = false;
	text = table_of(_metadata, &self->dev, &threads);
	EXPECT_STREQ("", text);
	free(text);
}

static int json_of_threads(struct json *j, const void *arg)
{
	const struct nictl_dev *dev = ((const void *const *)arg)[0];
	const struct napi_threads *t = ((const void *const *)arg)[1];

	json_obj_begin(j, NULL);
	if (napi_threads_json(j, dev, t))
		return -1;
	json_obj_end(j);
	return 0;
}

TEST_F(threads, json_members)
{
	struct napi_thread t = { .napi_id = 8193, .irq = 45, .pid = 312,
				 .name = "napi/vnode1-8193" };
	struct napi_threads threads = { .t = &t, .n = 1, .looked = true };
	const void *arg[] = { &self->dev, &threads };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, cpuset_parse(&t.cpus, "0-7"));
	EXPECT_EQ(0, json_print_doc(f, json_of_threads, arg));
	fclose(f);
	EXPECT_STREQ("{\"napi_threads\":{\"unknown\":false,\"threads\":[{\"napi_id\":8193,"
		     "\"irq\":45,\"pid\":312,\"name\":\"napi/vnode1-8193\","
		     "\"cpus\":[0,1,2,3,4,5,6,7],\"cpus_list\":\"0-7\",\"irq_cpu\":4,"
		     "\"off_node\":true}]}}\n", text);
	free(text);

	/* Another namespace's device: not looked at, no member rather than a guess. */
	threads.looked = false;
	text = NULL;
	f = open_memstream(&text, &len);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(0, json_print_doc(f, json_of_threads, arg));
	fclose(f);
	EXPECT_STREQ("{}\n", text);
	free(text);
	cpuset_free(&t.cpus);
}

TEST_HARNESS_MAIN
