// SPDX-License-Identifier: MIT
/*
 * Printing of aggregated maps like bpftrace 0.17 (src/output.cpp and
 * BPFtrace::print_map*): the layouts, widths, bar lengths and orderings here
 * copy what that version prints; tests/unit/test_output.c holds its output.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r */
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output/maps_print.h"
#include "util/escape.h"
#include "util/textbuf.h"
#include "util/json.h"

#define BAR_WIDTH 52

/* An entry and the value it is sorted by. */
struct sorted {
	const struct st_map_entry *e;
	uint64_t u;
	int64_t i;
};

static bool sorts_signed(const struct st_map_result *m)
{
	switch (m->agg) {
	case ST_K_COUNT:
	case ST_K_HIST:
	case ST_K_LHIST:
		return false;
	case ST_K_AVG:
	case ST_K_STATS:
		return true;
	default:
		return m->value_signed;
	}
}

/*
 * A count and total may be anything an in-process engine left in its
 * memory (a count of -1, a total of INT64_MIN): st_sdiv() never traps.
 */
static int64_t average(const struct st_map_entry *e)
{
	return st_sdiv(e->total, e->count, 0);
}

static size_t nr_buckets(const struct st_map_result *m)
{
	if (m->agg == ST_K_HIST)
		return ST_HIST_BUCKETS;
	return st_lhist_buckets(m->lhist_min, m->lhist_max, m->lhist_step);
}

static void sort_value(const struct st_map_result *m, struct sorted *s)
{
	size_t i, n;

	switch (m->agg) {
	case ST_K_AVG:
	case ST_K_STATS:
		s->i = average(s->e);
		break;
	case ST_K_HIST:
	case ST_K_LHIST:
		n = nr_buckets(m);
		for (i = 0; i < n; i++)
			s->u += s->e->buckets[i];
		break;
	default:
		s->u = s->e->value;
		s->i = (int64_t)s->e->value;
		break;
	}
}

static int cmp_key(const struct st_key_val *a, const struct st_key_val *b)
{
	/* An enum key is its label, or its number when no mapping holds it. */
	if ((a->type == ST_VT_STR) != (b->type == ST_VT_STR))
		return a->type == ST_VT_STR ? 1 : -1;
	switch (a->type) {
	case ST_VT_STR:
		return strcmp(a->s, b->s);
	case ST_VT_INT:
		return (a->i > b->i) - (a->i < b->i);
	default:
		return (a->u > b->u) - (a->u < b->u);
	}
}

static int cmp_sorted(const void *pa, const void *pb, void *arg)
{
	const struct st_map_result *m = arg;
	const struct sorted *a = pa, *b = pb;
	uint32_t k;
	int c;

	if (a->e->str && b->e->str)
		c = strcmp(a->e->str, b->e->str);
	else if (sorts_signed(m))
		c = (a->i > b->i) - (a->i < b->i);
	else
		c = (a->u > b->u) - (a->u < b->u);
	/* bpftrace leaves ties in hash order; the key makes it repeatable. */
	for (k = 0; !c && k < m->nr_keys; k++)
		c = cmp_key(&a->e->keys[k], &b->e->keys[k]);
	return c;
}

static struct sorted *sort_entries(const struct st_map_result *m)
{
	struct sorted *s = calloc(m->nr_entries ? m->nr_entries : 1, sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < m->nr_entries; i++) {
		s[i].e = &m->entries[i];
		sort_value(m, &s[i]);
	}
	qsort_r(s, m->nr_entries, sizeof(*s), cmp_sorted, (void *)m);
	return s;
}

/*
 * A stack key in text, as bpftrace 0.17 prints one: a frame a line,
 * indented by 4 (printf's %s indents by 8: output/record_text.c), or by a
 * tab as perf prints them; a stack the kernel had none of (a user-mode
 * sample's kstack) is empty, "@[]".
 */
static void print_stack(FILE *f, const char *frames, bool perf)
{
	const char *p = frames;
	size_t n;

	if (!p || !*p)
		return;
	fputc('\n', f);
	while (*p) {
		n = strcspn(p, "\n");
		fputs(perf ? "\t" : "    ", f);
		fprintf(f, "%.*s", (int)n, p);
		fputc('\n', f);
		p += n + (p[n] == '\n');
	}
}

