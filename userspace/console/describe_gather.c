// SPDX-License-Identifier: MIT
/*
 * The "event description:" text of the types that describe memory rather
 * than carry values (gather types: where to read, at which offset, read
 * directly or through a pointer), of enum bitmaps and of vla visitors,
 * as libside's console tracer prints them.
 */
#include "print.h"

static const char *byte_order_name(uint8_t bo)
{
	return bo == SIDE_TYPE_BYTE_ORDER_LE ? "le" : "be";
}

static const char *access_name(uint8_t mode)
{
	return mode == SIDE_TYPE_GATHER_ACCESS_DIRECT ? "\"direct\"" : "\"pointer\"";
}

static void open_compound(const struct side_attr *attr, uint32_t nr)
{
	print_attributes("attr", ":", attr, nr);
	printf("%s", nr ? ", " : "");
}

/* The element at a level of its own: " { TYPE }". */
static void describe_sub_elem(struct print_ctx *ctx, const struct side_type *type)
{
	push_nesting(ctx);
	before_elem(ctx);
	describe_type(ctx, type);
	after_item(ctx);
	pop_nesting(ctx);
}

static void describe_bitmap(struct print_ctx *ctx, const struct side_type_enum_bitmap *t)
{
	const struct side_enum_bitmap_mappings *mappings = side_ptr_get(t->mappings);
	const struct side_enum_bitmap_mapping *m;
	uint32_t n = 0;

	print_type_header("type", ":", side_array_elements(&mappings->attributes),
			  side_array_length(&mappings->attributes));
	printf("enum_bitmap { labels: { ");
	side_for_each_element_in_array(m, &mappings->mappings)
	{
		printf("%s", n++ ? ", " : "");
		if (m->range_begin == m->range_end)
			printf("[ %" PRIu64 " ]: ", m->range_begin);
		else
			printf("[ %" PRIu64 " - %" PRIu64 " ]: ", m->range_begin, m->range_end);
		print_string(side_ptr_get(m->label.p), m->label.unit_size,
			     side_enum_get(m->label.byte_order));
	}
	if (!n)
		printf("<NO LABEL>");
	/* As for enums, the element counts at the enclosing level. */
	printf(" }, element: { ");
	before_elem(ctx);
	describe_type(ctx, side_ptr_get(t->elem_type));
	after_item(ctx);
	printf(" }");
}

static void describe_vla_visitor(struct print_ctx *ctx, const struct side_type_vla_visitor *v)
{
	open_compound(side_array_elements(&v->attributes), side_array_length(&v->attributes));
	printf("type: vla_visitor { length:");
	describe_sub_elem(ctx, side_ptr_get(v->length_type));
	printf(", element:");
	describe_sub_elem(ctx, side_ptr_get(v->elem_type));
	printf(" }");
}

static void describe_gather_integer(const char *name, const struct side_type_gather_integer *g)
{
	const struct side_type_integer *t = &g->type;

	print_type_header("type", ":", side_array_elements(&t->attributes),
			  side_array_length(&t->attributes));
	printf("%s { size: %" PRIu16 ", signedness: %s, byte_order: \"%s\"", name, t->integer_size,
	       t->signedness ? "true" : "false", byte_order_name(side_enum_get(t->byte_order)));
	if (t->len_bits)
		printf(", len_bits: %" PRIu16, t->len_bits);
	printf(", offset: %" PRIu64 ", offset_bits: %" PRIu16 ", access_mode: %s }", g->offset,
	       g->offset_bits, access_name(side_enum_get(g->access_mode)));
}

