// SPDX-License-Identifier: GPL-2.0
/*
 * The /metrics server, driven as the daemon drives it: one thread, its
 * descriptor polled, metrics_server_run() when ready. The clients are raw
 * sockets of the same process, so every test also shows that a client
 * never makes the server wait: a client that sends nothing, or never reads,
 * does not stop another's scrape.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "kselftest_harness.h"

#include "metrics/server.h"

#define PAGE	"# HELP nictl_test A test.\n# TYPE nictl_test gauge\nnictl_test 1\n"

static int render(FILE *f, void *arg)
{
	int *fail = arg;

	fputs(PAGE, f);
	return *fail ? -1 : 0;
}

FIXTURE(srv) {
	struct metrics_server s;
	struct metrics_addr a;
	int fail;
	char path[64];
};

FIXTURE_SETUP(srv)
{
	self->fail = 0;
	snprintf(self->path, sizeof(self->path), "/tmp/nictl-metrics-test.%d", (int)getpid());
}

FIXTURE_TEARDOWN(srv)
{
	metrics_server_stop(&self->s);
	unlink(self->path);
}

static int connect_to(const struct metrics_addr *a, int port)
{
	struct metrics_addr to = *a;
	int fd = socket(to.ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK, 0);

	if (to.ss.ss_family == AF_INET)
		((struct sockaddr_in *)&to.ss)->sin_port = htons(port);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&to.ss, to.len) && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Send @req on @fd and read the answer to its end into @buf, running the
 * server meanwhile as the daemon's loop would: false after 5 s without it.
 */
static bool exchange(struct metrics_server *s, int fd, const char *req, char *buf, size_t len)
{
	size_t sent = 0, got = 0;
	struct pollfd p[2];
	ssize_t n;
	int i;

	for (i = 0; i < 500; i++) {
		p[0] = (struct pollfd){ .fd = metrics_server_fd(s), .events = POLLIN };
		p[1] = (struct pollfd){ .fd = fd, .events = sent < strlen(req) ? POLLOUT : POLLIN };
		poll(p, 2, 10);
		metrics_server_run(s);
		if (sent < strlen(req)) {
			n = send(fd, req + sent, strlen(req) - sent, MSG_NOSIGNAL);
			sent += n > 0 ? n : 0;
			continue;
		}
		n = recv(fd, buf + got, len - 1 - got, 0);
		if (n == 0) {
			buf[got] = '\0';
			return true;
		}
		got += n > 0 ? n : 0;
	}
	buf[got] = '\0';
	fprintf(stderr, "# no end of the answer after 5 s; got: %s\n", buf);
	return false;
}

#define GET	"GET /metrics HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n"

/* Serve on 127.0.0.1 at a port the kernel picks: that port. */
static int start_inet(FIXTURE_DATA(srv) *self)
{
	char err[256];

	if (metrics_addr_parse("127.0.0.1:9469", &self->a, err, sizeof(err)))
		return -1;
	((struct sockaddr_in *)&self->a.ss)->sin_port = 0;
	if (metrics_server_start(&self->s, &self->a, render, &self->fail, err, sizeof(err))) {
		fprintf(stderr, "# %s\n", err);
		return -1;
	}
	return metrics_addr_port(self->s.listen_fd);
}

/* A request on a new connection to the server: the whole answer in @buf. */
static bool ask(FIXTURE_DATA(srv) *self, int port, const char *req, char *buf, size_t len)
{
	int fd = connect_to(&self->a, port);
	bool ok;

	if (fd < 0)
		return false;
	ok = exchange(&self->s, fd, req, buf, len);
	close(fd);
	return ok;
}

static const char *body_of(const char *answer)
{
	const char *b = strstr(answer, "\r\n\r\n");

	return b ? b + 4 : "";
}

TEST_F(srv, get_metrics)
{
	char buf[4096];
	int port = start_inet(self);

	ASSERT_LT(0, port);
	ASSERT_TRUE(ask(self, port, GET, buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "HTTP/1.1 200 OK\r\n", 17)) TH_LOG("answer: %s", buf);
	EXPECT_NE(NULL, strstr(buf, "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n"))
		TH_LOG("answer: %s", buf);
	EXPECT_STREQ(PAGE, body_of(buf));
	EXPECT_EQ(1ULL, self->s.scrapes);
}

TEST_F(srv, other_paths_and_methods)
{
	char buf[4096];
	int port = start_inet(self);

	ASSERT_LT(0, port);
	ASSERT_TRUE(ask(self, port, "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", buf,
			sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "HTTP/1.1 404 ", 13)) TH_LOG("answer: %s", buf);
	ASSERT_TRUE(ask(self, port, "POST /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
			"Content-Length: 3\r\n\r\nabc", buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "HTTP/1.1 405 ", 13)) TH_LOG("answer: %s", buf);
	EXPECT_NE(NULL, strstr(buf, "Allow: GET, HEAD\r\n")) TH_LOG("answer: %s", buf);
	EXPECT_EQ(0ULL, self->s.scrapes);
}

TEST_F(srv, a_failed_render_is_a_500)
{
	char buf[4096];
	int port = start_inet(self);

	ASSERT_LT(0, port);
	self->fail = 1;
	ASSERT_TRUE(ask(self, port, GET, buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "HTTP/1.1 500 ", 13)) TH_LOG("answer: %s", buf);
	EXPECT_EQ(NULL, strstr(buf, "nictl_test")) TH_LOG("half a page was sent: %s", buf);
}