static void print_key_val(FILE *f, const struct st_key_val *k)
{
	if (k->stack) {
		print_stack(f, k->s, k->perf_stack);
		return;
	}
	switch (k->type) {
	case ST_VT_STR:
		/* Application memory: never raw to the terminal. */
		if (k->made)
			fputs(k->s, f);
		else
			st_fputs_text(f, k->s);
		break;
	case ST_VT_INT:
		fprintf(f, "%" PRId64, k->i);
		break;
	default:
		fprintf(f, "%" PRIu64, k->u);
		break;
	}
}

/* "@x[a, 3]" in text; the key of the JSON object, "a,3", in JSON. */
static void print_name_keys(FILE *f, enum st_output_format fmt, const struct st_map_result *m,
			    const struct st_map_entry *e)
{
	char num[32];
	uint32_t k;

	if (fmt != ST_OUTPUT_JSON) {
		fputs(m->name, f);
		for (k = 0; k < m->nr_keys; k++) {
			fputs(k ? ", " : "[", f);
			print_key_val(f, &e->keys[k]);
		}
		if (m->nr_keys)
			fputc(']', f);
		return;
	}
	fputc('"', f);
	for (k = 0; k < m->nr_keys; k++) {
		if (k)
			fputc(',', f);
		if (e->keys[k].type == ST_VT_STR) {
			st_fputs_json(f, e->keys[k].s);
		} else {
			if (e->keys[k].type == ST_VT_INT)
				snprintf(num, sizeof(num), "%" PRId64, e->keys[k].i);
			else
				snprintf(num, sizeof(num), "%" PRIu64, e->keys[k].u);
			fputs(num, f);
		}
	}
	fputs("\": ", f);
}

/* bpftrace's hist_index_label(): 2^power with a K, M, G or T suffix. */
static void hist_label(char *buf, size_t size, unsigned int power)
{
	static const char suffixes[] = "\0KMGT";
	unsigned int s = power / 10 < 4 ? power / 10 : 4;

	snprintf(buf, size, "%" PRIu64 "%.1s", (uint64_t)1 << (power - 10 * s), &suffixes[s]);
}

/* bpftrace's lhist_index_label(): exact multiples of 1M or 1K get M or K. */
static void lhist_label(char *buf, size_t size, int64_t n)
{
	if (n != 0 && n % (1024 * 1024) == 0)
		snprintf(buf, size, "%" PRId64 "M", n / (1024 * 1024));
	else if (n != 0 && n % 1024 == 0)
		snprintf(buf, size, "%" PRId64 "K", n / 1024);
	else
		snprintf(buf, size, "%" PRId64, n);
}

static void print_bar_row(FILE *f, const char *label, uint64_t v, uint64_t max)
{
	/* Same float arithmetic as bpftrace, so bars match to the '@'. */
	int width = (float)v / (float)max * BAR_WIDTH;

	fprintf(f, "%-16s%8" PRIu64 " |%.*s%*s|\n", label, v, width,
		"@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@", BAR_WIDTH - width, "");
}

/*
 * Rows are printed from the first to the last non-zero bucket; when all are
 * zero the range is empty (first > last) and nothing is printed.
 */
static void bucket_range(const uint64_t *b, size_t n, size_t *first, size_t *last, uint64_t *max)
{
	size_t i;

	*first = 1;
	*last = 0;
	*max = 0;
	for (i = 0; i < n; i++) {
		if (b[i] > *max)
			*max = b[i];
		if (!b[i])
			continue;
		if (*first > *last)
			*first = i;
		*last = i;
	}
}

static void hist_text(FILE *f, const uint64_t *b)
{
	char label[64], lo[24], hi[24];
	size_t i, first, last;
	uint64_t max;

	bucket_range(b, ST_HIST_BUCKETS, &first, &last, &max);
	for (i = first; i <= last; i++) {
		if (i == 0) {
			strcpy(label, "(..., 0)");
		} else if (i == 1) {
			strcpy(label, "[0]");
		} else if (i == 2) {
			strcpy(label, "[1]");
		} else {
			hist_label(lo, sizeof(lo), i - 2);
			hist_label(hi, sizeof(hi), i - 1);
			snprintf(label, sizeof(label), "[%s, %s)", lo, hi);
		}
		print_bar_row(f, label, b[i], max);
	}
}

