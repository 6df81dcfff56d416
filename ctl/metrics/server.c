// SPDX-License-Identifier: GPL-2.0
/*
 * libmicrohttpd in external-epoll mode: its epoll descriptor is one more
 * descriptor of the daemon's poll(), and MHD_run() does what is ready
 * without blocking. A page is rendered whole into memory before the first
 * byte is sent, so a scraper that reads slowly, or not at all, holds only
 * its own buffer and connection slot until the timeout drops it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/un.h>

#include "metrics/mhd.h"
#include "metrics/server.h"

#define PATH		"/metrics"
#define CONTENT_TYPE	"text/plain; version=0.0.4; charset=utf-8"

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status, char *body,
			     size_t len, const char *type)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = mhd.create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(body);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue_response(conn, status, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result text(struct MHD_Connection *conn, unsigned int status, const char *msg)
{
	char *body = strdup(msg);

	return body ? reply(conn, status, body, strlen(body), "text/plain") : MHD_NO;
}

static enum MHD_Result page(struct metrics_server *s, struct MHD_Connection *conn)
{
	char *body = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&body, &len);
	int err;

	s->scrapes++;
	if (!f)
		return text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
	err = s->render(f, s->arg);
	if (fclose(f) || err) {
		free(body);
		return text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
			    "nictlctl could not read its metrics; its log says why\n");
	}
	return reply(conn, MHD_HTTP_OK, body, len, CONTENT_TYPE);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version,
				  const char *upload_data, size_t *upload_data_size,
				  void **con_cls)
{
	(void)version;
	(void)upload_data;
	/* A request with a body is answered once the body is read and dropped. */
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (!*con_cls) {
		/* The headers only: answer on the next call, the body seen. */
		*con_cls = conn;
		return MHD_YES;
	}
	if (strcmp(url, PATH))
		return text(conn, MHD_HTTP_NOT_FOUND, "nictlctl serves " PATH " only\n");
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "GET " PATH ", nothing else\n");
	return page(cls, conn);
}

/*
 * Serve on @a: 0, or -1 with why in @err. @render writes the page at each
 * request, with @arg.
 */
int metrics_server_start(struct metrics_server *s, const struct metrics_addr *a,
			 metrics_render_fn render, void *arg, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->listen_fd = -1;
	if (mhd_load(err, errlen))
		return -1;
	s->addr = *a;
	s->render = render;
	s->arg = arg;
	s->listen_fd = metrics_addr_listen(a, err, errlen);
	if (s->listen_fd < 0)
		return -1;
	s->mhd = mhd.start_daemon(MHD_USE_EPOLL, 0, NULL, NULL, on_request, s,
				  MHD_OPTION_LISTEN_SOCKET, s->listen_fd,
				  MHD_OPTION_CONNECTION_LIMIT, (unsigned int)METRICS_MAX_CLIENTS,
				  MHD_OPTION_CONNECTION_TIMEOUT,
				  (unsigned int)METRICS_CLIENT_TIMEOUT_S,
				  MHD_OPTION_END);
	if (!s->mhd) {
		snprintf(err, errlen, "libmicrohttpd would not start");
		close(s->listen_fd);
		s->listen_fd = -1;
		return -1;
	}
	return 0;
}

/* The descriptor to poll for input, or -1 when not serving. */
int metrics_server_fd(const struct metrics_server *s)
{
	const union MHD_DaemonInfo *info;

	if (!s->mhd)
		return -1;
	info = mhd.get_daemon_info(s->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	return info ? info->epoll_fd : -1;
}

/* Milliseconds until libmicrohttpd has work without input (a timeout), or -1. */
int metrics_server_timeout(const struct metrics_server *s)
{
	MHD_UNSIGNED_LONG_LONG ms;

	if (!s->mhd || mhd.get_timeout(s->mhd, &ms) != MHD_YES)
		return -1;
	return ms > 60000 ? 60000 : (int)ms;
}

/* Do what is ready: accept, read, answer, send, drop the idle. */
void metrics_server_run(struct metrics_server *s)
{
	if (s->mhd)
		mhd.run(s->mhd);
}

void metrics_server_stop(struct metrics_server *s)
{
	const struct sockaddr_un *sun = (const struct sockaddr_un *)&s->addr.ss;

	if (!s->mhd)
		return;
	/* It closes the listening socket it was given. */
	mhd.stop_daemon(s->mhd);
	if (sun->sun_family == AF_UNIX)
		unlink(sun->sun_path);
	s->mhd = NULL;
	s->listen_fd = -1;
}
