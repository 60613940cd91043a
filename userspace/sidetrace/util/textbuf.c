/* SPDX-License-Identifier: MIT */
/* Growable text buffer; see textbuf.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/textbuf.h"

static bool tb_reserve(struct st_textbuf *tb, size_t more)
{
	size_t ncap;
	char *p;

	if (tb->failed)
		return false;
	if (tb->len + more + 1 <= tb->cap)
		return true;
	ncap = tb->cap ? tb->cap : 64;
	while (ncap < tb->len + more + 1)
		ncap *= 2;
	p = realloc(tb->s, ncap);
	if (!p) {
		tb->failed = true;
		return false;
	}
	tb->s = p;
	tb->cap = ncap;
	return true;
}

void st_tb_putc(struct st_textbuf *tb, char c)
{
	if (!tb_reserve(tb, 1))
		return;
	tb->s[tb->len++] = c;
	tb->s[tb->len] = '\0';
}

void st_tb_putn(struct st_textbuf *tb, const char *s, size_t n)
{
	if (!tb_reserve(tb, n))
		return;
	memcpy(tb->s + tb->len, s, n);
	tb->len += n;
	tb->s[tb->len] = '\0';
}

void st_tb_puts(struct st_textbuf *tb, const char *s)
{
	st_tb_putn(tb, s, strlen(s));
}

void st_tb_dec(struct st_textbuf *tb, uint64_t v, bool is_signed)
{
	char digits[24], *d = digits + sizeof(digits);
	bool neg = is_signed && (int64_t)v < 0;

	/* The magnitude of INT64_MIN is 2^63, which only an unsigned holds. */
	if (neg)
		v = -v;
	do
		*--d = (char)('0' + v % 10);
	while (v /= 10);
	if (neg)
		*--d = '-';
	st_tb_putn(tb, d, digits + sizeof(digits) - d);
}

void st_tb_printf(struct st_textbuf *tb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !tb_reserve(tb, n))
		return;
	va_start(ap, fmt);
	vsnprintf(tb->s + tb->len, n + 1, fmt, ap);
	va_end(ap);
	tb->len += n;
}

void st_tb_json_str(struct st_textbuf *tb, const char *s)
{
	st_tb_putc(tb, '"');
	st_json_escape(tb, s);
	st_tb_putc(tb, '"');
}

char *st_tb_take(struct st_textbuf *tb)
{
	char *s;

	if (tb->failed) {
		st_tb_free(tb);
		return NULL;
	}
	s = tb->s ? tb->s : strdup("");
	memset(tb, 0, sizeof(*tb));
	return s;
}

void st_tb_free(struct st_textbuf *tb)
{
	free(tb->s);
	memset(tb, 0, sizeof(*tb));
}
