// SPDX-License-Identifier: GPL-2.0
/*
 * The doctor's two formats on fixed findings, and its usage errors (exit
 * status 2, before any netlink).
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"

#include "commands.h"
#include "doctor/doctor.h"
#include "report.h"

static char *print(bool json, struct doc_findings *fs)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f || (json ? doc_print_json(f, fs) : doc_print_text(f, fs)))
		abort();
	fclose(f);
	return text;
}

/* An error about the host and an info about eth0, worst first as rules.c sorts. */
static void two_findings(struct doc_finding f[2], struct doc_findings *fs)
{
	memset(f, 0, 2 * sizeof(*f));
	f[0] = (struct doc_finding){
		.id = "softnet-backlog-drops", .severity = DOC_ERROR,
		.text = "5 packets dropped", .fix = "sysctl -w net.core.netdev_max_backlog=2000",
		.nr_facts = 2,
	};
	f[0].facts[0] = (struct doc_fact){ .key = "dropped", .num = 5 };
	f[0].facts[1] = (struct doc_fact){ .key = "cpus", .str = "0-3" };
	f[1] = (struct doc_finding){
		.id = "ring-small", .severity = DOC_INFO, .dev = "eth0", .text = "small ring",
	};
	*fs = (struct doc_findings){ .f = f, .nr = 2, .span_ns = 3000000000ULL };
}

TEST(json_document)
{
	struct doc_finding f[2];
	struct doc_findings fs;
	char *out;

	two_findings(f, &fs);
	out = print(true, &fs);
	EXPECT_STREQ("{\"interval_ms\":3000,\"errors\":1,\"warnings\":0,\"infos\":1,"
		     "\"findings\":[{\"id\":\"softnet-backlog-drops\",\"severity\":\"error\","
		     "\"ifname\":null,\"summary\":\"5 packets dropped\","
		     "\"evidence\":{\"dropped\":5,\"cpus\":\"0-3\"},"
		     "\"fix\":\"sysctl -w net.core.netdev_max_backlog=2000\",\"fixed\":false},"
		     "{\"id\":\"ring-small\",\"severity\":\"info\",\"ifname\":\"eth0\","
		     "\"summary\":\"small ring\",\"evidence\":{},\"fix\":null,\"fixed\":false}]}\n",
		     out);
	free(out);
}

TEST(text_report)
{
	struct doc_finding f[2];
	struct doc_findings fs;
	char *out;

	two_findings(f, &fs);
	f[0].fixed = true;
	out = print(false, &fs);
	EXPECT_STREQ("doctor over 3.0 s: 1 error, 0 warnings, 1 info\n"
		     "error    softnet-backlog-drops  host: 5 packets dropped\n"
		     "           evidence: dropped=5 cpus=0-3\n"
		     "           fix (applied): sysctl -w net.core.netdev_max_backlog=2000\n"
		     "info     ring-small  eth0: small ring\n", out);
	free(out);
}

static int run(const char *const *args)
{
	char *argv[8];
	int argc = 0;

	while (args[argc]) {
		argv[argc] = (char *)args[argc];
		argc++;
	}
	argv[argc] = NULL;
	optind = 0;
	return cmd_doctor(argc, argv);
}

TEST(usage_errors_exit_2)
{
	EXPECT_EQ(EXIT_USAGE, run((const char *const []){ "doctor", "-i", "0", NULL }));
	EXPECT_EQ(EXIT_USAGE, run((const char *const []){ "doctor", "-i", "soon", NULL }));
	EXPECT_EQ(EXIT_USAGE, run((const char *const []){ "doctor", "-i", "3601", NULL }));
	EXPECT_EQ(EXIT_USAGE, run((const char *const []){ "doctor", "--bogus", NULL }));
	EXPECT_EQ(EXIT_USAGE, run((const char *const []){ "doctor", "-i", NULL }));
	EXPECT_EQ(EXIT_SUCCESS, run((const char *const []){ "doctor", "--help", NULL }));
}

/*
 * Without the module doctor looks at what sysfs and /proc show (0 or 1, as
 * this host is), but cannot fix: 69, not 1, which means it found something.
 */
TEST(no_module_reads_sysfs_and_cannot_fix)
{
	int ret;

	if (!access("/sys/module/nictl", F_OK))
		SKIP(return, "nictl is loaded on this host");
	ret = run((const char *const []){ "doctor", "-i", "10ms", NULL });
	EXPECT_TRUE(ret == EXIT_SUCCESS || ret == EXIT_FAILURE) TH_LOG("exit %d", ret);
	EXPECT_EQ(EXIT_UNAVAILABLE, run((const char *const []){ "doctor", "-i", "10ms", "--fix",
							       NULL }));
}

TEST_HARNESS_MAIN
