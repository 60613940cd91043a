// SPDX-License-Identifier: MIT
/*
 * Maps as Prometheus metrics (prom.h): names, label escaping, the text
 * format 0.0.4 and OpenMetrics 1.0.0. Bucket edges come from
 * sidetrace_arith.h, the kernel's own bucket functions.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "output/prom.h"
#include "parse/functions.h"

static enum st_prom_type family_type(const struct st_map_info *mi)
{
	switch (mi->agg) {
	case ST_K_COUNT:
		return ST_PROM_COUNTER;
	case ST_K_SUM:
		/* A sum of signed values can go down: not a counter. */
		return mi->value_signed ? ST_PROM_GAUGE : ST_PROM_COUNTER;
	case ST_K_STATS:
		return ST_PROM_SUMMARY;
	case ST_K_HIST:
	case ST_K_LHIST:
		return ST_PROM_HISTOGRAM;
	default:
		return ST_PROM_GAUGE;
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The label a key expression names: a field's path, a builtin; else "". */
static void label_from_expr(const struct st_expr *e, char *out, size_t len)
{
	size_t n = 0, i;
	char *p;

	out[0] = '\0';
	if (e->kind == ST_EXPR_BUILTIN) {
		snprintf(out, len, "%s", st_builtin_name(e->builtin));
		return;
	}
	if (e->kind != ST_EXPR_FIELD)
		return;
	for (i = 0; i < e->nr_path && n < len; i++) {
		if (e->path[i].kind == ST_SEG_NAME)
			n += snprintf(out + n, len - n, "%s%s", i ? "_" : "", e->path[i].name);
		else
			n += snprintf(out + n, len - n, "_%" PRIu64, e->path[i].index);
	}
	if (n >= len) {
		out[0] = '\0';
		return;
	}
	/* SIDE field names may hold any character; label names may not. */
	for (p = out; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			*p = '_';
}

/*
 * Whether label name l can name key k of a family of this type: valid, not
 * reserved (le, quantile, "__"), not taken by an earlier key.
 */
static bool label_usable(const struct st_prom_family *f, uint32_t k, const char *l)
{
	uint32_t i;

	if (!l[0] || isdigit((unsigned char)l[0]) || !strncmp(l, "__", 2))
		return false;
	if ((f->type == ST_PROM_HISTOGRAM && !strcmp(l, "le")) ||
	    (f->type == ST_PROM_SUMMARY && !strcmp(l, "quantile")))
		return false;
	for (i = 0; i < k; i++)
		if (!strcmp(f->labels[i], l))
			return false;
	return true;
}

static const struct st_stmt *first_in(const struct st_stmt *stmts, uint32_t nr, uint32_t map_id)
{
	const struct st_stmt *st;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		/* A variable's assignment has map_id -1. */
		if ((stmts[i].kind == ST_STMT_AGG || stmts[i].kind == ST_STMT_ASSIGN) &&
		    stmts[i].map_id == (int)map_id)
			return &stmts[i];
		st = stmts[i].kind == ST_STMT_IF ? first_in(stmts[i].then, stmts[i].nr_then, map_id)
						 : NULL;
		if (!st && stmts[i].kind == ST_STMT_IF)
			st = first_in(stmts[i].els, stmts[i].nr_els, map_id);
		if (st)
			return st;
	}
	return NULL;
}

/* The first statement that assigns map_id: its keys name labels. */
static const struct st_stmt *first_agg(const struct st_program *prog, uint32_t map_id)
{
	const struct st_stmt *st = NULL;
	uint32_t i;

	for (i = 0; !st && i < prog->nr_clauses; i++)
		st = first_in(prog->clauses[i].stmts, prog->clauses[i].nr_stmts, map_id);
	return st;
}

static const char *type_name(enum st_prom_type t)
{
	static const char *const names[] = {"counter", "gauge", "summary", "histogram"};

	return names[t];
}

int st_prom_family_init(struct st_prom_family *f, const struct st_program *prog, uint32_t map_id,
			struct st_diag *diag)
{
	const struct st_map_info *mi = &prog->maps[map_id];
	const struct st_stmt *st = first_agg(prog, map_id);
	const char *p, *name = mi->name + 1; /* after '@' */
	char l[ST_PROM_NAME_MAX];
	uint32_t k;

