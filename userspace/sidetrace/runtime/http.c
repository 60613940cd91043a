// SPDX-License-Identifier: MIT
/*
 * The HTTP side of `sidetrace serve` (http.h), on libmicrohttpd, opened
 * only by serve: linked, it and the TLS libraries it brings cost every
 * sidetrace command about 5 ms of start-up (a one-shot session is 20).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "runtime/http.h"

/* The soname that Debian's libmicrohttpd-dev links (libmicrohttpd12). */
#define MHD_SONAME "libmicrohttpd.so.12"

/* The functions used, resolved once by open_mhd(). */
static struct {
	typeof(&MHD_create_response_from_buffer) create_response_from_buffer;
	typeof(&MHD_add_response_header) add_response_header;
	typeof(&MHD_queue_response) queue_response;
	typeof(&MHD_destroy_response) destroy_response;
	typeof(&MHD_lookup_connection_value) lookup_connection_value;
	typeof(&MHD_start_daemon) start_daemon;
	typeof(&MHD_stop_daemon) stop_daemon;
} mhd;

#define MHD_SYM(lib, name) (*(void **)&mhd.name = dlsym(lib, "MHD_" #name))

static int open_mhd(char *err, size_t errlen)
{
	void *lib;

	if (mhd.stop_daemon)
		return 0;
	lib = dlopen(MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(err, errlen, "cannot load %s (Debian: libmicrohttpd12): %s", MHD_SONAME,
			 dlerror());
		return -ENOENT;
	}
	if (!MHD_SYM(lib, create_response_from_buffer) || !MHD_SYM(lib, add_response_header) ||
	    !MHD_SYM(lib, queue_response) || !MHD_SYM(lib, destroy_response) ||
	    !MHD_SYM(lib, lookup_connection_value) || !MHD_SYM(lib, start_daemon) ||
	    !MHD_SYM(lib, stop_daemon)) {
		snprintf(err, errlen, "%s lacks a function sidetrace needs: %s", MHD_SONAME,
			 dlerror());
		mhd.stop_daemon = NULL;
		return -ENOENT;
	}
	return 0;
}

/* Splits "ADDR:PORT" ("[v6]:PORT" too) into its host and port. */
static int split_listen(const char *listen, char *host, size_t hlen, const char **port)
{
	const char *colon = strrchr(listen, ':');
	char *end;
	size_t n;
	long v;

	if (!colon || !colon[1])
		return -EINVAL;
	n = colon - listen;
	if (n >= 2 && listen[0] == '[' && listen[n - 1] == ']') {
		listen++;
		n -= 2;
	}
	if (!n || n >= hlen)
		return -EINVAL;
	memcpy(host, listen, n);
	host[n] = '\0';
	*port = colon + 1;
	/* Digits, 0 to 65535: getaddrinfo() would take "99999" modulo 65536, or a service name. */
	errno = 0;
	v = strtol(*port, &end, 10);
	if (errno || *end || !isdigit((unsigned char)**port) || v > 65535)
		return -ERANGE;
	return 0;
}

/* The bound address as a URL, with the port the kernel chose for 0. */
static void bound_url(struct st_http *h)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	char addr[INET6_ADDRSTRLEN] = "?";
	int port = 0;

	if (getsockname(h->fd, (struct sockaddr *)&ss, &len))
		return;
	if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &s6->sin6_addr, addr, sizeof(addr));
		port = ntohs(s6->sin6_port);
		snprintf(h->url, sizeof(h->url), "http://[%s]:%d/metrics", addr, port);
		return;
	}
	inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, addr, sizeof(addr));
	port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	snprintf(h->url, sizeof(h->url), "http://%s:%d/metrics", addr, port);
}

int st_http_listen(struct st_http *h, const char *where, char *err, size_t errlen)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_flags = AI_NUMERICSERV | AI_PASSIVE};
	struct addrinfo *ai = NULL;
	char host[256];
	const char *port;
	int ret, one = 1;

	memset(h, 0, sizeof(*h));
	h->fd = -1;
	ret = split_listen(where, host, sizeof(host), &port);
	if (ret) {
		snprintf(err, errlen, "--listen %s: %s", where,
			 ret == -ERANGE ? "the port is a number from 0 (any free one) to 65535"
					: "want ADDR:PORT, e.g. 127.0.0.1:9477");
		return -EINVAL;
	}
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret) {
		snprintf(err, errlen, "--listen %s: %s", where, gai_strerror(ret));
		return -EINVAL;
	}
	h->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (h->fd < 0 || setsockopt(h->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(h->fd, ai->ai_addr, ai->ai_addrlen) || listen(h->fd, 64)) {
		ret = -errno;
		snprintf(err, errlen, "cannot listen on %s: %s", where, strerror(errno));
		goto cleanup;
	}
	bound_url(h);
	ret = 0;
cleanup:
	freeaddrinfo(ai);
	if (ret && h->fd >= 0) {
		close(h->fd);
		h->fd = -1;
	}
	return ret;
}

