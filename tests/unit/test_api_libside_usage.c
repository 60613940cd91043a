/* SPDX-License-Identifier: MIT */
/*
 * Source compatibility with libside's current C API: the usage patterns of
 * libside's tests/unit/test.c (struct, nested struct, array, vla, visitors,
 * enums, dynamic and variadic fields, variant, optional, gather types,
 * attributes, byte orders), compiled with our headers. Each event is fired
 * once disabled (it must stay silent) and once enabled the way an
 * in-process tracer enables it; the argument vector is rendered as text by
 * a small tracer below, from the event description alone, and compared with
 * what the call site passed.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <side/trace.h>
#include "unit.h"

static char out[8192];
static size_t out_len;
static int nr_calls;

static void put(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out + out_len, sizeof(out) - out_len, fmt, ap);
	va_end(ap);
	if (n > 0)
		out_len = out_len + n < sizeof(out) ? out_len + n : sizeof(out) - 1;
}

/* Integers up to 8 bytes: host order, then the bit field the type describes. */
static uint64_t load_int(const void *p, const struct side_type_integer *t, unsigned int offset_bits)
{
	unsigned int len = t->len_bits ? t->len_bits : t->integer_size * 8u;
	uint64_t v = 0;

	memcpy(&v, p, t->integer_size);
	if (t->byte_order.v != SIDE_TYPE_BYTE_ORDER_HOST)
		v = side_bswap_64(v) >> (64 - 8 * t->integer_size);
	v >>= offset_bits;
	if (len < 64) {
		v &= (1ULL << len) - 1;
		if (t->signedness && (v >> (len - 1)) & 1)
			v |= ~((1ULL << len) - 1);
	}
	return v;
}

static void put_u128(unsigned __int128 v)
{
	char buf[48];
	int i = sizeof(buf);

	buf[--i] = '\0';
	do {
		buf[--i] = '0' + (int)(v % 10);
		v /= 10;
	} while (v);
	put("%s", buf + i);
}

static void put_int(const void *p, const struct side_type_integer *t, unsigned int offset_bits,
		    bool pointer)
{
	uint64_t v;

	if (t->integer_size == 16) {
		unsigned __int128 w;

		memcpy(&w, p, 16);
		if (t->byte_order.v != SIDE_TYPE_BYTE_ORDER_HOST)
			side_bswap_128p((char *)&w);
		if (t->signedness && (__int128)w < 0) {
			put("-");
			w = -w;
		}
		put_u128(w);
		return;
	}
	v = load_int(p, t, offset_bits);
	if (pointer)
		put("0x%llx", (unsigned long long)v);
	else if (t->signedness)
		put("%lld", (long long)v);
	else
		put("%llu", (unsigned long long)v);
}

static void put_bool(const void *p, const struct side_type_bool *t, unsigned int offset_bits)
{
	struct side_type_integer as_int = {
		.integer_size = t->bool_size,
		.len_bits = t->len_bits,
		.byte_order = {.v = t->byte_order.v},
	};

	put(load_int(p, &as_int, offset_bits) ? "true" : "false");
}

static void put_float(const void *p, unsigned int size, uint8_t order)
{
	unsigned char b[16];
	unsigned int i;

	for (i = 0; i < size; i++)
		b[i] = ((const unsigned char *)
				p)[order == SIDE_TYPE_BYTE_ORDER_HOST ? i : size - 1 - i];
	switch (size) {
	case 4: {
		float f;

		memcpy(&f, b, 4);
		put("%g", f);
		break;
	}
	case 8: {
		double d;

		memcpy(&d, b, 8);
		put("%g", d);
		break;
	}
#ifdef SIDE_HAVE_FLOAT128
	case 16: {
		_Float128 q;

		memcpy(&q, b, 16);
		put("%g", (double)q);
		break;
	}
#endif
	default:
		put("<float size %u>", size);
	}
}

/* Length in bytes, terminator included, of a string of unit-sized characters. */
static size_t string_size(const void *p, unsigned int unit)
{
	size_t n = 0;
	uint32_t c;

	do {
		c = 0;
		memcpy(&c, (const char *)p + n, unit);
		n += unit;
	} while (c);
	return n;
}

/* C literal syntax: u"" for UTF-16, U"" for UTF-32, escapes for non-ASCII. */
static void put_string(const void *p, unsigned int unit, uint8_t order)
{
	size_t i, n = string_size(p, unit) - unit;

	put("%s\"", unit == 2 ? "u" : unit == 4 ? "U" : "");
	for (i = 0; i < n; i += unit) {
		uint32_t c = 0;

		memcpy(&c, (const char *)p + i, unit);
		if (order != SIDE_TYPE_BYTE_ORDER_HOST)
			c = unit == 2 ? side_bswap_16(c) : side_bswap_32(c);
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			put("%c", (int)c);
		else if (unit == 1)
			put("\\x%02x", c);
		else
			put("\\u%04x", c);
	}
	put("\"");
}

static const char *raw(const struct side_type_raw_string *s)
{
	return side_ptr_get(s->p);
}

static void put_attrs(const struct side_attr *a, uint32_t n)
{
	uint32_t i;

	if (!n)
		return;
	put("@{");
	for (i = 0; i < n; i++) {
		const struct side_attr_value *v = &a[i].value;
		uint32_t t = v->type.v;

		put("%s%s=", i ? "," : "", raw(&a[i].key));
		if (t == SIDE_ATTR_TYPE_BOOL) {
			put(v->u.bool_value ? "true" : "false");
		} else if (t >= SIDE_ATTR_TYPE_U8 && t <= SIDE_ATTR_TYPE_S128) {
			uint8_t sign = t >= SIDE_ATTR_TYPE_S8;
			struct side_type_integer it = {
				.integer_size =
					1 << (t - (sign ? SIDE_ATTR_TYPE_S8 : SIDE_ATTR_TYPE_U8)),
				.signedness = sign,
			};

			put("%c%u:", sign ? 's' : 'u', it.integer_size * 8);
			put_int(&v->u.integer_value, &it, 0, false);
		} else if (t >= SIDE_ATTR_TYPE_FLOAT_BINARY16 &&
			   t <= SIDE_ATTR_TYPE_FLOAT_BINARY128) {
			put_float(&v->u.float_value, 2 << (t - SIDE_ATTR_TYPE_FLOAT_BINARY16),
				  SIDE_TYPE_BYTE_ORDER_HOST);
		} else if (t == SIDE_ATTR_TYPE_STRING) {
			put_string(raw(&v->u.string_value), v->u.string_value.unit_size,
				   v->u.string_value.byte_order.v);
		} else {
			put("null");
		}
	}
	put("}");
}

#define PUT_ATTRS(_array) put_attrs(side_ptr_get((_array).elements), (_array).length)

static void fmt_arg(const struct side_type *type, const struct side_arg *arg);
static void fmt_dynamic(const struct side_arg *arg);

/* What a visitor writes goes where its tracer context says. */
struct visit {
	const struct side_type *elem; /* NULL: dynamic elements */
	int n;
};

static enum side_visitor_status write_elem(const struct side_tracer_visitor_ctx *ctx,
					   const struct side_arg *elem)
{
	struct visit *v = ctx->priv;

	if (v->n++)
		put(",");
	if (v->elem)
		fmt_arg(v->elem, elem);
	else
		fmt_dynamic(elem);
	return SIDE_VISITOR_STATUS_OK;
}

static enum side_visitor_status
write_field(const struct side_tracer_dynamic_struct_visitor_ctx *ctx,
	    const struct side_arg_dynamic_field *field)
{
	struct visit *v = ctx->priv;

	put("%s%s=", v->n++ ? " " : "", side_ptr_get(field->field_name));
	fmt_dynamic(&field->elem);
	return SIDE_VISITOR_STATUS_OK;
}

static void visit(side_visitor_func func, void *app_ctx, const struct side_type *elem)
{
	struct visit v = {.elem = elem};
	const struct side_tracer_visitor_ctx ctx = {.write_elem = write_elem, .priv = &v};

	put("[");
	if (func(&ctx, app_ctx) != SIDE_VISITOR_STATUS_OK)
		put("<visitor error>");
	put("]");
}

static void fmt_dynamic(const struct side_arg *arg)
{
	const union side_arg_dynamic *d = &arg->u.side_dynamic;
	uint32_t i;

	switch (arg->type.v) {
	case SIDE_TYPE_DYNAMIC_NULL:
		put("null");
		PUT_ATTRS(d->side_null.attributes);
		break;
	case SIDE_TYPE_DYNAMIC_BOOL:
		put_bool(&d->side_bool.value, &d->side_bool.type, 0);
		PUT_ATTRS(d->side_bool.type.attributes);
		break;
	case SIDE_TYPE_DYNAMIC_BYTE:
		put("0x%02x", d->side_byte.value);
		PUT_ATTRS(d->side_byte.type.attributes);
		break;
	case SIDE_TYPE_DYNAMIC_INTEGER:
	case SIDE_TYPE_DYNAMIC_POINTER:
		if (arg->type.v == SIDE_TYPE_DYNAMIC_POINTER)
			put("ptr:");
		else
			put("%c%u:", d->side_integer.type.signedness ? 's' : 'u',
			    d->side_integer.type.integer_size * 8);
		put_int(&d->side_integer.value, &d->side_integer.type, 0,
			arg->type.v == SIDE_TYPE_DYNAMIC_POINTER);
		PUT_ATTRS(d->side_integer.type.attributes);
		break;
	case SIDE_TYPE_DYNAMIC_FLOAT:
		put("f%u:", d->side_float.type.float_size * 8);
		put_float(&d->side_float.value, d->side_float.type.float_size,
			  d->side_float.type.byte_order.v);
		PUT_ATTRS(d->side_float.type.attributes);
		break;
	case SIDE_TYPE_DYNAMIC_STRING:
		put_string((const void *)(uintptr_t)d->side_string.value,
			   d->side_string.type.unit_size, d->side_string.type.byte_order.v);
		PUT_ATTRS(d->side_string.type.attributes);
		break;
	case SIDE_TYPE_DYNAMIC_STRUCT: {
		const struct side_arg_dynamic_struct *s = side_ptr_get(d->side_dynamic_struct);
		const struct side_arg_dynamic_field *f = side_ptr_get(s->fields);

		put("{");
		for (i = 0; i < s->len; i++) {
			put("%s%s=", i ? " " : "", side_ptr_get(f[i].field_name));
			fmt_dynamic(&f[i].elem);
		}
		put("}");
		PUT_ATTRS(s->attributes);
		break;
	}
	case SIDE_TYPE_DYNAMIC_VLA: {
		const struct side_arg_dynamic_vla *v = side_ptr_get(d->side_dynamic_vla);
		const struct side_arg *sav = side_ptr_get(v->sav);

		put("[");
		for (i = 0; i < v->len; i++) {
			if (i)
				put(",");
			fmt_dynamic(&sav[i]);
		}
		put("]");
		PUT_ATTRS(v->attributes);
		break;
	}
	case SIDE_TYPE_DYNAMIC_VLA_VISITOR: {
		const struct side_arg_dynamic_vla_visitor *v =
			side_ptr_get(d->side_dynamic_vla_visitor);

		visit(side_ptr_get(v->visitor), side_ptr_get(v->app_ctx), NULL);
		PUT_ATTRS(v->attributes);
		break;
	}
	case SIDE_TYPE_DYNAMIC_STRUCT_VISITOR: {
		const struct side_arg_dynamic_struct_visitor *v =
			side_ptr_get(d->side_dynamic_struct_visitor);
		struct visit priv = {0};
		const struct side_tracer_dynamic_struct_visitor_ctx ctx = {
			.write_field = write_field,
			.priv = &priv,
		};
		side_dynamic_struct_visitor_func func = side_ptr_get(v->visitor);

		put("{");
		if (func(&ctx, side_ptr_get(v->app_ctx)) != SIDE_VISITOR_STATUS_OK)
			put("<visitor error>");
		put("}");
		PUT_ATTRS(v->attributes);
		break;
	}
	default:
		put("<label %u, not dynamic>", arg->type.v);
	}
}

static void fmt_vec(const struct side_type *elem, const struct side_arg_vec *vec, uint32_t want)
{
	const struct side_arg *sav = side_ptr_get(vec->sav);
	uint32_t i;

	put("[");
	for (i = 0; i < vec->len; i++) {
		if (i)
			put(",");
		fmt_arg(elem, &sav[i]);
	}
	put("]");
	if (vec->len != want)
		put("<%u elements, want %u>", vec->len, want);
}

static void fmt_struct(const struct side_type_struct *st, const struct side_arg_vec *vec)
{
	const struct side_event_field *f = side_ptr_get(st->fields.elements);
	const struct side_arg *sav = side_ptr_get(vec->sav);
	uint32_t i;

	put("{");
	for (i = 0; i < vec->len && i < st->fields.length; i++) {
		put("%s%s=", i ? " " : "", side_ptr_get(f[i].field_name));
		fmt_arg(&f[i].side_type, &sav[i]);
	}
	put("}");
	if (vec->len != st->fields.length)
		put("<%u fields, want %u>", vec->len, st->fields.length);
	PUT_ATTRS(st->attributes);
}

