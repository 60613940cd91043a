// SPDX-License-Identifier: MIT
/*
 * The console tracer's values of gather types: the argument is a pointer
 * into the application's own data, and the description says where each
 * value lies (offset, read directly or through a pointer). The walk
 * returns how many bytes each element took, so that array elements
 * follow one another as libside's tracer reads them.
 */
#include <string.h>
#include "print.h"

static uint32_t gather_type(struct print_ctx *ctx, const struct side_type *type, const char *ptr);

static const char *gather_access(uint8_t mode, const char *ptr)
{
	switch (mode) {
	case SIDE_TYPE_GATHER_ACCESS_DIRECT:
		return ptr;
	case SIDE_TYPE_GATHER_ACCESS_POINTER:
		memcpy(&ptr, ptr, sizeof(ptr));
		return ptr;
	default:
		abort();
	}
}

/* What an element occupies where it is: itself, or the pointer to it. */
static uint32_t gather_size(uint8_t mode, uint32_t len)
{
	return mode == SIDE_TYPE_GATHER_ACCESS_POINTER ? sizeof(void *) : len;
}

static void check_size(uint32_t size, bool allow_16)
{
	if (size != 1 && size != 2 && size != 4 && size != 8 && !(allow_16 && size == 16))
		abort();
}

static uint32_t gather_integer(const struct side_type_gather_integer *g, const char *ptr,
			       enum display_base base)
{
	uint8_t mode = side_enum_get(g->access_mode);
	union side_integer_value value;

	check_size(g->type.integer_size, true);
	ptr = gather_access(mode, ptr + g->offset);
	memcpy(&value, ptr, g->type.integer_size);
	print_integer(":", &g->type, &value, g->offset_bits, base);
	return gather_size(mode, g->type.integer_size);
}

static uint32_t gather_enum(const struct side_type_gather_enum *e, const char *ptr)
{
	const struct side_enum_mappings *mappings = side_ptr_get(e->mappings);
	const struct side_type *elem = side_ptr_get(e->elem_type);
	const struct side_type_gather_integer *g = &elem->u.side_gather.u.side_integer;
	uint8_t mode = side_enum_get(g->access_mode);
	union side_integer_value value;

	if (side_enum_get(elem->type) != SIDE_TYPE_GATHER_INTEGER)
		abort();
	check_size(g->type.integer_size, true);
	ptr = gather_access(mode, ptr + g->offset);
	memcpy(&value, ptr, g->type.integer_size);
	print_attributes("attr", ":", side_array_elements(&mappings->attributes),
			 side_array_length(&mappings->attributes));
	/* libside tests the number of mappings here, not of attributes. */
	printf("%s{ ", side_array_length(&mappings->mappings) ? ", " : "");
	print_integer(":", &g->type, &value, 0, BASE_10);
	printf(" }");
	print_enum_labels(mappings, load_integer(&g->type, &value, 0, NULL));
	return gather_size(mode, g->type.integer_size);
}

static uint32_t gather_basic(const struct side_type *type, const char *ptr)
{
	const struct side_type_gather *g = &type->u.side_gather;
	const struct side_type_gather_bool *b = &g->u.side_bool;
	const struct side_type_gather_byte *y = &g->u.side_byte;
	const struct side_type_gather_float *f = &g->u.side_float;
	union side_bool_value bv;
	union side_float_value fv;

	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_GATHER_BOOL:
		check_size(b->type.bool_size, false);
		memcpy(&bv, gather_access(side_enum_get(b->access_mode), ptr + b->offset),
		       b->type.bool_size);
		print_bool(":", &b->type, &bv, b->offset_bits);
		return gather_size(side_enum_get(b->access_mode), b->type.bool_size);
	case SIDE_TYPE_GATHER_BYTE:
		ptr = gather_access(side_enum_get(y->access_mode), ptr + y->offset);
		print_type_header("value", ":", side_array_elements(&y->type.attributes),
				  side_array_length(&y->type.attributes));
		printf("0x%" PRIx8, *(const uint8_t *)ptr);
		return gather_size(side_enum_get(y->access_mode), 1);
	case SIDE_TYPE_GATHER_INTEGER:
		return gather_integer(&g->u.side_integer, ptr, BASE_10);
	case SIDE_TYPE_GATHER_POINTER:
		return gather_integer(&g->u.side_integer, ptr, BASE_16);
	case SIDE_TYPE_GATHER_FLOAT:
		if (f->type.float_size < 2)
			abort();
		check_size(f->type.float_size, true);
		memcpy(&fv, gather_access(side_enum_get(f->access_mode), ptr + f->offset),
		       f->type.float_size);
		print_float(":", &f->type, &fv);
		return gather_size(side_enum_get(f->access_mode), f->type.float_size);
	default:
		abort();
	}
}

static uint32_t gather_string(const struct side_type_gather_string *g, const char *ptr)
{
	uint8_t mode = side_enum_get(g->access_mode);
	uint32_t len = 0;

	ptr = gather_access(mode, ptr + g->offset);
	print_type_header("value", ":", side_array_elements(&g->type.attributes),
			  side_array_length(&g->type.attributes));
	if (ptr) {
		len = string_size(ptr, g->type.unit_size);
		print_string(ptr, g->type.unit_size, side_enum_get(g->type.byte_order));
	} else {
		printf("<NULL>");
	}
	return gather_size(mode, len);
}

