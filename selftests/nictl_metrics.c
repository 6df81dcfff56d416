// SPDX-License-Identifier: GPL-2.0
/*
 * nictlctl daemon's /metrics, scraped for real: Debian's Prometheus server,
 * started here with a one-second scrape of the daemon, must see the per-CPU
 * NET_RX time of the CPUs the daemon put vnode1's queues on once frames
 * arrive, and `promtool check metrics` must find the page clean. The
 * daemon must serve on a unix socket too, keep IRQs placed while scrapers
 * stall, and keep running when it cannot listen.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"

#include "daemon.h"
#include "env.h"
#include "http.h"
#include "irqs.h"
#include "main.h"
#include "nictl.h"
#include "run.h"
#include "sys.h"
#include "traffic.h"
#include "verify.h"

#define CONF		"/tmp/nictl-metrics.conf"
#define DAEMON_LOG	"/tmp/nictl-metrics.log"
#define METRICS		"127.0.0.1:19469"
#define SOCKET		"/run/nictl-metrics.sock"
#define PROM_DIR	"/tmp/nictl-prometheus"
#define PROM_ADDR	"127.0.0.1:19090"
#define PROMETHEUS	"/usr/bin/prometheus"
/* A page of 8 CPUs' histograms is about 100 KiB. */
#define PAGE_LEN	(1 << 20)
/* Prometheus starts in seconds natively, far slower under TCG. */
#define PROM_WAIT_S	180

static const struct governed vnode1 = { "vnode1", 1, 4, true, false, NULL };

static const char rule[] =
	"[rule node1-nic]\n"
	"match-mac = %s\n"
	"cpus = numa-local\n";

FIXTURE(metrics) {
	struct test_env env;
	pid_t pid;		/* the daemon */
	pid_t prom;		/* Prometheus */
	char *page;
	struct run_result run;
};

/* Start the daemon serving on @where; wait for vnode1 placed. */
static int start(FIXTURE_DATA(metrics) *self, const char *where)
{
	char text[512];

	snprintf(text, sizeof(text), "[daemon]\nmetrics = %s\n%s", where, rule);
	if (write_conf_mac(CONF, "vnode1", text))
		return -1;
	self->pid = daemon_start(CONF, DAEMON_LOG);
	return self->pid > 0 && back_in_policy(&self->env.nl, &vnode1) ? 0 : -1;
}

FIXTURE_SETUP(metrics)
{
	ASSERT_EQ(0, env_setup(&self->env));
	self->pid = self->prom = 0;
	self->page = calloc(1, PAGE_LEN);
	ASSERT_NE(NULL, self->page);
	unlink(DAEMON_LOG);
	/* The per-CPU counters the page carries count from here. */
	ASSERT_EQ(0, run_ctl(&self->run, false, NULL, (const char *const []){ "stats", "--on",
										NULL }));
	ASSERT_EQ(0, self->run.status) TH_LOG("stats --on: %s", self->run.err);
}

FIXTURE_TEARDOWN(metrics)
{
	if (self->prom > 0) {
		kill(self->prom, SIGTERM);
		waitpid(self->prom, NULL, 0);
	}
	if (self->pid)
		EXPECT_EQ(0, daemon_stop(self->pid));
	daemon_dump_log(DAEMON_LOG, NULL);
	free(self->page);
	EXPECT_EQ(0, env_teardown(&self->env));
}

/* GET /metrics from @where into self->page: the HTTP status. */
static int scrape(FIXTURE_DATA(metrics) *self, const char *where)
{
	return http_get(where, "/metrics", self->page, PAGE_LEN, 10000);
}

/* The value of the sample @name (no labels) in @page, or -1. */
static long long page_value(const char *page, const char *name)
{
	char key[128];
	const char *p;

	snprintf(key, sizeof(key), "\n%s ", name);
	p = strstr(page, key);
	return p ? atoll(p + strlen(key)) : -1;
}

/* The page has a line starting with @prefix. */
static bool has_line(const char *page, const char *prefix)
{
	const char *p = page;

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, prefix, strlen(prefix)))
			return true;
	fprintf(stderr, "# no line starting with '%s' in the page\n", prefix);
	return false;
}

/* nictl_build_info names nictlctl's version and the module's, and they are one. */
static bool build_info_versions_agree(const char *page)
{
	char ctl[32], mod[32];
	const char *line = strstr(page, "\nnictl_build_info{");

	if (!line || sscanf(line, "\nnictl_build_info{version=\"%31[^\"]\","
			    "module_version=\"%31[^\"]\"} 1", ctl, mod) != 2) {
		fprintf(stderr, "# no nictl_build_info with version and module_version\n");
		return false;
	}
	if (strcmp(ctl, mod))
		fprintf(stderr, "# nictl_build_info: version %s, module_version %s\n", ctl, mod);
	return !strcmp(ctl, mod);
}