static void hist_json(FILE *f, const uint64_t *b)
{
	size_t i, first, last;
	uint64_t max;

	fputc('[', f);
	bucket_range(b, ST_HIST_BUCKETS, &first, &last, &max);
	for (i = first; i <= last; i++) {
		fputs(i > first ? ", {" : "{", f);
		if (i == 0)
			fputs("\"max\": -1, ", f);
		else if (i == 1)
			fputs("\"min\": 0, \"max\": 0, ", f);
		else
			fprintf(f, "\"min\": %" PRIu64 ", \"max\": %" PRIu64 ", ",
				(uint64_t)1 << (i - 2), (uint64_t)st_hist_bucket_max(i));
		fprintf(f, "\"count\": %" PRIu64 "}", b[i]);
	}
	fputc(']', f);
}

static void lhist_text(FILE *f, const struct st_map_result *m, const uint64_t *b)
{
	size_t n = nr_buckets(m), i, first, last;
	char label[64], lo[24], hi[24];
	uint64_t max;

	bucket_range(b, n, &first, &last, &max);
	for (i = first; i <= last; i++) {
		if (i == 0) {
			lhist_label(lo, sizeof(lo), m->lhist_min);
			snprintf(label, sizeof(label), "(..., %s)", lo);
		} else if (i == n - 1) {
			lhist_label(hi, sizeof(hi), m->lhist_max);
			snprintf(label, sizeof(label), "[%s, ...)", hi);
		} else {
			lhist_label(lo, sizeof(lo),
				    m->lhist_min + (int64_t)(i - 1) * m->lhist_step);
			lhist_label(hi, sizeof(hi), m->lhist_min + (int64_t)i * m->lhist_step);
			snprintf(label, sizeof(label), "[%s, %s)", lo, hi);
		}
		print_bar_row(f, label, b[i], max);
	}
}

static void lhist_json(FILE *f, const struct st_map_result *m, const uint64_t *b)
{
	size_t n = nr_buckets(m), i, first, last;
	uint64_t max;

	fputc('[', f);
	bucket_range(b, n, &first, &last, &max);
	for (i = first; i <= last; i++) {
		fputs(i > first ? ", {" : "{", f);
		if (i == 0)
			fprintf(f, "\"max\": %" PRId64 ", ",
				(int64_t)st_lhist_bucket_max(0, m->lhist_min, m->lhist_step));
		else if (i == n - 1)
			fprintf(f, "\"min\": %" PRId64 ", ", m->lhist_max);
		else
			fprintf(f, "\"min\": %" PRId64 ", \"max\": %" PRId64 ", ",
				m->lhist_min + (int64_t)(i - 1) * m->lhist_step,
				(int64_t)st_lhist_bucket_max(i, m->lhist_min, m->lhist_step));
		fprintf(f, "\"count\": %" PRIu64 "}", b[i]);
	}
	fputc(']', f);
}

static void print_value(FILE *f, enum st_output_format fmt, const struct st_map_result *m,
			const struct st_map_entry *e)
{
	uint64_t div = m->div ? m->div : 1;
	const char *stats_fmt = fmt == ST_OUTPUT_TEXT
					? "count %" PRId64 ", average %" PRId64 ", total %" PRId64
					: "{\"count\": %" PRId64 ", \"average\": %" PRId64
					  ", \"total\": %" PRId64 "}";

	switch (m->agg) {
	case ST_K_HIST:
		if (fmt == ST_OUTPUT_TEXT)
			hist_text(f, e->buckets);
		else
			hist_json(f, e->buckets);
		break;
	case ST_K_LHIST:
		if (fmt == ST_OUTPUT_TEXT)
			lhist_text(f, m, e->buckets);
		else
			lhist_json(f, m, e->buckets);
		break;
	case ST_K_STATS:
		fprintf(f, stats_fmt, e->count, average(e), e->total);
		break;
	case ST_K_AVG:
		fprintf(f, "%" PRId64, (int64_t)st_sdiv(average(e), (int64_t)div, 0));
		break;
	case ST_K_VALUE:
		if (fmt == ST_OUTPUT_JSON && e->json) {
			fputs(e->json, f);
			break;
		}
		if (!e->str)
			goto number;
		/* Application memory: escaped in text too. */
		if (fmt == ST_OUTPUT_TEXT && e->str_made) {
			fputs(e->str, f);
		} else if (fmt == ST_OUTPUT_TEXT) {
			st_fputs_text(f, e->str);
		} else {
			fputc('"', f);
			st_fputs_json(f, e->str);
			fputc('"', f);
		}
		break;
	default:
	number:
		if (m->agg != ST_K_COUNT && m->value_signed)
			fprintf(f, "%" PRId64,
				(int64_t)st_sdiv((int64_t)e->value, (int64_t)div, 0));
		else
			fprintf(f, "%" PRIu64, e->value / div);
		break;
	}
}

