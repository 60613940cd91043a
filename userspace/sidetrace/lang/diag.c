// SPDX-License-Identifier: MIT
/* Recording and rendering of diagnostics. */
#include <stdarg.h>
#include <string.h>

#include "lang/diag.h"

void st_diag_set(struct st_diag *d, const char *file, struct st_pos pos, const char *fmt, ...)
{
	va_list ap;

	if (st_diag_is_set(d))
		return;
	snprintf(d->file, sizeof(d->file), "%s", file ? file : "program");
	d->line = pos.line;
	d->col = pos.col;
	d->hint[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
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

static void print_caret(FILE *f, const struct st_diag *d, const char *src)
{
	const char *l = line_start(src, d->line);
	size_t len, i;

	if (!l)
		return;
	len = strcspn(l, "\n");
	fprintf(f, "%.*s\n", (int)len, l);
	/* Keep the source's tabs so the caret lines up in a terminal. */
	for (i = 0; i + 1 < d->col; i++)
		fputc(i < len && l[i] == '\t' ? '\t' : ' ', f);
	fputs("^\n", f);
}

void st_diag_print(FILE *f, const struct st_diag *d, const char *src)
{
	if (!d->line) {
		fprintf(f, "%s: error: %s\n", d->file, d->msg);
	} else {
		fprintf(f, "%s:%u:%u: error: %s\n", d->file, d->line, d->col, d->msg);
		if (src)
			print_caret(f, d, src);
	}
	if (d->hint[0])
		fprintf(f, "%s\n", d->hint);
}
