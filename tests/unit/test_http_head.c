// SPDX-License-Identifier: MIT
/* The HTTP request head reader (util/http_head.c): where a head ends, and the status of each bad
 * one. */
#include <stdlib.h>

#include "util/http_head.h"
#include "unit.h"

/* The status st_http_head_parse() gives the whole of s, which must be a complete head. */
static unsigned int parse(const char *s, struct st_http_head *h)
{
	long end = st_http_head_end(s, strlen(s));

	if (end != (long)strlen(s))
		return 999;
	return st_http_head_parse(s, end, h);
}

static void test_end(void)
{
	char *big = malloc(ST_HTTP_HEAD_MAX);

	CHECK(st_http_head_end("GET / HTTP/1.1\r\nHost: x\r\n", 25) == 0);
	CHECK(st_http_head_end("GET / HTTP/1.1\r\n\r\nGET", 21) == 18);
	CHECK(st_http_head_end("GET / HTTP/1.0\n\n", 16) == 16);
	memset(big, 'a', ST_HTTP_HEAD_MAX);
	CHECK(st_http_head_end(big, ST_HTTP_HEAD_MAX) == -414);
	big[20] = '\n';
	CHECK(st_http_head_end(big, ST_HTTP_HEAD_MAX) == -431);
	CHECK(st_http_head_end(big, ST_HTTP_HEAD_MAX - 1) == 0);
	free(big);
}

static void test_good(void)
{
	struct st_http_head h;

	CHECK(parse("GET /metrics?x=1 HTTP/1.1\r\nHost: a\r\nAccept: text/plain\r\n"
		    "accept:  application/openmetrics-text \r\n\r\n",
		    &h) == 0);
	CHECK_STR(h.method, "GET");
	CHECK_STR(h.path, "/metrics");
	CHECK_STR(h.accept, "text/plain,application/openmetrics-text");
	CHECK(h.keep_alive && !h.has_body && h.minor == 1);
	CHECK(parse("HEAD / HTTP/1.0\n\n", &h) == 0);
	CHECK(!h.keep_alive && h.minor == 0);
	CHECK(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", &h) == 0 && h.keep_alive);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: te, close\r\n\r\n", &h) == 0 &&
	      !h.keep_alive);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 000\r\n\r\n", &h) == 0 &&
	      !h.has_body);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: 10\r\n\r\n", &h) == 0 &&
	      h.has_body);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", &h) == 0 &&
	      h.has_body);
	CHECK(parse("POST / HTTP/1.1\r\nHost: a\r\nX: \xff\xfe\r\n\r\n", &h) == 0);
	CHECK_STR(h.method, "POST");
}

static void test_bad(void)
{
	struct st_http_head h;
	char *path;

	CHECK(parse("\x01\x02garbage\r\n\r\n", &h) == 400);
	CHECK(parse("GARBAGE\r\n\r\n", &h) == 400);
	CHECK(parse("GET /metrics\r\n\r\n", &h) == 400);
	CHECK(parse("\r\n\r\n", &h) == 400);
	CHECK(parse("GET metrics HTTP/1.1\r\nHost: a\r\n\r\n", &h) == 400);
	CHECK(parse("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/2.0\r\nHost: a\r\n\r\n", &h) == 505);
	CHECK(parse("GET / HTTP/1.10\r\nHost: a\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost x\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost : a\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\x01\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n", &h) == 400);
	CHECK(parse("GET / HTTP/1.1\r\nHost: a\r\nContent-Length:\r\n\r\n", &h) == 400);
	CHECK(parse("VERYLONGMETHODNAME / HTTP/1.1\r\nHost: a\r\n\r\n", &h) == 400);
	path = malloc(4000);
	strcpy(path, "GET /");
	memset(path + 5, 'a', 3000);
	strcpy(path + 3005, " HTTP/1.1\r\nHost: a\r\n\r\n");
	CHECK(parse(path, &h) == 414);
	free(path);
}

int main(void)
{
	test_end();
	test_good();
	test_bad();
	return unit_summary();
}
