// SPDX-License-Identifier: MIT
/* printf formats: see format.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/format.h"

/* parse_conv(): the '%' starts no conversion. */
#define ST_FMT_NO_CONV 1

/* The conversions of floating-point values. */
static const char float_convs[] = "fFeEgGaA";

static int add_piece(struct st_format *f, const struct st_fmt_piece *p)
{
	struct st_fmt_piece *n;

	n = realloc(f->pieces, (f->nr_pieces + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	f->pieces = n;
	f->pieces[f->nr_pieces++] = *p;
	return 0;
}

static enum st_conv_arg conv_arg(char c)
{
	switch (c) {
	case 'd':
	case 'i':
		return ST_CONV_SIGNED;
	case 'c':
		return ST_CONV_CHAR;
	case 'p':
		return ST_CONV_PTR;
	case 's':
		return ST_CONV_STR;
	case 'r':
		return ST_CONV_BUF;
	default:
		if (strchr(float_convs, c))
			return ST_CONV_FLOAT;
		return ST_CONV_UNSIGNED;
	}
}

/*
 * One conversion at text[*i] == '%' into *cv; *i moves past it. The C
 * format keeps flags, width and precision; integers get "ll".
 */
static int parse_conv(const char *text, uint32_t *i, struct st_conv *cv, char *err, size_t errlen,
		      uint32_t *at)
{
	uint32_t start = *i, j = *i + 1, mods;
	char c;

	j += strspn(text + j, "-0+ #");
	j += strspn(text + j, "0123456789");
	if (text[j] == '.') {
		j++;
		j += strspn(text + j, "0123456789");
	}
	if (text[j] == '*') {
		*at = j;
		snprintf(err, errlen,
			 "printf: '*' width or precision is not supported: write "
			 "the number into the format");
		return -EINVAL;
	}
	if (j - start > 20) {
		*at = start;
		snprintf(err, errlen, "printf: conversion too long (at most 20 bytes)");
		return -EINVAL;
	}
	memcpy(cv->spec, text + start, j - start);
	cv->spec[j - start] = '\0';
	/* C's: hh, h, l, ll, and j, z and t (64 bits here), as bpftrace takes them. */
	mods = strspn(text + j, "hljzt");
	if (mods > 2 || (mods == 2 && (text[j] != text[j + 1] || !strchr("hl", text[j])))) {
		*at = j;
		snprintf(err, errlen,
			 "printf: unknown length modifier '%.*s': use hh, h, l, ll, j, z or t",
			 (int)mods, text + j);
		return -EINVAL;
	}
	cv->bits = mods && text[j] == 'h' ? (mods == 2 ? 8 : 16) : 64;
	c = text[j + mods];
	/* No conversion: its '%' is text, as bpftrace prints it ("HIT%\n"). */
	if (!c || (!strchr("diuxXocspr", c) && !strchr(float_convs, c)))
		return ST_FMT_NO_CONV;
	cv->arg = conv_arg(c);
	cv->plain = j - start == 1 && (cv->arg == ST_CONV_STR ||
				       (cv->bits == 64 && (c == 'd' || c == 'i' || c == 'u')));
	if ((cv->arg == ST_CONV_STR || cv->arg == ST_CONV_FLOAT || cv->arg == ST_CONV_BUF) &&
	    mods && !(cv->arg == ST_CONV_FLOAT && mods == 1 && text[j] == 'l')) {
		*at = j;
		snprintf(err, errlen, "printf: %%%c takes no length modifier", c);
		return -EINVAL;
	}
	/* %rx and %rh: one conversion, its style the letter after r. */
	cv->buf_style = 'r';
	if (cv->arg == ST_CONV_BUF && (text[j + mods + 1] == 'x' || text[j + mods + 1] == 'h'))
		cv->buf_style = text[++j + mods];
	if (cv->arg == ST_CONV_PTR || cv->arg == ST_CONV_CHAR || cv->arg == ST_CONV_STR ||
	    cv->arg == ST_CONV_BUF)
		strcat(cv->spec, "s");
	else if (cv->arg == ST_CONV_FLOAT)
		snprintf(cv->spec + (j - start), sizeof(cv->spec) - (j - start), "%c", c);
	else
		snprintf(cv->spec + (j - start), sizeof(cv->spec) - (j - start), "ll%c", c);
	*i = j + mods + 1;
	return 0;
}

int st_format_parse(const char *text, struct st_format *out, char *err, size_t errlen, uint32_t *at)
{
	struct st_fmt_piece p;
	uint32_t i = 0, lit = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	out->text = strdup(text);
	if (!out->text)
		return -ENOMEM;
	while (text[i]) {
		if (text[i] != '%') {
			i++;
			continue;
		}
		memset(&p, 0, sizeof(p));
		if (i > lit) {
			p.off = lit;
			p.len = i - lit;
			ret = add_piece(out, &p);
			if (ret)
				return ret;
		}
		if (text[i + 1] == '%') {
			/* The second '%' is the literal. */
			lit = i + 1;
			i += 2;
			continue;
		}
		p.is_conv = true;
		p.off = i;
		ret = parse_conv(text, &i, &p.conv, err, errlen, at);
		if (ret == ST_FMT_NO_CONV) {
			lit = i++;
			continue;
		}
		if (ret)
			return ret;
		if (out->nr_convs == ST_MAX_PRINTF_ARGS) {
			*at = p.off;
			snprintf(err, errlen, "printf: more than %d conversions in one format",
				 ST_MAX_PRINTF_ARGS);
			return -EINVAL;
		}
		p.len = i - p.off;
		ret = add_piece(out, &p);
		if (ret)
			return ret;
		out->nr_convs++;
		lit = i;
	}
	if (i > lit) {
		memset(&p, 0, sizeof(p));
		p.off = lit;
		p.len = i - lit;
		return add_piece(out, &p);
	}
	return 0;
}

void st_format_free(struct st_format *f)
{
	if (!f)
		return;
	free(f->text);
	free(f->pieces);
	memset(f, 0, sizeof(*f));
}