/* Wait for the page at @where to have a line starting with @prefix. */
static bool page_gets(FIXTURE_DATA(metrics) *self, const char *where, const char *prefix)
{
	unsigned int i;

	for (i = 0; i < 30; i++) {
		if (scrape(self, where) == 200 && strstr(self->page, prefix))
			return has_line(self->page, prefix);
		sleep(1);
	}
	return has_line(self->page, prefix);
}

static int start_prometheus(FIXTURE_DATA(metrics) *self)
{
	int fd;

	if (mkdir(PROM_DIR, 0755) && errno != EEXIST)
		return -errno;
	if (write_file(PROM_DIR "/prometheus.yml",
		       "global:\n"
		       "  scrape_interval: 1s\n"
		       "  evaluation_interval: 1s\n"
		       "scrape_configs:\n"
		       "  - job_name: nictl\n"
		       "    static_configs:\n"
		       "      - targets: ['" METRICS "']\n"))
		return -EIO;
	self->prom = fork_flushed();
	if (self->prom)
		return self->prom > 0 ? 0 : -errno;
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	fd = open(PROM_DIR "/log", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
		_exit(127);
	execl(PROMETHEUS, "prometheus", "--config.file=" PROM_DIR "/prometheus.yml",
	      "--storage.tsdb.path=" PROM_DIR "/data", "--web.listen-address=" PROM_ADDR,
	      (char *)NULL);
	_exit(127);
}

static long now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec;
}

/* Prometheus' log, when it ended before its time. */
static bool prometheus_died(FIXTURE_DATA(metrics) *self)
{
	char line[512];
	int status;
	FILE *f;

	if (waitpid(self->prom, &status, WNOHANG) != self->prom)
		return false;
	f = fopen(PROM_DIR "/log", "r");

	fprintf(stderr, "# prometheus exited (status 0x%x); its log:\n", status);
	while (f && fgets(line, sizeof(line), f))
		fprintf(stderr, "# prometheus: %s", line);
	if (f)
		fclose(f);
	self->prom = 0;
	return true;
}

/*
 * Ask Prometheus for @promql until its JSON answer, through @jq, prints
 * "true"; frames keep arriving at vnode1 meanwhile. False after PROM_WAIT_S.
 */
static bool prometheus_says(FIXTURE_DATA(metrics) *self, const char *promql, const char *jq)
{
	char path[1024], q[768];
	long t0 = now_s();
	int status = 0;

	url_encode(promql, q, sizeof(q));
	snprintf(path, sizeof(path), "/api/v1/query?query=%s", q);
	while (now_s() - t0 < PROM_WAIT_S && !prometheus_died(self)) {
		traffic_burst(test_nics);
		status = http_get(PROM_ADDR, path, self->page, PAGE_LEN, 10000);
		if (status == 200 && !run_jq(&self->run, self->page, jq) &&
		    !strcmp(self->run.out, "true\n")) {
			fprintf(stderr, "# %s: as expected after %ld s\n", promql, now_s() - t0);
			return true;
		}
		sleep(1);
	}
	fprintf(stderr, "# %s: HTTP %d after %ld s, last answer: %.2000s\n", promql, status,
		now_s() - t0, self->page);
	return false;
}

TEST_F_TIMEOUT(metrics, prometheus_scrapes_the_daemon, 900)
{
	struct nictl_dev dev;
	struct nl_result res;
	char promql[256], count[64];
	struct cpus on;
	int cpu;

	ASSERT_EQ(0, start(self, METRICS));
	ASSERT_EQ(0, access(PROMETHEUS, X_OK)) TH_LOG("Debian's prometheus is not installed");
	ASSERT_EQ(0, start_prometheus(self));
	EXPECT_TRUE(prometheus_says(self, "up{job=\"nictl\"}",
				    "[.data.result[] | .value[1]] == [\"1\"]"));
	/* NET_RX time on each CPU the daemon put vnode1's queues on. */
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	target_cpus(&dev, &on);
	for (cpu = 0; cpu < 8; cpu++) {
		if (!cpus_test(&on, cpu))
			continue;
		snprintf(promql, sizeof(promql),
			 "nictl_softirq_seconds_total{job=\"nictl\",vec=\"net_rx\",cpu=\"%d\"} > 0",
			 cpu);
		EXPECT_TRUE(prometheus_says(self, promql, ".data.result | length == 1"));
	}
	/* Each of vnode1's IRQs, where nictl put it and where it is. */
	snprintf(count, sizeof(count), ".data.result[0].value[1] == \"%u\"", dev.n_irqs);
	EXPECT_TRUE(prometheus_says(self, "count(nictl_irq_target_cpu{device=\"vnode1\"} == "
				    "nictl_irq_cpu{device=\"vnode1\"})", count));
	EXPECT_TRUE(prometheus_says(self, "sum(nictl_napi_packets_total{device=\"vnode1\"}) > 0",
				    ".data.result | length == 1"));
	/* The alert of docs/metrics.md: silent while every IRQ is where nictl put it. */
	EXPECT_TRUE(prometheus_says(self, "nictl_irqs_off_target{device=\"vnode1\"}",
				    ".data.result[0].value[1] == \"0\""));
	EXPECT_TRUE(prometheus_says(self, "nictl_module_loaded", ".data.result[0].value[1] == \"1\""));
}

