// SPDX-License-Identifier: MIT
/*
 * Unit tests of the records' decoders (output/record_print.c,
 * output/record_text.c) on records no writer makes, as a traced process
 * can write them into its in-process session's memory: each is decoded
 * against its real end, within a nesting depth and a budget of text, as
 * what its program can send, and dropped whole (nothing appended) when
 * it breaks one; what a writer makes, a cut record included, prints as
 * before.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-argument.h>
#include <side/abi/type-description.h>

#include "compile/compile.h"
#include "objfile/sdt_args.h"
#include "check/checker.h"
#include "parse/parser.h"
#include "output/record_print.h"
#include "output/record_text.h"

#include "unit.h"
#include "fixed_events.h"

/* A record's items, built one by one. */
struct rec {
	uint8_t b[64 * 1024];
	size_t len;
};

static void item(struct rec *r, uint16_t label, uint16_t err, uint16_t size, uint16_t count)
{
	const struct st_item it = {.label = label, .err = err, .size = size, .count = count};

	if (r->len + ST_ITEM_HDR + size > sizeof(r->b))
		abort();
	memcpy(r->b + r->len, &it, sizeof(it));
	/* The payload, zeroed. */
	memset(r->b + r->len + ST_ITEM_HDR, 0, size);
	r->len += ST_ITEM_HDR + size;
}

/* A dynamic field's name item ("x"), after the static fields. */
static void name_x(struct rec *r)
{
	item(r, ST_ITEM_NAME, 0, 8, 0);
	memcpy(r->b + r->len - 8, "x", 2);
}

/* One u64 field "i", as tests/fixtures/hostile.c's event has. */
static struct st_field tick_fields[] = {{"i", {.label = SIDE_TYPE_U64, .size = 8}}};
static const struct st_event tick = {
	.provider = "hs", .name = "tick", .has_side = true, .fields = tick_fields, .nr_fields = 1};

/* What st_format_event() appends to "prefix"; *ret its verdict. */
static char *format(const struct st_event *ev, enum st_output_format fmt, uint16_t flags,
		    const struct rec *r, enum st_text_verdict *ret)
{
	const struct st_rec_hdr h = {.kind = ST_REC_EVENT, .id = flags, .pid = 7, .tid = 7};
	struct st_textbuf tb = {0};
	char *s;

	st_tb_puts(&tb, "prefix");
	*ret = st_format_event(&tb, fmt, ev, "side:x:hs:tick", &h, r->b, r->len);
	s = st_tb_take(&tb);
	if (!s)
		abort();
	return s;
}

/*
 * The attack an in-process engine's memory allowed: 500 nested dynamic
 * vlas of 0xffff elements, the last item cut. The decoder printed ", "
 * for every element of every level it could not read: 66 MB a record.
 */
static void test_nested_vlas_cut(void)
{
	static struct rec r;
	enum st_text_verdict ret;
	char *s;
	int i;

	item(&r, SIDE_TYPE_STRUCT, 0, 0, 0);
	name_x(&r);
	for (i = 0; i < 500; i++)
		item(&r, SIDE_TYPE_DYNAMIC_VLA, 0, 0, 0xffff);
	item(&r, SIDE_TYPE_DYNAMIC_VLA, 0, 0, 0);
	/* Its header says 64 bytes follow; none do. */
	((struct st_item *)(r.b + r.len - ST_ITEM_HDR))->size = 64;
	s = format(&tick, ST_OUTPUT_TEXT, 0, &r, &ret);
	ok(ret == ST_TEXT_MALFORMED, "nested vlas, the last item cut: malformed");
	ok_str("nested vlas, the last item cut: nothing appended", s, "prefix");
	free(s);
	s = format(&tick, ST_OUTPUT_JSON, 0, &r, &ret);
	ok(ret == ST_TEXT_MALFORMED, "nested vlas, the last item cut: malformed in JSON");
	ok_str("nested vlas in JSON: nothing appended", s, "prefix");
	free(s);
}

