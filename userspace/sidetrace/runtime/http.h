/* SPDX-License-Identifier: MIT */
/*
 * The HTTP side of `sidetrace serve`, on libmicrohttpd: GET (and HEAD) of
 * /metrics, in the format the Accept header asks for, and of / (a line
 * pointing there). Nothing else: other methods get 405, other paths 404,
 * a request with a body 413; libmicrohttpd answers a malformed request
 * with 400 and one whose head exceeds ST_HTTP_REQUEST_MAX bytes with 431
 * or 414, and closes a connection idle for ST_HTTP_TIMEOUT_S seconds.
 */
#ifndef SIDETRACE_RUNTIME_HTTP_H
#define SIDETRACE_RUNTIME_HTTP_H

#include <stddef.h>

#include "output/prom.h"

#define ST_HTTP_DEFAULT_LISTEN "127.0.0.1:9477"
#define ST_HTTP_REQUEST_MAX 16384 /* memory of a connection: its request head must fit */
#define ST_HTTP_TIMEOUT_S 10
#define ST_HTTP_MAX_CONNECTIONS 64

/*
 * Renders the metrics in fmt: malloc'ed text and its length, or NULL with
 * errno set (the client gets a 500 with the reason).
 */
typedef char *(*st_http_render_fn)(void *ctx, enum st_prom_format fmt, size_t *len);

struct st_http {
	int fd; /* the listening socket, until the server takes it */
	struct MHD_Daemon *daemon;
	char url[128]; /* http://ADDR:PORT/metrics, the port as bound */
	st_http_render_fn render;
	void *ctx;
};

/*
 * Binds and listens on where, "ADDR:PORT" ("127.0.0.1:9477",
 * "[::1]:9477", "localhost:0" for a free port). Nothing is served yet.
 * 0, or a negative errno with a message in err.
 */
int st_http_listen(struct st_http *h, const char *where, char *err, size_t errlen);

/*
 * Serves from a thread of the server's own, which calls render for each
 * scrape. Call it with the signals that the caller waits for blocked,
 * so that the thread inherits the mask. 0, or -EIO with a message.
 */
int st_http_start(struct st_http *h, st_http_render_fn render, void *ctx, char *err, size_t errlen);

/* Stops serving, closes the socket; h may be partly set up. */
void st_http_stop(struct st_http *h);

#endif /* SIDETRACE_RUNTIME_HTTP_H */