TEST_F_TIMEOUT(metrics, promtool_finds_the_page_clean, 600)
{
	ASSERT_EQ(0, start(self, METRICS));
	ASSERT_EQ(0, traffic_burst(test_nics));
	/* The kept devices' part comes with the daemon's first refresh. */
	ASSERT_TRUE(page_gets(self, METRICS, "nictl_napi_packets_total{device=\"vnode1\""));
	EXPECT_TRUE(has_line(self->page, "nictl_module_loaded 1"));
	/* Both versions, the module's from /sys/module/nictl/version: one build, equal. */
	EXPECT_TRUE(build_info_versions_agree(self->page));
	EXPECT_TRUE(has_line(self->page, "nictl_daemon_kept_devices 1"));
	EXPECT_TRUE(has_line(self->page, "nictl_daemon_config_last_reload_successful 1"));
	EXPECT_TRUE(has_line(self->page, "nictl_irq_target_cpu{device=\"vnode1\",queue=\"0\","
			     "kind=\"rx\"}"));
	EXPECT_TRUE(has_line(self->page, "nictl_irqs_off_target{device=\"vnode1\"} 0"));
	EXPECT_TRUE(has_line(self->page, "nictl_softirq_seconds_total{cpu=\"4\",vec=\"net_rx\"}"));
	ASSERT_EQ(0, run_cmd(&self->run, false, self->page,
			     (const char *const []){ "promtool", "check", "metrics", NULL }));
	EXPECT_EQ(0, self->run.status) TH_LOG("promtool: %s%s", self->run.out, self->run.err);
	EXPECT_STREQ("", self->run.out);
	EXPECT_STREQ("", self->run.err);
}

TEST_F_TIMEOUT(metrics, unix_socket, 600)
{
	struct stat st;

	ASSERT_EQ(0, start(self, "unix:" SOCKET));
	ASSERT_EQ(200, scrape(self, "unix:" SOCKET));
	EXPECT_TRUE(has_line(self->page, "nictl_module_loaded 1"));
	ASSERT_EQ(0, stat(SOCKET, &st));
	EXPECT_TRUE(S_ISSOCK(st.st_mode));
	EXPECT_EQ(0660, st.st_mode & 0777);
	ASSERT_EQ(0, daemon_stop(self->pid));
	self->pid = 0;
	EXPECT_EQ(-1, access(SOCKET, F_OK)) TH_LOG("the socket outlived the daemon");
}

/* Scrapers that connect and send nothing do not stop the daemon's work. */
TEST_F_TIMEOUT(metrics, stalled_scrapers_do_not_stop_the_daemon, 600)
{
	struct nictl_dev dev;
	struct nl_result res;
	struct cpus cpu0;
	int fds[4], i;

	ASSERT_EQ(0, start(self, METRICS));
	for (i = 0; i < 4; i++) {
		fds[i] = http_connect(METRICS);
		ASSERT_LE(0, fds[i]);
	}
	/* One of them half a request. */
	ASSERT_EQ(4, send(fds[0], "GET ", 4, MSG_NOSIGNAL));
	ASSERT_EQ(0, nictl_dev_get(&self->env.nl, "vnode1", &dev, &res));
	cpus_zero(&cpu0);
	cpus_set(&cpu0, 0);
	ASSERT_EQ(0, irq_set_affinity(dev.irqs[0].num, &cpu0));
	EXPECT_TRUE(back_in_policy(&self->env.nl, &vnode1));
	EXPECT_EQ(200, scrape(self, METRICS));
	EXPECT_LE(1, page_value(self->page, "nictl_daemon_drifts_total"));
	for (i = 0; i < 4; i++)
		close(fds[i]);
}

/* An address in use: the daemon keeps IRQs placed without /metrics; a reload serves. */
TEST_F_TIMEOUT(metrics, cannot_listen_keeps_the_daemon_running, 600)
{
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(19469),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	/* Not inherited by the daemon, which would then hold the port itself. */
	int busy = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	ASSERT_LE(0, busy);
	/* The earlier tests' connections to the port may linger in TIME_WAIT. */
	ASSERT_EQ(0, setsockopt(busy, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)));
	ASSERT_EQ(0, bind(busy, (struct sockaddr *)&in, sizeof(in)));
	ASSERT_EQ(0, listen(busy, 1));
	ASSERT_EQ(0, start(self, METRICS));
	EXPECT_TRUE(daemon_log_has(DAEMON_LOG, "cannot serve /metrics on " METRICS
				   ": bind: Address already in use; running without it until a "
				   "reload"));
	close(busy);
	ASSERT_EQ(0, kill(self->pid, SIGHUP));
	EXPECT_TRUE(daemon_log_wait(DAEMON_LOG, "serving /metrics on " METRICS, 10));
	EXPECT_EQ(200, scrape(self, METRICS));
	EXPECT_TRUE(has_line(self->page, "nictl_module_loaded 1"));
}

NICTL_TEST_MAIN