static enum MHD_Result answer(struct MHD_Connection *c, unsigned int status, const char *type,
			      char *body, size_t len, enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = mhd.create_response_from_buffer(len, body, mode);
	if (!r) {
		if (mode == MHD_RESPMEM_MUST_FREE)
			free(body);
		return MHD_NO;
	}
	mhd.add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		mhd.add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = mhd.queue_response(c, status, r);
	mhd.destroy_response(r);
	return ret;
}

static enum MHD_Result answer_text(struct MHD_Connection *c, unsigned int status, const char *text)
{
	return answer(c, status, "text/plain; charset=utf-8", (char *)text, strlen(text),
		      MHD_RESPMEM_PERSISTENT);
}

static enum MHD_Result metrics(struct st_http *h, struct MHD_Connection *c)
{
	const char *accept = mhd.lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	enum st_prom_format fmt = st_prom_negotiate(accept);
	char msg[128], *text;
	size_t len;

	text = h->render(h->ctx, fmt, &len);
	if (!text) {
		snprintf(msg, sizeof(msg), "cannot read the maps: %s\n", strerror(errno));
		return answer(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain; charset=utf-8", msg,
			      strlen(msg), MHD_RESPMEM_MUST_COPY);
	}
	return answer(c, MHD_HTTP_OK, st_prom_content_type(fmt), text, len, MHD_RESPMEM_MUST_FREE);
}

/* One request, called once its head is in (read-only: no body wanted). */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	const char *clen = mhd.lookup_connection_value(c, MHD_HEADER_KIND, "Content-Length");
	const char *te = mhd.lookup_connection_value(c, MHD_HEADER_KIND, "Transfer-Encoding");

	(void)version;
	(void)upload_data;
	(void)req_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return answer_text(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD\n");
	if (*upload_data_size || te || (clen && strcmp(clen, "0")))
		return answer_text(c, MHD_HTTP_CONTENT_TOO_LARGE, "no request body, please\n");
	if (!strcmp(url, "/metrics"))
		return metrics(cls, c);
	if (!strcmp(url, "/"))
		return answer_text(c, MHD_HTTP_OK, "sidetrace serve: metrics at /metrics\n");
	return answer_text(c, MHD_HTTP_NOT_FOUND, "not found: metrics are at /metrics\n");
}

int st_http_start(struct st_http *h, st_http_render_fn render, void *ctx, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
	struct MHD_OptionItem opts[] = {
		{MHD_OPTION_LISTEN_SOCKET, h->fd, NULL},
		{MHD_OPTION_CONNECTION_MEMORY_LIMIT, ST_HTTP_REQUEST_MAX, NULL},
		{MHD_OPTION_CONNECTION_TIMEOUT, ST_HTTP_TIMEOUT_S, NULL},
		{MHD_OPTION_CONNECTION_LIMIT, ST_HTTP_MAX_CONNECTIONS, NULL},
		/* A scraper speaks proper HTTP: a request that does not is refused. */
		{MHD_OPTION_STRICT_FOR_CLIENT, 1, NULL},
		{MHD_OPTION_END, 0, NULL},
	};

	h->render = render;
	h->ctx = ctx;
	if (open_mhd(err, errlen))
		return -ENOENT;
	if (!getsockname(h->fd, (struct sockaddr *)&ss, &len) && ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	h->daemon = mhd.start_daemon(flags, 0, NULL, NULL, handle, h, MHD_OPTION_ARRAY, opts,
				     MHD_OPTION_END);
	if (!h->daemon) {
		snprintf(err, errlen, "cannot start the HTTP server on %s", h->url);
		return -EIO;
	}
	/* The server closes the socket when it stops. */
	h->fd = -1;
	return 0;
}

void st_http_stop(struct st_http *h)
{
	if (h->daemon)
		mhd.stop_daemon(h->daemon);
	h->daemon = NULL;
	if (h->fd >= 0)
		close(h->fd);
	h->fd = -1;
}
