// SPDX-License-Identifier: MIT
/*
 * The console tracer's "event description:" line, printed when an event
 * is inserted: every field's type, nested types inside.
 */
#include "print.h"

static const char *byte_order_name(uint8_t bo)
{
	return bo == SIDE_TYPE_BYTE_ORDER_LE ? "le" : "be";
}

static void describe_elem(struct print_ctx *ctx, const struct side_type *type)
{
	before_elem(ctx);
	describe_type(ctx, type);
	after_item(ctx);
}

static void describe_fields(struct print_ctx *ctx, const struct side_event_field *f, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		before_field(ctx, side_ptr_get(f[i].field_name), ":");
		describe_type(ctx, &f[i].side_type);
		after_item(ctx);
	}
}

/* "attr: [ ... ], " when there are attributes, then what the type opens with. */
static void open_attrs(const struct side_attr *attr, uint32_t nr, const char *what)
{
	print_attributes("attr", ":", attr, nr);
	printf("%s%s", nr ? ", " : "", what);
}

void describe_enum_mappings(const char *name, const struct side_enum_mappings *mappings)
{
	const struct side_enum_mapping *m;
	uint32_t n = 0;

	print_type_header("type", ":", side_array_elements(&mappings->attributes),
			  side_array_length(&mappings->attributes));
	printf("%s { labels: { ", name);
	side_for_each_element_in_array(m, &mappings->mappings)
	{
		printf("%s", n++ ? ", " : "");
		if (m->range_begin == m->range_end)
			printf("[ %" PRIu64 " ]: ", (uint64_t)m->range_begin);
		else
			printf("[ %" PRIu64 " - %" PRIu64 " ]: ", (uint64_t)m->range_begin,
			       (uint64_t)m->range_end);
		print_string(side_ptr_get(m->label.p), m->label.unit_size,
			     side_enum_get(m->label.byte_order));
	}
	if (!n)
		printf("<NO LABEL>");
	printf(" }, element: { ");
}

static void describe_enum(struct print_ctx *ctx, const struct side_type *type)
{
	describe_enum_mappings("enum", side_ptr_get(type->u.side_enum.mappings));
	/* libside prints the element as an element of the enclosing level. */
	describe_elem(ctx, side_ptr_get(type->u.side_enum.elem_type));
	printf(" }");
}

static void describe_variant(struct print_ctx *ctx, const struct side_type_variant *var)
{
	const struct side_variant_option *opt;

	open_attrs(side_array_elements(&var->attributes), side_array_length(&var->attributes),
		   "type: variant { options: {");
	push_nesting(ctx);
	describe_type(ctx, &var->selector);
	side_for_each_element_in_array(opt, &var->options)
	{
		if (ctx->item_nr[ctx->nesting])
			printf(",");
		if (opt->range_begin == opt->range_end)
			printf(" [ %" PRIu64 " ]: { ", (uint64_t)opt->range_begin);
		else
			printf(" [ %" PRIu64 " - %" PRIu64 " ]: { ", (uint64_t)opt->range_begin,
			       (uint64_t)opt->range_end);
		describe_type(ctx, &opt->side_type);
		after_item(ctx);
	}
	pop_nesting(ctx);
	printf(" } }");
}

static bool describe_compound(struct print_ctx *ctx, const struct side_type *type)
{
	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_STRUCT: {
		const struct side_type_struct *st = side_ptr_get(type->u.side_struct);

		open_attrs(side_array_elements(&st->attributes), side_array_length(&st->attributes),
			   "type: struct { fields: {");
		push_nesting(ctx);
		describe_fields(ctx, side_array_elements(&st->fields),
				side_array_length(&st->fields));
		pop_nesting(ctx);
		printf(" } }");
		return true;
	}
	case SIDE_TYPE_ARRAY: {
		const struct side_type_array *a = side_ptr_get(type->u.side_array);

		open_attrs(side_array_elements(&a->attributes), side_array_length(&a->attributes),
			   "");
		printf("type: array { length: %" PRIu32 ", element:", a->length);
		push_nesting(ctx);
		describe_elem(ctx, side_ptr_get(a->elem_type));
		pop_nesting(ctx);
		printf(" }");
		return true;
	}
	case SIDE_TYPE_VLA: {
		const struct side_type_vla *a = side_ptr_get(type->u.side_vla);

		open_attrs(side_array_elements(&a->attributes), side_array_length(&a->attributes),
			   "type: vla { length:");
		push_nesting(ctx);
		describe_elem(ctx, side_ptr_get(a->length_type));
		pop_nesting(ctx);
		printf(", element:");
		push_nesting(ctx);
		describe_elem(ctx, side_ptr_get(a->elem_type));
		pop_nesting(ctx);
		printf(" }");
		return true;
	}
	case SIDE_TYPE_VARIANT:
		describe_variant(ctx, side_ptr_get(type->u.side_variant));
		return true;
	case SIDE_TYPE_OPTIONAL:
		printf("type: optional {");
		push_nesting(ctx);
		describe_type(ctx, side_ptr_get(side_ptr_get(type->u.side_optional)->elem_type));
		pop_nesting(ctx);
		printf(" } }");
		return true;
	case SIDE_TYPE_ENUM:
		describe_enum(ctx, type);
		return true;
	default:
		return false;
	}
}

