// SPDX-License-Identifier: MIT
/*
 * The preprocessor's lines: each directive read and made an empty line,
 * the others expanded where the conditionals keep them, blanked where
 * they drop them; comments followed across lines, so that a '#' in one
 * is no directive.
 */
#define _GNU_SOURCE /* strchrnul */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "objfile/kernel_btf.h"
#include "preproc/pp.h"

int pp_error(struct pp *pp, const char *fmt, ...)
{
	struct st_pp_error *e = pp->err;
	va_list ap;

	if (e->msg[0])
		return -EINVAL;
	snprintf(e->file, sizeof(e->file), "%s", pp->file->name);
	e->line = pp->file->line;
	e->col = e->line ? (pp->col ? pp->col : 1) : 0;
	e->in_include = pp->file->included;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int pp_nomem(struct pp *pp)
{
	pp->nomem = 1;
	return -ENOMEM;
}

/*
 * Follows comments through s[0..len) from *in_comment: whether anything
 * but space and comments is there.
 */
static int scan_line(const char *s, size_t len, int *in_comment)
{
	int other = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (*in_comment) {
			if (s[i] == '*' && i + 1 < len && s[i + 1] == '/') {
				*in_comment = 0;
				i++;
			}
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			break;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			*in_comment = 1;
			i++;
		} else if (s[i] == '"') {
			for (i++; i < len && s[i] != '"'; i++)
				i += s[i] == '\\';
			other = 1;
		} else if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') {
			other = 1;
		}
	}
	return other;
}

/* The directive's text, its comments made spaces: they may end past it. */
static void strip_comments(const char *s, size_t len, struct st_textbuf *out, int *in_comment)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (*in_comment) {
			if (s[i] == '*' && i + 1 < len && s[i + 1] == '/') {
				*in_comment = 0;
				i++;
				st_tb_putc(out, ' ');
			}
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			break;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			*in_comment = 1;
			i++;
		} else if (s[i] == '"') {
			/* "a//b" is no comment. */
			do {
				if (s[i] == '\\' && i + 1 < len)
					st_tb_putc(out, s[i++]);
				st_tb_putc(out, s[i++]);
			} while (i < len && s[i] != '"');
			if (i < len)
				st_tb_putc(out, s[i]);
		} else {
			st_tb_putc(out, s[i]);
		}
	}
}

/* Whether the line at s is a directive: '#' its first character but spaces. */
static int is_directive(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s < end && *s == '#';
}

/*
 * The directive that starts at s: its physical lines joined where one
 * ends in a backslash, its comments removed; *s then is at its last
 * line's newline (or the end), and each line before is counted.
 */
static int directive(struct pp *pp, const char **s, struct pp_conds *cs, int *in_comment,
		     struct st_textbuf *out)
{
	struct st_textbuf text = {0};
	const char *p = *s, *end;
	size_t len;
	int err;

	st_tb_putn(&text, "", 0);
	for (;;) {
		end = strchrnul(p, '\n');
		len = end - p;
		if (len && p[len - 1] == '\r')
			len--;
		if (!len || p[len - 1] != '\\' || !*end) {
			strip_comments(p, len, &text, in_comment);
			break;
		}
		strip_comments(p, len - 1, &text, in_comment);
		if (out)
			st_tb_putc(out, '\n');
		pp->file->line++;
		p = end + 1;
	}
	*s = end;
	err = text.failed ? pp_nomem(pp) : pp_directive(pp, strchr(text.s, '#') + 1, cs);
	st_tb_free(&text);
	return err;
}

/* A line that is no directive: expanded, checked or dropped. */
static int text_line(struct pp *pp, const char *s, size_t len, const struct pp_conds *cs,
		     int *in_comment, struct st_textbuf *out)
{
	int first = pp->file->line == 1 && !pp->file->included;

	if (!pp_conds_on(cs)) {
		scan_line(s, len, in_comment);
		return 0;
	}
	if (!out) {
		if (scan_line(s, len, in_comment))
			return pp_error(pp,
					"only #define, #undef and conditionals are read from an "
					"included file: C declarations such as structs are not "
					"supported yet");
		return 0;
	}
	/* "#!" starts an interpreter line, which the reader of the file blanks. */
	if (first && len >= 2 && s[0] == '#' && s[1] == '!') {
		st_tb_putn(out, s, len);
		return 0;
	}
	return pp_expand(pp, s, len, out, in_comment);
}

int pp_run(struct pp *pp, const char *src, struct st_textbuf *out)
{
	struct pp_conds cs = {0};
	const char *s = src, *end;
	int in_comment = 0, err = 0;

	while (*s && !err) {
		pp->file->line++;
		pp->col = 0;
		end = strchrnul(s, '\n');
		if (!in_comment && is_directive(s, end) &&
		    !(pp->file->line == 1 && !pp->file->included && s[0] == '#' && s[1] == '!'))
			err = directive(pp, &s, &cs, &in_comment, out);
		else
			err = text_line(pp, s, end - s, &cs, &in_comment, out);
		end = strchrnul(s, '\n');
		if (*end && out)
			st_tb_putc(out, '\n');
		s = *end ? end + 1 : end;
	}
	if (!err && cs.nr) {
		pp->file->line = cs.c[cs.nr - 1].line;
		pp->col = 0;
		err = pp_error(pp, "#if without #endif");
	}
	return err;
}

bool st_pp_have_btf(void)
{
	return !access(ST_KERNEL_BTF_PATH, R_OK);
}

int st_preprocess(const char *src, const char *name, const char *path,
		  const struct st_pp_opts *opts, char **out, struct st_pp_error *err)
{
	struct pp_file main = {.name = name ? name : "program", .path = path};
	struct pp pp = {.opts = opts, .err = err, .file = &main};
	struct st_textbuf tb = {0};
	uint32_t i;
	int ret = 0;

	memset(err, 0, sizeof(*err));
	main.real = path ? realpath(path, NULL) : NULL;
	st_tb_putn(&tb, "", 0);
	if (opts->btf)
		ret = pp_macro_define(&pp, "BPFTRACE_HAVE_BTF", "1", NULL, 0, 0);
	for (i = 0; !ret && i < opts->nr_include_files; i++)
		ret = pp_include_file(&pp, opts->include_files[i]);
	main.line = 0;
	if (!ret)
		ret = pp_run(&pp, src, &tb);
	if (!ret && tb.failed)
		ret = pp_nomem(&pp);
	pp_macros_free(&pp);
	free(main.real);
	if (ret || pp.nomem) {
		st_tb_free(&tb);
		return pp.nomem ? -ENOMEM : ret;
	}
	*out = st_tb_take(&tb);
	return *out ? 0 : -ENOMEM;
}
