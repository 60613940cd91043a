// SPDX-License-Identifier: MIT
/* Recording and rendering of diagnostics. */
#include <stdarg.h>
#include <string.h>

#include "parse/diag.h"
#include "util/escape.h"

void st_diag_vset(struct st_diag *d, const char *file, struct st_pos pos, const char *fmt,
		  va_list ap)
{
	if (st_diag_is_set(d))
		return;
	snprintf(d->file, sizeof(d->file), "%s", file ? file : "program");
	d->line = pos.line;
	d->col = pos.col;
	d->hint[0] = '\0';
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
}

void st_diag_set(struct st_diag *d, const char *file, struct st_pos pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_diag_vset(d, file, pos, fmt, ap);
	va_end(ap);
}

void st_diag_hint(struct st_diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->hint, sizeof(d->hint), fmt, ap);
	va_end(ap);
}

/* Start of line number line (1-based) in src, or NULL past the end. */
static const char *line_start(const char *src, uint32_t line)
{
	while (--line) {
		src = strchr(src, '\n');
		if (!src)
			return NULL;
		src++;
	}
	return src;
}

/* Source shown around the column of a long line, so that one stays one. */
#define DIAG_WINDOW 160

/*
 * The source line, escaped as all outside text is, and a caret under the
 * byte column: tabs stay tabs, a shown character takes one column and an
 * escaped byte the four of its \xNN. A long line shows DIAG_WINDOW bytes
 * around the column between "...".
 */
static void put_caret(struct st_textbuf *tb, const struct st_diag *d, const char *src)
{
	const char *l = line_start(src, d->line);
	struct st_textbuf line = {0}, pad = {0};
	size_t len, i, from = 0, to;
	int n;

	if (!l)
		return;
	len = strcspn(l, "\n");
	to = len;
	if (len > DIAG_WINDOW) {
		from = d->col > DIAG_WINDOW / 2 ? d->col - DIAG_WINDOW / 2 : 0;
		/* Start on a character, not inside one. */
		while (from && ((unsigned char)l[from] & 0xc0) == 0x80)
			from--;
		to = from + DIAG_WINDOW < len ? from + DIAG_WINDOW : len;
		if (from) {
			st_tb_puts(&line, "...");
			st_tb_puts(&pad, "   ");
		}
	}
	for (i = from; i < to; i += n ? n : 1) {
		n = l[i] == '\t' ? 1 : st_text_char(l + i);
		if (l[i] == '\t')
			st_tb_putc(&line, '\t');
		else if (n)
			st_tb_printf(&line, "%.*s", n, l + i);
		else
			st_tb_printf(&line, "\\x%02x", (unsigned char)l[i]);
		if (i + 1 < d->col)
			st_tb_puts(&pad, l[i] == '\t' ? "\t" : n ? " " : "    ");
	}
	if (to < len)
		st_tb_puts(&line, "...");
	for (; i + 1 < d->col; i++)
		st_tb_putc(&pad, ' ');
	if (!line.failed && !pad.failed)
		st_tb_printf(tb, "%s\n%s^\n", line.s ? line.s : "", pad.s ? pad.s : "");
	st_tb_free(&line);
	st_tb_free(&pad);
}

/* The message names what the binary named: escaped like any outside text. */
void st_diag_text(struct st_textbuf *tb, const struct st_diag *d, const char *src,
		  const char *severity)
{
	st_escape_text(tb, d->file);
	if (d->line)
		st_tb_printf(tb, ":%u:%u", d->line, d->col);
	st_tb_printf(tb, ": %s: ", severity);
	st_escape_text(tb, d->msg);
	st_tb_putc(tb, '\n');
	if (d->line && src)
		put_caret(tb, d, src);
	if (d->hint[0]) {
		st_escape_text(tb, d->hint);
		st_tb_putc(tb, '\n');
	}
}

void st_diag_print(FILE *f, const struct st_diag *d, const char *src)
{
	struct st_textbuf tb = {0};

	st_diag_text(&tb, d, src, "error");
	/* Out of memory: a marker rather than nothing. */
	fputs(tb.s && !tb.failed ? tb.s : "?\n", f);
	st_tb_free(&tb);
}