/* Clients that send nothing, or never read, do not hold up a scrape. */
TEST_F(srv, stalled_clients_do_not_block_a_scrape)
{
	int silent, greedy, port = start_inet(self), i;
	char buf[4096];

	ASSERT_LT(0, port);
	silent = connect_to(&self->a, port);
	ASSERT_LE(0, silent);
	greedy = connect_to(&self->a, port);
	ASSERT_LE(0, greedy);
	/* Requests without end, never read: their answers fill the buffers. */
	for (i = 0; i < 200; i++) {
		if (send(greedy, "GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n", 34, MSG_NOSIGNAL) < 0)
			break;
		metrics_server_run(&self->s);
	}
	ASSERT_TRUE(ask(self, port, GET, buf, sizeof(buf)));
	EXPECT_STREQ(PAGE, body_of(buf));
	close(silent);
	close(greedy);
}

TEST_F(srv, unix_socket)
{
	char spec[96], err[256], buf[4096];
	struct stat st;
	int fd;

	snprintf(spec, sizeof(spec), "unix:%s", self->path);
	ASSERT_EQ(0, metrics_addr_parse(spec, &self->a, err, sizeof(err))) TH_LOG("%s", err);
	/* A socket an earlier daemon left is replaced. */
	ASSERT_EQ(0, metrics_server_start(&self->s, &self->a, render, &self->fail, err,
					  sizeof(err))) TH_LOG("%s", err);
	fd = self->s.listen_fd;
	metrics_server_stop(&self->s);
	ASSERT_EQ(-1, access(self->path, F_OK)) TH_LOG("the socket file outlived the server");
	EXPECT_EQ(-1, fcntl(fd, F_GETFD)) TH_LOG("the listening socket outlived the server");
	fd = metrics_addr_listen(&self->a, err, sizeof(err));
	ASSERT_LE(0, fd) TH_LOG("%s", err);
	close(fd);
	ASSERT_EQ(0, metrics_server_start(&self->s, &self->a, render, &self->fail, err,
					  sizeof(err))) TH_LOG("%s", err);
	ASSERT_EQ(0, stat(self->path, &st));
	EXPECT_EQ(0660, st.st_mode & 0777);
	fd = connect_to(&self->a, 0);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(exchange(&self->s, fd, GET, buf, sizeof(buf)));
	close(fd);
	EXPECT_STREQ(PAGE, body_of(buf));
}

TEST_F(srv, never_over_another_file)
{
	char spec[96], err[256];
	FILE *f = fopen(self->path, "w");

	ASSERT_NE(NULL, f);
	fclose(f);
	snprintf(spec, sizeof(spec), "unix:%s", self->path);
	ASSERT_EQ(0, metrics_addr_parse(spec, &self->a, err, sizeof(err)));
	ASSERT_EQ(-1, metrics_server_start(&self->s, &self->a, render, &self->fail, err,
					   sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "exists and is not a socket")) TH_LOG("%s", err);
	EXPECT_EQ(0, access(self->path, F_OK));
}

TEST_F(srv, a_port_in_use_is_an_error)
{
	struct metrics_server other;
	char err[256];
	int port = start_inet(self);

	ASSERT_LT(0, port);
	((struct sockaddr_in *)&self->a.ss)->sin_port = htons(port);
	ASSERT_EQ(-1, metrics_server_start(&other, &self->a, render, &self->fail, err,
					   sizeof(err)));
	EXPECT_NE(NULL, strstr(err, "Address already in use")) TH_LOG("%s", err);
}

TEST(addresses)
{
	static const struct {
		const char *text;
		int family;	/* 0: refused with @msg */
		const char *msg;
	} cases[] = {
		{ "127.0.0.1:9469", AF_INET, NULL },
		{ "0.0.0.0:80", AF_INET, NULL },
		{ "[::1]:9469", AF_INET6, NULL },
		{ "[::]:9469", AF_INET6, NULL },
		{ "unix:/run/nictl/metrics.sock", AF_UNIX, NULL },
		{ "unix:run/x", 0, "'run/x' is not an absolute path" },
		{ "127.0.0.1", 0, "is neither ADDRESS:PORT, [IPV6]:PORT, unix:/PATH nor off" },
		{ "::1:9469", 0, "is neither ADDRESS:PORT" },
		{ "[::1]9469", 0, "is not [IPV6]:PORT" },
		{ "127.0.0.1:0", 0, "the port '0' is not a number from 1 to 65535" },
		{ "127.0.0.1:65536", 0, "the port '65536' is not" },
		{ "127.0.0.1:+80", 0, "the port '+80' is not" },
		{ "localhost:9469", 0, "'localhost' is not an IPv4 address" },
		{ "[127.0.0.1]:9469", 0, "'127.0.0.1' is not an IPv6 address" },
	};
	struct metrics_addr a;
	char err[256];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		ret = metrics_addr_parse(cases[i].text, &a, err, sizeof(err));
		if (cases[i].family) {
			EXPECT_EQ(0, ret) TH_LOG("%s: %s", cases[i].text, err);
			EXPECT_EQ(cases[i].family, a.ss.ss_family) TH_LOG("%s", cases[i].text);
		} else {
			EXPECT_EQ(-1, ret) TH_LOG("%s was taken", cases[i].text);
			EXPECT_NE(NULL, strstr(err, cases[i].msg))
				TH_LOG("%s: said '%s', not '%s'", cases[i].text, err, cases[i].msg);
		}
	}
}

TEST_HARNESS_MAIN
