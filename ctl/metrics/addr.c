// SPDX-License-Identifier: GPL-2.0
/*
 * The metrics listener's address: parsed when the configuration is read,
 * so that a bad one is an error with its line, and bound when the daemon
 * starts. The daemon makes the listening socket itself and hands it to
 * libmicrohttpd: one code path for TCP and unix sockets, and a unix socket
 * gets the mode the daemon chooses.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "metrics/addr.h"

#define UNIX_PREFIX	"unix:"
/* Owner and group may scrape: a group like prometheus's, not everybody. */
#define UNIX_MODE	0660
#define BACKLOG		16

static int unix_addr(const char *path, struct metrics_addr *a, char *err, size_t errlen)
{
	struct sockaddr_un *sun = (struct sockaddr_un *)&a->ss;

	if (*path != '/') {
		snprintf(err, errlen, "'%s' is not an absolute path", path);
		return -1;
	}
	if (strlen(path) >= sizeof(sun->sun_path)) {
		snprintf(err, errlen, "'%s' is longer than a unix socket's %zu bytes", path,
			 sizeof(sun->sun_path) - 1);
		return -1;
	}
	sun->sun_family = AF_UNIX;
	strcpy(sun->sun_path, path);
	a->len = sizeof(*sun);
	return 0;
}

/* A port from 1 to 65535, the whole of @text. */
static int port_of(const char *text, unsigned int *port)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || end == text || *end || *text == '-' || *text == '+' || !v || v > 65535)
		return -1;
	*port = v;
	return 0;
}

static int inet_addr_of(const char *text, struct metrics_addr *a, char *err, size_t errlen)
{
	/* Numeric only: reading the configuration must not wait for DNS. */
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV };
	char host[256];
	const char *colon, *h = text;
	size_t hlen;
	unsigned int port;
	struct addrinfo *res;
	int ret;

	if (*text == '[') {
		colon = strstr(text, "]:");
		if (!colon) {
			snprintf(err, errlen, "'%s' is not [IPV6]:PORT", text);
			return -1;
		}
		h = text + 1;
		hlen = colon - h;
		colon++;
		hints.ai_family = AF_INET6;
	} else {
		colon = strrchr(text, ':');
		if (!colon || colon == text || memchr(text, ':', colon - text)) {
			snprintf(err, errlen, "'%s' is neither ADDRESS:PORT, [IPV6]:PORT, "
				 "unix:/PATH nor off", text);
			return -1;
		}
		hlen = colon - text;
		hints.ai_family = AF_INET;
	}
	if (port_of(colon + 1, &port)) {
		snprintf(err, errlen, "'%s': the port '%s' is not a number from 1 to 65535", text,
			 colon + 1);
		return -1;
	}
	if (hlen >= sizeof(host)) {
		snprintf(err, errlen, "'%s': the address is too long", text);
		return -1;
	}
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	ret = getaddrinfo(host, colon + 1, &hints, &res);
	if (ret) {
		snprintf(err, errlen, "'%s': '%s' is not an IPv%c address (%s)", text, host,
			 hints.ai_family == AF_INET6 ? '6' : '4', gai_strerror(ret));
		return -1;
	}
	memcpy(&a->ss, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

/* 0 and @a filled, or -1 with what is wrong in @err. */
int metrics_addr_parse(const char *text, struct metrics_addr *a, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	if (!strncmp(text, UNIX_PREFIX, strlen(UNIX_PREFIX)))
		return unix_addr(text + strlen(UNIX_PREFIX), a, err, errlen);
	return inet_addr_of(text, a, err, errlen);
}

/*
 * A non-blocking listening socket on @a, or -1 with why in @err. A unix
 * socket left by an earlier daemon is replaced; any other file is not.
 */
int metrics_addr_listen(const struct metrics_addr *a, char *err, size_t errlen)
{
	const struct sockaddr_un *sun = (const struct sockaddr_un *)&a->ss;
	int fd, one = 1;
	struct stat st;

	fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return -1;
	}
	if (a->ss.ss_family == AF_UNIX) {
		if (!lstat(sun->sun_path, &st) && !S_ISSOCK(st.st_mode)) {
			snprintf(err, errlen, "%s exists and is not a socket", sun->sun_path);
			goto fail;
		}
		unlink(sun->sun_path);
	} else if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one))) {
		snprintf(err, errlen, "SO_REUSEADDR: %s", strerror(errno));
		goto fail;
	}
	if (bind(fd, (const struct sockaddr *)&a->ss, a->len)) {
		snprintf(err, errlen, "bind: %s", strerror(errno));
		goto fail;
	}
	if (a->ss.ss_family == AF_UNIX && chmod(sun->sun_path, UNIX_MODE)) {
		snprintf(err, errlen, "chmod %s: %s", sun->sun_path, strerror(errno));
		goto fail;
	}
	if (listen(fd, BACKLOG)) {
		snprintf(err, errlen, "listen: %s", strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* The port @fd listens on (port 0 asks the kernel for one), or -1. */
int metrics_addr_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return -1;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return -1;
}
