// SPDX-License-Identifier: MIT
/*
 * The console tracer's line for one event call: its fields, walked with
 * their description, then its variadic (dynamic) fields.
 */
#include "print.h"

/* "attr: [ ... ], " when there are attributes, then the opening word. */
static void open_compound(struct print_ctx *ctx, const char *sep, const struct side_attr *attr,
			  uint32_t nr, const char *what)
{
	print_attributes("attr", sep, attr, nr);
	printf("%s%s", nr ? ", " : "", what);
	push_nesting(ctx);
}

static void close_compound(struct print_ctx *ctx, const char *end)
{
	pop_nesting(ctx);
	printf("%s", end);
}

static void print_struct(struct print_ctx *ctx, const struct side_type_struct *st,
			 const struct side_arg_vec *vec)
{
	const struct side_arg *sav = side_ptr_get(vec->sav);
	uint32_t i;

	if (side_array_length(&st->fields) != vec->len) {
		fprintf(stderr, "ERROR: number of fields mismatch between description and "
				"arguments of structure\n");
		abort();
	}
	open_compound(ctx, ":", side_array_elements(&st->attributes),
		      side_array_length(&st->attributes), "fields: {");
	for (i = 0; i < vec->len; i++) {
		const struct side_event_field *f = side_array_at(&st->fields, i);

		before_field(ctx, side_ptr_get(f->field_name), ":");
		print_arg(ctx, &f->side_type, &sav[i]);
		after_item(ctx);
	}
	close_compound(ctx, " }");
}

/* Arrays and vlas print alike. */
static void print_elements(struct print_ctx *ctx, const struct side_type *elem_type,
			   const struct side_attr *attr, uint32_t nr,
			   const struct side_arg_vec *vec)
{
	const struct side_arg *sav = side_ptr_get(vec->sav);
	uint32_t i;

	open_compound(ctx, ":", attr, nr, "elements: [");
	for (i = 0; i < vec->len; i++) {
		before_elem(ctx);
		print_arg(ctx, elem_type, &sav[i]);
		after_item(ctx);
	}
	close_compound(ctx, " ]");
}

static void print_enum(struct print_ctx *ctx, const struct side_type *type,
		       const struct side_arg *item)
{
	const struct side_enum_mappings *mappings = side_ptr_get(type->u.side_enum.mappings);
	const struct side_type *elem = side_ptr_get(type->u.side_enum.elem_type);
	uint32_t nr = side_array_length(&mappings->attributes);

	print_attributes("attr", ":", side_array_elements(&mappings->attributes), nr);
	printf("%s{ ", nr ? ", " : "");
	print_integer(":", &elem->u.side_integer, &item->u.side_static.integer_value, 0, BASE_10);
	printf(" }");
	print_enum_labels(mappings, load_integer(&elem->u.side_integer,
						 &item->u.side_static.integer_value, 0, NULL));
}

static void print_variant(struct print_ctx *ctx, const struct side_type *type,
			  const struct side_arg_variant *arg)
{
	const struct side_type_variant *var = side_ptr_get(type->u.side_variant);
	const struct side_variant_option *opt;
	int64_t sel = load_integer(&var->selector.u.side_integer,
				   &arg->selector.u.side_static.integer_value, 0, NULL)
			      .s[SIDE_INTEGER128_SPLIT_LOW];

	side_for_each_element_in_array(opt, &var->options)
	{
		if (sel >= opt->range_begin && sel <= opt->range_end) {
			print_arg(ctx, &opt->side_type, &arg->option);
			return;
		}
	}
	fprintf(stderr, "ERROR: Variant selector value unknown %" PRId64 "\n", sel);
	abort();
}

