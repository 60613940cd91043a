// SPDX-License-Identifier: MIT
/* printf's output: see printf_print.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "parse/functions.h"
#include "output/kept_text.h"
#include "output/printf_print.h"
#include "util/escape.h"

/* Longest conversion: a 20-byte spec can ask for a width of 99999999. */
#define CONV_BUF 4096

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static int format_int(char *buf, const struct st_conv *cv, uint64_t v)
{
	char tmp[32];

	switch (cv->arg) {
	case ST_CONV_SIGNED:
		if (cv->bits == 8)
			return snprintf(buf, CONV_BUF, cv->spec, (long long)(int8_t)v);
		if (cv->bits == 16)
			return snprintf(buf, CONV_BUF, cv->spec, (long long)(int16_t)v);
		return snprintf(buf, CONV_BUF, cv->spec, (long long)v);
	case ST_CONV_UNSIGNED:
		if (cv->bits == 8)
			return snprintf(buf, CONV_BUF, cv->spec, (unsigned long long)(uint8_t)v);
		if (cv->bits == 16)
			return snprintf(buf, CONV_BUF, cv->spec, (unsigned long long)(uint16_t)v);
		return snprintf(buf, CONV_BUF, cv->spec, (unsigned long long)v);
	case ST_CONV_CHAR:
		tmp[0] = (char)v;
		tmp[1] = '\0';
		return snprintf(buf, CONV_BUF, cv->spec, tmp);
	case ST_CONV_PTR:
		snprintf(tmp, sizeof(tmp), "0x%llx", (unsigned long long)v);
		return snprintf(buf, CONV_BUF, cv->spec, tmp);
	default:
		return 0;
	}
}

/* A buffer (its slot) as the conversion's style prints it, then its width and flags. */
static int format_buf(char *buf, const struct st_conv *cv, const char *slot)
{
	char text[ST_BUF_TEXT];

	st_buf_text(slot, cv->arg == ST_CONV_BUF ? cv->buf_style : 'r', text);
	return snprintf(buf, CONV_BUF, cv->spec, text);
}

void st_key_val_float(struct st_key_val *v, const void *data, unsigned int bits)
{
	float f;

	v->type = ST_VT_FLOAT;
	if (bits == 32) {
		memcpy(&f, data, sizeof(f));
		v->d = f;
	} else {
		memcpy(&v->d, data, sizeof(v->d));
	}
}

/*
 * A plain conversion (st_conv.plain) of a string or an integer, appended as
 * snprintf() would print it; false for any other.
 */
static bool plain_value(struct st_textbuf *tb, const struct st_conv *cv, const struct st_key_val *v,
			bool term)
{
	if (!cv->plain || v->type == ST_VT_BUF)
		return false;
	if (cv->arg != ST_CONV_STR) {
		st_tb_dec(tb, v->type == ST_VT_INT ? (uint64_t)v->i : v->u,
			  cv->arg == ST_CONV_SIGNED);
		return true;
	}
	if (!v->s)
		return false;
	if (term)
		st_escape_term(tb, v->s);
	else
		st_tb_puts(tb, v->s);
	return true;
}