	memset(f, 0, sizeof(*f));
	f->type = family_type(mi);
	if (mi->agg == ST_K_VALUE && mi->value_type == ST_VT_STR) {
		st_diag_set(diag, prog->filename, mi->pos,
			    "the map %s holds strings, and a metric is a number", mi->name);
		st_diag_hint(diag, "count them instead: @%s_seen[...] = count()", name);
		return -EINVAL;
	}
	if (!name[0]) {
		st_diag_set(diag, prog->filename, mi->pos,
			    "the map @ has no name, and its metric needs one");
		st_diag_hint(diag, "name it: @requests is exported as sidetrace_requests");
		return -EINVAL;
	}
	for (p = name; *p; p++) {
		if (!isalnum((unsigned char)*p) && *p != '_')
			break;
	}
	if (*p || strlen(name) + sizeof("sidetrace_") > sizeof(f->name)) {
		st_diag_set(diag, prog->filename, mi->pos,
			    "the map %s cannot name a metric: use at most %zu letters, digits or _",
			    mi->name, sizeof(f->name) - sizeof("sidetrace_"));
		return -EINVAL;
	}
	snprintf(f->name, sizeof(f->name), "sidetrace_%s", name);
	/* The samples get _total: @bytes_total and @bytes are one family. */
	if (f->type == ST_PROM_COUNTER && ends_with(f->name, "_total"))
		f->name[strlen(f->name) - strlen("_total")] = '\0';
	snprintf(f->help, sizeof(f->help), "%s(...) of %s in %s",
		 st && st->kind == ST_STMT_AGG ? st_func_name(st->call->func) : "value", mi->name,
		 prog->filename);
	f->nr_labels = mi->nr_keys;
	for (k = 0; k < mi->nr_keys; k++) {
		l[0] = '\0';
		if (st && k < st->nr_keys)
			label_from_expr(st->keys[k], l, sizeof(l));
		if (label_usable(f, k, l))
			snprintf(f->labels[k], sizeof(f->labels[k]), "%s", l);
		else
			snprintf(f->labels[k], sizeof(f->labels[k]), "key%u", k);
	}
	return 0;
}

size_t st_prom_family_names(const struct st_prom_family *f,
			    char out[ST_PROM_FAMILY_NAMES][ST_PROM_NAME_MAX + 8])
{
	static const char *const suffixes[][ST_PROM_FAMILY_NAMES] = {
		[ST_PROM_COUNTER] = {"", "_total"},
		[ST_PROM_GAUGE] = {""},
		[ST_PROM_SUMMARY] = {"", "_sum", "_count"},
		[ST_PROM_HISTOGRAM] = {"", "_bucket", "_sum", "_count"},
	};
	size_t n;

	for (n = 0; n < ST_PROM_FAMILY_NAMES && suffixes[f->type][n]; n++)
		snprintf(out[n], ST_PROM_NAME_MAX + 8, "%s%s", f->name, suffixes[f->type][n]);
	return n;
}

/*
 * Length of the valid UTF-8 sequence at s (1 to 4), or 0 when the byte
 * at s does not start one: label values must be UTF-8, and a key string
 * cut at 63 bytes may end inside a character.
 */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* Overlong forms, surrogates and code points past U+10FFFF. */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/*
 * A label value as both formats escape it: backslash, double quote and
 * newline; a byte that is not UTF-8 becomes U+FFFD.
 */
static void put_label_value(struct st_textbuf *tb, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t n;

	while (*s) {
		if (*s == '\\' || *s == '"') {
			st_tb_putc(tb, '\\');
			st_tb_putc(tb, *s++);
		} else if (*s == '\n') {
			st_tb_puts(tb, "\\n");
			s++;
		} else if (!(n = utf8_len(s))) {
			st_tb_puts(tb, "\xef\xbf\xbd");
			s++;
		} else {
			while (n--)
				st_tb_putc(tb, *s++);
		}
	}
}

void st_prom_sample(struct st_textbuf *tb, const char *name, const char *suffix,
		    const char *const *lnames, const char *const *lvals, uint32_t nr,
		    const char *value)
{
	uint32_t i;

	st_tb_puts(tb, name);
	st_tb_puts(tb, suffix);
	for (i = 0; i < nr; i++) {
		st_tb_puts(tb, i ? "," : "{");
		st_tb_printf(tb, "%s=\"", lnames[i]);
		put_label_value(tb, lvals[i]);
		st_tb_putc(tb, '"');
	}
	if (nr)
		st_tb_putc(tb, '}');
	st_tb_putc(tb, ' ');
	st_tb_puts(tb, value);
	st_tb_putc(tb, '\n');
}

void st_prom_header(struct st_textbuf *tb, enum st_prom_format fmt, const char *name,
		    enum st_prom_type type, const char *help)
{
	const char *total = fmt == ST_PROM_TEXT && type == ST_PROM_COUNTER ? "_total" : "";
	const char *p;

