// SPDX-License-Identifier: MIT
/* The HTTP/1.x request head reader; see http_head.h. */
#include <string.h>
#include <strings.h>

#include "util/http_head.h"

long st_http_head_end(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++) {
		if (buf[i] != '\n')
			continue;
		if (buf[i + 1] == '\n')
			return i + 2;
		if (buf[i + 1] == '\r' && i + 2 < len && buf[i + 2] == '\n')
			return i + 3;
	}
	if (len < ST_HTTP_HEAD_MAX)
		return 0;
	return memchr(buf, '\n', len) ? -431 : -414;
}

/* RFC 9110's tchar: the bytes of a method or a field name. */
static bool tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* A field value's bytes: visible, blanks, and obs-text; no controls. */
static bool value_char(unsigned char c)
{
	return c == '\t' || (c >= ' ' && c != 0x7f);
}

/* The line at *p up to its LF (a CR before it dropped): its length, or -1 for a bare CR. */
static long line(const char **p, const char *end, const char **start)
{
	const char *nl = memchr(*p, '\n', end - *p);
	size_t n;

	if (!nl)
		return -1;
	*start = *p;
	*p = nl + 1;
	n = nl - *start;
	if (n && (*start)[n - 1] == '\r')
		n--;
	return memchr(*start, '\r', n) ? -1 : (long)n;
}

/* "METHOD SP TARGET SP HTTP/1.x": 0 or the status. */
static unsigned int request_line(const char *s, size_t n, struct st_http_head *h)
{
	const char *end = s + n, *sp, *q;
	size_t m;

	for (m = 0; m < n && tchar(s[m]); m++)
		;
	if (!m || m >= sizeof(h->method) || m == n || s[m] != ' ')
		return 400;
	memcpy(h->method, s, m);
	h->method[m] = '\0';
	s += m + 1;
	sp = memchr(s, ' ', end - s);
	if (!sp || *s != '/')
		return 400;
	for (q = s; q < sp; q++)
		if ((unsigned char)*q <= ' ' || *q == 0x7f)
			return 400;
	q = memchr(s, '?', sp - s);
	m = (q ? q : sp) - s;
	if (m >= sizeof(h->path))
		return 414;
	memcpy(h->path, s, m);
	h->path[m] = '\0';
	s = sp + 1;
	if (end - s != 8 || strncmp(s, "HTTP/", 5) || s[6] != '.' || s[5] < '0' || s[5] > '9' ||
	    s[7] < '0' || s[7] > '9')
		return 400;
	if (s[5] != '1')
		return 505;
	h->minor = s[7] - '0';
	h->keep_alive = h->minor >= 1;
	return 0;
}

/* Whether the comma-separated list v (of vlen bytes) holds token. */
static bool list_has(const char *v, size_t vlen, const char *token)
{
	size_t tlen = strlen(token), i = 0, n;

	while (i < vlen) {
		i += strspn(v + i, " \t,");
		for (n = 0; i + n < vlen && v[i + n] != ',' && v[i + n] != ' ' && v[i + n] != '\t';
		     n++)
			;
		if (n == tlen && !strncasecmp(v + i, token, n))
			return true;
		i += n;
		while (i < vlen && v[i] != ',')
			i++;
	}
	return false;
}

/* Appends an Accept value (repeated headers are one list), cut at what fits. */
static void add_accept(struct st_http_head *h, const char *v, size_t vlen)
{
	size_t have = strlen(h->accept), room = sizeof(h->accept) - 1 - have;

	if (have && room) {
		h->accept[have++] = ',';
		room--;
	}
	if (vlen > room)
		vlen = room;
	memcpy(h->accept + have, v, vlen);
	h->accept[have + vlen] = '\0';
}

/* One "Name: value" line: 0 or the status. */
static unsigned int field(const char *s, size_t n, struct st_http_head *h, unsigned int *hosts)
{
	const char *v;
	size_t m, vlen, i;

	for (m = 0; m < n && tchar(s[m]); m++)
		;
	if (!m || m == n || s[m] != ':')
		return 400;
	v = s + m + 1;
	vlen = n - m - 1;
	for (i = 0; i < vlen; i++)
		if (!value_char(v[i]))
			return 400;
	while (vlen && (*v == ' ' || *v == '\t'))
		v++, vlen--;
	while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
		vlen--;
	if (m == 4 && !strncasecmp(s, "Host", 4)) {
		(*hosts)++;
	} else if (m == 14 && !strncasecmp(s, "Content-Length", 14)) {
		if (!vlen)
			return 400;
		for (i = 0; i < vlen; i++) {
			if (v[i] < '0' || v[i] > '9')
				return 400;
			h->has_body |= v[i] != '0';
		}
	} else if (m == 17 && !strncasecmp(s, "Transfer-Encoding", 17)) {
		h->has_body = true;
	} else if (m == 10 && !strncasecmp(s, "Connection", 10)) {
		if (list_has(v, vlen, "close"))
			h->keep_alive = false;
		else if (list_has(v, vlen, "keep-alive"))
			h->keep_alive = true;
	} else if (m == 6 && !strncasecmp(s, "Accept", 6)) {
		add_accept(h, v, vlen);
	}
	return 0;
}

unsigned int st_http_head_parse(const char *buf, size_t len, struct st_http_head *h)
{
	const char *p = buf, *end = buf + len, *s;
	unsigned int status, hosts = 0;
	long n;

	memset(h, 0, sizeof(*h));
	n = line(&p, end, &s);
	if (n <= 0)
		return 400;
	status = request_line(s, n, h);
	if (status)
		return status;
	while ((n = line(&p, end, &s)) > 0) {
		/* A field folded onto the next line (obs-fold) is refused, as RFC 9112 allows. */
		if (*s == ' ' || *s == '\t')
			return 400;
		status = field(s, n, h, &hosts);
		if (status)
			return status;
	}
	if (n < 0 || p != end)
		return 400;
	/* HTTP/1.1 wants exactly one Host; 1.0 at most one. */
	if (hosts > 1 || (h->minor >= 1 && !hosts))
		return 400;
	return 0;
}
