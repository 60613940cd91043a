// SPDX-License-Identifier: MIT
/* print(args) records to text or JSON: see record_print.h. */
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include <side/abi/type-argument.h>
#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "events/events.h"
#include "parse/format.h"
#include "output/record_print.h"
#include "util/escape.h"

/*
 * No writer nests values deeper than the items it writes: each level is
 * one item, and an event has at most ST_PRINT_ITEMS.
 */
#define REC_DEPTH_MAX ST_PRINT_ITEMS

/* Reading a record's items, writing one event. */
struct dec {
	const uint8_t *p, *end;
	struct st_textbuf *tb;
	size_t start; /* tb->len before the event */
	uint32_t depth; /* values being printed, the one at hand included */
	bool json;
	bool mismatch; /* a value contradicted its declared type */
	/*
	 * No writer made this record: an item cut inside the record, values
	 * nested deeper than REC_DEPTH_MAX, or more than ST_REC_TEXT_MAX of
	 * text. Everything stops: the record is dropped.
	 */
	bool malformed;
};

/* False once the record is known malformed, its text over budget included. */
static bool sane(struct dec *d)
{
	if (d->tb->len - d->start > ST_REC_TEXT_MAX)
		d->malformed = true;
	return !d->malformed;
}

/* Whether another item may follow: the record sane, its end not reached (a cut record ends so). */
static bool more(struct dec *d)
{
	return sane(d) && d->p < d->end;
}

/*
 * The next item and its payload; false when the record ends (it was
 * cut), or an item does not fit in what is left: a writer writes whole
 * items, so the record is malformed.
 */
static bool next_item(struct dec *d, struct st_item *it, const uint8_t **payload)
{
	if (!more(d))
		return false;
	if (d->end - d->p < ST_ITEM_HDR) {
		d->malformed = true;
		return false;
	}
	memcpy(it, d->p, sizeof(*it));
	if (it->size > d->end - d->p - ST_ITEM_HDR) {
		d->malformed = true;
		return false;
	}
	*payload = d->p + ST_ITEM_HDR;
	d->p += ST_ITEM_HDR + it->size;
	return true;
}

static void put_str(struct dec *d, const uint8_t *payload, uint16_t size)
{
	char buf[ST_STR_LEN];
	size_t n = size < sizeof(buf) ? size : sizeof(buf) - 1;

	memcpy(buf, payload, n);
	buf[n] = '\0';
	if (d->json) {
		st_tb_json_str(d->tb, buf);
		return;
	}
	/* Text: quoted, escaped by the one text rule (util/escape.h). */
	st_tb_putc(d->tb, '"');
	st_escape_text(d->tb, buf);
	st_tb_putc(d->tb, '"');
}

/*
 * A dynamic field's name, from application memory: "name": in JSON,
 * .name = in text, escaped by the same rule (without the quotes).
 */
static void put_name(struct dec *d, const uint8_t *payload, uint16_t size, bool first)
{
	struct st_textbuf q = {0};
	char buf[ST_STR_LEN];
	size_t n = size < sizeof(buf) ? size : sizeof(buf) - 1;

	memcpy(buf, payload, n);
	buf[n] = '\0';
	st_tb_puts(d->tb, first ? "" : ", ");
	if (d->json) {
		st_tb_json_str(&q, buf);
		st_tb_printf(d->tb, "%s: ", q.s ? q.s : "\"\"");
	} else {
		st_escape_text(&q, buf);
		st_tb_printf(d->tb, ".%s = ", q.s ? q.s : "");
	}
	st_tb_free(&q);
}

static void put_unreadable(struct dec *d)
{
	st_tb_puts(d->tb, d->json ? "null" : "<unreadable>");
}

/* ", " between members, then ".name = " or "\"name\": ". */
static void put_member(struct dec *d, const char *name, bool first)
{
	if (!first)
		st_tb_puts(d->tb, ", ");
	if (d->json) {
		st_tb_json_str(d->tb, name);
		st_tb_puts(d->tb, ": ");
	} else {
		st_tb_putc(d->tb, '.');
		st_escape_text(d->tb, name);
		st_tb_puts(d->tb, " = ");
	}
}