static void put_labels(const struct side_type_raw_string *label, bool match, int *n)
{
	if (match)
		put("%s%s", (*n)++ ? "," : "", raw(label));
}

static void fmt_enum(const struct side_type *type, const struct side_arg *arg)
{
	const struct side_enum_mappings *m = side_ptr_get(type->u.side_enum.mappings);
	const struct side_enum_mapping *map = side_ptr_get(m->mappings.elements);
	const struct side_type *elem = side_ptr_get(type->u.side_enum.elem_type);
	int64_t v = load_int(&arg->u.side_static.integer_value, &elem->u.side_integer, 0);
	uint32_t i;
	int n = 0;

	fmt_arg(elem, arg);
	put("<");
	for (i = 0; i < m->mappings.length; i++)
		put_labels(&map[i].label, v >= map[i].range_begin && v <= map[i].range_end, &n);
	put(">");
}

/* Bit i of a bitmap enum is bit i % w of element i / w, w the element width. */
static void fmt_enum_bitmap(const struct side_type *type, const struct side_arg *arg)
{
	const struct side_enum_bitmap_mappings *m = side_ptr_get(type->u.side_enum_bitmap.mappings);
	const struct side_enum_bitmap_mapping *map = side_ptr_get(m->mappings.elements);
	const struct side_type *elem = side_ptr_get(type->u.side_enum_bitmap.elem_type);
	const struct side_type *word_type = elem;
	const struct side_arg *words = arg;
	uint32_t nr_words = 1, width, i;
	uint64_t bit;
	int n = 0;

	if (elem->type.v == SIDE_TYPE_ARRAY || elem->type.v == SIDE_TYPE_VLA) {
		const struct side_arg_vec *vec =
			elem->type.v == SIDE_TYPE_ARRAY
				? side_ptr_get(arg->u.side_static.side_array)
				: side_ptr_get(arg->u.side_static.side_vla);

		word_type = elem->type.v == SIDE_TYPE_ARRAY
				    ? side_ptr_get(((const struct side_type_array *)side_ptr_get(
							    elem->u.side_array))
							   ->elem_type)
				    : side_ptr_get(((const struct side_type_vla *)side_ptr_get(
							    elem->u.side_vla))
							   ->elem_type);
		words = side_ptr_get(vec->sav);
		nr_words = vec->len;
	}
	width = word_type->type.v == SIDE_TYPE_BYTE ? 8
						    : word_type->u.side_integer.integer_size * 8u;
	fmt_arg(elem, arg);
	put("<");
	for (i = 0; i < m->mappings.length; i++) {
		bool match = false;

		for (bit = map[i].range_begin; bit <= map[i].range_end && bit < nr_words * width;
		     bit++) {
			const struct side_arg *w = &words[bit / width];
			uint64_t v = word_type->type.v == SIDE_TYPE_BYTE
					     ? w->u.side_static.byte_value
					     : load_int(&w->u.side_static.integer_value,
							&word_type->u.side_integer, 0);

			match |= (v >> (bit % width)) & 1;
		}
		put_labels(&map[i].label, match, &n);
	}
	put(">");
}

static const char *gather_access(uint8_t mode, const char *p)
{
	const char *target;

	if (mode != SIDE_TYPE_GATHER_ACCESS_POINTER)
		return p;
	memcpy(&target, p, sizeof(target));
	return target;
}

/* Bytes a gathered element occupies where it lies: a pointer if reached through one. */
static uint32_t gather_size(uint8_t mode, size_t len)
{
	return mode == SIDE_TYPE_GATHER_ACCESS_POINTER ? sizeof(void *) : len;
}

static uint32_t fmt_gather(const struct side_type *type, const char *base, const char *length_base)
{
	const struct side_type_gather *g = &type->u.side_gather;
	const char *p, *start;
	uint32_t i, len;

	switch (type->type.v) {
	case SIDE_TYPE_GATHER_BOOL:
		p = gather_access(g->u.side_bool.access_mode.v, base + g->u.side_bool.offset);
		put_bool(p, &g->u.side_bool.type, g->u.side_bool.offset_bits);
		return gather_size(g->u.side_bool.access_mode.v, g->u.side_bool.type.bool_size);
	case SIDE_TYPE_GATHER_BYTE:
		p = gather_access(g->u.side_byte.access_mode.v, base + g->u.side_byte.offset);
		put("0x%02x", *(const uint8_t *)p);
		return gather_size(g->u.side_byte.access_mode.v, 1);
	case SIDE_TYPE_GATHER_INTEGER:
	case SIDE_TYPE_GATHER_POINTER:
		p = gather_access(g->u.side_integer.access_mode.v, base + g->u.side_integer.offset);
		put_int(p, &g->u.side_integer.type, g->u.side_integer.offset_bits,
			type->type.v == SIDE_TYPE_GATHER_POINTER);
		PUT_ATTRS(g->u.side_integer.type.attributes);
		return gather_size(g->u.side_integer.access_mode.v,
				   g->u.side_integer.type.integer_size);
	case SIDE_TYPE_GATHER_FLOAT:
		p = gather_access(g->u.side_float.access_mode.v, base + g->u.side_float.offset);
		put_float(p, g->u.side_float.type.float_size, g->u.side_float.type.byte_order.v);
		return gather_size(g->u.side_float.access_mode.v, g->u.side_float.type.float_size);
	case SIDE_TYPE_GATHER_STRING:
		p = gather_access(g->u.side_string.access_mode.v, base + g->u.side_string.offset);
		put_string(p, g->u.side_string.type.unit_size, g->u.side_string.type.byte_order.v);
		return gather_size(g->u.side_string.access_mode.v,
				   string_size(p, g->u.side_string.type.unit_size));
	case SIDE_TYPE_GATHER_ENUM: {
		const struct side_enum_mappings *m = side_ptr_get(g->u.side_enum.mappings);
		const struct side_enum_mapping *map = side_ptr_get(m->mappings.elements);
		const struct side_type *elem = side_ptr_get(g->u.side_enum.elem_type);
		const struct side_type_gather_integer *gi = &elem->u.side_gather.u.side_integer;
		int64_t v = load_int(gather_access(gi->access_mode.v, base + gi->offset), &gi->type,
				     gi->offset_bits);
		int n = 0;

		len = fmt_gather(elem, base, base);
		put("<");
		for (i = 0; i < m->mappings.length; i++)
			put_labels(&map[i].label, v >= map[i].range_begin && v <= map[i].range_end,
				   &n);
		put(">");
		return len;
	}
	case SIDE_TYPE_GATHER_STRUCT: {
		const struct side_type_struct *st = side_ptr_get(g->u.side_struct.type);
		const struct side_event_field *f = side_ptr_get(st->fields.elements);

		p = gather_access(g->u.side_struct.access_mode.v, base + g->u.side_struct.offset);
		put("{");
		for (i = 0; i < st->fields.length; i++) {
			put("%s%s=", i ? " " : "", side_ptr_get(f[i].field_name));
			fmt_gather(&f[i].side_type, p, p);
		}
		put("}");
		return gather_size(g->u.side_struct.access_mode.v, g->u.side_struct.size);
	}
	case SIDE_TYPE_GATHER_ARRAY:
		p = start =
			gather_access(g->u.side_array.access_mode.v, base + g->u.side_array.offset);
		put("[");
		for (i = 0; i < g->u.side_array.type.length; i++) {
			if (i)
				put(",");
			p += fmt_gather(side_ptr_get(g->u.side_array.type.elem_type), p, p);
		}
		put("]");
		return gather_size(g->u.side_array.access_mode.v, p - start);
	case SIDE_TYPE_GATHER_VLA: {
		const struct side_type *lt = side_ptr_get(g->u.side_vla.type.length_type);
		const struct side_type_gather_integer *gi = &lt->u.side_gather.u.side_integer;

		len = load_int(gather_access(gi->access_mode.v, length_base + gi->offset),
			       &gi->type, gi->offset_bits);
		p = start = gather_access(g->u.side_vla.access_mode.v, base + g->u.side_vla.offset);
		put("[");
		for (i = 0; i < len; i++) {
			if (i)
				put(",");
			p += fmt_gather(side_ptr_get(g->u.side_vla.type.elem_type), p, p);
		}
		put("]");
		return gather_size(g->u.side_vla.access_mode.v, p - start);
	}
	default:
		put("<label %u, not gather>", type->type.v);
		return 0;
	}
}

static void fmt_arg(const struct side_type *type, const struct side_arg *arg)
{
	const union side_arg_static *s = &arg->u.side_static;
	uint16_t label = type->type.v;

	if (label == SIDE_TYPE_ENUM)
		return fmt_enum(type, arg);
	if (label == SIDE_TYPE_ENUM_BITMAP)
		return fmt_enum_bitmap(type, arg);
	if (label == SIDE_TYPE_DYNAMIC)
		return fmt_dynamic(arg);
	/* A gather enum's argument is the base pointer of its gather integer. */
	if (label == SIDE_TYPE_GATHER_ENUM && arg->type.v == SIDE_TYPE_GATHER_INTEGER) {
		fmt_gather(type, side_ptr_get(s->side_integer_gather_ptr), NULL);
		return;
	}
	if (arg->type.v != label) {
		put("<label %u, want %u>", arg->type.v, label);
		return;
	}
	switch (label) {
	case SIDE_TYPE_NULL:
		put("null");
		break;
	case SIDE_TYPE_BOOL:
		put_bool(&s->bool_value, &type->u.side_bool, 0);
		break;
	case SIDE_TYPE_BYTE:
		put("0x%02x", s->byte_value);
		break;
	case SIDE_TYPE_U8 ... SIDE_TYPE_S128:
	case SIDE_TYPE_POINTER:
		put_int(&s->integer_value, &type->u.side_integer, 0, label == SIDE_TYPE_POINTER);
		break;
	case SIDE_TYPE_FLOAT_BINARY16 ... SIDE_TYPE_FLOAT_BINARY128:
		put_float(&s->float_value, type->u.side_float.float_size,
			  type->u.side_float.byte_order.v);
		break;
	case SIDE_TYPE_STRING_UTF8 ... SIDE_TYPE_STRING_UTF32:
		put_string(side_ptr_get(s->string_value), type->u.side_string.unit_size,
			   type->u.side_string.byte_order.v);
		break;
	case SIDE_TYPE_STRUCT:
		fmt_struct(side_ptr_get(type->u.side_struct), side_ptr_get(s->side_struct));
		break;
	case SIDE_TYPE_ARRAY: {
		const struct side_type_array *t = side_ptr_get(type->u.side_array);

		fmt_vec(side_ptr_get(t->elem_type), side_ptr_get(s->side_array), t->length);
		break;
	}
	case SIDE_TYPE_VLA: {
		const struct side_type_vla *t = side_ptr_get(type->u.side_vla);
		const struct side_arg_vec *vec = side_ptr_get(s->side_vla);

		fmt_vec(side_ptr_get(t->elem_type), vec, vec->len);
		break;
	}
	case SIDE_TYPE_VLA_VISITOR: {
		const struct side_type_vla_visitor *t = side_ptr_get(type->u.side_vla_visitor);
		const struct side_arg_vla_visitor *v = side_ptr_get(s->side_vla_visitor);

		visit(side_ptr_get(t->visitor), side_ptr_get(v->app_ctx),
		      side_ptr_get(t->elem_type));
		break;
	}
	case SIDE_TYPE_VARIANT: {
		const struct side_type_variant *t = side_ptr_get(type->u.side_variant);
		const struct side_variant_option *opt = side_ptr_get(t->options.elements);
		const struct side_arg_variant *v = side_ptr_get(s->side_variant);
		int64_t sel = load_int(&v->selector.u.side_static.integer_value,
				       &t->selector.u.side_integer, 0);
		uint32_t i;

		put("(%lld)", (long long)sel);
		for (i = 0; i < t->options.length; i++) {
			if (sel >= opt[i].range_begin && sel <= opt[i].range_end)
				break;
		}
		if (i < t->options.length)
			fmt_arg(&opt[i].side_type, &v->option);
		else
			put("<no option>");
		break;
	}
	case SIDE_TYPE_OPTIONAL: {
		const struct side_type_optional *t = side_ptr_get(type->u.side_optional);
		const struct side_arg_optional *o = side_ptr_get(s->side_optional);

		if (o->selector == SIDE_OPTIONAL_ENABLED)
			fmt_arg(side_ptr_get(t->elem_type), &o->side_static);
		else
			put("absent");
		break;
	}
	case SIDE_TYPE_GATHER_VLA:
		fmt_gather(type, side_ptr_get(s->side_vla_gather.ptr),
			   side_ptr_get(s->side_vla_gather.length_ptr));
		break;
	case SIDE_TYPE_GATHER_BOOL ... SIDE_TYPE_GATHER_ARRAY:
		/* Every other gather argument is one base pointer, in the first slot. */
		fmt_gather(type, side_ptr_get(s->side_struct_gather_ptr), NULL);
		break;
	default:
		put("<label %u>", label);
		return;
	}
	/* Basic types start with their attributes. */
	if (label <= SIDE_TYPE_STRING_UTF32)
		PUT_ATTRS(type->u.side_null.attributes);
}

