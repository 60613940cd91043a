/* SPDX-License-Identifier: MIT */
/*
 * An HTTP/1.x request head (RFC 9112) read from the bytes a client sent:
 * where it ends, and what a metrics endpoint needs of it. Every malformed
 * head gets a status to answer with, never silence: 400 for bad syntax,
 * 414/431 for a request line or head that does not fit, 505 for an
 * unknown version.
 */
#ifndef SIDETRACE_UTIL_HTTP_HEAD_H
#define SIDETRACE_UTIL_HTTP_HEAD_H

#include <stdbool.h>
#include <stddef.h>

/* The most a request head may take, request line included. */
#define ST_HTTP_HEAD_MAX 16384

struct st_http_head {
	char method[16];
	char path[2048]; /* the target's path, its query left out */
	unsigned int minor; /* HTTP/1.minor */
	bool keep_alive;
	bool has_body; /* a Content-Length other than 0, or a Transfer-Encoding */
	char accept[1024]; /* the Accept header, "" when absent */
};

/*
 * The length of the head in buf (through its empty line), 0 while it is
 * incomplete; or, when len reaches ST_HTTP_HEAD_MAX without an empty
 * line, -414 or -431 (the request line or the fields do not fit).
 */
long st_http_head_end(const char *buf, size_t len);

/*
 * Reads the head of len bytes (as st_http_head_end() measured it) into
 * h: 0, or the status to answer with (400, 414, 431, 505).
 */
unsigned int st_http_head_parse(const char *buf, size_t len, struct st_http_head *h);

#endif /* SIDETRACE_UTIL_HTTP_HEAD_H */
