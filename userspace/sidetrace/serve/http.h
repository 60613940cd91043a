/* SPDX-License-Identifier: MIT */
/*
 * The HTTP side of `sidetrace serve`: GET (and HEAD) of /metrics, in the
 * format the Accept header asks for, and of / (a line pointing there).
 * Nothing else: other methods get 405, other paths 404, a request with a
 * body 413, a malformed one 400 (util/http_head.h has the others), each
 * with a one-line reason.
 *
 * A scrape must get through while clients misbehave: a request head not
 * complete ST_HTTP_HEAD_DEADLINE_S seconds after its first byte (or after
 * the connection opened) gets 408 and the connection is closed, however
 * the bytes trickle in; an address holding ST_HTTP_MAX_PER_ADDRESS
 * connections, or a server holding ST_HTTP_MAX_CONNECTIONS, answers 503
 * to the next one at once; a response not taken in ST_HTTP_WRITE_DEADLINE_S
 * seconds and a connection idle for ST_HTTP_IDLE_S are closed.
 */
#ifndef SIDETRACE_SERVE_HTTP_H
#define SIDETRACE_SERVE_HTTP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "output/prom.h"

#define ST_HTTP_DEFAULT_LISTEN "127.0.0.1:9477"
#define ST_HTTP_HEAD_DEADLINE_S 5
#define ST_HTTP_WRITE_DEADLINE_S 10
#define ST_HTTP_IDLE_S 30 /* longer than Prometheus' default 15 s scrape interval */
#define ST_HTTP_MAX_CONNECTIONS 64
#define ST_HTTP_MAX_PER_ADDRESS 8

/*
 * Renders the metrics in fmt: malloc'ed text and its length, or NULL with
 * errno set (the client gets a 500 with the reason).
 */
typedef char *(*st_http_render_fn)(void *ctx, enum st_prom_format fmt, size_t *len);

struct st_http_conn;

struct st_http {
	int fd; /* the listening socket */
	int epfd; /* the server thread's epoll */
	int stopfd; /* an eventfd: written to stop the thread */
	pthread_t thread;
	bool running;
	char url[128]; /* http://ADDR:PORT/metrics, the port as bound */
	st_http_render_fn render;
	void *ctx;
	struct st_http_conn *conns[ST_HTTP_MAX_CONNECTIONS]; /* NULL: a free slot */
};

/*
 * Binds and listens on where, "ADDR:PORT" ("127.0.0.1:9477",
 * "[::1]:9477", "localhost:0" for a free port). Nothing is served yet.
 * 0, or a negative errno with a message in err.
 */
int st_http_listen(struct st_http *h, const char *where, char *err, size_t errlen);

/*
 * Serves from a thread of its own, which calls render for each scrape.
 * Call it with the signals that the caller waits for blocked, so that
 * the thread inherits the mask. 0, or a negative errno with a message.
 */
int st_http_start(struct st_http *h, st_http_render_fn render, void *ctx, char *err, size_t errlen);

/* Stops serving, closes every socket; h may be partly set up. */
void st_http_stop(struct st_http *h);

#endif /* SIDETRACE_SERVE_HTTP_H */
