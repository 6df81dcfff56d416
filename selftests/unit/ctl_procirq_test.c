// SPDX-License-Identifier: GPL-2.0
/*
 * procirq_cpus() and the empty smp_affinity_list the kernel shows for a
 * moment while a pending affinity move completes (procirq.c). The test
 * stands in for fopen(): an open of the faked file gets the next of the
 * lines a test gave (fmemopen()), so one read can be empty and the next
 * not, and the reads are counted.
 */
#include "ctl_fakesys.h"

#include <dlfcn.h>
#include <errno.h>

#include "kselftest_harness.h"

#include "ctl_cpulist.h"

#include "procirq.h"

#define IRQ	64

/* What the next opens of @fake_path read, the last line again after it. */
static char fake_path[512];
static const char *const *fake_lines;
static unsigned int fake_opens;

FILE *fopen(const char *path, const char *mode)
{
	static FILE *(*real)(const char *, const char *);
	const char *line;

	unsigned int k;

	if (fake_lines && !strcmp(path, fake_path)) {
		for (k = 0; k < fake_opens && fake_lines[k + 1]; k++)
			;
		fake_opens++;
		line = fake_lines[k];
		return fmemopen((void *)line, strlen(line), "r");
	}
	if (!real)
		real = (FILE *(*)(const char *, const char *))dlsym(RTLD_NEXT, "fopen");
	return real(path, mode);
}

FIXTURE(procirq) {
	struct fakesys fs;
	struct cpuset cpus;
};

FIXTURE_SETUP(procirq)
{
	char proc[128];

	fakesys_create(&self->fs);
	snprintf(proc, sizeof(proc), "%s/proc", self->fs.root);
	setenv("NICTL_PROCFS", proc, 1);
	self->cpus = (struct cpuset)CPUSET_INIT;
}

FIXTURE_TEARDOWN(procirq)
{
	fake_lines = NULL;
	cpuset_free(&self->cpus);
	fakesys_destroy(&self->fs);
	unsetenv("NICTL_PROCFS");
}

/* Make /proc/irq/IRQ/@file read @lines, one an open: the opens so far are counted. */
static void fake(const struct fakesys *fs, const char *file, const char *const *lines)
{
	snprintf(fake_path, sizeof(fake_path), "%s/proc/irq/%u/%s", fs->root, IRQ, file);
	fake_lines = lines;
	fake_opens = 0;
}

/* An empty line, then another, then the mask: the mask, as if never empty. */
TEST_F(procirq, empty_affinity_is_read_again)
{
	fake(&self->fs, "smp_affinity_list", (const char *const []){ "\n", "\n", "4-7\n", NULL });
	ASSERT_EQ(0, procirq_cpus(IRQ, "smp_affinity_list", &self->cpus));
	EXPECT_STREQ("4-7", cpulist_of(&self->cpus));
	EXPECT_EQ(3, fake_opens);
}

/* An affinity that stays empty is no mask: an error after a few reads, 15 ms. */
TEST_F(procirq, affinity_that_stays_empty_is_an_error)
{
	fake(&self->fs, "smp_affinity_list", (const char *const []){ "\n", "\n", "\n", "\n", "\n",
								    "0\n", NULL });
	EXPECT_EQ(-EAGAIN, procirq_cpus(IRQ, "smp_affinity_list", &self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
	EXPECT_EQ(5, fake_opens);
}

/* An empty effective list is what an IRQ not started has: read once, as it is. */
TEST_F(procirq, empty_effective_list_is_an_answer)
{
	fake(&self->fs, "effective_affinity_list", (const char *const []){ "\n", "3\n", NULL });
	ASSERT_EQ(0, procirq_cpus(IRQ, "effective_affinity_list", &self->cpus));
	EXPECT_TRUE(cpuset_empty(&self->cpus));
	EXPECT_EQ(1, fake_opens);
}

/* Plain files, as the other unit tests fake them, read as before. */
TEST_F(procirq, plain_files)
{
	fakesys_write(&self->fs, "0,2-3\n", "proc/irq/%u/smp_affinity_list", IRQ);
	ASSERT_EQ(0, procirq_cpus(IRQ, "smp_affinity_list", &self->cpus));
	EXPECT_STREQ("0,2-3", cpulist_of(&self->cpus));
	fakesys_write(&self->fs, "", "proc/irq/%u/effective_affinity_list", IRQ);
	EXPECT_EQ(-EIO, procirq_cpus(IRQ, "effective_affinity_list", &self->cpus));
	EXPECT_EQ(-ENOENT, procirq_cpus(IRQ + 1, "smp_affinity_list", &self->cpus));
}

TEST_HARNESS_MAIN