/* An integer of label from its value union, swapped if stored big-endian. */
static bool int_value(uint16_t label, const union side_integer_value *v, bool big_endian,
		      int64_t *out, bool *is_signed)
{
	const struct st_side_type *st = st_side_type(label);
	uint64_t u = v->side_u64;

	if (st->type_class != ST_TC_INT || !st->bits)
		return false;
	if (st->bits < 64)
		u &= (1ULL << st->bits) - 1;
	if (big_endian && st->bits > 8 && st->bits <= 64)
		u = __builtin_bswap64(u) >> (64 - st->bits);
	*is_signed = st->is_signed;
	if (st->is_signed && st->bits < 64 && (u >> (st->bits - 1)) & 1)
		u |= ~0ULL << st->bits;
	*out = (int64_t)u;
	return true;
}

static void put_int(struct dec *d, int64_t v, bool is_signed, const struct st_type *t)
{
	/* An enum prints its label when a mapping holds the value. */
	const char *label = st_type_enum_label(t, v);

	if (label && d->json) {
		st_tb_json_str(d->tb, label);
		return;
	}
	if (label) {
		st_escape_text(d->tb, label);
		return;
	}
	st_tb_printf(d->tb, is_signed ? "%" PRId64 : "%" PRIu64, v);
}

/* How print(args) shows a float, in text and JSON. */
static void put_double(struct st_textbuf *tb, double v)
{
	st_tb_printf(tb, ST_PRINT_ARGS_FLOAT, v);
}

static void put_float(struct dec *d, uint16_t label, const union side_float_value *v)
{
	if (label == SIDE_TYPE_FLOAT_BINARY32)
		put_double(d->tb, v->side_float_binary32);
	else if (label == SIDE_TYPE_FLOAT_BINARY64)
		put_double(d->tb, v->side_float_binary64);
	else
		put_unreadable(d);
}

/* A value that carries its own type (SIDE_TYPE_DYNAMIC_*). */
static void put_dynamic(struct dec *d, const struct side_arg *a)
{
	const union side_arg_dynamic *v = &a->u.side_dynamic;
	uint16_t size;
	uint64_t u;

	switch (a->type.v) {
	case SIDE_TYPE_DYNAMIC_NULL:
		st_tb_puts(d->tb, "null");
		return;
	case SIDE_TYPE_DYNAMIC_BOOL:
		st_tb_puts(d->tb, v->side_bool.value.side_bool64 ? "true" : "false");
		return;
	case SIDE_TYPE_DYNAMIC_BYTE:
		st_tb_printf(d->tb, "%u", v->side_byte.value);
		return;
	case SIDE_TYPE_DYNAMIC_INTEGER:
	case SIDE_TYPE_DYNAMIC_POINTER:
		/* The application's word: bytes of 1 to 8 only. */
		size = v->side_integer.type.integer_size;
		if (!size || size > 8)
			return put_unreadable(d);
		u = v->side_integer.value.side_u64;
		if (size < 8)
			u &= (1ULL << (8 * size)) - 1;
		if (v->side_integer.type.signedness && size < 8 && (u >> (8 * size - 1)) & 1)
			u |= ~0ULL << (8 * size);
		st_tb_printf(d->tb, v->side_integer.type.signedness ? "%" PRId64 : "%" PRIu64,
			     (int64_t)u);
		return;
	case SIDE_TYPE_DYNAMIC_FLOAT:
		put_float(d,
			  v->side_float.type.float_size == 4   ? SIDE_TYPE_FLOAT_BINARY32
			  : v->side_float.type.float_size == 8 ? SIDE_TYPE_FLOAT_BINARY64
							       : 0,
			  &v->side_float.value);
		return;
	default:
		put_unreadable(d);
	}
}

/* A leaf: its side_arg, read with the declared type t (NULL: dynamic). */
static void put_leaf(struct dec *d, const struct st_item *it, const uint8_t *payload,
		     const struct st_type *t)
{
	const struct st_type *decl = t && t->label == SIDE_TYPE_ENUM ? t->elem : t;
	struct side_arg a;
	bool is_signed;
	int64_t v;

	if (it->size < sizeof(a))
		return put_unreadable(d);
	memcpy(&a, payload, sizeof(a));
	if (it->label == SIDE_TYPE_BOOL)
		return (void)st_tb_puts(d->tb,
					a.u.side_static.bool_value.side_bool64 &
							((decl && decl->size && decl->size < 8)
								 ? (1ULL << (8 * decl->size)) - 1
								 : ~0ULL)
						? "true"
						: "false");
	if (it->label >= SIDE_TYPE_FLOAT_BINARY16 && it->label <= SIDE_TYPE_FLOAT_BINARY128)
		return put_float(d, it->label, &a.u.side_static.float_value);
	if (it->label >= SIDE_TYPE_DYNAMIC_NULL)
		return put_dynamic(d, &a);
	if (!int_value(it->label, &a.u.side_static.integer_value,
		       decl && decl->byte_order == SIDE_TYPE_BYTE_ORDER_BE, &v, &is_signed))
		return put_unreadable(d);
	put_int(d, v, is_signed, t);
}

