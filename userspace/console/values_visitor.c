// SPDX-License-Identifier: MIT
/*
 * The console tracer's values that the application hands over through a
 * callback (vla visitors, dynamic struct and vla visitors: the tracer
 * passes a write function, the application calls it once per element)
 * and enum bitmaps (the labels of the bits that are set).
 */
#include <limits.h>
#include "print.h"

struct visit_priv {
	struct print_ctx *ctx;
	const struct side_type *elem_type;
};

static enum side_visitor_status write_elem(const struct side_tracer_visitor_ctx *tctx,
					   const struct side_arg *elem)
{
	struct visit_priv *p = tctx->priv;

	before_elem(p->ctx);
	if (p->elem_type)
		print_arg(p->ctx, p->elem_type, elem);
	else
		print_dynamic(p->ctx, elem);
	after_item(p->ctx);
	return SIDE_VISITOR_STATUS_OK;
}

static enum side_visitor_status
write_field(const struct side_tracer_dynamic_struct_visitor_ctx *tctx,
	    const struct side_arg_dynamic_field *field)
{
	struct visit_priv *p = tctx->priv;

	before_field(p->ctx, side_ptr_get(field->field_name), "::");
	print_dynamic(p->ctx, &field->elem);
	after_item(p->ctx);
	return SIDE_VISITOR_STATUS_OK;
}

static void check_status(enum side_visitor_status status)
{
	if (status != SIDE_VISITOR_STATUS_OK) {
		fprintf(stderr, "ERROR: Visitor error\n");
		abort();
	}
}

static void open_list(struct print_ctx *ctx, const char *sep, const struct side_attr *attr,
		      uint32_t nr, const char *what)
{
	print_attributes("attr", sep, attr, nr);
	printf("%s%s", nr ? ", " : "", what);
	push_nesting(ctx);
}

static void print_vla_visitor(struct print_ctx *ctx, const struct side_type *type,
			      const struct side_arg_vla_visitor *arg)
{
	const struct side_type_vla_visitor *v = side_ptr_get(type->u.side_vla_visitor);
	enum side_type_label lt = side_enum_get(side_ptr_get(v->length_type)->type);
	struct visit_priv p = {ctx, side_ptr_get(v->elem_type)};
	const struct side_tracer_visitor_ctx tctx = {write_elem, &p};
	side_visitor_func func = side_ptr_get(v->visitor);

	if (!arg)
		abort();
	if (lt < SIDE_TYPE_U8 || lt > SIDE_TYPE_S128) {
		fprintf(stderr, "ERROR: Unexpected vla visitor length type\n");
		abort();
	}
	open_list(ctx, ":", side_array_elements(&v->attributes), side_array_length(&v->attributes),
		  "elements: [");
	check_status(func(&tctx, side_ptr_get(arg->app_ctx)));
	pop_nesting(ctx);
	printf(" ]");
}

bool print_dynamic_visitor(struct print_ctx *ctx, const struct side_arg *item)
{
	const union side_arg_dynamic *d = &item->u.side_dynamic;
	struct visit_priv p = {ctx, NULL};

	if (side_enum_get(item->type) == SIDE_TYPE_DYNAMIC_STRUCT_VISITOR) {
		const struct side_arg_dynamic_struct_visitor *v =
			side_ptr_get(d->side_dynamic_struct_visitor);
		const struct side_tracer_dynamic_struct_visitor_ctx tctx = {write_field, &p};

		if (!v)
			abort();
		open_list(ctx, "::", side_array_elements(&v->attributes),
			  side_array_length(&v->attributes), "fields:: {");
		check_status(side_ptr_get(v->visitor)(&tctx, side_ptr_get(v->app_ctx)));
		pop_nesting(ctx);
		printf(" }");
		return true;
	}
	if (side_enum_get(item->type) == SIDE_TYPE_DYNAMIC_VLA_VISITOR) {
		const struct side_arg_dynamic_vla_visitor *v =
			side_ptr_get(d->side_dynamic_vla_visitor);
		const struct side_tracer_visitor_ctx tctx = {write_elem, &p};

		if (!v)
			abort();
		open_list(ctx, "::", side_array_elements(&v->attributes),
			  side_array_length(&v->attributes), "elements:: [");
		check_status(side_ptr_get(v->visitor)(&tctx, side_ptr_get(v->app_ctx)));
		pop_nesting(ctx);
		printf(" ]");
		return true;
	}
	return false;
}