static void describe_gather_basic(const struct side_type *type)
{
	const struct side_type_gather *g = &type->u.side_gather;
	const struct side_type_gather_bool *b = &g->u.side_bool;
	const struct side_type_gather_byte *y = &g->u.side_byte;
	const struct side_type_gather_float *f = &g->u.side_float;
	const struct side_type_gather_string *s = &g->u.side_string;

	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_GATHER_BOOL:
		print_type_header("type", ":", side_array_elements(&b->type.attributes),
				  side_array_length(&b->type.attributes));
		printf("gather_bool { size: %" PRIu16, b->type.bool_size);
		if (b->type.len_bits)
			printf(", len_bits: %" PRIu16, b->type.len_bits);
		printf(", offset: %" PRIu64 ", offset_bits: %" PRIu16 ", access_mode: %s }",
		       b->offset, b->offset_bits, access_name(side_enum_get(b->access_mode)));
		break;
	case SIDE_TYPE_GATHER_BYTE:
		print_type_header("type", ":", side_array_elements(&y->type.attributes),
				  side_array_length(&y->type.attributes));
		printf("gather_byte { offset: %" PRIu64 ", access_mode: %s }", y->offset,
		       access_name(side_enum_get(y->access_mode)));
		break;
	case SIDE_TYPE_GATHER_INTEGER:
		describe_gather_integer("gather_integer", &g->u.side_integer);
		break;
	case SIDE_TYPE_GATHER_POINTER:
		describe_gather_integer("gather_pointer", &g->u.side_integer);
		break;
	case SIDE_TYPE_GATHER_FLOAT:
		print_type_header("type", ":", side_array_elements(&f->type.attributes),
				  side_array_length(&f->type.attributes));
		printf("gather_float { size: %" PRIu16 ", byte_order: \"%s\", offset: %" PRIu64
		       ", access_mode: %s }",
		       f->type.float_size, byte_order_name(side_enum_get(f->type.byte_order)),
		       f->offset, access_name(side_enum_get(f->access_mode)));
		break;
	default: /* SIDE_TYPE_GATHER_STRING */
		print_type_header("type", ":", side_array_elements(&s->type.attributes),
				  side_array_length(&s->type.attributes));
		printf("gather_string { unit_size: %" PRIu8, s->type.unit_size);
		if (s->type.unit_size > 1)
			printf(", byte_order: \"%s\"",
			       byte_order_name(side_enum_get(s->type.byte_order)));
		printf(", offset: %" PRIu64 ", access_mode: %s }", s->offset,
		       access_name(side_enum_get(s->access_mode)));
		break;
	}
}

static void describe_gather_struct(struct print_ctx *ctx, const struct side_type_gather_struct *g)
{
	const struct side_type_struct *st = side_ptr_get(g->type);
	const struct side_event_field *f;

	open_compound(side_array_elements(&st->attributes), side_array_length(&st->attributes));
	printf("type: gather_struct { size: %" PRIu32 ", offset: %" PRIu64
	       ", access_mode: %s, fields: {",
	       g->size, g->offset, access_name(side_enum_get(g->access_mode)));
	push_nesting(ctx);
	side_for_each_element_in_array(f, &st->fields)
	{
		before_field(ctx, side_ptr_get(f->field_name), ":");
		describe_type(ctx, &f->side_type);
		after_item(ctx);
	}
	pop_nesting(ctx);
	printf(" } }");
}

static void describe_gather_compound(struct print_ctx *ctx, const struct side_type *type)
{
	const struct side_type_gather *g = &type->u.side_gather;
	const struct side_type_array *a = &g->u.side_array.type;
	const struct side_type_vla *v = &g->u.side_vla.type;

	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_GATHER_STRUCT:
		describe_gather_struct(ctx, &g->u.side_struct);
		break;
	case SIDE_TYPE_GATHER_ARRAY:
		open_compound(side_array_elements(&a->attributes),
			      side_array_length(&a->attributes));
		printf("type: gather_array { offset: %" PRIu64 ", access_mode: %s, element:",
		       g->u.side_array.offset,
		       access_name(side_enum_get(g->u.side_array.access_mode)));
		describe_sub_elem(ctx, side_ptr_get(a->elem_type));
		printf(" }");
		break;
	case SIDE_TYPE_GATHER_VLA:
		open_compound(side_array_elements(&v->attributes),
			      side_array_length(&v->attributes));
		printf("type: gather_vla { offset: %" PRIu64 ", access_mode: %s, length:",
		       g->u.side_vla.offset, access_name(side_enum_get(g->u.side_vla.access_mode)));
		describe_sub_elem(ctx, side_ptr_get(v->length_type));
		printf(", element:");
		describe_sub_elem(ctx, side_ptr_get(v->elem_type));
		printf(" }");
		break;
	default: /* SIDE_TYPE_GATHER_ENUM */
		describe_enum_mappings("gather_enum", side_ptr_get(g->u.side_enum.mappings));
		before_elem(ctx);
		describe_type(ctx, side_ptr_get(g->u.side_enum.elem_type));
		after_item(ctx);
		printf(" }");
		break;
	}
}

bool describe_other(struct print_ctx *ctx, const struct side_type *type)
{
	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_ENUM_BITMAP:
		describe_bitmap(ctx, &type->u.side_enum_bitmap);
		return true;
	case SIDE_TYPE_VLA_VISITOR:
		describe_vla_visitor(ctx, side_ptr_get(type->u.side_vla_visitor));
		return true;
	case SIDE_TYPE_GATHER_BOOL ... SIDE_TYPE_GATHER_STRING:
		describe_gather_basic(type);
		return true;
	case SIDE_TYPE_GATHER_STRUCT ... SIDE_TYPE_GATHER_ENUM:
		describe_gather_compound(ctx, type);
		return true;
	default:
		return false;
	}
}