	st_tb_printf(tb, "# HELP %s%s ", name, total);
	/* HELP escapes backslash and newline; OpenMetrics the quote too. */
	for (p = help; *p; p++) {
		if (*p == '\\' || (*p == '"' && fmt == ST_PROM_OPENMETRICS))
			st_tb_putc(tb, '\\');
		if (*p == '\n')
			st_tb_puts(tb, "\\n");
		else
			st_tb_putc(tb, *p);
	}
	st_tb_printf(tb, "\n# TYPE %s%s %s\n", name, total, type_name(type));
}

void st_prom_end(struct st_textbuf *tb, enum st_prom_format fmt)
{
	if (fmt == ST_PROM_OPENMETRICS)
		st_tb_puts(tb, "# EOF\n");
}

/* The key values of entry e as label value strings, in buf. */
static void key_values(const struct st_map_result *m, const struct st_map_entry *e,
		       char buf[ST_MAX_MAP_KEYS][24], const char *vals[ST_MAX_MAP_KEYS])
{
	uint32_t k;

	for (k = 0; k < m->nr_keys && k < ST_MAX_MAP_KEYS; k++) {
		const struct st_key_val *kv = &e->keys[k];

		if (kv->type == ST_VT_STR) {
			vals[k] = kv->s;
			continue;
		}
		if (kv->type == ST_VT_INT)
			snprintf(buf[k], sizeof(buf[k]), "%" PRId64, kv->i);
		else
			snprintf(buf[k], sizeof(buf[k]), "%" PRIu64, kv->u);
		vals[k] = buf[k];
	}
}