static void put_value(struct dec *d, const struct st_type *t);

/* Skips n values and what follows each of them. */
static void skip_items(struct dec *d, uint32_t n)
{
	const uint8_t *payload;
	struct st_item it;

	while (n-- && next_item(d, &it, &payload)) {
		if (it.label == SIDE_TYPE_STRUCT || it.label == SIDE_TYPE_ARRAY ||
		    it.label == SIDE_TYPE_VLA || it.label == SIDE_TYPE_DYNAMIC_VLA)
			n += it.count;
		else if (it.label == SIDE_TYPE_DYNAMIC_STRUCT)
			n += 2 * it.count;
	}
}

/* count members of a struct: names from t, or before each value (dynamic). */
static void put_struct(struct dec *d, uint32_t count, const struct st_type *t, bool dynamic)
{
	const uint8_t *payload;
	struct st_item name;
	uint32_t i;

	st_tb_puts(d->tb, "{");
	if (!d->json && count)
		st_tb_puts(d->tb, " ");
	for (i = 0; i < count && more(d); i++) {
		if (dynamic) {
			if (!next_item(d, &name, &payload) || name.label != ST_ITEM_NAME)
				return;
			put_name(d, payload, name.size, !i);
		} else {
			put_member(d, t && i < t->nr_fields ? t->fields[i].name : "?", !i);
		}
		put_value(d, !dynamic && t && i < t->nr_fields ? &t->fields[i].type : NULL);
	}
	st_tb_puts(d->tb, !d->json && count ? " }" : "}");
}

static void put_list(struct dec *d, uint32_t count, const struct st_type *elem)
{
	uint32_t i;

	st_tb_puts(d->tb, "[");
	for (i = 0; i < count && more(d); i++) {
		st_tb_puts(d->tb, i ? ", " : "");
		put_value(d, elem);
	}
	st_tb_puts(d->tb, "]");
}

/*
 * Whether an argument of label is a value of declared type t: the
 * kernel copies what the application passed, which may contradict the
 * description. NULL and "dynamic" take any dynamic label.
 */
static bool label_fits(const struct st_type *t, uint16_t label)
{
	if (!t || t->label == SIDE_TYPE_DYNAMIC)
		return label >= SIDE_TYPE_DYNAMIC_NULL;
	if (t->label == SIDE_TYPE_ENUM)
		return t->elem && label == t->elem->label;
	return label == t->label;
}

/* Item it, its elements after it, as a value of type t (NULL: it carries its type). */
static void put_item(struct dec *d, const struct st_item it, const uint8_t *payload,
		     const struct st_type *t)
{
	if (!it.err && !label_fits(t, it.label))
		d->mismatch = true;
	if (it.err || !label_fits(t, it.label)) {
		/* Its elements follow it: skipped with it. */
		if (it.label == SIDE_TYPE_STRUCT || it.label == SIDE_TYPE_ARRAY ||
		    it.label == SIDE_TYPE_VLA || it.label == SIDE_TYPE_DYNAMIC_VLA)
			skip_items(d, it.count);
		else if (it.label == SIDE_TYPE_DYNAMIC_STRUCT)
			skip_items(d, 2 * it.count);
		return put_unreadable(d);
	}
	switch (it.label) {
	case SIDE_TYPE_STRING_UTF8:
	case SIDE_TYPE_DYNAMIC_STRING:
		return put_str(d, payload, it.size);
	case SIDE_TYPE_STRUCT:
		return put_struct(d, it.count, t, false);
	case SIDE_TYPE_DYNAMIC_STRUCT:
		return put_struct(d, it.count, NULL, true);
	case SIDE_TYPE_ARRAY:
	case SIDE_TYPE_VLA:
		return put_list(d, it.count, t ? t->elem : NULL);
	case SIDE_TYPE_DYNAMIC_VLA:
		return put_list(d, it.count, NULL);
	default:
		return put_leaf(d, &it, payload, t);
	}
}

