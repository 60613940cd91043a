// SPDX-License-Identifier: MIT
/*
 * serve's HTTP server (http.h): one thread, one epoll, a fixed table of
 * connections, and a deadline on each. Not libmicrohttpd, which it was:
 * its timeout restarts on every byte (a client trickling a header line
 * every 2 s held a slot forever) and it closes on some malformed request
 * lines without any status.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "util/http_head.h"
#include "serve/http.h"
#include "serve/http_answer.h"

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
	h->fd = h->epfd = h->stopfd = -1;
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
	h->fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
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

/* What a connection waits for, each with its own deadline. */
enum conn_state {
	CONN_IDLE, /* between requests: ST_HTTP_IDLE_S */
	CONN_HEAD, /* a head begun: ST_HTTP_HEAD_DEADLINE_S from its start */
	CONN_WRITE, /* a response going out: ST_HTTP_WRITE_DEADLINE_S */
};

struct st_http_conn {
	int fd;
	struct sockaddr_storage peer;
	enum conn_state state;
	long long deadline_ms;
	size_t in_len;
	struct st_http_response out;
	size_t out_off;
	char in[ST_HTTP_HEAD_MAX];
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Whether two peers are the same address (ports aside). */
static bool same_address(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET6)
		return !memcmp(&((struct sockaddr_in6 *)a)->sin6_addr,
			       &((struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr));
	return ((struct sockaddr_in *)a)->sin_addr.s_addr ==
	       ((struct sockaddr_in *)b)->sin_addr.s_addr;
}

static void conn_close(struct st_http *h, struct st_http_conn *c)
{
	size_t i;

	for (i = 0; i < ST_HTTP_MAX_CONNECTIONS; i++)
		if (h->conns[i] == c)
			h->conns[i] = NULL;
	close(c->fd);
	free(c->out.buf);
	free(c);
}

/* A short answer to a connection about to be closed, sent if it fits at once. */
static void send_final(struct st_http *h, int fd, unsigned int status)
{
	struct st_http_response r;

	if (st_http_answer(h, NULL, status, &r))
		return;
	/* Whether it went out or not, the connection is closed next. */
	send(fd, r.buf, r.len, MSG_NOSIGNAL | MSG_DONTWAIT);
	free(r.buf);
}

static void conn_wait(struct st_http *h, struct st_http_conn *c, enum conn_state state,
		      long long deadline_ms)
{
	struct epoll_event ev = {.events = state == CONN_WRITE ? EPOLLOUT : EPOLLIN, .data.ptr = c};

	c->state = state;
	c->deadline_ms = deadline_ms;
	epoll_ctl(h->epfd, EPOLL_CTL_MOD, c->fd, &ev);
}

/* Sends what it can of the response; false once the connection is closed. */
static bool conn_flush(struct st_http *h, struct st_http_conn *c)
{
	ssize_t n;

	while (c->out_off < c->out.len) {
		n = send(c->fd, c->out.buf + c->out_off, c->out.len - c->out_off,
			 MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (c->state != CONN_WRITE)
				conn_wait(h, c, CONN_WRITE,
					  now_ms() + ST_HTTP_WRITE_DEADLINE_S * 1000);
			return true;
		}
		if (n <= 0) {
			conn_close(h, c);
			return false;
		}
		c->out_off += n;
	}
	free(c->out.buf);
	c->out.buf = NULL;
	if (c->out.close) {
		conn_close(h, c);
		return false;
	}
	c->out_off = c->out.len = 0;
	conn_wait(h, c, CONN_IDLE, now_ms() + ST_HTTP_IDLE_S * 1000);
	return true;
}

/* Answers every complete head in the input, one response at a time. */
static void conn_process(struct st_http *h, struct st_http_conn *c)
{
	struct st_http_head head;
	unsigned int status;
	long end;

	while (c->state != CONN_WRITE) {
		end = st_http_head_end(c->in, c->in_len);
		if (!end) {
			if (c->in_len && c->state == CONN_IDLE)
				conn_wait(h, c, CONN_HEAD,
					  now_ms() + ST_HTTP_HEAD_DEADLINE_S * 1000);
			return;
		}
		status = end < 0 ? -end : st_http_head_parse(c->in, end, &head);
		if (st_http_answer(h, &head, status, &c->out)) {
			conn_close(h, c);
			return;
		}
		if (end > 0) {
			c->in_len -= end;
			memmove(c->in, c->in + end, c->in_len);
		}
		c->out_off = 0;
		if (!conn_flush(h, c))
			return;
	}
}

static void conn_read(struct st_http *h, struct st_http_conn *c)
{
	ssize_t n;

	while (c->in_len < sizeof(c->in)) {
		n = recv(c->fd, c->in + c->in_len, sizeof(c->in) - c->in_len, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			conn_close(h, c);
			return;
		}
		c->in_len += n;
	}
	conn_process(h, c);
}

/* The free slot for a client from peer, or -503 when it gets none. */
static int conn_slot(struct st_http *h, const struct sockaddr_storage *peer)
{
	unsigned int same = 0;
	int i, free_slot = -503;

	for (i = 0; i < ST_HTTP_MAX_CONNECTIONS; i++) {
		if (!h->conns[i])
			free_slot = i;
		else if (same_address(&h->conns[i]->peer, peer))
			same++;
	}
	return same >= ST_HTTP_MAX_PER_ADDRESS ? -503 : free_slot;
}

static void accept_all(struct st_http *h)
{
	struct sockaddr_storage peer;
	struct st_http_conn *c;
	struct epoll_event ev = {.events = EPOLLIN};
	socklen_t len;
	int fd, slot;

	for (;;) {
		len = sizeof(peer);
		fd = accept4(h->fd, (struct sockaddr *)&peer, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0)
			return;
		slot = conn_slot(h, &peer);
		c = slot < 0 ? NULL : malloc(sizeof(*c));
		if (!c) {
			send_final(h, fd, 503);
			close(fd);
			continue;
		}
		*c = (struct st_http_conn){.fd = fd, .peer = peer, .state = CONN_HEAD};
		/* A connection that says nothing is as slow as one that trickles. */
		c->deadline_ms = now_ms() + ST_HTTP_HEAD_DEADLINE_S * 1000;
		ev.data.ptr = c;
		if (epoll_ctl(h->epfd, EPOLL_CTL_ADD, fd, &ev)) {
			close(fd);
			free(c);
			continue;
		}
		h->conns[slot] = c;
	}
}

/* Drops connections past their deadline; the wait until the next one, -1 for none. */
static int expire(struct st_http *h)
{
	long long now = now_ms(), next = -1;
	struct st_http_conn *c;
	size_t i;

	for (i = 0; i < ST_HTTP_MAX_CONNECTIONS; i++) {
		c = h->conns[i];
		if (!c)
			continue;
		if (c->deadline_ms > now) {
			if (next < 0 || c->deadline_ms < next)
				next = c->deadline_ms;
			continue;
		}
		if (c->state == CONN_HEAD)
			send_final(h, c->fd, 408);
		conn_close(h, c);
	}
	return next < 0 ? -1 : next - now;
}

static void *serve_loop(void *arg)
{
	struct st_http *h = arg;
	struct epoll_event evs[16];
	struct st_http_conn *c;
	int i, n;

	for (;;) {
		n = epoll_wait(h->epfd, evs, 16, expire(h));
		for (i = 0; i < n; i++) {
			c = evs[i].data.ptr;
			if (c == (void *)&h->stopfd)
				return NULL;
			if (!c)
				accept_all(h);
			else if (c->state != CONN_WRITE)
				conn_read(h, c);
			else if (conn_flush(h, c))
				conn_process(h, c);
		}
	}
}

int st_http_start(struct st_http *h, st_http_render_fn render, void *ctx, char *err, size_t errlen)
{
	struct epoll_event ev = {.events = EPOLLIN};
	int ret;

	h->render = render;
	h->ctx = ctx;
	h->epfd = epoll_create1(EPOLL_CLOEXEC);
	h->stopfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (h->epfd < 0 || h->stopfd < 0)
		goto fail;
	ev.data.ptr = NULL;
	if (epoll_ctl(h->epfd, EPOLL_CTL_ADD, h->fd, &ev))
		goto fail;
	ev.data.ptr = &h->stopfd;
	if (epoll_ctl(h->epfd, EPOLL_CTL_ADD, h->stopfd, &ev))
		goto fail;
	ret = pthread_create(&h->thread, NULL, serve_loop, h);
	if (ret) {
		errno = ret;
		goto fail;
	}
	h->running = true;
	return 0;
fail:
	ret = -errno;
	snprintf(err, errlen, "cannot start the HTTP server on %s: %s", h->url, strerror(errno));
	return ret;
}

void st_http_stop(struct st_http *h)
{
	uint64_t one = 1;
	size_t i;

	if (h->running && write(h->stopfd, &one, sizeof(one)) == sizeof(one))
		pthread_join(h->thread, NULL);
	h->running = false;
	for (i = 0; i < ST_HTTP_MAX_CONNECTIONS; i++)
		if (h->conns[i])
			conn_close(h, h->conns[i]);
	if (h->fd >= 0)
		close(h->fd);
	if (h->epfd >= 0)
		close(h->epfd);
	if (h->stopfd >= 0)
		close(h->stopfd);
	h->fd = h->epfd = h->stopfd = -1;
}