/* A record that ends inside an item header, or inside a skipped value. */
static void test_cut_items(void)
{
	struct rec r = {0};
	enum st_text_verdict ret;
	char *s;

	item(&r, SIDE_TYPE_STRUCT, 0, 0, 1);
	item(&r, SIDE_TYPE_U64, 0, ST_ITEM_ARG_SIZE, 0);
	r.len += 4;
	s = format(&tick, ST_OUTPUT_TEXT, 0, &r, &ret);
	ok(ret == ST_TEXT_MALFORMED && !strcmp(s, "prefix"), "half an item header: malformed");
	free(s);

	/* A struct where the u64 is: skipped with its elements, the last one cut. */
	r.len = 0;
	item(&r, SIDE_TYPE_STRUCT, 0, 0, 1);
	item(&r, SIDE_TYPE_STRUCT, 0, 0, 0xffff);
	item(&r, SIDE_TYPE_DYNAMIC_VLA, 0, 0, 0xffff);
	item(&r, SIDE_TYPE_U64, 0, ST_ITEM_ARG_SIZE, 0);
	r.len -= 8;
	s = format(&tick, ST_OUTPUT_TEXT, 0, &r, &ret);
	ok(ret == ST_TEXT_MALFORMED && !strcmp(s, "prefix"), "a skipped value cut: malformed");
	free(s);
}

/* n dynamic vlas of one element each, around a null. */
static void nested(struct rec *r, int n)
{
	const struct side_arg null = {.type = {.v = SIDE_TYPE_DYNAMIC_NULL}};
	int i;

	r->len = 0;
	item(r, SIDE_TYPE_STRUCT, 0, 0, 0);
	name_x(r);
	for (i = 0; i < n; i++)
		item(r, SIDE_TYPE_DYNAMIC_VLA, 0, 0, 1);
	item(r, SIDE_TYPE_DYNAMIC_NULL, 0, ST_ITEM_ARG_SIZE, 0);
	memcpy(r->b + r->len - ST_ITEM_ARG_SIZE, &null, sizeof(null));
}

/* No writer nests deeper than its ST_PRINT_ITEMS items; within that, every level prints. */
static void test_depth(void)
{
	static struct rec r;
	enum st_text_verdict ret;
	char *s, want[1024], *w;

	nested(&r, ST_PRINT_ITEMS);
	s = format(&tick, ST_OUTPUT_TEXT, 0, &r, &ret);
	ok(ret == ST_TEXT_MALFORMED && !strcmp(s, "prefix"),
	   "values nested deeper than ST_PRINT_ITEMS: malformed");
	free(s);

	nested(&r, ST_PRINT_ITEMS - 1);
	s = format(&tick, ST_OUTPUT_TEXT, 0, &r, &ret);
	w = stpcpy(want, "prefix{ .i = <unreadable>, .x = ");
	w = stpcpy((char *)memset(w, '[', ST_PRINT_ITEMS - 1) + ST_PRINT_ITEMS - 1, "null");
	strcpy((char *)memset(w, ']', ST_PRINT_ITEMS - 1) + ST_PRINT_ITEMS - 1, " }\n");
	ok(ret == ST_TEXT_OK, "ST_PRINT_ITEMS values nested: printed");
	ok_str("ST_PRINT_ITEMS values nested, every level", s, want);
	free(s);
}

/*
 * A struct of nr members named by the description, each 200 bytes, all
 * unreadable: 8 bytes of record each, over 200 bytes of text.
 */
