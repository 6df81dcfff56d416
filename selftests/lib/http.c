// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

#include "http.h"

int http_connect(const char *addr)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_un *un = (struct sockaddr_un *)&ss;
	const char *colon;
	char host[64];
	socklen_t len;
	int fd, err;

	if (!strncmp(addr, "unix:", 5)) {
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "%s", addr + 5);
		len = sizeof(*un);
	} else {
		colon = strrchr(addr, ':');
		if (!colon || colon - addr >= (long)sizeof(host))
			return -EINVAL;
		memcpy(host, addr, colon - addr);
		host[colon - addr] = '\0';
		in->sin_family = AF_INET;
		in->sin_port = htons(atoi(colon + 1));
		if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
			return -EINVAL;
		len = sizeof(*in);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&ss, len)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

/* Send all of @s on @fd: 0 or -errno. */
static int send_all(int fd, const char *s)
{
	size_t done = 0, n = strlen(s);
	ssize_t r;

	while (done < n) {
		r = send(fd, s + done, n - done, MSG_NOSIGNAL);
		if (r < 0)
			return -errno;
		done += r;
	}
	return 0;
}

int http_get(const char *addr, const char *path, char *body, size_t len, int timeout_ms)
{
	struct timeval tv = { timeout_ms / 1000, (timeout_ms % 1000) * 1000 };
	size_t got = 0, cap = 1 << 16;
	char req[2048], *buf = malloc(cap), *start, *tmp;
	int fd, status = -EPROTO, err;
	ssize_t r;

	body[0] = '\0';
	if (!buf)
		return -ENOMEM;
	fd = http_connect(addr);
	if (fd < 0) {
		free(buf);
		return fd;
	}
	snprintf(req, sizeof(req), "GET %s HTTP/1.0\r\nHost: nictl-test\r\n\r\n", path);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	err = send_all(fd, req);
	/* HTTP/1.0: the server closes the connection after the answer. */
	while (!err && (r = recv(fd, buf + got, cap - 1 - got, 0)) != 0) {
		if (r < 0) {
			err = -errno;
			break;
		}
		got += r;
		if (got == cap - 1) {
			tmp = realloc(buf, cap * 2);
			if (!tmp) {
				err = -ENOMEM;
				break;
			}
			buf = tmp;
			cap *= 2;
		}
	}
	close(fd);
	buf[got] = '\0';
	start = strstr(buf, "\r\n\r\n");
	if (!err && start && sscanf(buf, "HTTP/%*d.%*d %d", &status) == 1)
		snprintf(body, len, "%s", start + 4);
	else if (err)
		status = err;
	free(buf);
	return status;
}

void url_encode(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s && n + 4 < len; s++) {
		if (isalnum((unsigned char)*s) || strchr("-._~", *s))
			out[n++] = *s;
		else
			n += snprintf(out + n, len - n, "%%%02X", (unsigned char)*s);
	}
	out[n] = '\0';
}