void st_format_values(struct st_textbuf *tb, const struct st_format *f,
		      const struct st_key_val *vals, bool term)
{
	const struct st_key_val *v = vals;
	char buf[CONV_BUF];
	uint32_t i;
	int n;

	for (i = 0; i < f->nr_pieces; i++) {
		const struct st_fmt_piece *p = &f->pieces[i];

		if (!p->is_conv) {
			st_tb_putn(tb, f->text + p->off, p->len);
			continue;
		}
		/* What a record prints most, without snprintf (a consumer's main cost). */
		if (plain_value(tb, &p->conv, v, term)) {
			v++;
			continue;
		}
		if (v->type == ST_VT_BUF)
			n = format_buf(buf, &p->conv, v->s);
		else if (p->conv.arg == ST_CONV_STR)
			n = snprintf(buf, sizeof(buf), p->conv.spec, v->s);
		else if (p->conv.arg == ST_CONV_FLOAT)
			n = snprintf(buf, sizeof(buf), p->conv.spec, v->d);
		else
			n = format_int(buf, &p->conv, v->type == ST_VT_INT ? (uint64_t)v->i : v->u);
		/* A buffer's text is escaped already. */
		if (n > 0 && term && v->type != ST_VT_BUF &&
		    (p->conv.arg == ST_CONV_STR || p->conv.arg == ST_CONV_CHAR))
			st_escape_term(tb, buf);
		else if (n > 0)
			st_tb_putn(tb, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
		v++;
	}
}

static void value_json(struct st_textbuf *tb, const struct st_key_val *val,
		       const struct st_textbuf *text)
{
	const char *s = text->s ? text->s : "";
	size_t n = text->len;

	st_tb_puts(tb, "{\"type\": \"value\", \"data\": ");
	if (val->type == ST_VT_INT) {
		st_tb_printf(tb, "%lld", (long long)val->i);
	} else if (val->type == ST_VT_UINT) {
		st_tb_printf(tb, "%llu", (unsigned long long)val->u);
	} else {
		/* The text print() would print, without the newline it ends with. */
		char *copy = strndup(s, n && s[n - 1] == '\n' ? n - 1 : n);

		st_tb_json_str(tb, copy ? copy : "");
		free(copy);
	}
	st_tb_puts(tb, "}\n");
}

/* print(whole)'s value: its leaves in its JSON format, strings quoted and escaped. */
static void whole_json(struct st_textbuf *tb, const struct st_format *f,
		       const struct st_key_val *vals)
{
	struct st_textbuf quoted[ST_MAX_PRINTF_ARGS] = {0};
	struct st_key_val v[ST_MAX_PRINTF_ARGS];
	uint32_t i;

	for (i = 0; i < f->nr_convs && i < ST_MAX_PRINTF_ARGS; i++) {
		v[i] = vals[i];
		if (v[i].type != ST_VT_STR)
			continue;
		st_tb_json_str(&quoted[i], v[i].s);
		v[i].s = quoted[i].s ? quoted[i].s : "\"\"";
	}
	st_tb_puts(tb, "{\"type\": \"value\", \"data\": ");
	st_format_values(tb, f, v, false);
	st_tb_puts(tb, "}\n");
	for (i = 0; i < f->nr_convs && i < ST_MAX_PRINTF_ARGS; i++)
		st_tb_free(&quoted[i]);
}

void st_call_json(struct st_textbuf *tb, const struct st_expr *call, const struct st_key_val *vals,
		  const struct st_textbuf *text)
{
	const char *type = st_func(call->from_time ? ST_FN_TIME : call->func)->record;

	if (call->json_fmt) {
		whole_json(tb, call->json_fmt, vals);
		return;
	}
	if (st_func(call->func)->host == ST_FC_PRINT) {
		value_json(tb, &vals[0], text);
		return;
	}
	st_tb_printf(tb, "{\"type\": \"%s\", \"data\": ", type ? type : "printf");
	st_tb_json_str(tb, text->s ? text->s : "");
	st_tb_puts(tb, "}\n");
}

int st_output_printf(FILE *out, const struct st_textbuf *text)
{
	if (text->len && fwrite(text->s, 1, text->len, out) != text->len)
		return -errno;
	return 0;
}

/*
 * fmt with bpftrace's %f, the microseconds of the second, made their six
 * digits for strftime(), which has no %f (%% stays a percent). NULL when
 * out of memory.
 */
static char *with_micros(const char *fmt, int64_t nsec)
{
	/* Each two bytes of "%f" become six. */
	char *out = malloc(3 * strlen(fmt) + 1), *o = out;

	for (; out && *fmt; fmt++) {
		if (fmt[0] == '%' && fmt[1] == 'f') {
			o += sprintf(o, "%06lld", (long long)(nsec / 1000));
			fmt++;
			continue;
		}
		*o++ = *fmt;
		/* %%: the second percent is not a conversion's. */
		if (fmt[0] == '%' && fmt[1] == '%')
			*o++ = *++fmt;
	}
	if (out)
		*o = '\0';
	return out;
}

/*
 * The wall clock less the monotonic one, read once: two times converted
 * one after the other are as far apart as their nanoseconds, not also as
 * the clocks' reads moved between them.
 */
static void boot_offset(struct timespec *mono, struct timespec *real)
{
	static struct timespec m, r;
	static bool read;

	if (!read) {
		clock_gettime(CLOCK_MONOTONIC, &m);
		clock_gettime(CLOCK_REALTIME, &r);
		read = true;
	}
	*mono = m;
	*real = r;
}

void st_strftime_ns(char *buf, size_t size, const char *fmt, uint64_t ns)
{
	struct timespec mono, real;
	char *micros;
	struct tm tm;
	int64_t nsec;
	time_t t;

	boot_offset(&mono, &real);
	/*
	 * Seconds and nanoseconds apart, ns unsigned as bpftrace takes it: any
	 * 64-bit value (a record's or a map's, which a process's engine may
	 * have written) is a time within 585 years of the boot, no sum
	 * overflows, and localtime_r() has a year for it.
	 */
	nsec = (int64_t)(ns % 1000000000) + (real.tv_nsec - mono.tv_nsec);
	t = (time_t)(ns / 1000000000) + (real.tv_sec - mono.tv_sec) + (nsec >= 1000000000) -
	    (nsec < 0);
	nsec += nsec >= 1000000000 ? -1000000000 : nsec < 0 ? 1000000000 : 0;
	micros = with_micros(fmt, nsec);
	if (!size || !micros || !localtime_r(&t, &tm) || !strftime(buf, size, micros, &tm))
		snprintf(buf, size, "%s", "");
	free(micros);
}