/* The next item as a value of type t (NULL: it carries its type). */
static void put_value(struct dec *d, const struct st_type *t)
{
	const uint8_t *payload;
	struct st_item it;

	if (!next_item(d, &it, &payload))
		return;
	if (++d->depth > REC_DEPTH_MAX)
		d->malformed = true;
	else
		put_item(d, it, payload, t);
	d->depth--;
}

/*
 * The static fields (the root item's count: those passed; the kernel
 * counted the missing ones), then the dynamic ones.
 */
static void put_fields(struct dec *d, const struct st_event *ev)
{
	const uint8_t *payload;
	struct st_item it, name;
	uint32_t i;

	if (!next_item(d, &it, &payload))
		return;
	st_tb_puts(d->tb, d->json ? "{" : "{ ");
	for (i = 0; i < ev->nr_fields && sane(d); i++) {
		put_member(d, ev->fields[i].name, !i);
		if (i < it.count && more(d))
			put_value(d, &ev->fields[i].type);
		else
			put_unreadable(d);
	}
	for (; next_item(d, &name, &payload); i++) {
		if (name.label != ST_ITEM_NAME)
			break;
		put_name(d, payload, name.size, !i);
		put_value(d, NULL);
	}
	st_tb_puts(d->tb, d->json ? "}" : " }");
}

/* An event's JSON document up to its data: type, probe, process, thread, time. */
static void json_head(struct st_textbuf *tb, const char *probe, const struct st_rec_hdr *h,
		      bool cut)
{
	st_tb_puts(tb, "{\"type\": \"event\", \"probe\": ");
	st_tb_json_str(tb, probe);
	st_tb_printf(tb, ", \"pid\": %u, \"tid\": %u, \"time_ns\": %llu, ", h->pid, h->tid,
		     (unsigned long long)h->time_ns);
	if (cut)
		st_tb_puts(tb, "\"cut\": true, ");
	st_tb_puts(tb, "\"data\": ");
}

void st_format_fields_json(struct st_textbuf *tb, const char *probe, const struct st_rec_hdr *h,
			   const char *const *names, const struct st_key_val *vals, uint32_t n)
{
	uint32_t i;

	json_head(tb, probe, h, false);
	st_tb_puts(tb, "{");
	for (i = 0; i < n; i++) {
		st_tb_puts(tb, i ? ", " : "");
		st_tb_json_str(tb, names[i]);
		st_tb_puts(tb, ": ");
		if (vals[i].type == ST_VT_STR)
			st_tb_json_str(tb, vals[i].s);
		else if (vals[i].type == ST_VT_BOOL)
			st_tb_puts(tb, vals[i].u ? "true" : "false");
		else if (vals[i].type == ST_VT_INT)
			st_tb_printf(tb, "%lld", (long long)vals[i].i);
		else if (vals[i].type == ST_VT_FLOAT)
			put_double(tb, vals[i].d);
		else
			st_tb_printf(tb, "%llu", (unsigned long long)vals[i].u);
	}
	st_tb_puts(tb, "}}\n");
}

enum st_text_verdict st_format_event(struct st_textbuf *tb, enum st_output_format fmt,
				     const struct st_event *ev, const char *probe,
				     const struct st_rec_hdr *h, const uint8_t *items, size_t len)
{
	struct dec d = {.p = items,
			.end = items + len,
			.tb = tb,
			.start = tb->len,
			.json = fmt == ST_OUTPUT_JSON};
	bool cut = h->id & ST_REC_F_CUT;

	if (d.json)
		json_head(tb, probe, h, cut);
	put_fields(&d, ev);
	if (!d.json && cut)
		st_tb_puts(tb, " ...");
	st_tb_puts(tb, d.json ? "}\n" : "\n");
	if (!sane(&d)) {
		tb->len = d.start;
		if (tb->s)
			tb->s[d.start] = '\0';
		return ST_TEXT_MALFORMED;
	}
	return d.mismatch ? ST_TEXT_MISMATCH : ST_TEXT_OK;
}