static bool is_hist(const struct st_map_result *m)
{
	return m->agg == ST_K_HIST || m->agg == ST_K_LHIST;
}

/* print(@m, top): the top entries, the last ones in ascending order. */
static size_t first_shown(const struct st_map_result *m)
{
	return m->top && m->top < m->nr_entries ? m->nr_entries - m->top : 0;
}

static void print_text(FILE *f, const struct st_map_result *m, const struct sorted *s)
{
	size_t i;

	for (i = first_shown(m); i < m->nr_entries; i++) {
		/* Hist rows end with '\n' and still get the separator. */
		if (i > first_shown(m))
			fputc('\n', f);
		print_name_keys(f, ST_OUTPUT_TEXT, m, s[i].e);
		fputs(is_hist(m) ? ": \n" : ": ", f);
		print_value(f, ST_OUTPUT_TEXT, m, s[i].e);
	}
	fputc('\n', f);
	if (m->agg == ST_K_AVG || m->agg == ST_K_STATS)
		fputc('\n', f);
}

static const char *json_type(const struct st_map_result *m)
{
	if (is_hist(m))
		return "hist";
	if (m->agg == ST_K_AVG || m->agg == ST_K_STATS)
		return "stats";
	return "map";
}

static void print_json(FILE *f, const struct st_map_result *m, const struct sorted *s)
{
	size_t i;

	if (!m->nr_entries)
		return;
	fprintf(f, "{\"type\": \"%s\", \"data\": {\"", json_type(m));
	st_fputs_json(f, m->name);
	fputs(m->nr_keys ? "\": {" : "\": ", f);
	for (i = first_shown(m); i < m->nr_entries; i++) {
		if (i > first_shown(m))
			fputs(", ", f);
		if (m->nr_keys)
			print_name_keys(f, ST_OUTPUT_JSON, m, s[i].e);
		print_value(f, ST_OUTPUT_JSON, m, s[i].e);
	}
	fputs(m->nr_keys ? "}}}\n" : "}}\n", f);
}

/* The first stack key part of m's entries, or -1. */
static int stack_key(const struct st_map_result *m)
{
	uint32_t k;

	for (k = 0; m->nr_entries && k < m->nr_keys; k++)
		if (m->entries[0].keys[k].stack)
			return k;
	return -1;
}

/*
 * A frame list (innermost first, a line each) root first, joined by ';',
 * offsets left out, and perf's addresses and files (kstack(perf)) too.
 */
static void folded_frames(struct st_textbuf *tb, const char *frames, bool perf, bool *first)
{
	const char *p = frames + strlen(frames), *line, *name;
	char frame[512];

	while (p > frames) {
		line = p;
		while (line > frames && line[-1] != '\n')
			line--;
		name = perf && memchr(line, ' ', p - line)
			       ? (const char *)memchr(line, ' ', p - line) + 1
			       : line;
		snprintf(frame, sizeof(frame), "%.*s", (int)(p - name), name);
		if (perf && strstr(frame, " ("))
			*strstr(frame, " (") = '\0';
		/* A flame graph merges by function: "main+69" folds as "main". */
		if (strrchr(frame, '+') && strrchr(frame, '+') != frame)
			*strrchr(frame, '+') = '\0';
		if (!*first)
			st_tb_putc(tb, ';');
		*first = false;
		/* A frame's name comes from a file: escaped as any text. */
		st_escape_text(tb, frame);
		p = line > frames ? line - 1 : frames;
	}
}