static void test_budget_case(uint32_t nr, bool fits)
{
	static struct rec r;
	struct st_field *members = calloc(nr, sizeof(*members));
	struct st_field f = {"s", {.label = SIDE_TYPE_STRUCT, .fields = members, .nr_fields = nr}};
	const struct st_event ev = {
		.provider = "p", .name = "e", .has_side = true, .fields = &f, .nr_fields = 1};
	char name[201];
	enum st_text_verdict ret;
	uint32_t i;
	char *s;

	memset(name, 'n', 200);
	name[200] = '\0';
	for (i = 0; i < nr; i++) {
		members[i].name = name;
		members[i].type.label = SIDE_TYPE_U8;
	}
	r.len = 0;
	item(&r, SIDE_TYPE_STRUCT, 0, 0, 1);
	item(&r, SIDE_TYPE_STRUCT, 0, 0, nr);
	for (i = 0; i < nr; i++)
		item(&r, 0, 1, 0, 0);
	s = format(&ev, ST_OUTPUT_TEXT, 0, &r, &ret);
	if (fits)
		ok(ret == ST_TEXT_OK && strlen(s) > 200 * nr && strlen(s) <= ST_REC_TEXT_MAX + 6,
		   "a record's text within the budget: printed");
	else
		ok(ret == ST_TEXT_MALFORMED && !strcmp(s, "prefix"),
		   "a record's text over the budget: malformed, nothing appended");
	free(s);
	free(members);
}

static void test_budget(void)
{
	test_budget_case(ST_REC_TEXT_MAX / 250, true);
	test_budget_case(ST_REC_MAX / ST_ITEM_HDR, false);
}

/* A dynamic field x of value a. */
static char *dynamic_x(const struct side_arg *a)
{
	struct rec r = {0};
	enum st_text_verdict ret;

	item(&r, SIDE_TYPE_STRUCT, 0, 0, 0);
	name_x(&r);
	item(&r, a->type.v, 0, ST_ITEM_ARG_SIZE, 0);
	memcpy(r.b + r.len - ST_ITEM_ARG_SIZE, a, sizeof(*a));
	return format(&tick, ST_OUTPUT_TEXT, 0, &r, &ret);
}

/* A dynamic integer's size is the application's word: 0 shifted by -1. */
static void test_dynamic_int(void)
{
	struct side_arg a = {.type = {.v = SIDE_TYPE_DYNAMIC_INTEGER}};
	char *s;

	a.u.side_dynamic.side_integer.type.signedness = 1;
	a.u.side_dynamic.side_integer.value.side_u64 = 0xffff;
	a.u.side_dynamic.side_integer.type.integer_size = 2;
	s = dynamic_x(&a);
	ok_str("a dynamic s16", s, "prefix{ .i = <unreadable>, .x = -1 }\n");
	free(s);
	a.u.side_dynamic.side_integer.type.integer_size = 0;
	s = dynamic_x(&a);
	ok_str("a dynamic integer of 0 bytes", s,
	       "prefix{ .i = <unreadable>, .x = <unreadable> }\n");
	free(s);
	a.u.side_dynamic.side_integer.type.integer_size = 9;
	s = dynamic_x(&a);
	ok_str("a dynamic integer of 9 bytes", s,
	       "prefix{ .i = <unreadable>, .x = <unreadable> }\n");
	free(s);
}

/*
 * What a writer makes prints as before: a record cut where the kernel
 * ran out of room ends its vla there, " ..." after the event.
 */
