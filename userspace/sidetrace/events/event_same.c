// SPDX-License-Identifier: MIT
/* Events compared across two builds of a file; see event_same.h. */
#include <string.h>

#include "events/event_same.h"

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_fields(const struct st_field *a, const struct st_field *b, uint32_t n);

static bool same_type(const struct st_type *a, const struct st_type *b)
{
	uint32_t i;

	if (!a || !b)
		return a == b;
	if (a->label != b->label || a->size != b->size || a->is_signed != b->is_signed ||
	    a->array_len != b->array_len || a->nr_fields != b->nr_fields ||
	    a->nr_enum != b->nr_enum || a->byte_order != b->byte_order ||
	    a->len_bits != b->len_bits || a->gather_offset != b->gather_offset ||
	    a->gather_offset_bits != b->gather_offset_bits ||
	    a->gather_access != b->gather_access || a->gather_size != b->gather_size ||
	    a->member_offset != b->member_offset || a->in_place != b->in_place ||
	    a->counted != b->counted || a->len_arg1 != b->len_arg1 ||
	    !same_str(a->attrs, b->attrs) || !same_str(a->unreadable, b->unreadable))
		return false;
	for (i = 0; i < a->nr_enum; i++)
		if (a->enum_begin[i] != b->enum_begin[i] || a->enum_end[i] != b->enum_end[i] ||
		    !same_str(a->enum_labels[i], b->enum_labels[i]))
			return false;
	return same_type(a->elem, b->elem) && same_type(a->length_type, b->length_type) &&
	       same_fields(a->fields, b->fields, a->nr_fields);
}

static bool same_fields(const struct st_field *a, const struct st_field *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!same_str(a[i].name, b[i].name) || !same_type(&a[i].type, &b[i].type))
			return false;
	return true;
}

bool st_event_same_probe(const struct st_event *a, const struct st_event *b)
{
	return a->kind == b->kind && a->has_side == b->has_side &&
	       same_str(a->provider, b->provider) && same_str(a->name, b->name) &&
	       same_str(a->usdt_provider, b->usdt_provider) &&
	       same_str(a->usdt_name, b->usdt_name) && same_str(a->inlined, b->inlined);
}

bool st_event_same_shape(const struct st_event *a, const struct st_event *b)
{
	return a->at_returns == b->at_returns && a->variadic == b->variadic &&
	       a->nr_fields == b->nr_fields && same_fields(a->fields, b->fields, a->nr_fields);
}