/* A 64-bit integer as the map's values are: signed or not. */
static void int_text(char *buf, size_t len, uint64_t v, bool is_signed)
{
	if (is_signed)
		snprintf(buf, len, "%" PRId64, (int64_t)v);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/*
 * Buckets, _sum and _count of a histogram entry. Its buckets are the
 * kernel's; each le is the largest value of one; the last hist bucket
 * ([2^63, 2^64), unsigned only) and lhist's "from max on" are +Inf's.
 */
static void histogram_entry(struct st_textbuf *tb, const struct st_prom_family *f,
			    const struct st_map_result *m, const struct st_map_entry *e,
			    const char **lnames, const char **lvals)
{
	bool hist = m->agg == ST_K_HIST;
	size_t nb = hist ? ST_HIST_BUCKETS
			 : st_lhist_buckets(m->lhist_min, m->lhist_max, m->lhist_step);
	uint32_t nr = f->nr_labels;
	uint64_t cum = 0, b;
	char le[24], val[24];

	lnames[nr] = "le";
	lvals[nr] = le;
	/* An unsigned value is never negative: no le="-1" row. */
	for (b = hist && !m->value_signed ? 1 : 0; b + 1 < nb; b++) {
		cum += e->buckets ? e->buckets[b] : 0;
		if (hist)
			int_text(le, sizeof(le), st_hist_bucket_max(b), b == 0 || m->value_signed);
		else
			int_text(le, sizeof(le),
				 st_lhist_bucket_max(b, m->lhist_min, m->lhist_step), true);
		snprintf(val, sizeof(val), "%" PRIu64, cum);
		st_prom_sample(tb, f->name, "_bucket", lnames, lvals, nr + 1, val);
	}
	cum += e->buckets ? e->buckets[nb - 1] : 0;
	snprintf(val, sizeof(val), "%" PRIu64, cum);
	lvals[nr] = "+Inf";
	st_prom_sample(tb, f->name, "_bucket", lnames, lvals, nr + 1, val);
	int_text(val, sizeof(val), e->total, m->value_signed);
	st_prom_sample(tb, f->name, "_sum", lnames, lvals, nr, val);
	snprintf(val, sizeof(val), "%" PRIu64, cum);
	st_prom_sample(tb, f->name, "_count", lnames, lvals, nr, val);
}

/* One entry of map m: its sample(s). */
static void entry(struct st_textbuf *tb, const struct st_prom_family *f,
		  const struct st_map_result *m, const struct st_map_entry *e)
{
	const char *lnames[ST_MAX_MAP_KEYS + 1], *lvals[ST_MAX_MAP_KEYS + 1];
	char kbuf[ST_MAX_MAP_KEYS][24], val[32];
	uint32_t k;

	for (k = 0; k < f->nr_labels; k++)
		lnames[k] = f->labels[k];
	key_values(m, e, kbuf, lvals);
	switch (m->agg) {
	case ST_K_HIST:
	case ST_K_LHIST:
		histogram_entry(tb, f, m, e, lnames, lvals);
		return;
	case ST_K_STATS:
		int_text(val, sizeof(val), e->total, m->value_signed);
		st_prom_sample(tb, f->name, "_sum", lnames, lvals, f->nr_labels, val);
		snprintf(val, sizeof(val), "%" PRId64, e->count);
		st_prom_sample(tb, f->name, "_count", lnames, lvals, f->nr_labels, val);
		return;
	case ST_K_AVG:
		/* A key that zero() kept has no average until its next value. */
		if (!e->count)
			return;
		snprintf(val, sizeof(val), "%.17g",
			 m->value_signed ? (double)e->total / e->count
					 : (double)(uint64_t)e->total / e->count);
		break;
	case ST_K_MIN:
	case ST_K_MAX:
		/* Likewise: an empty min or max reads as an extreme value. */
		if (!e->count)
			return;
		int_text(val, sizeof(val), e->value, m->value_signed);
		break;
	default:
		int_text(val, sizeof(val), e->value, m->value_signed && m->agg != ST_K_COUNT);
		break;
	}
	st_prom_sample(tb, f->name, f->type == ST_PROM_COUNTER ? "_total" : "", lnames, lvals,
		       f->nr_labels, val);
}

void st_prom_map(struct st_textbuf *tb, enum st_prom_format fmt, const struct st_prom_family *f,
		 const struct st_map_result *m)
{
	static const uint64_t no_buckets[ST_LHIST_MAX_BUCKETS + 2];
	struct st_map_entry zero = {.buckets = no_buckets};
	size_t i;

	st_prom_header(tb, fmt, f->name, f->type, f->help);
	for (i = 0; i < m->nr_entries; i++)
		entry(tb, f, m, &m->entries[i]);
	if (!m->nr_entries && !m->nr_keys && f->type != ST_PROM_GAUGE)
		entry(tb, f, m, &zero);
}

const char *st_prom_content_type(enum st_prom_format fmt)
{
	return fmt == ST_PROM_OPENMETRICS
		       ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
		       : "text/plain; version=0.0.4; charset=utf-8";
}

/*
 * A q value in thousandths, clamped to [0, 1] as RFC 9110 bounds it: a
 * client's "q=1e999" or "q=nan" must not reach an int conversion.
 */
static int accept_q(const char *s)
{
	double d = strtod(s, NULL);

	if (!(d > 0))
		return 0;
	return d >= 1 ? 1000 : (int)(d * 1000 + 0.5);
}

/*
 * The weight (q, 0 to 1000) one media range of an Accept header gives
 * to type, or -1 when it does not name it: a range such as
 * "application/openmetrics-text;version=1.0.0;q=0.9".
 */
static int range_weight(const char *range, size_t len, const char *type, const char *version)
{
	char buf[256], *save, *part, *v;
	bool named;
	int q = 1000;

	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, range, len);
	buf[len] = '\0';
	part = strtok_r(buf, ";", &save);
	if (!part)
		return -1;
	part += strspn(part, " \t");
	part[strcspn(part, " \t")] = '\0';
	named = !strcasecmp(part, type);
	while ((part = strtok_r(NULL, ";", &save))) {
		part += strspn(part, " \t");
		if (!strncasecmp(part, "q=", 2))
			q = accept_q(part + 2);
		else if (!strncasecmp(part, "version=", 8) && version) {
			v = part + 8;
			v[strcspn(v, " \t")] = '\0';
			named &= !strcmp(v, version);
		}
	}
	return named ? q : -1;
}

/* The best weight the header gives type (-1: none). */
static int accept_weight(const char *accept, const char *type, const char *version)
{
	const char *p = accept;
	int best = -1, w;
	size_t len;

	while (*p) {
		len = strcspn(p, ",");
		w = range_weight(p, len, type, version);
		if (w > best)
			best = w;
		p += len;
		if (*p == ',')
			p++;
	}
	return best;
}

enum st_prom_format st_prom_negotiate(const char *accept)
{
	int om, text;

	if (!accept)
		return ST_PROM_TEXT;
	om = accept_weight(accept, "application/openmetrics-text", "1.0.0");
	text = accept_weight(accept, "text/plain", "0.0.4");
	if (text < 0)
		text = accept_weight(accept, "*/*", NULL);
	return om > 0 && om >= text ? ST_PROM_OPENMETRICS : ST_PROM_TEXT;
}