static void test_honest_cut(void)
{
	static struct st_type u64 = {.label = SIDE_TYPE_U64, .size = 8};
	struct st_field fields[] = {{"a", {.label = SIDE_TYPE_U64, .size = 8}},
				    {"v", {.label = SIDE_TYPE_VLA, .elem = &u64}},
				    {"b", {.label = SIDE_TYPE_U64, .size = 8}}};
	const struct st_event ev = {
		.provider = "p", .name = "e", .has_side = true, .fields = fields, .nr_fields = 3};
	struct rec r = {0};
	enum st_text_verdict ret;
	struct side_arg a = {.type = {.v = SIDE_TYPE_U64}};
	uint64_t v;
	char *s;

	item(&r, SIDE_TYPE_STRUCT, 0, 0, 3);
	for (v = 1; v <= 3; v++) {
		if (v == 2)
			item(&r, SIDE_TYPE_VLA, 0, 0, 5);
		item(&r, SIDE_TYPE_U64, 0, ST_ITEM_ARG_SIZE, 0);
		a.u.side_static.integer_value.side_u64 = v;
		memcpy(r.b + r.len - ST_ITEM_ARG_SIZE, &a, sizeof(a));
	}
	s = format(&ev, ST_OUTPUT_TEXT, ST_REC_F_CUT, &r, &ret);
	ok(ret == ST_TEXT_OK, "a cut record: printed");
	ok_str("a cut record", s, "prefix{ .a = 1, .v = [2, 3], .b = <unreadable> } ...\n");
	free(s);
	s = format(&ev, ST_OUTPUT_JSON, ST_REC_F_CUT, &r, &ret);
	ok_str("a cut record in JSON", s,
	       "prefix{\"type\": \"event\", \"probe\": \"side:x:hs:tick\", \"pid\": 7, \"tid\": 7, "
	       "\"time_ns\": 0, \"cut\": true, \"data\": {\"a\": 1, \"v\": [2, 3], \"b\": "
	       "null}}\n");
	free(s);
}

static struct st_field ts_fields[] = {
	{"i", {.label = SIDE_TYPE_U64, .size = 8}},
	{"s", {.label = SIDE_TYPE_STRING_UTF8, .size = 1}},
};
static struct st_site site = {.args = "8@%rax 8@%rbx 8@%rcx 8@%rdx"};
static struct st_event ts_event = {.path = "/app",
				   .provider = "hs",
				   .name = "tick",
				   .usdt_provider = "hs",
				   .usdt_name = "tick",
				   .has_side = true,
				   .fields = ts_fields,
				   .nr_fields = 2,
				   .sites = &site,
				   .nr_sites = 1};
static struct st_event_list app = {.events = &ts_event, .nr = 1};

/* The text of a record (header h, then len bytes of data) in program src, or "MALFORMED". */
static char *record_text(const char *src, enum st_output_format fmt, struct st_rec_hdr h,
			 const void *data, uint32_t len, size_t size)
{
	struct st_event_source es = {.probe_events = fixed_events, .ctx = &app};
	struct st_program *prog = NULL;
	struct st_compiled c = {0};
	struct st_rec_view v = {.c = &c, .fmt = fmt};
	uint8_t rec[ST_REC_HDR + 256] = {0};
	struct st_diag diag;
	char *s;

	st_sdt_args_parse(site.args, &site.sdt);
	if (st_parse(src, "test", &prog, &diag) || st_check(prog, &es, &diag) ||
	    st_compile(prog, 0, &c, &diag) || len > sizeof(rec) - ST_REC_HDR) {
		fprintf(stderr, "FAIL %s: %s\n", src, diag.msg);
		abort();
	}
	h.len = len;
	memcpy(rec, &h, sizeof(h));
	memcpy(rec + ST_REC_HDR, data, len);
	if (st_record_text(&v, rec, size ? size : ST_REC_HDR + len) == ST_TEXT_MALFORMED)
		s = strdup(v.text.len ? "MALFORMED, with text" : "MALFORMED");
	else
		s = strdup(v.text.s ? v.text.s : "");
	st_rec_view_free(&v);
	st_compiled_free(&c);
	st_program_free(prog);
	return s;
}

#define PRINTF_PROG "side:/app:hs:tick { printf(\"%d %s|\\n\", args.i > 5 ? 1 : 0, args.s); }"

/*
 * printf's records: read at their layout's offsets when their size and
 * kind are those the program sends, a string cut at ST_STR_LEN; any
 * other is malformed. A printf record sent as print(args)'s (ST_REC_ARGS)
 * had its integer read as a string under -f json.
 */