static void record(const struct side_event_state *state, const struct side_arg_vec *vec,
		   const struct side_arg_dynamic_struct *var)
{
	const struct side_event_description *desc =
		((const struct side_event_state_0 *)state)->desc;
	const struct side_event_field *f = side_ptr_get(desc->fields.elements);
	const struct side_arg *sav = side_ptr_get(vec->sav);
	uint32_t i;

	nr_calls++;
	out_len = 0;
	out[0] = '\0';
	put("%s:%s", side_ptr_get(desc->provider_name), side_ptr_get(desc->event_name));
	PUT_ATTRS(desc->attributes);
	if (!!(desc->flags & SIDE_EVENT_FLAG_VARIADIC) != !!var)
		put(" <variadic flag>");
	if (vec->len != desc->fields.length)
		put(" <%u arguments, want %u>", vec->len, desc->fields.length);
	for (i = 0; i < vec->len && i < desc->fields.length; i++) {
		put(" %s=", side_ptr_get(f[i].field_name));
		fmt_arg(&f[i].side_type, &sav[i]);
	}
	if (var) {
		const struct side_arg_dynamic_field *df = side_ptr_get(var->fields);

		for (i = 0; i < var->len; i++) {
			put(" %s=", side_ptr_get(df[i].field_name));
			fmt_dynamic(&df[i].elem);
		}
		if (var->attributes.length) {
			put(" ");
			PUT_ATTRS(var->attributes);
		}
	}
}

static void record_call(const struct side_event_state *state, const struct side_arg_vec *vec,
			int in_process)
{
	record(state, vec, NULL);
	side_call_from_site(state, vec, in_process);
}

static void record_call_variadic(const struct side_event_state *state,
				 const struct side_arg_vec *vec,
				 const struct side_arg_dynamic_struct *var, int in_process)
{
	record(state, vec, var);
	side_call_variadic_from_site(state, vec, var, in_process);
}

/*
 * The argument vector lives on the caller's stack for the duration of the
 * call only, so it is rendered during the call: every call site below goes
 * through the recorders above, which then hand it to the runtime as usual.
 */
#define side_call_from_site record_call
#define side_call_variadic_from_site record_call_variadic

/*
 * Fires fn twice: disabled, where it must not call at all, then enabled as
 * an in-process tracer enables it. Returns what the enabled call passed.
 */
static const char *fire(struct side_event_state_0 *state, void (*fn)(void))
{
	nr_calls = 0;
	fn();
	if (nr_calls)
		return "<called while disabled>";
	state->enabled = SIDE_ENABLED_USER_ONE;
	fn();
	state->enabled = 0;
	if (nr_calls != 1)
		return "<not called once>";
	return out;
}

#define FIRE(_event, _fn) fire(&side_event_state__##_event, _fn)

/* Basic fields, a dynamic field, hidden and exported events. */
side_static_event(my_provider_event, "myprovider", "myevent", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u32("abc"), side_field_s64("def"),
				  side_field_pointer("ptr"), side_field_dynamic("dynamic"),
				  side_field_dynamic("dynamic_pointer"),
				  side_field_null("null"), ));

static void test_fields(void)
{
	uint32_t uw = 42;
	int64_t sdw = -500;

	side_event(my_provider_event,
		   side_arg_list(side_arg_u32(uw), side_arg_s64(sdw), side_arg_pointer((void *)0x1),
				 side_arg_dynamic_string("zzz"),
				 side_arg_dynamic_pointer((void *)0x1), side_arg_null(), ));
}

side_hidden_event(my_provider_event_hidden, "myprovider", "myeventhidden", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u32("abc")));

static void test_event_hidden(void)
{
	side_event(my_provider_event_hidden, side_arg_list(side_arg_u32(2)));
}

side_declare_event(my_provider_event_export);

side_export_event(my_provider_event_export, "myprovider", "myeventexport", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u32("abc")));

static void test_event_export(void)
{
	side_event(my_provider_event_export, side_arg_list(side_arg_u32(2)));
}

/* Struct, array and vla, by the name of their definition. */
static side_define_struct(mystructdef, side_field_list(side_field_u32("x"), side_field_s64("y"), ));

side_static_event(my_provider_event_struct, "myprovider", "myeventstruct", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_struct("struct", mystructdef), side_field_u8("z"), ));

static void test_struct(void)
{
	if (side_event_enabled(my_provider_event_struct)) {
		side_arg_define_struct(mystruct, side_arg_list(side_arg_u32(21), side_arg_s64(22)));
		side_event_call(my_provider_event_struct,
				side_arg_list(side_arg_struct(mystruct), side_arg_u8(55)));
	}
}

static side_define_struct(my_struct_inner, side_field_list(side_field_u32("x")));
static side_define_struct(my_struct_outer,
			  side_field_list(side_field_struct("inner", my_struct_inner)));

side_static_event(event_nested_struct, "myprovider", "nestedstruct", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_struct("struct", my_struct_outer)));

static void test_nested_struct(void)
{
	if (side_event_enabled(event_nested_struct)) {
		side_arg_define_struct(my_inner_struct, side_arg_list(side_arg_u32(21)));
		side_arg_define_struct(my_outer_struct,
				       side_arg_list(side_arg_struct(my_inner_struct)));
		side_event_call(event_nested_struct,
				side_arg_list(side_arg_struct(my_outer_struct)));
	}
}

static side_define_array(my_array_u32_3, side_elem(side_type_u32()), 3);

side_static_event(my_provider_event_array, "myprovider", "myarray", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_array("arr", my_array_u32_3), side_field_s64("v"), ));

static void test_array(void)
{
	if (side_event_enabled(my_provider_event_array)) {
		side_arg_define_array(
			myarray, side_arg_list(side_arg_u32(1), side_arg_u32(2), side_arg_u32(3)));
		side_event_call(my_provider_event_array,
				side_arg_list(side_arg_array(myarray), side_arg_s64(42)));
	}
}

static side_define_vla(my_vla_u32, side_elem(side_type_u32()), side_elem(side_type_u32()));

side_static_event(my_provider_event_vla, "myprovider", "myvla", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_vla("vla", my_vla_u32), side_field_s64("v"), ));

static void test_vla(void)
{
	if (side_event_enabled(my_provider_event_vla)) {
		side_arg_define_vla(
			myvla, side_arg_list(side_arg_u32(1), side_arg_u32(2), side_arg_u32(3)));
		side_event_call(my_provider_event_vla,
				side_arg_list(side_arg_vla(myvla), side_arg_s64(42)));
	}
}

static side_define_struct(my_struct_for_vla, side_field_list(side_field_u32("x")));
static side_define_vla(my_vla_of_struct, side_elem(side_type_struct(my_struct_for_vla)),
		       side_elem(side_type_u32()));

side_static_event(event_vla_of_struct, "myprovider", "vlaofstruct", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_vla("vla", my_vla_of_struct)));

static void test_vla_of_struct(void)
{
	if (side_event_enabled(event_vla_of_struct)) {
		side_arg_define_struct(mystruct1, side_arg_list(side_arg_u32(21)));
		side_arg_define_struct(mystruct2, side_arg_list(side_arg_u32(22)));
		side_arg_define_vla(myvla, side_arg_list(side_arg_struct(mystruct1),
							 side_arg_struct(mystruct2)));
		side_event_call(event_vla_of_struct, side_arg_list(side_arg_vla(myvla)));
	}
}

/* VLA visitors, one and two levels deep. */
struct app_visitor_ctx {
	const uint32_t *ptr;
	uint32_t length;
};

static enum side_visitor_status test_visitor(const struct side_tracer_visitor_ctx *tracer_ctx,
					     struct app_visitor_ctx *ctx)
{
	uint32_t i;

	for (i = 0; i < ctx->length; i++) {
		const struct side_arg elem = side_visit_dynamic_arg(side_arg_u32, ctx->ptr[i]);

		if (tracer_ctx->write_elem(tracer_ctx, &elem) != SIDE_VISITOR_STATUS_OK)
			return SIDE_VISITOR_STATUS_ERROR;
	}
	return SIDE_VISITOR_STATUS_OK;
}

static uint32_t testarray[] = {1, 2, 3, 4, 5, 6, 7, 8};

side_define_static_vla_visitor(my_vla_visitor_1d, side_elem(side_type_u32()),
			       side_elem(side_type_u32()), test_visitor, struct app_visitor_ctx);

side_static_event(my_provider_event_vla_visitor, "myprovider", "myvlavisit", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_vla_visitor("vlavisit", my_vla_visitor_1d),
				  side_field_s64("v"), ));

static void test_vla_visitor(void)
{
	if (side_event_enabled(my_provider_event_vla_visitor)) {
		struct app_visitor_ctx ctx = {.ptr = testarray,
					      .length = SIDE_ARRAY_SIZE(testarray)};
		side_arg_define_vla_visitor(side_visitor, &ctx);

		side_event_call(
			my_provider_event_vla_visitor,
			side_arg_list(side_arg_vla_visitor(side_visitor), side_arg_s64(42)));
	}
}

side_define_static_vla_visitor(my_vla_visitor_2d_inner, side_elem(side_type_u32()),
			       side_elem(side_type_u32()), test_visitor, struct app_visitor_ctx);

struct app_visitor_2d_outer_ctx {
	const uint32_t (*ptr)[2];
	uint32_t length;
};

static enum side_visitor_status test_outer_visitor(const struct side_tracer_visitor_ctx *tracer_ctx,
						   struct app_visitor_2d_outer_ctx *ctx)
{
	uint32_t i;

	for (i = 0; i < ctx->length; i++) {
		struct app_visitor_ctx inner_ctx = {.ptr = ctx->ptr[i], .length = 2};
		side_arg_define_vla_visitor(side_inner_visitor, &inner_ctx);
		const struct side_arg elem =
			side_visit_dynamic_arg(side_arg_vla_visitor, side_inner_visitor);

		if (tracer_ctx->write_elem(tracer_ctx, &elem) != SIDE_VISITOR_STATUS_OK)
			return SIDE_VISITOR_STATUS_ERROR;
	}
	return SIDE_VISITOR_STATUS_OK;
}

side_define_static_vla_visitor(my_vla_visitor_2d_outer,
			       side_elem(side_type_vla_visitor(my_vla_visitor_2d_inner)),
			       side_elem(side_type_u32()), test_outer_visitor,
			       struct app_visitor_2d_outer_ctx);

static const uint32_t testarray2d[][2] = {{1, 2}, {33, 44}, {55, 66}};

side_static_event(my_provider_event_vla_visitor2d, "myprovider", "myvlavisit2d",
		  SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_vla_visitor("vlavisit2d", my_vla_visitor_2d_outer),
				  side_field_s64("v"), ));

static void test_vla_visitor_2d(void)
{
	if (side_event_enabled(my_provider_event_vla_visitor2d)) {
		struct app_visitor_2d_outer_ctx ctx = {
			.ptr = testarray2d,
			.length = SIDE_ARRAY_SIZE(testarray2d),
		};
		side_arg_define_vla_visitor(side_outer_visitor, &ctx);

		side_event_call(
			my_provider_event_vla_visitor2d,
			side_arg_list(side_arg_vla_visitor(side_outer_visitor), side_arg_s64(42)));
	}
}