/* One entry's folded stack: other key parts first ("comm;main;work"). */
static char *folded_line(const struct st_map_result *m, const struct st_map_entry *e)
{
	struct st_textbuf tb = {0};
	bool first = true;
	uint32_t k;

	for (k = 0; k < m->nr_keys; k++) {
		if (e->keys[k].stack)
			continue;
		if (!first)
			st_tb_putc(&tb, ';');
		first = false;
		if (e->keys[k].type == ST_VT_STR)
			st_escape_text(&tb, e->keys[k].s);
		else if (e->keys[k].type == ST_VT_INT)
			st_tb_printf(&tb, "%" PRId64, e->keys[k].i);
		else
			st_tb_printf(&tb, "%" PRIu64, e->keys[k].u);
	}
	for (k = 0; k < m->nr_keys; k++)
		if (e->keys[k].stack)
			folded_frames(&tb, e->keys[k].s, e->keys[k].perf_stack, &first);
	return st_tb_take(&tb);
}

struct folded {
	char *line;
	const struct st_map_entry *e;
};

static int cmp_folded(const void *a, const void *b)
{
	return strcmp(((const struct folded *)a)->line, ((const struct folded *)b)->line);
}

/*
 * ST_OUTPUT_FOLDED of a map keyed by a stack: "key;root;...;leaf value"
 * a line, sorted; stacks that differ only in offsets are one line, their
 * counts or sums added.
 */
static int print_folded(FILE *f, const struct st_map_result *m)
{
	struct folded *v = calloc(m->nr_entries + 1, sizeof(*v));
	bool add = m->agg == ST_K_COUNT || m->agg == ST_K_SUM;
	int ret = v ? 0 : -ENOMEM;
	struct st_map_entry sum;
	size_t i, j;

	for (i = 0; v && i < m->nr_entries && !ret; i++) {
		v[i].e = &m->entries[i];
		v[i].line = folded_line(m, &m->entries[i]);
		ret = v[i].line ? 0 : -ENOMEM;
	}
	if (ret)
		goto cleanup;
	qsort(v, m->nr_entries, sizeof(*v), cmp_folded);
	for (i = 0; i < m->nr_entries; i = j) {
		sum = *v[i].e;
		/* Counts and sums of one folded stack add up; other values stay apart. */
		for (j = i + 1; add && j < m->nr_entries && !strcmp(v[j].line, v[i].line); j++)
			sum.value += v[j].e->value;
		fprintf(f, "%s ", v[i].line);
		print_value(f, ST_OUTPUT_TEXT, m, &sum);
		fputc('\n', f);
	}
cleanup:
	for (i = 0; v && i < m->nr_entries; i++)
		free(v[i].line);
	free(v);
	return ret;
}

int st_output_map(FILE *f, enum st_output_format fmt, const struct st_map_result *map)
{
	struct sorted *s;

	if (fmt == ST_OUTPUT_FOLDED && stack_key(map) >= 0 && !is_hist(map))
		return print_folded(f, map);
	s = sort_entries(map);
	if (!s)
		return -ENOMEM;
	if (fmt != ST_OUTPUT_JSON)
		print_text(f, map, s);
	else
		print_json(f, map, s);
	free(s);
	return 0;
}

static int cmp_map_name(const void *a, const void *b)
{
	const struct st_map_result *const *ma = a, *const *mb = b;

	return strcmp((*ma)->name, (*mb)->name);
}

int st_output_all_maps(FILE *f, enum st_output_format fmt, const struct st_map_result *maps,
		       size_t nr_maps)
{
	const struct st_map_result **order;
	size_t i, n;
	int err = 0;

	order = calloc(nr_maps ? nr_maps : 1, sizeof(*order));
	if (!order)
		return -ENOMEM;
	for (i = 0, n = 0; i < nr_maps; i++)
		if (!maps[i].leaf)
			order[n++] = &maps[i];
	qsort(order, n, sizeof(*order), cmp_map_name);
	for (i = 0; !err && i < n; i++)
		err = st_output_map(f, fmt, order[i]);
	free(order);
	return err;
}

int st_output_exit_maps(FILE *f, enum st_output_format fmt, const struct st_map_result *maps,
			size_t nr_maps)
{
	if (fmt != ST_OUTPUT_JSON)
		fputs("\n\n", f);
	return st_output_all_maps(f, fmt, maps, nr_maps);
}

void st_output_attached(FILE *f, enum st_output_format fmt, unsigned int nr_probes)
{
	if (fmt == ST_OUTPUT_JSON)
		fprintf(f, "{\"type\": \"attached_probes\", \"data\": {\"probes\": %u}}\n",
			nr_probes);
	else
		fprintf(f, "Attaching %u probe%s...\n", nr_probes, nr_probes == 1 ? "" : "s");
}