static void test_printf(void)
{
	const struct st_rec_hdr pf = {.kind = ST_REC_PRINTF};
	uint8_t data[8 + ST_STR_LEN];
	char *s;

	memset(data, 'a', sizeof(data));
	memset(data, 0, 8);
	data[0] = 1;
	s = record_text(PRINTF_PROG, ST_OUTPUT_TEXT, pf, data, sizeof(data), 0);
	ok_str("printf: a string without its NUL, cut", s,
	       "1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa|\n");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_JSON, pf, data, sizeof(data), 0);
	ok_str("printf: JSON", s,
	       "{\"type\": \"printf\", \"data\": "
	       "\"1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa|\\n\"}\n");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_JSON, (struct st_rec_hdr){.kind = ST_REC_ARGS}, data,
			sizeof(data), 0);
	ok_str("printf: sent as print(args)'s", s, "MALFORMED");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_TEXT, pf, data, sizeof(data) - 8, 0);
	ok_str("printf: shorter than its layout", s, "MALFORMED");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_TEXT, pf, data, sizeof(data), ST_REC_HDR + 8);
	ok_str("printf: its header's length past the record", s, "MALFORMED");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_TEXT, pf, data, 0, ST_REC_HDR - 1);
	ok_str("a record shorter than a header", s, "MALFORMED");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_TEXT,
			(struct st_rec_hdr){.kind = ST_REC_PRINTF, .id = 1}, data, sizeof(data), 0);
	ok_str("printf: a printf the program has not", s, "MALFORMED");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_TEXT, (struct st_rec_hdr){.kind = ST_REC_EVENT},
			data, sizeof(data), 0);
	ok_str("print(args) of a probe that prints none", s, "MALFORMED");
	free(s);
	s = record_text(PRINTF_PROG, ST_OUTPUT_TEXT, (struct st_rec_hdr){.kind = ST_REC_STACK_PID},
			NULL, 0, 0);
	ok_str("a kind no engine sends", s, "MALFORMED");
	free(s);
}

/*
 * A ring sample of an event's records: each at an 8-byte offset, the
 * last one's header saying no more than the sample holds; what is left
 * of a sample too short for its header's length is one malformed record.
 */
static void test_sample(void)
{
	uint64_t sample[(2 * ST_REC_HDR + 16 + 8) / 8] = {0};
	struct st_rec_hdr h = {.kind = ST_REC_PRINTF, .len = 3};
	size_t off = 0, size, n = 0, sizes[4];
	const void *rec, *at[4];

	memcpy(sample, &h, sizeof(h));
	h.len = 8;
	memcpy((uint8_t *)sample + ST_REC_SPAN(3), &h, sizeof(h));
	size = ST_REC_SPAN(3) + ST_REC_HDR + 8;
	while (n < 4 && (rec = st_record_next(sample, size, &off, &sizes[n])))
		at[n++] = rec;
	ok(n == 2, "sample: two records");
	ok(sizes[0] == ST_REC_HDR + 3, "sample: the first's size");
	ok(n == 2 && (uint8_t *)at[1] - (uint8_t *)sample == ST_REC_SPAN(3),
	   "sample: the second at the first's span");
	ok(sizes[1] == ST_REC_HDR + 8, "sample: the second's size");
	off = n = 0;
	while (n < 4 && (rec = st_record_next(sample, size - 1, &off, &sizes[n])))
		at[n++] = rec;
	ok(n == 2 && sizes[1] == ST_REC_HDR + 7, "sample cut: the last record is what is left");
	off = n = 0;
	while (n < 4 && (rec = st_record_next(sample, ST_REC_SPAN(3) + 5, &off, &sizes[n])))
		at[n++] = rec;
	ok(n == 2 && sizes[1] == 5, "sample: 5 bytes after a record, one short record");
	off = 0;
	ok(!st_record_next(sample, 0, &off, &sizes[0]), "sample: empty");
}

int main(void)
{
	test_sample();
	test_nested_vlas_cut();
	test_cut_items();
	test_depth();
	test_budget();
	test_honest_cut();
	test_dynamic_int();
	test_printf();
	return unit_summary();
}