/* Dynamic fields: scalars, strings, vla and struct, nested, and visitors. */
side_static_event(my_provider_event_dynamic_basic, "myprovider", "mydynamicbasic",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_basic_type(void)
{
	side_event(my_provider_event_dynamic_basic, side_arg_list(side_arg_dynamic_s16(-33)));
}

side_static_event(my_provider_event_dynamic_null, "myprovider", "mydynamicnull",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_null(void)
{
	side_event(my_provider_event_dynamic_null, side_arg_list(side_arg_dynamic_null()));
}

side_static_event(my_provider_event_dynamic_vla, "myprovider", "mydynamicvla", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_vla(void)
{
	side_arg_dynamic_define_vec(myvla,
				    side_arg_list(side_arg_dynamic_u32(1), side_arg_dynamic_u32(2),
						  side_arg_dynamic_u32(3)));
	side_event(my_provider_event_dynamic_vla, side_arg_list(side_arg_dynamic_vla(&myvla)));
}

side_static_event(my_provider_event_dynamic_struct, "myprovider", "mydynamicstruct",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_struct(void)
{
	side_arg_dynamic_define_struct(
		mystruct, side_arg_list(side_arg_dynamic_field("a", side_arg_dynamic_u32(43)),
					side_arg_dynamic_field("b", side_arg_dynamic_string("zzz")),
					side_arg_dynamic_field("c", side_arg_dynamic_null()), ));
	side_event(my_provider_event_dynamic_struct,
		   side_arg_list(side_arg_dynamic_struct(&mystruct)));
}

side_static_event(my_provider_event_dynamic_nested_struct, "myprovider", "mydynamicnestedstruct",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_nested_struct(void)
{
	side_arg_dynamic_define_struct(
		nested, side_arg_list(side_arg_dynamic_field("a", side_arg_dynamic_u32(43)),
				      side_arg_dynamic_field("b", side_arg_dynamic_u8(55)), ));
	side_arg_dynamic_define_struct(
		nested2, side_arg_list(side_arg_dynamic_field("aa", side_arg_dynamic_u64(128)),
				       side_arg_dynamic_field("bb", side_arg_dynamic_u16(1)), ));
	side_arg_dynamic_define_struct(
		mystruct,
		side_arg_list(
			side_arg_dynamic_field("nested", side_arg_dynamic_struct(&nested)),
			side_arg_dynamic_field("nested2", side_arg_dynamic_struct(&nested2)), ));
	side_event(my_provider_event_dynamic_nested_struct,
		   side_arg_list(side_arg_dynamic_struct(&mystruct)));
}

side_static_event(my_provider_event_dynamic_vla_struct, "myprovider", "mydynamicvlastruct",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_vla_struct(void)
{
	side_arg_dynamic_define_struct(
		nested, side_arg_list(side_arg_dynamic_field("a", side_arg_dynamic_u32(43)),
				      side_arg_dynamic_field("b", side_arg_dynamic_u8(55)), ));
	side_arg_dynamic_define_vec(myvla, side_arg_list(side_arg_dynamic_struct(&nested),
							 side_arg_dynamic_struct(&nested)));
	side_event(my_provider_event_dynamic_vla_struct,
		   side_arg_list(side_arg_dynamic_vla(&myvla)));
}

side_static_event(my_provider_event_dynamic_struct_vla, "myprovider", "mydynamicstructvla",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_struct_vla(void)
{
	side_arg_dynamic_define_vec(myvla,
				    side_arg_list(side_arg_dynamic_u32(1), side_arg_dynamic_u32(2),
						  side_arg_dynamic_u32(3)));
	side_arg_dynamic_define_vec(myvla2,
				    side_arg_list(side_arg_dynamic_u32(4), side_arg_dynamic_u64(5),
						  side_arg_dynamic_u32(6)));
	side_arg_dynamic_define_struct(
		mystruct,
		side_arg_list(side_arg_dynamic_field("a", side_arg_dynamic_vla(&myvla)),
			      side_arg_dynamic_field("b", side_arg_dynamic_vla(&myvla2)), ));
	side_event(my_provider_event_dynamic_struct_vla,
		   side_arg_list(side_arg_dynamic_struct(&mystruct)));
}

side_static_event(my_provider_event_dynamic_nested_vla, "myprovider", "mydynamicnestedvla",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static void test_dynamic_nested_vla(void)
{
	side_arg_dynamic_define_vec(nestedvla,
				    side_arg_list(side_arg_dynamic_u32(1), side_arg_dynamic_u16(2),
						  side_arg_dynamic_u32(3)));
	side_arg_dynamic_define_vec(nestedvla2,
				    side_arg_list(side_arg_dynamic_u8(4), side_arg_dynamic_u32(5),
						  side_arg_dynamic_u32(6)));
	side_arg_dynamic_define_vec(myvla, side_arg_list(side_arg_dynamic_vla(&nestedvla),
							 side_arg_dynamic_vla(&nestedvla2)));
	side_event(my_provider_event_dynamic_nested_vla,
		   side_arg_list(side_arg_dynamic_vla(&myvla)));
}

side_static_event(my_provider_event_dynamic_vla_visitor, "myprovider", "mydynamicvlavisitor",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

static enum side_visitor_status
test_dynamic_vla_visitor(const struct side_tracer_visitor_ctx *tracer_ctx, void *_ctx)
{
	struct app_visitor_ctx *ctx = _ctx;
	uint32_t i;

	for (i = 0; i < ctx->length; i++) {
		const struct side_arg elem =
			side_visit_dynamic_arg(side_arg_dynamic_u32, ctx->ptr[i]);

		if (tracer_ctx->write_elem(tracer_ctx, &elem) != SIDE_VISITOR_STATUS_OK)
			return SIDE_VISITOR_STATUS_ERROR;
	}
	return SIDE_VISITOR_STATUS_OK;
}

static void test_dynamic_vla_with_visitor(void)
{
	if (side_event_enabled(my_provider_event_dynamic_vla_visitor)) {
		struct app_visitor_ctx ctx = {.ptr = testarray, .length = 3};
		side_arg_dynamic_define_vla_visitor(myvlavisitor, test_dynamic_vla_visitor, &ctx);

		side_event_call(my_provider_event_dynamic_vla_visitor,
				side_arg_list(side_arg_dynamic_vla_visitor(myvlavisitor)));
	}
}

side_static_event(my_provider_event_dynamic_struct_visitor, "myprovider", "mydynamicstructvisitor",
		  SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_dynamic("dynamic")));

struct struct_visitor_pair {
	const char *name;
	uint32_t value;
};

struct app_dynamic_struct_visitor_ctx {
	const struct struct_visitor_pair *ptr;
	uint32_t length;
};

static enum side_visitor_status
test_dynamic_struct_visitor(const struct side_tracer_dynamic_struct_visitor_ctx *tracer_ctx,
			    void *_ctx)
{
	struct app_dynamic_struct_visitor_ctx *ctx = _ctx;
	uint32_t i;

	for (i = 0; i < ctx->length; i++) {
		struct side_arg_dynamic_field dynamic_field = side_visit_dynamic_field(
			side_arg_dynamic_u32, ctx->ptr[i].name, ctx->ptr[i].value);

		if (tracer_ctx->write_field(tracer_ctx, &dynamic_field) != SIDE_VISITOR_STATUS_OK)
			return SIDE_VISITOR_STATUS_ERROR;
	}
	return SIDE_VISITOR_STATUS_OK;
}

static const struct struct_visitor_pair testarray_dynamic_struct[] = {
	{"a", 1},
	{"b", 2},
	{"c", 3},
};

static void test_dynamic_struct_with_visitor(void)
{
	if (side_event_enabled(my_provider_event_dynamic_struct_visitor)) {
		struct app_dynamic_struct_visitor_ctx ctx = {
			.ptr = testarray_dynamic_struct,
			.length = SIDE_ARRAY_SIZE(testarray_dynamic_struct),
		};
		side_arg_dynamic_define_struct_visitor(mystructvisitor, test_dynamic_struct_visitor,
						       &ctx);

		side_event_call(my_provider_event_dynamic_struct_visitor,
				side_arg_list(side_arg_dynamic_struct_visitor(&mystructvisitor)));
	}
}

/* Variadic events, with and without static fields. */
side_static_event_variadic(my_provider_event_variadic, "myprovider", "myvariadicevent",
			   SIDE_LOGLEVEL_DEBUG, side_field_list());

static void test_variadic(void)
{
	side_event_variadic(my_provider_event_variadic, side_arg_list(),
			    side_arg_list(side_arg_dynamic_field("a", side_arg_dynamic_u32(55)),
					  side_arg_dynamic_field("b", side_arg_dynamic_s8(-4)), ));
}

side_static_event_variadic(my_provider_event_static_variadic, "myprovider", "mystaticvariadicevent",
			   SIDE_LOGLEVEL_DEBUG,
			   side_field_list(side_field_u32("abc"), side_field_u16("def"), ));

static void test_static_variadic(void)
{
	side_event_variadic(my_provider_event_static_variadic,
			    side_arg_list(side_arg_u32(1), side_arg_u16(2)),
			    side_arg_list(side_arg_dynamic_field("a", side_arg_dynamic_u32(55)),
					  side_arg_dynamic_field("b", side_arg_dynamic_s8(-4)), ));
}

side_static_event(my_provider_event_bool, "myprovider", "myeventbool", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_bool("a_false"), side_field_bool("b_true"),
				  side_field_bool("c_true"), side_field_bool("d_true"),
				  side_field_bool("e_true"), side_field_bool("f_false"),
				  side_field_bool("g_true"), ));

static void test_bool(void)
{
	uint32_t a = 0, b = 1, g = 256;
	uint64_t c = 0x12345678;
	int16_t d = -32768;
	bool e = true, f = false;

	side_event(my_provider_event_bool,
		   side_arg_list(side_arg_bool(a), side_arg_bool(b), side_arg_bool(c),
				 side_arg_bool(d), side_arg_bool(e), side_arg_bool(f),
				 side_arg_bool(g)));
}

side_static_event_variadic(my_provider_event_dynamic_bool, "myprovider", "mydynamicbool",
			   SIDE_LOGLEVEL_DEBUG, side_field_list());

static void test_dynamic_bool(void)
{
	side_event_variadic(
		my_provider_event_dynamic_bool, side_arg_list(),
		side_arg_list(side_arg_dynamic_field("a_true", side_arg_dynamic_bool(55)),
			      side_arg_dynamic_field("b_true", side_arg_dynamic_bool(-4)),
			      side_arg_dynamic_field("c_false", side_arg_dynamic_bool(0)),
			      side_arg_dynamic_field("d_true", side_arg_dynamic_bool(256)), ));
}

/* Attributes: of events, of fields, of dynamic values and dynamic compounds. */
side_static_event(my_provider_event_user_attribute, "myprovider", "myevent_user_attribute",
		  SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_u32("abc"), side_field_s64("def"), ),
		  side_attr_list(side_attr("user_attribute_a", side_attr_string("val1")),
				 side_attr("user_attribute_b", side_attr_string("val2")), ));

static void test_event_user_attribute(void)
{
	side_event(my_provider_event_user_attribute,
		   side_arg_list(side_arg_u32(1), side_arg_s64(2)));
}

side_static_event(
	my_provider_field_user_attribute, "myprovider", "myevent_field_attribute",
	SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_u32("abc", side_attr_list(side_attr("user_attribute_a",
								       side_attr_string("val1")),
							     side_attr("user_attribute_b",
								       side_attr_u32(2)), )),
			side_field_s64("def", side_attr_list(side_attr("user_attribute_c",
								       side_attr_string("val3")),
							     side_attr("user_attribute_d",
								       side_attr_s64(-5)), )), ));

static void test_field_user_attribute(void)
{
	side_event(my_provider_field_user_attribute,
		   side_arg_list(side_arg_u32(1), side_arg_s64(2)));
}

side_static_event_variadic(my_provider_event_variadic_attr, "myprovider", "myvariadiceventattr",
			   SIDE_LOGLEVEL_DEBUG, side_field_list());

static void test_variadic_attr(void)
{
	side_event_variadic(
		my_provider_event_variadic_attr, side_arg_list(),
		side_arg_list(
			side_arg_dynamic_field(
				"a", side_arg_dynamic_u32(
					     55, side_dynamic_attr_list(
							 side_attr("user_attribute_c",
								   side_attr_string("valX")),
							 side_attr("user_attribute_d",
								   side_attr_u8(55)), ))),
			side_arg_dynamic_field(
				"b", side_arg_dynamic_s8(
					     -4, side_dynamic_attr_list(
							 side_attr("X", side_attr_u8(1)),
							 side_attr("Y", side_attr_s8(2)), ))), ));
}

side_static_event_variadic(my_provider_event_variadic_vla_attr, "myprovider",
			   "myvariadiceventvlaattr", SIDE_LOGLEVEL_DEBUG, side_field_list());

static void test_variadic_vla_attr(void)
{
	side_arg_dynamic_define_vec(
		myvla,
		side_arg_list(side_arg_dynamic_u32(1, side_dynamic_attr_list(
							      side_attr("Z", side_attr_u8(0)),
							      side_attr("A", side_attr_u8(123)), )),
			      side_arg_dynamic_u32(2), side_arg_dynamic_u32(3), ),
		side_dynamic_attr_list(side_attr("X", side_attr_u8(1)),
				       side_attr("Y", side_attr_u8(2)), ));
	side_event_variadic(
		my_provider_event_variadic_vla_attr, side_arg_list(),
		side_arg_list(side_arg_dynamic_field("a", side_arg_dynamic_vla(&myvla))));
}

side_static_event_variadic(my_provider_event_variadic_struct_attr, "myprovider",
			   "myvariadiceventstructattr", SIDE_LOGLEVEL_DEBUG, side_field_list());

static void test_variadic_struct_attr(void)
{
	if (side_event_enabled(my_provider_event_variadic_struct_attr)) {
		side_arg_dynamic_define_struct(
			mystruct,
			side_arg_list(
				side_arg_dynamic_field(
					"a", side_arg_dynamic_u32(
						     43, side_dynamic_attr_list(side_attr(
								 "A", side_attr_bool(true))))),
				side_arg_dynamic_field("b", side_arg_dynamic_u8(55)), ),
			side_dynamic_attr_list(side_attr("X", side_attr_u8(1)),
					       side_attr("Y", side_attr_u8(2)), ));
		side_event_call_variadic(
			my_provider_event_variadic_struct_attr, side_arg_list(),
			side_arg_list(side_arg_dynamic_field("my-field",
							     side_arg_dynamic_struct(&mystruct))),
			side_dynamic_attr_list(side_attr("event", side_attr_s32(-1))));
	}
}

/* Floats in host, little and big endian byte order, static and dynamic. */
side_static_event(my_provider_event_float, "myprovider", "myeventfloat", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_float_binary32("binary32"),
				  side_field_float_binary32_le("binary32_le"),
				  side_field_float_binary32_be("binary32_be"),
				  side_field_float_binary64("binary64"),
				  side_field_float_binary64_le("binary64_le"),
				  side_field_float_binary64_be("binary64_be"),
#ifdef SIDE_HAVE_FLOAT128
				  side_field_float_binary128("binary128"),
				  side_field_float_binary128_be("binary128_be"),
#endif
				  ));

union f32_bits {
	float f;
	uint32_t u;
};

union f64_bits {
	double f;
	uint64_t u;
};

static void test_float(void)
{
	union f32_bits float32 = {.f = 2.2f};
	union f64_bits float64 = {.f = 3.3};
#ifdef SIDE_HAVE_FLOAT128
	union {
		_Float128 f;
		char arr[16];
	} float128 = {.f = 4.4};

	side_bswap_128p(float128.arr);
#endif
	float32.u = side_bswap_32(float32.u);
	float64.u = side_bswap_64(float64.u);
	side_event(my_provider_event_float,
		   side_arg_list(side_arg_float_binary32(2.2f),
#if SIDE_FLOAT_WORD_ORDER == SIDE_LITTLE_ENDIAN
				 side_arg_float_binary32(2.2f), side_arg_float_binary32(float32.f),
#else
				 side_arg_float_binary32(float32.f), side_arg_float_binary32(2.2f),
#endif
				 side_arg_float_binary64(3.3),
#if SIDE_FLOAT_WORD_ORDER == SIDE_LITTLE_ENDIAN
				 side_arg_float_binary64(3.3), side_arg_float_binary64(float64.f),
#else
				 side_arg_float_binary64(float64.f), side_arg_float_binary64(3.3),
#endif
#ifdef SIDE_HAVE_FLOAT128
				 side_arg_float_binary128(4.4),
				 side_arg_float_binary128(float128.f),
#endif
				 ));
}

side_static_event_variadic(my_provider_event_variadic_float, "myprovider", "myvariadicfloat",
			   SIDE_LOGLEVEL_DEBUG, side_field_list());

static void test_variadic_float(void)
{
	union f32_bits float32 = {.f = 2.2f};
	union f64_bits float64 = {.f = 3.3};

	float32.u = side_bswap_32(float32.u);
	float64.u = side_bswap_64(float64.u);
	side_event_variadic(
		my_provider_event_variadic_float, side_arg_list(),
		side_arg_list(
			side_arg_dynamic_field("binary32", side_arg_dynamic_float_binary32(2.2f)),
			side_arg_dynamic_field("binary32_le",
					       side_arg_dynamic_float_binary32_le(2.2f)),
			side_arg_dynamic_field("binary32_be",
					       side_arg_dynamic_float_binary32_be(float32.f)),
			side_arg_dynamic_field("binary64", side_arg_dynamic_float_binary64(3.3)),
			side_arg_dynamic_field("binary64_le",
					       side_arg_dynamic_float_binary64_le(3.3)),
			side_arg_dynamic_field("binary64_be",
					       side_arg_dynamic_float_binary64_be(float64.f)), ));
}

/* Enumerations: mappings by address, as libside takes them. */
static side_define_enum(myenum, side_enum_mapping_list(side_enum_mapping_range("one-ten", 1, 10),
						       side_enum_mapping_range("100-200", 100, 200),
						       side_enum_mapping_value("200", 200),
						       side_enum_mapping_value("300", 300), ));

side_static_event(my_provider_event_enum, "myprovider", "myeventenum", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_enum("5", &myenum, side_elem(side_type_u32())),
				  side_field_enum("400", &myenum, side_elem(side_type_u64())),
				  side_field_enum("200", &myenum, side_elem(side_type_u8())),
				  side_field_enum("-100", &myenum, side_elem(side_type_s8())),
				  side_field_enum("6_be", &myenum, side_elem(side_type_u32_be())),
				  side_field_enum("6_le", &myenum,
						  side_elem(side_type_u32_le())), ));

static void test_enum(void)
{
	side_event(my_provider_event_enum,
		   side_arg_list(side_arg_u32(5), side_arg_u64(400), side_arg_u8(200),
				 side_arg_s8(-100),
#if SIDE_BYTE_ORDER == SIDE_LITTLE_ENDIAN
				 side_arg_u32(side_bswap_32(6)), side_arg_u32(6),
#else
				 side_arg_u32(6), side_arg_u32(side_bswap_32(6)),
#endif
				 ));
}

static side_define_enum_bitmap(
	myenum_bitmap,
	side_enum_bitmap_mapping_list(
		side_enum_bitmap_mapping_value("0", 0), side_enum_bitmap_mapping_range("1-2", 1, 2),
		side_enum_bitmap_mapping_range("2-4", 2, 4), side_enum_bitmap_mapping_value("3", 3),
		side_enum_bitmap_mapping_value("30", 30), side_enum_bitmap_mapping_value("63", 63),
		side_enum_bitmap_mapping_range("158-160", 158, 160),
		side_enum_bitmap_mapping_value("159", 159),
		side_enum_bitmap_mapping_range("500-700", 500, 700), ));

static side_define_array(my_array_u32_5_for_bitmap, side_elem(side_type_u32()), 5);
static side_define_vla(my_vla_u32_for_bitmap, side_elem(side_type_u32()),
		       side_elem(side_type_u32()));

/*
 * libside's test names two of these fields "bit_159"; here two fields of one
 * event with the same name are a compile error, so the vla one is renamed.
 */
side_static_event(
	my_provider_event_enum_bitmap, "myprovider", "myeventenumbitmap", SIDE_LOGLEVEL_DEBUG,
	side_field_list(
		side_field_enum_bitmap("bit_0", &myenum_bitmap, side_elem(side_type_u32())),
		side_field_enum_bitmap("bit_1", &myenum_bitmap, side_elem(side_type_u32())),
		side_field_enum_bitmap("bit_2", &myenum_bitmap, side_elem(side_type_u8())),
		side_field_enum_bitmap("bit_3", &myenum_bitmap, side_elem(side_type_u8())),
		side_field_enum_bitmap("bit_30", &myenum_bitmap, side_elem(side_type_u32())),
		side_field_enum_bitmap("bit_31", &myenum_bitmap, side_elem(side_type_u32())),
		side_field_enum_bitmap("bit_63", &myenum_bitmap, side_elem(side_type_u64())),
		side_field_enum_bitmap("bits_1+63", &myenum_bitmap, side_elem(side_type_u64())),
		side_field_enum_bitmap("byte_bit_2", &myenum_bitmap, side_elem(side_type_byte())),
		side_field_enum_bitmap("bit_159", &myenum_bitmap,
				       side_elem(side_type_array(my_array_u32_5_for_bitmap))),
		side_field_enum_bitmap("vla_bit_31", &myenum_bitmap,
				       side_elem(side_type_vla(my_vla_u32_for_bitmap))),
		side_field_enum_bitmap("bit_2_be", &myenum_bitmap, side_elem(side_type_u32_be())),
		side_field_enum_bitmap("bit_2_le", &myenum_bitmap,
				       side_elem(side_type_u32_le())), ));

static void test_enum_bitmap(void)
{
	if (side_event_enabled(my_provider_event_enum_bitmap)) {
		side_arg_define_array(myarray, side_arg_list(side_arg_u32(0), side_arg_u32(0),
							     side_arg_u32(0), side_arg_u32(0),
							     side_arg_u32(0x80000000)));
		side_arg_define_vla(myvla, side_arg_list(side_arg_u32(0x80000000)));

		side_event_call(
			my_provider_event_enum_bitmap,
			side_arg_list(
				side_arg_u32(1U << 0), side_arg_u32(1U << 1), side_arg_u8(1U << 2),
				side_arg_u8(1U << 3), side_arg_u32(1U << 30),
				side_arg_u32(1U << 31), side_arg_u64(1ULL << 63),
				side_arg_u64((1ULL << 1) | (1ULL << 63)), side_arg_byte(1U << 2),
				side_arg_array(myarray), side_arg_vla(myvla),
#if SIDE_BYTE_ORDER == SIDE_LITTLE_ENDIAN
				side_arg_u32(side_bswap_32(1U << 2)), side_arg_u32(1U << 2),
#else
				side_arg_u32(1U << 2), side_arg_u32(side_bswap_32(1U << 2)),
#endif
				));
	}
}

/* Blobs and a format string with its arguments as a dynamic vla. */
static side_define_array(my_array_byte, side_elem(side_type_byte()), 3);

side_static_event_variadic(my_provider_event_blob, "myprovider", "myeventblob", SIDE_LOGLEVEL_DEBUG,
			   side_field_list(side_field_byte("blobfield"),
					   side_field_array("arrayblob", my_array_byte), ));

static void test_blob(void)
{
	if (side_event_enabled(my_provider_event_blob)) {
		side_arg_define_array(myarray, side_arg_list(side_arg_byte(1), side_arg_byte(2),
							     side_arg_byte(3)));
		side_arg_dynamic_define_vec(myvla, side_arg_list(side_arg_dynamic_byte(0x22),
								 side_arg_dynamic_byte(0x33)));
		side_event_call_variadic(
			my_provider_event_blob,
			side_arg_list(side_arg_byte(0x55), side_arg_array(myarray)),
			side_arg_list(
				side_arg_dynamic_field("varblobfield", side_arg_dynamic_byte(0x55)),
				side_arg_dynamic_field("varblobvla",
						       side_arg_dynamic_vla(&myvla)), ));
	}
}

side_static_event_variadic(my_provider_event_format_string, "myprovider", "myeventformatstring",
			   SIDE_LOGLEVEL_DEBUG, side_field_list(side_field_string("fmt")),
			   side_attr_list(side_attr("lang.c.format_string", side_attr_bool(true))));

static void test_fmt_string(void)
{
	if (side_event_enabled(my_provider_event_format_string)) {
		side_arg_dynamic_define_vec(args, side_arg_list(side_arg_dynamic_string("blah"),
								side_arg_dynamic_s32(123)));
		side_event_call_variadic(my_provider_event_format_string,
					 side_arg_list(side_arg_string("str: %s int: %d")),
					 side_arg_list(side_arg_dynamic_field(
						 "arguments", side_arg_dynamic_vla(&args))));
	}
}

/* Byte order variants of integers, static and dynamic. */
side_static_event_variadic(my_provider_event_endian, "myprovider", "myevent_endian",
			   SIDE_LOGLEVEL_DEBUG,
			   side_field_list(side_field_u16_le("u16_le"), side_field_u32_le("u32_le"),
					   side_field_u64_le("u64_le"), side_field_s16_le("s16_le"),
					   side_field_s32_le("s32_le"), side_field_s64_le("s64_le"),
					   side_field_u16_be("u16_be"), side_field_u32_be("u32_be"),
					   side_field_u64_be("u64_be"), side_field_s16_be("s16_be"),
					   side_field_s32_be("s32_be"),
					   side_field_s64_be("s64_be"), ));

static void test_endian(void)
{
	side_event_variadic(
		my_provider_event_endian,
		side_arg_list(side_arg_u16(1), side_arg_u32(1), side_arg_u64(1), side_arg_s16(-2),
			      side_arg_s32(-2), side_arg_s64(-2), side_arg_u16(side_bswap_16(1)),
			      side_arg_u32(side_bswap_32(1)), side_arg_u64(side_bswap_64(1)),
			      side_arg_s16(side_bswap_16(-2)), side_arg_s32(side_bswap_32(-2)),
			      side_arg_s64(side_bswap_64(-2)), ),
		side_arg_list(
			side_arg_dynamic_field("u16_le", side_arg_dynamic_u16_le(1)),
			side_arg_dynamic_field("s64_le", side_arg_dynamic_s64_le(-2)),
			side_arg_dynamic_field("u32_be", side_arg_dynamic_u32_be(side_bswap_32(1))),
			side_arg_dynamic_field("s16_be",
					       side_arg_dynamic_s16_be(side_bswap_16(-2))),
			side_arg_dynamic_field("s64_be",
					       side_arg_dynamic_s64_be(side_bswap_64(-2))), ));
}

side_static_event(
	my_provider_event_base, "myprovider", "myevent_base", SIDE_LOGLEVEL_DEBUG,
	side_field_list(
		side_field_u8("u8base2",
			      side_attr_list(side_attr("std.integer.base", side_attr_u8(2)))),
		side_field_u16("u16base8",
			       side_attr_list(side_attr("std.integer.base", side_attr_u8(8)))),
		side_field_s32("s32base10",
			       side_attr_list(side_attr("std.integer.base", side_attr_u8(10)))),
		side_field_s64("s64base16",
			       side_attr_list(side_attr("std.integer.base", side_attr_u8(16)))), ));

static void test_base(void)
{
	side_event(my_provider_event_base, side_arg_list(side_arg_u8(55), side_arg_u16(55),
							 side_arg_s32(-55), side_arg_s64(-55)));
}

/* Gather: the call passes base pointers, the description says where values lie. */
struct test {
	uint32_t a;
	uint64_t b;
	uint8_t c;
	int32_t d;
	uint16_t e;
	int8_t f;
	int16_t g;
	int32_t h;
	int64_t i;
	int64_t j;
	int64_t k;
	uint64_t test;
};

static side_define_struct(
	mystructgatherdef,
	side_field_list(
		side_field_gather_unsigned_integer("a", offsetof(struct test, a),
						   side_struct_field_sizeof(struct test, a), 0, 0,
						   SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_signed_integer("d", offsetof(struct test, d),
						 side_struct_field_sizeof(struct test, d), 0, 0,
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_unsigned_integer(
			"e", offsetof(struct test, e), side_struct_field_sizeof(struct test, e), 8,
			4, SIDE_TYPE_GATHER_ACCESS_DIRECT,
			side_attr_list(side_attr("std.integer.base", side_attr_u8(16)))),
		side_field_gather_signed_integer("f", offsetof(struct test, f),
						 side_struct_field_sizeof(struct test, f), 1, 4,
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_signed_integer("g", offsetof(struct test, g),
						 side_struct_field_sizeof(struct test, g), 11, 4,
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_signed_integer("h", offsetof(struct test, h),
						 side_struct_field_sizeof(struct test, h), 1, 31,
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_signed_integer("i", offsetof(struct test, i),
						 side_struct_field_sizeof(struct test, i), 33, 20,
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_signed_integer("j", offsetof(struct test, j),
						 side_struct_field_sizeof(struct test, j), 63, 1,
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_signed_integer("k", offsetof(struct test, k),
						 side_struct_field_sizeof(struct test, k), 1, 63,
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_unsigned_integer_le("test_le", offsetof(struct test, test),
						      side_struct_field_sizeof(struct test, test),
						      0, 64, SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_unsigned_integer_be("test_be", offsetof(struct test, test),
						      side_struct_field_sizeof(struct test, test),
						      0, 64, SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

side_static_event(
	my_provider_event_structgather, "myprovider", "myeventstructgather", SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_gather_struct("structgather", mystructgatherdef, 0,
						 sizeof(struct test),
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_signed_integer(
				"intgather", 0, sizeof(int32_t), 0, 0,
				SIDE_TYPE_GATHER_ACCESS_DIRECT,
				side_attr_list(side_attr("std.integer.base", side_attr_u8(10)))),
			side_field_gather_float("f32", 0, sizeof(float),
						SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_struct_gather(void)
{
	if (side_event_enabled(my_provider_event_structgather)) {
		struct test mystruct = {
			.a = 55,
			.b = 123,
			.c = 2,
			.d = -55,
			.e = 0xABCD,
			.f = -1,
			.g = -1,
			.h = -1,
			.i = -1,
			.j = -1,
			.k = -1,
			.test = 0xFF,
		};
		int32_t val = -66;
		float f32 = 1.5f;

		side_event_call(my_provider_event_structgather,
				side_arg_list(side_arg_gather_struct(&mystruct),
					      side_arg_gather_integer(&val),
					      side_arg_gather_float(&f32), ));
	}
}

struct testnest2 {
	uint8_t c;
};

struct testnest1 {
	uint64_t b;
	struct testnest2 *nest;
};

struct testnest0 {
	uint32_t a;
	struct testnest1 *nest;
};

static side_define_struct(mystructgathernest2,
			  side_field_list(side_field_gather_unsigned_integer(
						  "c", offsetof(struct testnest2, c),
						  side_struct_field_sizeof(struct testnest2, c), 0,
						  0, SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static side_define_struct(
	mystructgathernest1,
	side_field_list(
		side_field_gather_unsigned_integer("b", offsetof(struct testnest1, b),
						   side_struct_field_sizeof(struct testnest1, b), 0,
						   0, SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_struct("nest2", mystructgathernest2,
					 offsetof(struct testnest1, nest), sizeof(struct testnest2),
					 SIDE_TYPE_GATHER_ACCESS_POINTER), ));

static side_define_struct(
	mystructgathernest0,
	side_field_list(
		side_field_gather_unsigned_integer("a", offsetof(struct testnest0, a),
						   side_struct_field_sizeof(struct testnest0, a), 0,
						   0, SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_struct("nest1", mystructgathernest1,
					 offsetof(struct testnest0, nest), sizeof(struct testnest1),
					 SIDE_TYPE_GATHER_ACCESS_POINTER), ));

side_static_event(my_provider_event_structgather_nest, "myprovider", "myeventstructgathernest",
		  SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_gather_struct("nest0", mystructgathernest0, 0,
							   sizeof(struct testnest0),
							   SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_struct_gather_nest_ptr(void)
{
	if (side_event_enabled(my_provider_event_structgather_nest)) {
		struct testnest2 mystruct2 = {.c = 77};
		struct testnest1 mystruct1 = {.b = 66, .nest = &mystruct2};
		struct testnest0 mystruct = {.a = 55, .nest = &mystruct1};

		side_event_call(my_provider_event_structgather_nest,
				side_arg_list(side_arg_gather_struct(&mystruct)));
	}
}

static uint32_t mygatherarray[] = {1, 2, 3, 4, 5};
static uint16_t mygatherarray2[] = {6, 7, 8, 9};

struct testarray {
	int a;
	uint32_t *ptr;
};

static side_define_struct(
	mystructgatherarray,
	side_field_list(side_field_gather_array(
				"array",
				side_elem(side_type_gather_unsigned_integer(
					0, sizeof(uint32_t), 0, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
				SIDE_ARRAY_SIZE(mygatherarray), offsetof(struct testarray, ptr),
				SIDE_TYPE_GATHER_ACCESS_POINTER), ));

side_static_event(
	my_provider_event_structgatherarray, "myprovider", "myeventstructgatherarray",
	SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_gather_struct("structgatherarray", mystructgatherarray, 0,
						 sizeof(struct testarray),
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_array("array2",
						side_elem(side_type_gather_unsigned_integer(
							0, sizeof(uint16_t), 0, 0,
							SIDE_TYPE_GATHER_ACCESS_DIRECT)),
						SIDE_ARRAY_SIZE(mygatherarray2), 0,
						SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_array_gather(void)
{
	if (side_event_enabled(my_provider_event_structgatherarray)) {
		struct testarray mystruct = {.a = 55, .ptr = mygatherarray};

		side_event_call(my_provider_event_structgatherarray,
				side_arg_list(side_arg_gather_struct(&mystruct),
					      side_arg_gather_array(&mygatherarray2)));
	}
}

#define TESTSGNESTARRAY_LEN 4
struct testgatherstructnest1 {
	int b;
	int c[TESTSGNESTARRAY_LEN];
};

struct testgatherstructnest0 {
	struct testgatherstructnest1 nest;
	struct testgatherstructnest1 nestarray[2];
	int a;
};

static side_define_struct(
	mystructgatherstructnest1,
	side_field_list(side_field_gather_signed_integer(
				"b", offsetof(struct testgatherstructnest1, b),
				side_struct_field_sizeof(struct testgatherstructnest1, b), 0, 0,
				SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_array(
				"c",
				side_elem(side_type_gather_signed_integer(
					0, sizeof(uint32_t), 0, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
				TESTSGNESTARRAY_LEN, offsetof(struct testgatherstructnest1, c),
				SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static side_define_struct(
	mystructgatherstructnest0,
	side_field_list(side_field_gather_signed_integer(
				"a", offsetof(struct testgatherstructnest0, a),
				side_struct_field_sizeof(struct testgatherstructnest0, a), 0, 0,
				SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_struct("structnest0", mystructgatherstructnest1,
						 offsetof(struct testgatherstructnest0, nest),
						 sizeof(struct testgatherstructnest1),
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_array("nestarray",
						side_elem(side_type_gather_struct(
							mystructgatherstructnest1, 0,
							sizeof(struct testgatherstructnest1),
							SIDE_TYPE_GATHER_ACCESS_DIRECT)),
						2,
						offsetof(struct testgatherstructnest0, nestarray),
						SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

side_static_event(my_provider_event_gatherstructnest, "myprovider", "myeventgatherstructnest",
		  SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_gather_struct("structgather",
							   mystructgatherstructnest0, 0,
							   sizeof(struct testgatherstructnest0),
							   SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_gather_structnest(void)
{
	if (side_event_enabled(my_provider_event_gatherstructnest)) {
		struct testgatherstructnest0 mystruct = {
			.nest = {.b = 66, .c = {0, 1, 2, 3}},
			.nestarray =
				{
					{.b = 77, .c = {11, 12, 13, 14}},
					{.b = 88, .c = {15, 16, 17, 18}},
				},
			.a = 55,
		};

		side_event_call(my_provider_event_gatherstructnest,
				side_arg_list(side_arg_gather_struct(&mystruct)));
	}
}

static uint32_t gathervla[] = {1, 2, 3, 4};
static uint32_t gathervla2[] = {5, 6, 7, 8, 9};

struct testgathervla {
	int a;
	uint16_t len;
	uint32_t *p;
};

static side_define_struct(
	mystructgathervla,
	side_field_list(
		side_field_gather_signed_integer("a", offsetof(struct testgathervla, a),
						 side_struct_field_sizeof(struct testgathervla, a),
						 0, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_vla(
			"nestvla",
			side_elem(side_type_gather_unsigned_integer(
				0, sizeof(uint32_t), 0, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
			offsetof(struct testgathervla, p), SIDE_TYPE_GATHER_ACCESS_POINTER,
			side_length(side_type_gather_unsigned_integer(
				offsetof(struct testgathervla, len), sizeof(uint16_t), 0, 0,
				SIDE_TYPE_GATHER_ACCESS_DIRECT))), ));

side_static_event(
	my_provider_event_gathervla, "myprovider", "myeventgathervla", SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_gather_struct("structgathervla", mystructgathervla, 0,
						 sizeof(struct testgathervla),
						 SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_vla("vla",
					      side_elem(side_type_gather_unsigned_integer(
						      0, sizeof(uint32_t), 0, 0,
						      SIDE_TYPE_GATHER_ACCESS_DIRECT)),
					      0, SIDE_TYPE_GATHER_ACCESS_DIRECT,
					      side_length(side_type_gather_unsigned_integer(
						      0, sizeof(uint16_t), 0, 0,
						      SIDE_TYPE_GATHER_ACCESS_DIRECT))), ));

static void test_gather_vla(void)
{
	if (side_event_enabled(my_provider_event_gathervla)) {
		struct testgathervla mystruct = {
			.a = 55,
			.len = SIDE_ARRAY_SIZE(gathervla),
			.p = gathervla,
		};
		uint16_t vla2_len = 5;

		side_event_call(my_provider_event_gathervla,
				side_arg_list(side_arg_gather_struct(&mystruct),
					      side_arg_gather_vla(gathervla2, &vla2_len)));
	}
}

struct testgathervlaflex {
	uint8_t len;
	uint32_t otherfield;
	uint64_t array[];
};

static side_define_struct(
	mystructgathervlaflex,
	side_field_list(side_field_gather_vla(
				"vlaflex",
				side_elem(side_type_gather_unsigned_integer(
					0, sizeof(uint64_t), 0, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
				offsetof(struct testgathervlaflex, array),
				SIDE_TYPE_GATHER_ACCESS_DIRECT,
				side_length(side_type_gather_unsigned_integer(
					offsetof(struct testgathervlaflex, len),
					side_struct_field_sizeof(struct testgathervlaflex, len), 0,
					0, SIDE_TYPE_GATHER_ACCESS_DIRECT))), ));

side_static_event(my_provider_event_gathervlaflex, "myprovider", "myeventgathervlaflex",
		  SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_gather_struct("structgathervlaflex",
							   mystructgathervlaflex, 0,
							   sizeof(struct testgathervlaflex),
							   SIDE_TYPE_GATHER_ACCESS_DIRECT)));

static void test_gather_vla_flex(void)
{
	if (side_event_enabled(my_provider_event_gathervlaflex)) {
		struct testgathervlaflex *mystruct =
			malloc(sizeof(*mystruct) + 3 * sizeof(uint64_t));
		uint32_t i;

		if (!mystruct)
			abort();
		mystruct->len = 3;
		mystruct->otherfield = 0;
		for (i = 0; i < 3; i++)
			mystruct->array[i] = i + 1;
		side_event_call(my_provider_event_gathervlaflex,
				side_arg_list(side_arg_gather_struct(mystruct)));
		free(mystruct);
	}
}

side_static_event(
	my_provider_event_gatherbyte, "myprovider", "myeventgatherbyte", SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_gather_byte("byte", 0, SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_array(
				"array",
				side_elem(side_type_gather_byte(0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
				3, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_gather_byte(void)
{
	if (side_event_enabled(my_provider_event_gatherbyte)) {
		uint8_t v = 0x44;
		uint8_t array[3] = {0x1, 0x2, 0x3};

		side_event_call(
			my_provider_event_gatherbyte,
			side_arg_list(side_arg_gather_byte(&v), side_arg_gather_array(array)));
	}
}

static bool arraybool[4] = {false, true, false, true};

side_static_event(my_provider_event_gatherbool, "myprovider", "myeventgatherbool",
		  SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_gather_bool("v1_true", 0, sizeof(bool), 0, 0,
							 SIDE_TYPE_GATHER_ACCESS_DIRECT),
				  side_field_gather_bool("v2_false", 0, sizeof(bool), 0, 0,
							 SIDE_TYPE_GATHER_ACCESS_DIRECT),
				  side_field_gather_bool("v3_true", 0, sizeof(uint16_t), 1, 1,
							 SIDE_TYPE_GATHER_ACCESS_DIRECT),
				  side_field_gather_bool("v4_false", 0, sizeof(uint16_t), 1, 1,
							 SIDE_TYPE_GATHER_ACCESS_DIRECT),
				  side_field_gather_array("arraybool",
							  side_elem(side_type_gather_bool(
								  0, sizeof(bool), 0, 0,
								  SIDE_TYPE_GATHER_ACCESS_DIRECT)),
							  4, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_gather_bool(void)
{
	if (side_event_enabled(my_provider_event_gatherbool)) {
		bool v1 = true, v2 = false;
		uint16_t v3 = 1U << 1, v4 = 1U << 2;

		side_event_call(my_provider_event_gatherbool,
				side_arg_list(side_arg_gather_bool(&v1), side_arg_gather_bool(&v2),
					      side_arg_gather_bool(&v3), side_arg_gather_bool(&v4),
					      side_arg_gather_array(arraybool), ));
	}
}

side_static_event(
	my_provider_event_gatherpointer, "myprovider", "myeventgatherpointer", SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_gather_pointer("ptr", 0, SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_array("array",
						side_elem(side_type_gather_pointer(
							0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
						3, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_gather_pointer(void)
{
	if (side_event_enabled(my_provider_event_gatherpointer)) {
		void *v = (void *)0x44;
		void *array[3] = {(void *)0x1, (void *)0x2, (void *)0x3};

		side_event_call(
			my_provider_event_gatherpointer,
			side_arg_list(side_arg_gather_pointer(&v), side_arg_gather_array(array)));
	}
}

/* A gather enum names its mappings, where side_field_enum takes their address. */
side_static_event(
	my_provider_event_enum_gather, "myprovider", "myeventenumgather", SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_gather_enum("5", myenum,
					       side_elem(side_type_gather_unsigned_integer(
						       0, sizeof(uint32_t), 0, 0,
						       SIDE_TYPE_GATHER_ACCESS_DIRECT))),
			side_field_gather_enum("200", myenum,
					       side_elem(side_type_gather_unsigned_integer(
						       0, sizeof(uint8_t), 0, 0,
						       SIDE_TYPE_GATHER_ACCESS_DIRECT))),
			side_field_gather_enum("-100", myenum,
					       side_elem(side_type_gather_signed_integer(
						       0, sizeof(int8_t), 0, 0,
						       SIDE_TYPE_GATHER_ACCESS_DIRECT))),
			side_field_gather_enum("6_be", myenum,
					       side_elem(side_type_gather_unsigned_integer_be(
						       0, sizeof(uint32_t), 0, 0,
						       SIDE_TYPE_GATHER_ACCESS_DIRECT))), ));

static void test_gather_enum(void)
{
	uint32_t v1 = 5;
	uint8_t v3 = 200;
	int8_t v4 = -100;
	uint32_t v5 = SIDE_BYTE_ORDER == SIDE_LITTLE_ENDIAN ? side_bswap_32(6) : 6;

	side_event(my_provider_event_enum_gather,
		   side_arg_list(side_arg_gather_integer(&v1), side_arg_gather_integer(&v3),
				 side_arg_gather_integer(&v4), side_arg_gather_integer(&v5), ));
}

side_static_event(
	my_provider_event_gatherstring, "myprovider", "myeventgatherstring", SIDE_LOGLEVEL_DEBUG,
	side_field_list(side_field_gather_string("string", 0, SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_array("arrayptr",
						side_elem(side_type_gather_string(
							0, SIDE_TYPE_GATHER_ACCESS_POINTER)),
						3, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_array("array",
						side_elem(side_type_gather_string(
							0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
						3, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_gather_string(void)
{
	if (side_event_enabled(my_provider_event_gatherstring)) {
		const char *str1 = "abcdef";
		const char *ptrarray[3] = {"abc", "def", "ghi"};
		char flatarray[] = {'a', 'b', '\0', 'c', 'd', '\0', 'e', 'f', '\0'};

		side_event_call(my_provider_event_gatherstring,
				side_arg_list(side_arg_gather_string(str1),
					      side_arg_gather_array(ptrarray),
					      side_arg_gather_array(flatarray), ));
	}
}

/* Strings in UTF-8, -16 and -32, in every byte order, static, dynamic, gathered. */
side_static_event(my_provider_event_str_utf, "myprovider", "myevent_str_utf", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_string("utf8"), side_field_string32("utf32"),
				  side_field_string16("utf16"), side_field_string32_le("utf32_le"),
				  side_field_string16_le("utf16_le"),
				  side_field_string32_be("utf32_be"),
				  side_field_string16_be("utf16_be"),
				  side_field_dynamic("dynamic_utf32"),
				  side_field_gather_string32("gather_utf32", 0,
							     SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_string_utf(void)
{
	/* '®' is c2 ae in UTF-8, U+00AE in UTF-16 and UTF-32. */
	uint8_t str8[] = {0xc2, 0xae, 'a', 'b', 'c', 0};
	uint32_t str32[] = {0x000000ae, 'a', 'b', 'c', 0};
	uint16_t str16[] = {0x00ae, 'a', 'b', 'c', 0};
	uint32_t str32_be[] = {side_bswap_32(0x000000ae), side_bswap_32('a'), side_bswap_32('b'),
			       side_bswap_32('c'), 0};
	uint16_t str16_be[] = {side_bswap_16(0x00ae), side_bswap_16('a'), side_bswap_16('b'),
			       side_bswap_16('c'), 0};

	side_event(my_provider_event_str_utf,
		   side_arg_list(side_arg_string(str8), side_arg_string32(str32),
				 side_arg_string16(str16), side_arg_string32(str32),
				 side_arg_string16(str16), side_arg_string32(str32_be),
				 side_arg_string16(str16_be), side_arg_dynamic_string32(str32),
				 side_arg_gather_string(str32), ));
}

/* Variant and optional, by the name of their definitions and arguments. */
static side_define_variant(myvariantdef, side_type_u32(),
			   side_option_list(side_option_range(1, 3, side_type_u16()),
					    side_option(5, side_type_string()), ));

side_static_event(my_provider_event_variant, "myprovider", "myeventvariant", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_variant("variant1", myvariantdef),
				  side_field_variant("variant2", myvariantdef),
				  side_field_u8("z"), ));

static void test_variant(void)
{
	if (side_event_enabled(my_provider_event_variant)) {
		side_arg_define_variant(myvariant1, side_arg_u32(2), side_arg_u16(4));
		side_arg_define_variant(myvariant2, side_arg_u32(5), side_arg_string("abc"));

		side_event_call(my_provider_event_variant,
				side_arg_list(side_arg_variant(myvariant1),
					      side_arg_variant(myvariant2), side_arg_u8(55), ));
	}
}

static side_define_optional(my_optional, side_elem(side_type_string()));

side_static_event(my_provider_event_optional, "myprovider", "myeventoptional", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_optional("a", my_optional),
				  side_field_optional_literal("b",
							      side_elem(side_type_string())), ));

static void test_optional(void)
{
	if (side_event_enabled(my_provider_event_optional)) {
		side_arg_define_optional(present, side_arg_string("present"),
					 SIDE_OPTIONAL_ENABLED);
		side_arg_define_optional(absent, side_arg_string("absent"), SIDE_OPTIONAL_DISABLED);

		side_event_call(
			my_provider_event_optional,
			side_arg_list(side_arg_optional(present), side_arg_optional(absent)));
	}
}

/* 128-bit integers and C native types. */
side_static_event(my_provider_event_integer128, "myprovider", "myevent_integer128",
		  SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_s128("signed128"), side_field_u128("unsigned128"),
				  side_field_s128_be("signed128_be"), ));

static void test_integer128(void)
{
	if (side_event_enabled(my_provider_event_integer128)) {
		__int128 s_v128 = INT64_MIN;
		unsigned __int128 u_v128 = 0;
		__int128 s_be;

		s_v128--; /* -2^63 - 1 */
		u_v128--; /* 2^128 - 1 */
		s_be = s_v128;
		side_bswap_128p((char *)&s_be);
		side_event_call(my_provider_event_integer128,
				side_arg_list(side_arg_s128(s_v128), side_arg_u128(u_v128),
					      side_arg_s128(s_be)));
	}
}

side_static_event(c_native_types, "c_native_types", "all", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_char("char"), side_field_schar("schar"),
				  side_field_uchar("uchar"), side_field_short("short"),
				  side_field_ushort("ushort"), side_field_int("int"),
				  side_field_uint("uint"), side_field_long("long"),
				  side_field_ulong("ulong"), side_field_long_long("long_long"),
				  side_field_ulong_long("ulong_long"), side_field_float("float"),
				  side_field_double("double"), ));

static void test_c_native_types(void)
{
	char c = 'x';
	signed char sc = -1;
	unsigned char uc = 255;
	short s = -300;
	unsigned short us = 60000;
	int i = -70000;
	unsigned int ui = 4000000000U;
	long l = -5000000000L;
	unsigned long ul = 10000000000UL;
	long long ll = -6000000000LL;
	unsigned long long ull = 18000000000000000000ULL;
	float f = 0.25f;
	double d = -0.5;

	side_event(c_native_types,
		   side_arg_list(side_arg_char(c), side_arg_schar(sc), side_arg_uchar(uc),
				 side_arg_short(s), side_arg_ushort(us), side_arg_int(i),
				 side_arg_uint(ui), side_arg_long(l), side_arg_ulong(ul),
				 side_arg_long_long(ll), side_arg_ulong_long(ull),
				 side_arg_float(f), side_arg_double(d)));
}

#define EXPECT(_name, _event, _fn, _want) ok_str(_name, FIRE(_event, _fn), _want)

static void test_events(void)
{
	EXPECT("basic fields, dynamic string and pointer, null", my_provider_event, test_fields,
	       "myprovider:myevent abc=42 def=-500 ptr=0x1 dynamic=\"zzz\" dynamic_pointer=ptr:0x1 "
	       "null=null");
	EXPECT("hidden event", my_provider_event_hidden, test_event_hidden,
	       "myprovider:myeventhidden abc=2");
	EXPECT("exported event, declared first", my_provider_event_export, test_event_export,
	       "myprovider:myeventexport abc=2");
	EXPECT("struct", my_provider_event_struct, test_struct,
	       "myprovider:myeventstruct struct={x=21 y=22} z=55");
	EXPECT("nested struct", event_nested_struct, test_nested_struct,
	       "myprovider:nestedstruct struct={inner={x=21}}");
	EXPECT("array", my_provider_event_array, test_array, "myprovider:myarray arr=[1,2,3] v=42");
	EXPECT("vla", my_provider_event_vla, test_vla, "myprovider:myvla vla=[1,2,3] v=42");
	EXPECT("vla of struct", event_vla_of_struct, test_vla_of_struct,
	       "myprovider:vlaofstruct vla=[{x=21},{x=22}]");
	EXPECT("vla visitor", my_provider_event_vla_visitor, test_vla_visitor,
	       "myprovider:myvlavisit vlavisit=[1,2,3,4,5,6,7,8] v=42");
	EXPECT("vla visitor of vla visitors", my_provider_event_vla_visitor2d, test_vla_visitor_2d,
	       "myprovider:myvlavisit2d vlavisit2d=[[1,2],[33,44],[55,66]] v=42");
	EXPECT("dynamic s16", my_provider_event_dynamic_basic, test_dynamic_basic_type,
	       "myprovider:mydynamicbasic dynamic=s16:-33");
	EXPECT("dynamic null", my_provider_event_dynamic_null, test_dynamic_null,
	       "myprovider:mydynamicnull dynamic=null");
	EXPECT("dynamic vla", my_provider_event_dynamic_vla, test_dynamic_vla,
	       "myprovider:mydynamicvla dynamic=[u32:1,u32:2,u32:3]");
	EXPECT("dynamic struct", my_provider_event_dynamic_struct, test_dynamic_struct,
	       "myprovider:mydynamicstruct dynamic={a=u32:43 b=\"zzz\" c=null}");
	EXPECT("dynamic nested struct", my_provider_event_dynamic_nested_struct,
	       test_dynamic_nested_struct,
	       "myprovider:mydynamicnestedstruct dynamic={nested={a=u32:43 b=u8:55} "
	       "nested2={aa=u64:128 bb=u16:1}}");
	EXPECT("dynamic vla of structs", my_provider_event_dynamic_vla_struct,
	       test_dynamic_vla_struct,
	       "myprovider:mydynamicvlastruct dynamic=[{a=u32:43 b=u8:55},{a=u32:43 b=u8:55}]");
	EXPECT("dynamic struct of vlas", my_provider_event_dynamic_struct_vla,
	       test_dynamic_struct_vla,
	       "myprovider:mydynamicstructvla dynamic={a=[u32:1,u32:2,u32:3] "
	       "b=[u32:4,u64:5,u32:6]}");
	EXPECT("dynamic nested vla", my_provider_event_dynamic_nested_vla, test_dynamic_nested_vla,
	       "myprovider:mydynamicnestedvla dynamic=[[u32:1,u16:2,u32:3],[u8:4,u32:5,u32:6]]");
	EXPECT("dynamic vla visitor", my_provider_event_dynamic_vla_visitor,
	       test_dynamic_vla_with_visitor,
	       "myprovider:mydynamicvlavisitor dynamic=[u32:1,u32:2,u32:3]");
	EXPECT("dynamic struct visitor", my_provider_event_dynamic_struct_visitor,
	       test_dynamic_struct_with_visitor,
	       "myprovider:mydynamicstructvisitor dynamic={a=u32:1 b=u32:2 c=u32:3}");
	EXPECT("variadic event without static fields", my_provider_event_variadic, test_variadic,
	       "myprovider:myvariadicevent a=u32:55 b=s8:-4");
	EXPECT("variadic event with static fields", my_provider_event_static_variadic,
	       test_static_variadic,
	       "myprovider:mystaticvariadicevent abc=1 def=2 a=u32:55 b=s8:-4");
	EXPECT("bool of any integer", my_provider_event_bool, test_bool,
	       "myprovider:myeventbool a_false=false b_true=true c_true=true d_true=true "
	       "e_true=true "
	       "f_false=false g_true=true");
	EXPECT("dynamic bool", my_provider_event_dynamic_bool, test_dynamic_bool,
	       "myprovider:mydynamicbool a_true=true b_true=true c_false=false d_true=true");
	EXPECT("event attributes", my_provider_event_user_attribute, test_event_user_attribute,
	       "myprovider:myevent_user_attribute@{user_attribute_a=\"val1\",user_attribute_b="
	       "\"val2\"} "
	       "abc=1 def=2");
	EXPECT("field attributes", my_provider_field_user_attribute, test_field_user_attribute,
	       "myprovider:myevent_field_attribute "
	       "abc=1@{user_attribute_a=\"val1\",user_attribute_b=u32:2} "
	       "def=2@{user_attribute_c=\"val3\",user_attribute_d=s64:-5}");
	EXPECT("dynamic value attributes", my_provider_event_variadic_attr, test_variadic_attr,
	       "myprovider:myvariadiceventattr "
	       "a=u32:55@{user_attribute_c=\"valX\",user_attribute_d=u8:55} "
	       "b=s8:-4@{X=u8:1,Y=s8:2}");
	EXPECT("dynamic vla attributes", my_provider_event_variadic_vla_attr,
	       test_variadic_vla_attr,
	       "myprovider:myvariadiceventvlaattr "
	       "a=[u32:1@{Z=u8:0,A=u8:123},u32:2,u32:3]@{X=u8:1,Y=u8:2}");
	EXPECT("dynamic struct and variadic attributes", my_provider_event_variadic_struct_attr,
	       test_variadic_struct_attr,
	       "myprovider:myvariadiceventstructattr my-field={a=u32:43@{A=true} "
	       "b=u8:55}@{X=u8:1,Y=u8:2} "
	       "@{event=s32:-1}");
	EXPECT("floats in every byte order", my_provider_event_float, test_float,
	       "myprovider:myeventfloat binary32=2.2 binary32_le=2.2 binary32_be=2.2 binary64=3.3 "
	       "binary64_le=3.3 binary64_be=3.3"
#ifdef SIDE_HAVE_FLOAT128
	       " binary128=4.4 binary128_be=4.4"
#endif
	);
	EXPECT("dynamic floats in every byte order", my_provider_event_variadic_float,
	       test_variadic_float,
	       "myprovider:myvariadicfloat binary32=f32:2.2 binary32_le=f32:2.2 "
	       "binary32_be=f32:2.2 "
	       "binary64=f64:3.3 binary64_le=f64:3.3 binary64_be=f64:3.3");
	EXPECT("enum", my_provider_event_enum, test_enum,
	       "myprovider:myeventenum 5=5<one-ten> 400=400<> 200=200<100-200,200> -100=-100<> "
	       "6_be=6<one-ten> 6_le=6<one-ten>");
	EXPECT("enum bitmap of integers, byte, array, vla", my_provider_event_enum_bitmap,
	       test_enum_bitmap,
	       "myprovider:myeventenumbitmap bit_0=1<0> bit_1=2<1-2> bit_2=4<1-2,2-4> "
	       "bit_3=8<2-4,3> "
	       "bit_30=1073741824<30> bit_31=2147483648<> bit_63=9223372036854775808<63> "
	       "bits_1+63=9223372036854775810<1-2,63> byte_bit_2=0x04<1-2,2-4> "
	       "bit_159=[0,0,0,0,2147483648]<158-160,159> vla_bit_31=[2147483648]<> "
	       "bit_2_be=4<1-2,2-4> bit_2_le=4<1-2,2-4>");
	EXPECT("blob: bytes, static and dynamic", my_provider_event_blob, test_blob,
	       "myprovider:myeventblob blobfield=0x55 arrayblob=[0x01,0x02,0x03] varblobfield=0x55 "
	       "varblobvla=[0x22,0x33]");
	EXPECT("format string with dynamic arguments", my_provider_event_format_string,
	       test_fmt_string,
	       "myprovider:myeventformatstring@{lang.c.format_string=true} fmt=\"str: %s int: %d\" "
	       "arguments=[\"blah\",s32:123]");
	EXPECT("integer byte orders, static and dynamic", my_provider_event_endian, test_endian,
	       "myprovider:myevent_endian u16_le=1 u32_le=1 u64_le=1 s16_le=-2 s32_le=-2 s64_le=-2 "
	       "u16_be=1 u32_be=1 u64_be=1 s16_be=-2 s32_be=-2 s64_be=-2 "
	       "u16_le=u16:1 s64_le=s64:-2 u32_be=u32:1 s16_be=s16:-2 s64_be=s64:-2");
	EXPECT("integer base attributes", my_provider_event_base, test_base,
	       "myprovider:myevent_base u8base2=55@{std.integer.base=u8:2} "
	       "u16base8=55@{std.integer.base=u8:8} s32base10=-55@{std.integer.base=u8:10} "
	       "s64base16=-55@{std.integer.base=u8:16}");
	EXPECT("gather struct with bit fields, integer, float", my_provider_event_structgather,
	       test_struct_gather,
	       "myprovider:myeventstructgather structgather={a=55 d=-55 "
	       "e=11@{std.integer.base=u8:16} "
	       "f=-1 g=-1 h=-1 i=-1 j=-1 k=-1 test_le=255 test_be=18374686479671623680} "
	       "intgather=-66@{std.integer.base=u8:10} f32=1.5");
	EXPECT("gather structs through pointers", my_provider_event_structgather_nest,
	       test_struct_gather_nest_ptr,
	       "myprovider:myeventstructgathernest nest0={a=55 nest1={b=66 nest2={c=77}}}");
	EXPECT("gather arrays, direct and through a pointer", my_provider_event_structgatherarray,
	       test_array_gather,
	       "myprovider:myeventstructgatherarray structgatherarray={array=[1,2,3,4,5]} "
	       "array2=[6,7,8,9]");
	EXPECT("gather array of gather structs", my_provider_event_gatherstructnest,
	       test_gather_structnest,
	       "myprovider:myeventgatherstructnest structgather={a=55 structnest0={b=66 "
	       "c=[0,1,2,3]} "
	       "nestarray=[{b=77 c=[11,12,13,14]},{b=88 c=[15,16,17,18]}]}");
	EXPECT("gather vla, in a struct and with its own length", my_provider_event_gathervla,
	       test_gather_vla,
	       "myprovider:myeventgathervla structgathervla={a=55 nestvla=[1,2,3,4]} "
	       "vla=[5,6,7,8,9]");
	EXPECT("gather vla of a flexible array member", my_provider_event_gathervlaflex,
	       test_gather_vla_flex,
	       "myprovider:myeventgathervlaflex structgathervlaflex={vlaflex=[1,2,3]}");
	EXPECT("gather byte", my_provider_event_gatherbyte, test_gather_byte,
	       "myprovider:myeventgatherbyte byte=0x44 array=[0x01,0x02,0x03]");
	EXPECT("gather bool with bit offsets", my_provider_event_gatherbool, test_gather_bool,
	       "myprovider:myeventgatherbool v1_true=true v2_false=false v3_true=true "
	       "v4_false=false "
	       "arraybool=[false,true,false,true]");
	EXPECT("gather pointer", my_provider_event_gatherpointer, test_gather_pointer,
	       "myprovider:myeventgatherpointer ptr=0x44 array=[0x1,0x2,0x3]");
	EXPECT("gather enum", my_provider_event_enum_gather, test_gather_enum,
	       "myprovider:myeventenumgather 5=5<one-ten> 200=200<100-200,200> -100=-100<> "
	       "6_be=6<one-ten>");
	EXPECT("gather strings, direct and through pointers", my_provider_event_gatherstring,
	       test_gather_string,
	       "myprovider:myeventgatherstring string=\"abcdef\" "
	       "arrayptr=[\"abc\",\"def\",\"ghi\"] "
	       "array=[\"ab\",\"cd\",\"ef\"]");
	EXPECT("UTF-8, -16, -32 strings in every byte order", my_provider_event_str_utf,
	       test_string_utf,
	       "myprovider:myevent_str_utf utf8=\"\\xc2\\xaeabc\" utf32=U\"\\u00aeabc\" "
	       "utf16=u\"\\u00aeabc\" utf32_le=U\"\\u00aeabc\" utf16_le=u\"\\u00aeabc\" "
	       "utf32_be=U\"\\u00aeabc\" utf16_be=u\"\\u00aeabc\" dynamic_utf32=U\"\\u00aeabc\" "
	       "gather_utf32=U\"\\u00aeabc\"");
	EXPECT("variant", my_provider_event_variant, test_variant,
	       "myprovider:myeventvariant variant1=(2)4 variant2=(5)\"abc\" z=55");
	EXPECT("optional, named and literal", my_provider_event_optional, test_optional,
	       "myprovider:myeventoptional a=\"present\" b=absent");
	EXPECT("128-bit integers", my_provider_event_integer128, test_integer128,
	       "myprovider:myevent_integer128 signed128=-9223372036854775809 "
	       "unsigned128=340282366920938463463374607431768211455 "
	       "signed128_be=-9223372036854775809");
	EXPECT("C native types", c_native_types, test_c_native_types,
	       "c_native_types:all char=120 schar=-1 uchar=255 short=-300 ushort=60000 int=-70000 "
	       "uint=4000000000 long=-5000000000 ulong=10000000000 long_long=-6000000000 "
	       "ulong_long=18000000000000000000 float=0.25 double=-0.5");
}

/* The macros take the address of what they are given by name. */
static void test_by_name(void)
{
	const struct side_event_field *f;

	f = side_ptr_get(my_provider_event_struct.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_struct) == &mystructdef,
	   "struct field refers to the named definition");
	f = side_ptr_get(my_provider_event_array.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_array) == &my_array_u32_3,
	   "array field refers to the named definition");
	f = side_ptr_get(my_provider_event_vla.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_vla) == &my_vla_u32,
	   "vla field refers to the named definition");
	f = side_ptr_get(my_provider_event_vla_visitor.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_vla_visitor) == &my_vla_visitor_1d,
	   "vla visitor field refers to the named definition");
	f = side_ptr_get(my_provider_event_variant.fields.elements);
	ok(side_ptr_get(f[1].side_type.u.side_variant) == &myvariantdef,
	   "variant field refers to the named definition");
	f = side_ptr_get(my_provider_event_optional.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_optional) == &my_optional &&
		   f[1].side_type.type.v == SIDE_TYPE_OPTIONAL,
	   "optional field refers to the named definition");
	f = side_ptr_get(my_provider_event_structgather_nest.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_gather.u.side_struct.type) == &mystructgathernest0,
	   "gather struct field refers to the named definition");
	f = side_ptr_get(my_provider_event_enum_gather.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_gather.u.side_enum.mappings) == &myenum,
	   "gather enum refers to the named mappings");
	f = side_ptr_get(my_provider_event_enum.fields.elements);
	ok(side_ptr_get(f[0].side_type.u.side_enum.mappings) == &myenum,
	   "enum refers to the mappings at the given address");
	ok(my_provider_event.loglevel.v == SIDE_LOGLEVEL_DEBUG && my_provider_event.flags == 0 &&
		   my_provider_event_variadic.flags == SIDE_EVENT_FLAG_VARIADIC &&
		   my_provider_event_variadic.fields.length == 0,
	   "event descriptions: loglevel and variadic flag");
}

int main(void)
{
	test_events();
	test_by_name();
	return unit_summary();
}