/* Elements one after the other from ptr, each " { VALUE }". */
static uint32_t gather_elements(struct print_ctx *ctx, const struct side_type *elem,
				const struct side_attr *attr, uint32_t nr_attr, uint32_t length,
				const char *ptr)
{
	const char *start = ptr;
	uint32_t i;

	if (side_enum_get(elem->type) == SIDE_TYPE_GATHER_VLA) {
		fprintf(stderr, "<gather VLA only supported within gather structures>\n");
		abort();
	}
	print_attributes("attr", ":", attr, nr_attr);
	printf("%selements: [", nr_attr ? ", " : "");
	push_nesting(ctx);
	for (i = 0; i < length; i++) {
		before_elem(ctx);
		ptr += gather_type(ctx, elem, ptr);
		after_item(ctx);
	}
	pop_nesting(ctx);
	printf(" ]");
	return ptr - start;
}

static uint32_t gather_array(struct print_ctx *ctx, const struct side_type_array *a,
			     const char *ptr)
{
	return gather_elements(ctx, side_ptr_get(a->elem_type), side_array_elements(&a->attributes),
			       side_array_length(&a->attributes), a->length, ptr);
}

static uint32_t gather_struct(struct print_ctx *ctx, const struct side_type_gather_struct *g,
			      const char *ptr)
{
	const struct side_type_struct *st = side_ptr_get(g->type);
	uint8_t mode = side_enum_get(g->access_mode);
	const struct side_event_field *f;

	ptr = gather_access(mode, ptr + g->offset);
	print_attributes("attr", ":", side_array_elements(&st->attributes),
			 side_array_length(&st->attributes));
	printf("%sfields: {", side_array_length(&st->attributes) ? ", " : "");
	push_nesting(ctx);
	side_for_each_element_in_array(f, &st->fields)
	{
		before_field(ctx, side_ptr_get(f->field_name), ":");
		gather_type(ctx, &f->side_type, ptr);
		after_item(ctx);
	}
	pop_nesting(ctx);
	printf(" }");
	return gather_size(mode, g->size);
}

/* A vla's length is read at its own offset from length_ptr. */
static uint32_t gather_vla(struct print_ctx *ctx, const struct side_type_gather_vla *g,
			   const char *ptr, const char *length_ptr)
{
	const struct side_type *lt = side_ptr_get(g->type.length_type);
	const struct side_type_gather_integer *li = &lt->u.side_gather.u.side_integer;
	union side_integer_value value;
	uint8_t mode = side_enum_get(g->access_mode);
	union int_value v;

	if (side_enum_get(lt->type) != SIDE_TYPE_GATHER_INTEGER) {
		fprintf(stderr, "<gather VLA expects integer gather length type>\n");
		abort();
	}
	check_size(li->type.integer_size, true);
	memcpy(&value, gather_access(side_enum_get(li->access_mode), length_ptr + li->offset),
	       li->type.integer_size);
	v = load_integer(&li->type, &value, li->offset_bits, NULL);
	if (v.u[SIDE_INTEGER128_SPLIT_HIGH] || v.u[SIDE_INTEGER128_SPLIT_LOW] > UINT32_MAX) {
		fprintf(stderr, "Unexpected vla length value\n");
		abort();
	}
	ptr = gather_access(mode, ptr + g->offset);
	return gather_size(mode, gather_elements(ctx, side_ptr_get(g->type.elem_type),
						 side_array_elements(&g->type.attributes),
						 side_array_length(&g->type.attributes),
						 v.u[SIDE_INTEGER128_SPLIT_LOW], ptr));
}

static uint32_t gather_type(struct print_ctx *ctx, const struct side_type *type, const char *ptr)
{
	const struct side_type_gather *g = &type->u.side_gather;
	uint8_t mode;

	switch (side_enum_get(type->type)) {
	case SIDE_TYPE_GATHER_STRING:
		return gather_string(&g->u.side_string, ptr);
	case SIDE_TYPE_GATHER_ENUM:
		return gather_enum(&g->u.side_enum, ptr);
	case SIDE_TYPE_GATHER_STRUCT:
		return gather_struct(ctx, &g->u.side_struct, ptr);
	case SIDE_TYPE_GATHER_ARRAY:
		mode = side_enum_get(g->u.side_array.access_mode);
		ptr = gather_access(mode, ptr + g->u.side_array.offset);
		return gather_size(mode, gather_array(ctx, &g->u.side_array.type, ptr));
	case SIDE_TYPE_GATHER_VLA:
		/* Inside a gather struct the length lies in the same struct. */
		return gather_vla(ctx, &g->u.side_vla, ptr, ptr);
	case SIDE_TYPE_GATHER_BOOL ... SIDE_TYPE_GATHER_FLOAT:
		return gather_basic(type, ptr);
	default:
		fprintf(stderr, "<UNKNOWN GATHER TYPE>");
		abort();
	}
}

bool print_gather(struct print_ctx *ctx, const struct side_type *type, const struct side_arg *item)
{
	const union side_arg_static *s = &item->u.side_static;
	enum side_type_label label = side_enum_get(type->type);

	if (label < SIDE_TYPE_GATHER_BOOL || label > SIDE_TYPE_GATHER_ENUM)
		return false;
	if (label == SIDE_TYPE_GATHER_VLA)
		gather_vla(ctx, &type->u.side_gather.u.side_vla,
			   side_ptr_get(s->side_vla_gather.ptr),
			   side_ptr_get(s->side_vla_gather.length_ptr));
	else
		/* Every gather argument is one pointer, in the same slot. */
		gather_type(ctx, type, side_ptr_get(s->side_integer_gather_ptr));
	return true;
}
