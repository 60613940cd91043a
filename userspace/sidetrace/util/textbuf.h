/* SPDX-License-Identifier: MIT */
/*
 * Growable text buffer for rendering types, attributes and JSON. An
 * allocation failure latches: later appends are ignored and st_tb_take
 * returns NULL, so callers check once at the end.
 */
#ifndef SIDETRACE_UTIL_TEXTBUF_H
#define SIDETRACE_UTIL_TEXTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct st_textbuf {
	char *s;
	size_t len;
	size_t cap;
	bool failed;
};

void st_tb_putc(struct st_textbuf *tb, char c);
void st_tb_puts(struct st_textbuf *tb, const char *s);
/* Appends n bytes of s, which may hold NULs. */
void st_tb_putn(struct st_textbuf *tb, const char *s, size_t n);
/* Empties the buffer and keeps its memory, for the next use. */
static inline void st_tb_reset(struct st_textbuf *tb)
{
	tb->len = 0;
	tb->failed = false;
	if (tb->s)
		tb->s[0] = '\0';
}
void st_tb_printf(struct st_textbuf *tb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* v in decimal, as %lld (is_signed) or %llu print it, without a printf's setup. */
void st_tb_dec(struct st_textbuf *tb, uint64_t v, bool is_signed);
/* Append s as a JSON string literal, quotes included (util/json.h's rule). */
void st_tb_json_str(struct st_textbuf *tb, const char *s);
/* The text (malloc'ed, caller frees), or NULL on allocation failure. */
char *st_tb_take(struct st_textbuf *tb);
void st_tb_free(struct st_textbuf *tb);

#endif /* SIDETRACE_UTIL_TEXTBUF_H */
