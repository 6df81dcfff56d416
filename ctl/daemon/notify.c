// SPDX-License-Identifier: GPL-2.0
/* Messages to systemd (notify.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/notify.h"
#include "log.h"

/*
 * Send the state lines @fmt makes. A path starting with '@' is in the
 * abstract namespace. A failure is logged and otherwise ignored: systemd
 * then times the start out, which says more than a daemon that stops.
 */
void notify_systemd(const char *fmt, ...)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char state[512];
	socklen_t len;
	va_list ap;
	int fd;

	if (!path || (path[0] != '/' && path[0] != '@') || strlen(path) >= sizeof(addr.sun_path))
		return;
	va_start(ap, fmt);
	vsnprintf(state, sizeof(state), fmt, ap);
	va_end(ap);
	memcpy(addr.sun_path, path, strlen(path));
	if (path[0] == '@')
		addr.sun_path[0] = '\0';
	len = offsetof(struct sockaddr_un, sun_path) + strlen(path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || sendto(fd, state, strlen(state), MSG_NOSIGNAL,
			     (struct sockaddr *)&addr, len) < 0)
		log_warn("cannot tell systemd '%s': %m", state);
	if (fd >= 0)
		close(fd);
}
