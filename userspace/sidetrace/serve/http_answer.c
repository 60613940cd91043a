// SPDX-License-Identifier: MIT
/* Responses of serve's HTTP server; see http_answer.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/textbuf.h"
#include "serve/http_answer.h"

#define TEXT_TYPE "text/plain; charset=utf-8"

/* Each status served: its reason phrase, and the body of an error naming its cause. */
static const struct status_row {
	unsigned int status;
	const char *reason;
	const char *text;
} statuses[] = {
	{200, "OK", ""},
	{400, "Bad Request", "malformed request\n"},
	{404, "Not Found", "not found: metrics are at /metrics\n"},
	{405, "Method Not Allowed", "only GET and HEAD\n"},
	{408, "Request Timeout", "request head not complete in time\n"},
	{413, "Content Too Large", "no request body, please\n"},
	{414, "URI Too Long", "request line too long\n"},
	{431, "Request Header Fields Too Large", "request head too large\n"},
	{500, "Internal Server Error", "internal error\n"},
	{503, "Service Unavailable", "too many connections, from your address or in all\n"},
	{505, "HTTP Version Not Supported", "HTTP/1.x only\n"},
};

static const struct status_row *status_row(unsigned int status)
{
	size_t i;

	for (i = 0; i < sizeof(statuses) / sizeof(statuses[0]); i++)
		if (statuses[i].status == status)
			return &statuses[i];
	return &statuses[1]; /* not reached: every status given is a row */
}

static const char *error_text(unsigned int status)
{
	return status_row(status)->text;
}

/* Builds the response into r; body stays the caller's. */
static int build(struct st_http_response *r, unsigned int status, const char *type,
		 const char *body, size_t blen, bool head_only)
{
	struct st_textbuf tb = {0};

	st_tb_printf(&tb, "HTTP/1.1 %u %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n", status,
		     status_row(status)->reason, type, blen);
	if (status == 405)
		st_tb_puts(&tb, "Allow: GET, HEAD\r\n");
	if (r->close)
		st_tb_puts(&tb, "Connection: close\r\n");
	st_tb_puts(&tb, "\r\n");
	if (!head_only)
		st_tb_putn(&tb, body, blen);
	r->len = tb.len;
	r->buf = st_tb_take(&tb);
	return r->buf ? 0 : -ENOMEM;
}

static int metrics(struct st_http *srv, bool head_only, const struct st_http_head *h,
		   struct st_http_response *r)
{
	enum st_prom_format fmt = st_prom_negotiate(h->accept);
	char msg[128], *text;
	size_t len;
	int ret;

	text = srv->render(srv->ctx, fmt, &len);
	if (!text) {
		snprintf(msg, sizeof(msg), "cannot read the maps: %s\n", strerror(errno));
		return build(r, 500, TEXT_TYPE, msg, strlen(msg), head_only);
	}
	ret = build(r, 200, st_prom_content_type(fmt), text, len, head_only);
	free(text);
	return ret;
}

int st_http_answer(struct st_http *srv, const struct st_http_head *h, unsigned int status,
		   struct st_http_response *r)
{
	const char *text;
	bool head_only;

	memset(r, 0, sizeof(*r));
	r->close = true;
	if (status) {
		text = error_text(status);
		return build(r, status, TEXT_TYPE, text, strlen(text), false);
	}
	head_only = !strcmp(h->method, "HEAD");
	if (strcmp(h->method, "GET") && !head_only)
		status = 405;
	/* The body is not read: what follows the head could not be parsed. */
	else if (h->has_body)
		status = 413;
	if (status) {
		text = error_text(status);
		return build(r, status, TEXT_TYPE, text, strlen(text), head_only);
	}
	r->close = !h->keep_alive;
	if (!strcmp(h->path, "/metrics"))
		return metrics(srv, head_only, h, r);
	if (!strcmp(h->path, "/")) {
		text = "sidetrace serve: metrics at /metrics\n";
		return build(r, 200, TEXT_TYPE, text, strlen(text), head_only);
	}
	text = error_text(404);
	return build(r, 404, TEXT_TYPE, text, strlen(text), head_only);
}
