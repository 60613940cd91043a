// SPDX-License-Identifier: MIT
/* Escaping of outside strings for text output; see escape.h. */
#define _GNU_SOURCE /* vasprintf */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>

#include "util/escape.h"

int st_utf8_decode(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	static const uint32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
	uint32_t c;
	int n, i;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		n = 2, c = u[0] & 0x1f;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		n = 3, c = u[0] & 0x0f;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		n = 4, c = u[0] & 0x07;
	else
		return 0;
	/* A NUL is not a continuation byte: the loop stops at the string's end. */
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min[n] || (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}

int st_text_char(const char *s)
{
	uint32_t cp;
	int n = st_utf8_decode(s, &cp);

	if (!n || cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
		return 0;
	return n;
}

/*
 * term: the terminal rule of printf's values (escape.h), else the text
 * rule. Only the text rule doubles a backslash: printf's values keep the
 * bytes they have wherever they cannot drive a terminal.
 */
static void escape(struct st_textbuf *tb, const char *s, bool term)
{
	int n;

	while (*s) {
		/* Escaped itself: "\\x0a" can then only be the four characters. */
		if (*s == '\\' && !term) {
			st_tb_puts(tb, "\\\\");
			s++;
			continue;
		}
		n = term && (*s == '\n' || *s == '\t') ? 1 : st_text_char(s);
		st_tb_putn(tb, s, (size_t)n);
		/* A control, or a byte of malformed UTF-8, on its own. */
		if (!n)
			st_tb_printf(tb, "\\x%02x", (unsigned char)*s);
		s += n ? n : 1;
	}
}

void st_escape_text(struct st_textbuf *tb, const char *s)
{
	escape(tb, s, false);
}

void st_escape_term(struct st_textbuf *tb, const char *s)
{
	escape(tb, s, true);
}

void st_fputs_text(FILE *f, const char *s)
{
	struct st_textbuf tb = {0};
	char *text;

	st_escape_text(&tb, s);
	text = st_tb_take(&tb);
	/* Out of memory: a marker rather than the raw bytes. */
	fputs(text ? text : "?", f);
	free(text);
}

/* "sidetrace: ", then what (a word and ": ", or ""), then the message, in one write. */
static void say(const char *what, const char *fmt, va_list ap)
{
	struct st_textbuf tb = {0};
	char *msg = NULL;
	int n;

	n = vasprintf(&msg, fmt, ap);
	st_tb_puts(&tb, "sidetrace: ");
	st_tb_puts(&tb, what);
	st_escape_text(&tb, n < 0 ? "out of memory" : msg);
	st_tb_puts(&tb, "\n");
	/* One write: the line stays whole amid the traced command's output. */
	if (tb.s)
		fwrite(tb.s, 1, tb.len, stderr);
	else
		fputs("sidetrace: out of memory\n", stderr);
	st_tb_free(&tb);
	free(msg);
}

void st_errorf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

/* --no-warnings: one switch for the process, set once at start. */
static bool warnings_off;

void st_warnings_off(void)
{
	warnings_off = true;
}

bool st_warnings_on(void)
{
	return !warnings_off;
}

void st_warnf(const char *fmt, ...)
{
	va_list ap;

	if (warnings_off)
		return;
	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}
