// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "busypoll.h"
#include "run.h"
#include "traffic.h"

/*
 * A read waits this long at most, so that a stop request that came just
 * before it blocked is seen.
 */
#define READ_TIMEOUT_US	(200 * 1000)

int busy_rx_addr(const char *ifname, bool add)
{
	struct sockaddr_in *sin;
	struct ifreq ifr = { 0 };
	int fd, ret = 0;

	if (strlen(ifname) >= IFNAMSIZ)
		return -EINVAL;
	strcpy(ifr.ifr_name, ifname);
	sin = (struct sockaddr_in *)&ifr.ifr_addr;
	sin->sin_family = AF_INET;
	/* The address's class gives the /24; 0.0.0.0 deletes it. */
	if (add && inet_pton(AF_INET, TRAFFIC_RX_ADDR, &sin->sin_addr) != 1)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCSIFADDR, &ifr))
		ret = -errno;
	close(fd);
	return ret;
}

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

static uint64_t own_runtime_ns(void)
{
	unsigned long long ns = 0;
	FILE *f = fopen("/proc/self/schedstat", "r");

	if (f) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

static int rx_socket(const char *ifname, unsigned int busy_us)
{
	struct timeval tv = { .tv_usec = READ_TIMEOUT_US };
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(TRAFFIC_PORT),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	int fd, one = 1, us = busy_us;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, strlen(ifname)) ||
	    bind(fd, (struct sockaddr *)&sin, sizeof(sin))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The child: read until SIGUSR1, then report on @out. */
static void __attribute__((noreturn)) rx_child(int out, const char *ifname, unsigned int cpu,
					       unsigned int busy_us)
{
	struct sigaction sa = { .sa_handler = on_stop };	/* no SA_RESTART: reads end */
	struct busy_rx_report r = { 0 };
	socklen_t len = sizeof(r.napi_id);
	cpu_set_t set;
	char buf[256];
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sigaction(SIGUSR1, &sa, NULL) || sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	fd = rx_socket(ifname, busy_us);
	if (fd < 0 || write(out, "", 1) != 1)
		_exit(1);
	while (!stopping) {
		if (recv(fd, buf, sizeof(buf), 0) >= 0)
			r.datagrams++;
		else if (errno != EAGAIN && errno != EINTR)
			_exit(1);
	}
	if (getsockopt(fd, SOL_SOCKET, SO_INCOMING_NAPI_ID, &r.napi_id, &len))
		r.napi_id = 0;
	r.runtime_ns = own_runtime_ns();
	_exit(write(out, &r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

int busy_rx_start(struct busy_rx *rx, const char *ifname, unsigned int cpu,
		  unsigned int busy_us)
{
	int fds[2], ret = 0;
	char c;

	if (pipe(fds))
		return -errno;
	rx->pid = fork_flushed();
	if (!rx->pid) {
		close(fds[0]);
		rx_child(fds[1], ifname, cpu, busy_us);
	}
	close(fds[1]);
	rx->report_fd = fds[0];
	if (rx->pid < 0)
		ret = -errno;
	else if (read(fds[0], &c, 1) != 1)
		ret = -EPROTO;
	if (ret) {
		fprintf(stderr, "# the busy-polling reader did not start: %s\n", strerror(-ret));
		busy_rx_stop(rx, &(struct busy_rx_report){ 0 });
	}
	return ret;
}

int busy_rx_stop(struct busy_rx *rx, struct busy_rx_report *report)
{
	int status, ret = 0;

	if (rx->pid > 0) {
		kill(rx->pid, SIGUSR1);
		if (read(rx->report_fd, report, sizeof(*report)) != sizeof(*report))
			ret = -EPROTO;
		if (waitpid(rx->pid, &status, 0) != rx->pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			ret = ret ?: -ECHILD;
	}
	close(rx->report_fd);
	rx->pid = -1;
	return ret;
}