/* The units that hold the bits: one integer or byte, or an array or vla of them. */
struct bitmap_units {
	const struct side_type *type;
	const struct side_arg *items;
	uint32_t nr;
	uint32_t stride;
};

static struct bitmap_units bitmap_units(const struct side_type *type, const struct side_arg *item)
{
	const struct side_type *elem = side_ptr_get(type->u.side_enum_bitmap.elem_type);
	const union side_arg_static *s = &item->u.side_static;
	struct bitmap_units u = {elem, item, 1, 0};

	switch (side_enum_get(elem->type)) {
	case SIDE_TYPE_ARRAY:
		u.type = side_ptr_get(side_ptr_get(elem->u.side_array)->elem_type);
		u.items = side_ptr_get(side_ptr_get(s->side_array)->sav);
		u.nr = side_ptr_get(elem->u.side_array)->length;
		break;
	case SIDE_TYPE_VLA:
		u.type = side_ptr_get(side_ptr_get(elem->u.side_vla)->elem_type);
		u.items = side_ptr_get(side_ptr_get(s->side_vla)->sav);
		u.nr = side_ptr_get(s->side_vla)->len;
		break;
	default:
		break;
	}
	switch (side_enum_get(u.type->type)) {
	case SIDE_TYPE_BYTE:
		u.stride = CHAR_BIT;
		break;
	case SIDE_TYPE_U8 ... SIDE_TYPE_S128:
		u.stride = u.type->u.side_integer.integer_size * CHAR_BIT;
		break;
	default:
		fprintf(stderr, "ERROR: Unexpected enum bitmap element type\n");
		abort();
	}
	return u;
}

static bool bit_is_set(const struct bitmap_units *u, uint64_t bit)
{
	const struct side_arg *a = &u->items[bit / u->stride];
	union int_value v;

	if (side_enum_get(u->type->type) == SIDE_TYPE_BYTE)
		return a->u.side_static.byte_value & (1U << (bit % CHAR_BIT));
	v = load_integer(&u->type->u.side_integer, &a->u.side_static.integer_value, 0, NULL);
	if (v.u[SIDE_INTEGER128_SPLIT_HIGH] || bit % u->stride >= 64) {
		fprintf(stderr, "ERROR: Unsupported enum bitmap value above 64 bits\n");
		abort();
	}
	return v.u[SIDE_INTEGER128_SPLIT_LOW] & (1ULL << (bit % u->stride));
}

static void print_enum_bitmap(const struct side_type *type, const struct side_arg *item)
{
	const struct side_enum_bitmap_mappings *mappings =
		side_ptr_get(type->u.side_enum_bitmap.mappings);
	struct bitmap_units u = bitmap_units(type, item);
	uint64_t nr_bits = (uint64_t)u.nr * u.stride, bit;
	const struct side_enum_bitmap_mapping *m;
	uint32_t n = 0;

	print_attributes("attr", ":", side_array_elements(&mappings->attributes),
			 side_array_length(&mappings->attributes));
	printf("%slabels: [ ", side_array_length(&mappings->attributes) ? ", " : "");
	side_for_each_element_in_array(m, &mappings->mappings)
	{
		if (m->range_end < m->range_begin) {
			fprintf(stderr,
				"ERROR: Unexpected enum bitmap range: %" PRIu64 "-%" PRIu64 "\n",
				m->range_begin, m->range_end);
			abort();
		}
		for (bit = m->range_begin; bit <= m->range_end && bit < nr_bits; bit++)
			if (bit_is_set(&u, bit))
				break;
		if (bit > m->range_end || bit >= nr_bits)
			continue;
		printf("%s", n++ ? ", " : "");
		print_string(side_ptr_get(m->label.p), m->label.unit_size,
			     side_enum_get(m->label.byte_order));
	}
	if (!n)
		printf("<NO LABEL>");
	printf(" ]");
}

bool print_other(struct print_ctx *ctx, const struct side_type *type, const struct side_arg *item)
{
	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_ENUM_BITMAP:
		print_enum_bitmap(type, item);
		return true;
	case SIDE_TYPE_VLA_VISITOR:
		print_vla_visitor(ctx, type, side_ptr_get(item->u.side_static.side_vla_visitor));
		return true;
	default:
		return print_gather(ctx, type, item);
	}
}