/* Compound types: the description and the argument walked together. */
static bool print_compound(struct print_ctx *ctx, const struct side_type *type,
			   const struct side_arg *item)
{
	const union side_arg_static *s = &item->u.side_static;

	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_STRUCT:
		print_struct(ctx, side_ptr_get(type->u.side_struct), side_ptr_get(s->side_struct));
		return true;
	case SIDE_TYPE_ARRAY: {
		const struct side_type_array *a = side_ptr_get(type->u.side_array);

		print_elements(ctx, side_ptr_get(a->elem_type), side_array_elements(&a->attributes),
			       side_array_length(&a->attributes), side_ptr_get(s->side_array));
		return true;
	}
	case SIDE_TYPE_VLA: {
		const struct side_type_vla *a = side_ptr_get(type->u.side_vla);

		print_elements(ctx, side_ptr_get(a->elem_type), side_array_elements(&a->attributes),
			       side_array_length(&a->attributes), side_ptr_get(s->side_vla));
		return true;
	}
	case SIDE_TYPE_VARIANT:
		print_variant(ctx, type, side_ptr_get(s->side_variant));
		return true;
	case SIDE_TYPE_OPTIONAL: {
		const struct side_arg_optional *o = side_ptr_get(s->side_optional);

		if (o->selector != SIDE_OPTIONAL_DISABLED)
			print_arg(ctx, side_ptr_get(side_ptr_get(type->u.side_optional)->elem_type),
				  &o->side_static);
		return true;
	}
	case SIDE_TYPE_ENUM:
		print_enum(ctx, type, item);
		return true;
	case SIDE_TYPE_DYNAMIC:
		print_dynamic(ctx, item);
		return true;
	default:
		return false;
	}
}

void print_arg(struct print_ctx *ctx, const struct side_type *type, const struct side_arg *item)
{
	const union side_arg_static *s = &item->u.side_static;
	enum side_type_label label = side_enum_get(type->type);

	if (print_compound(ctx, type, item) || print_other(ctx, type, item))
		return;
	switch (label) {
	case SIDE_TYPE_NULL:
		print_type_header("value", ":", side_array_elements(&type->u.side_null.attributes),
				  side_array_length(&type->u.side_null.attributes));
		printf("<NULL TYPE>");
		break;
	case SIDE_TYPE_BOOL:
		print_bool(":", &type->u.side_bool, &s->bool_value, 0);
		break;
	case SIDE_TYPE_U8 ... SIDE_TYPE_S128:
		print_integer(":", &type->u.side_integer, &s->integer_value, 0, BASE_10);
		break;
	case SIDE_TYPE_POINTER:
		print_integer(":", &type->u.side_integer, &s->integer_value, 0, BASE_16);
		break;
	case SIDE_TYPE_BYTE:
		print_type_header("value", ":", side_array_elements(&type->u.side_byte.attributes),
				  side_array_length(&type->u.side_byte.attributes));
		printf("0x%" PRIx8, s->byte_value);
		break;
	case SIDE_TYPE_FLOAT_BINARY16 ... SIDE_TYPE_FLOAT_BINARY128:
		print_float(":", &type->u.side_float, &s->float_value);
		break;
	case SIDE_TYPE_STRING_UTF8 ... SIDE_TYPE_STRING_UTF32:
		print_type_header("value", ":",
				  side_array_elements(&type->u.side_string.attributes),
				  side_array_length(&type->u.side_string.attributes));
		print_string(side_ptr_get(s->string_value), type->u.side_string.unit_size,
			     side_enum_get(type->u.side_string.byte_order));
		break;
	default:
		fprintf(stderr, "<UNKNOWN TYPE>\n");
		abort();
	}
}

static void print_dynamic_fields(struct print_ctx *ctx, const struct side_arg_dynamic_struct *ds)
{
	const struct side_arg_dynamic_field *f = side_ptr_get(ds->fields);
	uint32_t i;

	for (i = 0; i < ds->len; i++) {
		before_field(ctx, side_ptr_get(f[i].field_name), "::");
		print_dynamic(ctx, &f[i].elem);
		after_item(ctx);
	}
}

