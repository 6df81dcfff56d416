// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "daemon.h"
#include "irqs.h"
#include "run.h"
#include "sys.h"
#include "verify.h"

int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

bool daemon_log_has(const char *log, const char *what)
{
	char line[4096];
	FILE *f = fopen(log, "r");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = strstr(line, what);
	if (f)
		fclose(f);
	return found;
}

bool daemon_log_wait(const char *log, const char *what, unsigned int seconds)
{
	unsigned int i;

	for (i = 0; i < seconds * 10; i++) {
		if (daemon_log_has(log, what))
			return true;
		usleep(100 * 1000);
	}
	if (daemon_log_has(log, what))
		return true;
	fprintf(stderr, "# %s has no line with '%s' after %u s\n", log, what, seconds);
	return false;
}

int write_conf_mac(const char *conf, const char *ifname, const char *rules)
{
	char path[128], mac[32], text[1024];
	int ret;

	ret = pathf(path, sizeof(path), "/sys/class/net/%s/address", ifname) ?:
	      read_str(path, mac, sizeof(mac));
	if (ret)
		return ret;
	snprintf(text, sizeof(text), rules, mac);
	return write_file(conf, text);
}

/* In the child: become the daemon. */
static void daemon_exec(const char *conf, const char *log)
{
	const char *ctl = getenv("NICTL_CTL");
	int fd;

	/*
	 * A test the harness kills at its timeout never reaches its teardown:
	 * its daemon goes with it rather than fight the next test's.
	 */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) || getppid() == 1)
		_exit(127);
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (!ctl || fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		_exit(127);
	execl(ctl, "nictlctl", "daemon", "-c", conf, "--foreground", (char *)NULL);
	_exit(127);
}

pid_t daemon_start(const char *conf, const char *log)
{
	pid_t pid = fork_flushed();

	if (!pid)
		daemon_exec(conf, log);
	return pid;
}

pid_t daemon_start_pidns(const char *conf, const char *log)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	/* A fork into a new PID namespace, where the child is pid 1. */
	pid = syscall(SYS_clone, CLONE_NEWPID | SIGCHLD, NULL, NULL, NULL, 0);
	if (!pid)
		daemon_exec(conf, log);
	return pid;
}

int daemon_stop(pid_t pid)
{
	int status;

	if (kill(pid, SIGTERM) || waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

unsigned int daemon_dump_log(const char *log, const char *what)
{
	char line[512];
	FILE *f = fopen(log, "r");
	unsigned int n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		fprintf(stderr, "# daemon: %s", line);
		n += what && strstr(line, what);
	}
	if (f)
		fclose(f);
	return n;
}

void allowed_cpus(int node, struct cpus *s)
{
	struct cpus online;
	unsigned int cpu;

	cpus_zero(s);
	if (node_cpus(node, s) || sys_online_cpus(&online))
		return;
	for (cpu = 0; cpu < CPUS_MAX; cpu++)
		if (cpus_test(s, cpu) && !cpus_test(&online, cpu))
			cpus_clear(s, cpu);
	if (cpus_count(s) > 1)
		cpus_clear(s, 0);
}

void governed_cpus(const struct governed *g, struct cpus *s)
{
	unsigned int cpu;

	allowed_cpus(g->node, s);
	for (cpu = 0; g->banned && cpu < CPUS_MAX; cpu++)
		if (cpus_test(g->banned, cpu))
			cpus_clear(s, cpu);
}

bool in_policy(struct nl_client *nl, const struct governed *g, struct nictl_dev *dev)
{
	struct nl_result res;
	struct cpus allowed, mask, core;
	unsigned int i, j;
	const struct nictl_irq *a, *b;

	if (nictl_dev_get(nl, g->ifname, dev, &res) || !(dev->dev_flags & NICTL_DEV_F_BOUND) ||
	    dev->n_irqs != g->n_irqs)
		return false;
	governed_cpus(g, &allowed);
	for (i = 0; i < dev->n_irqs; i++) {
		a = &dev->irqs[i];
		if (!(a->present & ATTR_BIT(NICTL_A_IRQ_TARGET_CPU)) ||
		    !cpus_test(&allowed, a->target_cpu) || irq_affinity(a->num, &mask, NULL) ||
		    cpus_count(&mask) != 1 || !cpus_test(&mask, a->target_cpu))
			return false;
		for (j = 0; j < i; j++) {
			b = &dev->irqs[j];
			if ((a->queue == b->queue) != (a->target_cpu == b->target_cpu))
				return false;
			if (g->distinct_cores && a->queue != b->queue &&
			    (cpu_core(a->target_cpu, &core) || cpus_test(&core, b->target_cpu)))
				return false;
		}
	}
	return true;
}

/* @dev, in policy, is placed as it should be: checked aloud. */
static bool settled(const struct governed *g, const struct nictl_dev *dev)
{
	struct cpus allowed;

	governed_cpus(g, &allowed);
	if (g->quiet)
		return masks_placed(dev, &allowed, g->distinct_cores);
	return placement_ok(dev, &allowed, g->distinct_cores);
}

bool back_in_policy(struct nl_client *nl, const struct governed *g)
{
	struct nictl_dev dev;
	struct timespec t0, t;
	bool ok;

	/*
	 * Checked whole each time: on 5.10, a move written to /proc while a
	 * device was down is only pending, and the first interrupt after it is
	 * up (placement_ok() makes one) carries it out, after the daemon found
	 * the device in place. The daemon must then see the drift and undo it.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ok = in_policy(nl, g, &dev) && settled(g, &dev);
		if (!ok)
			usleep(200 * 1000);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (!ok && t.tv_sec - t0.tv_sec < DAEMON_WAIT_S);
	fprintf(stderr, "# %s: %s after %ld s\n", g->ifname, ok ? "in policy" : "NOT in policy",
		(long)(t.tv_sec - t0.tv_sec));
	return ok;
}