static void describe_integer(const char *name, const struct side_type_integer *t)
{
	print_type_header("type", ":", side_array_elements(&t->attributes),
			  side_array_length(&t->attributes));
	printf("%s { size: %" PRIu16 ", signedness: %s, byte_order: \"%s\"", name, t->integer_size,
	       t->signedness ? "true" : "false", byte_order_name(side_enum_get(t->byte_order)));
	if (t->len_bits)
		printf(", len_bits: %" PRIu16, t->len_bits);
	printf(" }");
}

void describe_type(struct print_ctx *ctx, const struct side_type *type)
{
	const struct side_type_string *s = &type->u.side_string;

	if (describe_compound(ctx, type) || describe_other(ctx, type))
		return;
	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_NULL:
		print_type_header("type", ":", side_array_elements(&type->u.side_null.attributes),
				  side_array_length(&type->u.side_null.attributes));
		printf("null");
		break;
	case SIDE_TYPE_BOOL:
		print_type_header("type", ":", side_array_elements(&type->u.side_bool.attributes),
				  side_array_length(&type->u.side_bool.attributes));
		printf("bool { size: %" PRIu16, type->u.side_bool.bool_size);
		if (type->u.side_bool.len_bits)
			printf(", len_bits: %" PRIu16, type->u.side_bool.len_bits);
		printf(" }");
		break;
	case SIDE_TYPE_U8 ... SIDE_TYPE_S128:
		describe_integer("integer", &type->u.side_integer);
		break;
	case SIDE_TYPE_POINTER:
		describe_integer("pointer", &type->u.side_integer);
		break;
	case SIDE_TYPE_BYTE:
		print_type_header("type", ":", side_array_elements(&type->u.side_byte.attributes),
				  side_array_length(&type->u.side_byte.attributes));
		printf("byte");
		break;
	case SIDE_TYPE_FLOAT_BINARY16 ... SIDE_TYPE_FLOAT_BINARY128:
		print_type_header("type", ":", side_array_elements(&type->u.side_float.attributes),
				  side_array_length(&type->u.side_float.attributes));
		printf("float { size: %" PRIu16 ", byte_order: \"%s\" }",
		       type->u.side_float.float_size,
		       byte_order_name(side_enum_get(type->u.side_float.byte_order)));
		break;
	case SIDE_TYPE_STRING_UTF8 ... SIDE_TYPE_STRING_UTF32:
		print_type_header("type", ":", side_array_elements(&s->attributes),
				  side_array_length(&s->attributes));
		printf("string { unit_size: %" PRIu8, s->unit_size);
		if (s->unit_size > 1)
			printf(", byte_order: \"%s\"",
			       byte_order_name(side_enum_get(s->byte_order)));
		printf(" }");
		break;
	case SIDE_TYPE_DYNAMIC:
		printf("type: dynamic");
		break;
	default:
		fprintf(stderr, "<UNKNOWN TYPE>\n");
		abort();
	}
}

void print_description(const struct side_event_description *desc)
{
	struct print_ctx ctx = {};
	uint32_t n = side_array_length(&desc->fields);

	printf("event description: provider: %s, event: %s", side_ptr_get(desc->provider_name),
	       side_ptr_get(desc->event_name));
	print_attributes(", attr", ":", side_array_elements(&desc->attributes),
			 side_array_length(&desc->attributes));
	if (n) {
		printf(", fields: {");
		push_nesting(&ctx);
		describe_fields(&ctx, side_array_elements(&desc->fields), n);
		pop_nesting(&ctx);
		printf(" }");
	}
	if (desc->flags & SIDE_EVENT_FLAG_VARIADIC)
		printf(", <variadic fields>");
	printf("\n");
}