static void print_dynamic_compound(struct print_ctx *ctx, const struct side_arg *item)
{
	const union side_arg_dynamic *d = &item->u.side_dynamic;

	if (side_enum_get(item->type) == SIDE_TYPE_DYNAMIC_STRUCT) {
		const struct side_arg_dynamic_struct *ds = side_ptr_get(d->side_dynamic_struct);

		open_compound(ctx, "::", side_array_elements(&ds->attributes),
			      side_array_length(&ds->attributes), "fields:: {");
		print_dynamic_fields(ctx, ds);
		close_compound(ctx, " }");
	} else if (side_enum_get(item->type) == SIDE_TYPE_DYNAMIC_VLA) {
		const struct side_arg_dynamic_vla *dv = side_ptr_get(d->side_dynamic_vla);
		const struct side_arg *sav = side_ptr_get(dv->sav);
		uint32_t i;

		open_compound(ctx, "::", side_array_elements(&dv->attributes),
			      side_array_length(&dv->attributes), "elements:: [");
		for (i = 0; i < dv->len; i++) {
			before_elem(ctx);
			print_dynamic(ctx, &sav[i]);
			after_item(ctx);
		}
		close_compound(ctx, " ]");
	} else if (!print_dynamic_visitor(ctx, item)) {
		fprintf(stderr, "<UNKNOWN TYPE>\n");
		abort();
	}
}

void print_dynamic(struct print_ctx *ctx, const struct side_arg *item)
{
	const union side_arg_dynamic *d = &item->u.side_dynamic;

	switch (side_enum_get(item->type)) {
	case SIDE_TYPE_DYNAMIC_NULL:
		print_type_header("value", "::", side_array_elements(&d->side_null.attributes),
				  side_array_length(&d->side_null.attributes));
		printf("<NULL TYPE>");
		break;
	case SIDE_TYPE_DYNAMIC_BOOL:
		print_bool("::", &d->side_bool.type, &d->side_bool.value, 0);
		break;
	case SIDE_TYPE_DYNAMIC_INTEGER:
		print_integer("::", &d->side_integer.type, &d->side_integer.value, 0, BASE_10);
		break;
	case SIDE_TYPE_DYNAMIC_POINTER:
		print_integer("::", &d->side_integer.type, &d->side_integer.value, 0, BASE_16);
		break;
	case SIDE_TYPE_DYNAMIC_BYTE:
		print_type_header("value", "::", side_array_elements(&d->side_byte.type.attributes),
				  side_array_length(&d->side_byte.type.attributes));
		printf("0x%" PRIx8, d->side_byte.value);
		break;
	case SIDE_TYPE_DYNAMIC_FLOAT:
		print_float("::", &d->side_float.type, &d->side_float.value);
		break;
	case SIDE_TYPE_DYNAMIC_STRING:
		print_type_header("value",
				  "::", side_array_elements(&d->side_string.type.attributes),
				  side_array_length(&d->side_string.type.attributes));
		print_string((const void *)(uintptr_t)d->side_string.value,
			     d->side_string.type.unit_size,
			     side_enum_get(d->side_string.type.byte_order));
		break;
	default:
		print_dynamic_compound(ctx, item);
		break;
	}
}

void print_event(const struct side_event_description *desc, const struct side_arg_vec *vec,
		 const struct side_arg_dynamic_struct *var_struct)
{
	const struct side_arg *sav = side_ptr_get(vec->sav);
	struct print_ctx ctx = {};
	uint32_t i;

	if (side_array_length(&desc->fields) != vec->len) {
		fprintf(stderr,
			"ERROR: number of fields mismatch between description and arguments\n");
		abort();
	}
	printf("provider: %s, event: %s", side_ptr_get(desc->provider_name),
	       side_ptr_get(desc->event_name));
	print_attributes(", attr", ":", side_array_elements(&desc->attributes),
			 side_array_length(&desc->attributes));
	if (vec->len) {
		printf(", fields: {");
		push_nesting(&ctx);
		for (i = 0; i < vec->len; i++) {
			const struct side_event_field *f = side_array_at(&desc->fields, i);

			before_field(&ctx, side_ptr_get(f->field_name), ":");
			print_arg(&ctx, &f->side_type, &sav[i]);
			after_item(&ctx);
		}
		close_compound(&ctx, " }");
	}
	if (var_struct) {
		print_attributes(", attr ", "::", side_array_elements(&var_struct->attributes),
				 side_array_length(&var_struct->attributes));
		if (var_struct->len) {
			printf(", fields:: {");
			push_nesting(&ctx);
			print_dynamic_fields(&ctx, var_struct);
			close_compound(&ctx, " }");
		}
	}
	printf("\n");
}
