/* SPDX-License-Identifier: MIT */
/*
 * Decoding of SIDE event descriptions from an ELF file.
 *
 * The description graph is data written by whoever built the file, so it
 * is read like untrusted input: every structure is copied out through
 * bounded reads, pointers go through the relocation map, and recursion is
 * capped in depth and in total nodes (a type graph that is a DAG with wide
 * fan-out would otherwise be exponential even without cycles). The first
 * problem is kept as the event's error; decoding goes on where it can.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/event-description.h>
#include <side/abi/type-description.h>

#include "events/events.h"
#include "side/side_desc.h"
#include "side/side_rd.h"
#include "util/textbuf.h"

static int rd_type(struct rd *rd, uint64_t addr, struct st_type *t, int depth);

/* Allocate *out and decode the side_type that the pointer at slot names. */
static int rd_type_ptr(struct rd *rd, uint64_t slot, struct st_type **out, int depth,
		       const char *what)
{
	uint64_t p;

	if (!rd_ptr(rd, slot, &p, what))
		return -1;
	*out = calloc(1, sizeof(**out));
	if (!*out) {
		rd_fail(rd, "out of memory");
		return -1;
	}
	return rd_type(rd, p, *out, depth);
}

/* Decode the side_event_field array whose pointer is at slot. */
static int rd_fields(struct rd *rd, uint64_t slot, uint32_t len, struct st_field **out,
		     uint32_t *nr, int depth)
{
	struct st_field *f;
	uint64_t base;
	uint32_t i;

	if (!len)
		return 0;
	if (len > ST_MAX_FIELDS) {
		rd_fail(rd, "%" PRIu32 " fields, more than %d", len, ST_MAX_FIELDS);
		return -1;
	}
	if (!rd_ptr(rd, slot, &base, "field list"))
		return -1;
	f = calloc(len, sizeof(*f));
	if (!f) {
		rd_fail(rd, "out of memory");
		return -1;
	}
	*out = f;
	for (i = 0; i < len; i++) {
		uint64_t fa = base + (uint64_t)i * sizeof(struct side_event_field);

		/* Count the field first so that it is freed on any failure. */
		*nr = i + 1;
		f[i].name = rd_str(rd, fa + offsetof(struct side_event_field, field_name), 1,
				   "field name");
		if (!f[i].name)
			f[i].name = strdup("?");
		if (!f[i].name) {
			rd_fail(rd, "out of memory");
			return -1;
		}
		if (rd_type(rd, fa + offsetof(struct side_event_field, side_type), &f[i].type,
			    depth))
			return -1;
	}
	return 0;
}

/* struct side_type_struct at p. */
static int rd_struct(struct rd *rd, uint64_t p, struct st_type *t, int depth)
{
	unsigned char buf[sizeof(struct side_type_struct)];
	const struct side_type_struct *s = (const void *)buf;

	if (!rd_read(rd, p, buf, sizeof(buf), "struct type"))
		return -1;
	t->attrs = rd_attrs(rd, p + offsetof(struct side_type_struct, attributes.elements),
			    s->attributes.length);
	return rd_fields(rd, p + offsetof(struct side_type_struct, fields.elements),
			 s->fields.length, &t->fields, &t->nr_fields, depth + 1);
}

/*
 * struct side_enum_mappings (or the bitmap variant, same layout with
 * unsigned ranges) that the pointer at slot names.
 */
static int rd_enum(struct rd *rd, uint64_t slot, struct st_type *t)
{
	unsigned char buf[sizeof(struct side_enum_mappings)];
	const struct side_enum_mappings *m = (const void *)buf;
	uint64_t p, base;
	uint32_t i, n;

	if (!rd_ptr(rd, slot, &p, "enum mappings") ||
	    !rd_read(rd, p, buf, sizeof(buf), "enum mappings"))
		return -1;
	t->attrs = rd_attrs(rd, p + offsetof(struct side_enum_mappings, attributes.elements),
			    m->attributes.length);
	n = m->mappings.length;
	if (!n)
		return 0;
	if (n > ST_MAX_ENUM) {
		rd_fail(rd, "%" PRIu32 " enum mappings, more than %d", n, ST_MAX_ENUM);
		return -1;
	}
	if (!rd_ptr(rd, p + offsetof(struct side_enum_mappings, mappings.elements), &base,
		    "enum mapping list"))
		return -1;
	t->enum_labels = calloc(n, sizeof(*t->enum_labels));
	t->enum_begin = calloc(n, sizeof(*t->enum_begin));
	t->enum_end = calloc(n, sizeof(*t->enum_end));
	if (!t->enum_labels || !t->enum_begin || !t->enum_end) {
		rd_fail(rd, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint64_t a = base + (uint64_t)i * sizeof(struct side_enum_mapping);
		struct side_enum_mapping em;

		if (!rd_read(rd, a, &em, sizeof(em), "enum mapping"))
			return -1;
		t->nr_enum = i + 1;
		t->enum_begin[i] = em.range_begin;
		t->enum_end[i] = em.range_end;
		t->enum_labels[i] = rd_raw_string(rd, a + offsetof(struct side_enum_mapping, label),
						  "enum label");
		if (!t->enum_labels[i])
			t->enum_labels[i] = strdup("?");
		if (!t->enum_labels[i]) {
			rd_fail(rd, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* struct side_type_variant at p: elem = selector, fields = options. */
static int rd_variant(struct rd *rd, uint64_t p, struct st_type *t, int depth)
{
	unsigned char buf[sizeof(struct side_type_variant)];
	const struct side_type_variant *v = (const void *)buf;
	uint64_t base;
	uint32_t i, n;

	if (!rd_read(rd, p, buf, sizeof(buf), "variant type"))
		return -1;
	t->attrs = rd_attrs(rd, p + offsetof(struct side_type_variant, attributes.elements),
			    v->attributes.length);
	t->elem = calloc(1, sizeof(*t->elem));
	if (!t->elem) {
		rd_fail(rd, "out of memory");
		return -1;
	}
	if (rd_type(rd, p + offsetof(struct side_type_variant, selector), t->elem, depth + 1))
		return -1;
	n = v->options.length;
	if (!n)
		return 0;
	if (n > ST_MAX_FIELDS) {
		rd_fail(rd, "%" PRIu32 " variant options, more than %d", n, ST_MAX_FIELDS);
		return -1;
	}
	if (!rd_ptr(rd, p + offsetof(struct side_type_variant, options.elements), &base,
		    "variant option list"))
		return -1;
	t->fields = calloc(n, sizeof(*t->fields));
	if (!t->fields) {
		rd_fail(rd, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		uint64_t a = base + (uint64_t)i * sizeof(struct side_variant_option);
		int64_t range[2];
		char name[48];

		if (!rd_read(rd, a, range, sizeof(range), "variant option"))
			return -1;
		if (range[0] == range[1])
			snprintf(name, sizeof(name), "%" PRId64, range[0]);
		else
			snprintf(name, sizeof(name), "%" PRId64 "..%" PRId64, range[0], range[1]);
		t->nr_fields = i + 1;
		t->fields[i].name = strdup(name);
		if (!t->fields[i].name) {
			rd_fail(rd, "out of memory");
			return -1;
		}
		if (rd_type(rd, a + offsetof(struct side_variant_option, side_type),
			    &t->fields[i].type, depth + 1))
			return -1;
	}
	return 0;
}

/* Offset of a member of the side_type at the start of a type's storage. */
#define TOFF(member) offsetof(struct side_type, member)

static void rd_integer(struct rd *rd, uint64_t attr_slot, const struct side_type_integer *it,
		       struct st_type *t)
{
	t->size = it->integer_size;
	t->len_bits = it->len_bits;
	t->is_signed = it->signedness;
	t->byte_order = it->byte_order.v;
	t->attrs = rd_attrs(rd, attr_slot, it->attributes.length);
}

/* Gathered scalars: where the value sits and its type; 1 if not a scalar. */
static int rd_gather_scalar(struct rd *rd, uint64_t addr, const struct side_type *st,
			    struct st_type *t)
{
	const struct side_type_gather *g = &st->u.side_gather;

	switch (t->label) {
	case SIDE_TYPE_GATHER_BOOL:
		t->gather_offset = g->u.side_bool.offset;
		t->gather_offset_bits = g->u.side_bool.offset_bits;
		t->gather_access = g->u.side_bool.access_mode.v;
		t->size = g->u.side_bool.type.bool_size;
		t->len_bits = g->u.side_bool.type.len_bits;
		t->byte_order = g->u.side_bool.type.byte_order.v;
		t->attrs = rd_attrs(rd,
				    addr + TOFF(u.side_gather.u.side_bool.type.attributes.elements),
				    g->u.side_bool.type.attributes.length);
		return 0;
	case SIDE_TYPE_GATHER_BYTE:
		t->gather_offset = g->u.side_byte.offset;
		t->gather_access = g->u.side_byte.access_mode.v;
		t->size = 1;
		t->attrs = rd_attrs(rd,
				    addr + TOFF(u.side_gather.u.side_byte.type.attributes.elements),
				    g->u.side_byte.type.attributes.length);
		return 0;
	case SIDE_TYPE_GATHER_INTEGER:
	case SIDE_TYPE_GATHER_POINTER:
		t->gather_offset = g->u.side_integer.offset;
		t->gather_offset_bits = g->u.side_integer.offset_bits;
		t->gather_access = g->u.side_integer.access_mode.v;
		rd_integer(rd, addr + TOFF(u.side_gather.u.side_integer.type.attributes.elements),
			   &g->u.side_integer.type, t);
		return 0;
	case SIDE_TYPE_GATHER_FLOAT:
		t->gather_offset = g->u.side_float.offset;
		t->gather_access = g->u.side_float.access_mode.v;
		t->size = g->u.side_float.type.float_size;
		t->byte_order = g->u.side_float.type.byte_order.v;
		t->attrs = rd_attrs(
			rd, addr + TOFF(u.side_gather.u.side_float.type.attributes.elements),
			g->u.side_float.type.attributes.length);
		return 0;
	case SIDE_TYPE_GATHER_STRING:
		t->gather_offset = g->u.side_string.offset;
		t->gather_access = g->u.side_string.access_mode.v;
		t->size = g->u.side_string.type.unit_size;
		t->byte_order = g->u.side_string.type.byte_order.v;
		t->attrs = rd_attrs(
			rd, addr + TOFF(u.side_gather.u.side_string.type.attributes.elements),
			g->u.side_string.type.attributes.length);
		return 0;
	default:
		return 1;
	}
}

/* Gather types: where the value sits, then the gathered type itself. */
static int rd_gather(struct rd *rd, uint64_t addr, const struct side_type *st, struct st_type *t,
		     int depth)
{
	const struct side_type_gather *g = &st->u.side_gather;

	if (rd_gather_scalar(rd, addr, st, t) == 0)
		return 0;
	switch (t->label) {
	case SIDE_TYPE_GATHER_ENUM:
		if (rd_enum(rd, addr + TOFF(u.side_gather.u.side_enum.mappings), t))
			return -1;
		return rd_type_ptr(rd, addr + TOFF(u.side_gather.u.side_enum.elem_type), &t->elem,
				   depth + 1, "enum element type");
	case SIDE_TYPE_GATHER_STRUCT: {
		uint64_t p;

		t->gather_offset = g->u.side_struct.offset;
		t->gather_access = g->u.side_struct.access_mode.v;
		t->gather_size = g->u.side_struct.size;
		if (!rd_ptr(rd, addr + TOFF(u.side_gather.u.side_struct.type), &p,
			    "gather struct type"))
			return -1;
		return rd_struct(rd, p, t, depth);
	}
	case SIDE_TYPE_GATHER_ARRAY:
		t->gather_offset = g->u.side_array.offset;
		t->gather_access = g->u.side_array.access_mode.v;
		t->array_len = g->u.side_array.type.length;
		t->attrs = rd_attrs(
			rd, addr + TOFF(u.side_gather.u.side_array.type.attributes.elements),
			g->u.side_array.type.attributes.length);
		return rd_type_ptr(rd, addr + TOFF(u.side_gather.u.side_array.type.elem_type),
				   &t->elem, depth + 1, "array element type");
	case SIDE_TYPE_GATHER_VLA:
		t->gather_offset = g->u.side_vla.offset;
		t->gather_access = g->u.side_vla.access_mode.v;
		t->attrs =
			rd_attrs(rd, addr + TOFF(u.side_gather.u.side_vla.type.attributes.elements),
				 g->u.side_vla.type.attributes.length);
		if (rd_type_ptr(rd, addr + TOFF(u.side_gather.u.side_vla.type.elem_type), &t->elem,
				depth + 1, "vla element type"))
			return -1;
		return rd_type_ptr(rd, addr + TOFF(u.side_gather.u.side_vla.type.length_type),
				   &t->length_type, depth + 1, "vla length type");
	}
	return 0;
}

/* Types whose description is behind a pointer in the side_type. */
static int rd_indirect(struct rd *rd, uint64_t addr, struct st_type *t, int depth)
{
	unsigned char buf[sizeof(struct side_type_vla_visitor)];
	const struct side_type_array *a = (const void *)buf;
	const struct side_type_vla *v = (const void *)buf;
	const struct side_type_vla_visitor *vv = (const void *)buf;
	const struct side_type_optional *o = (const void *)buf;
	uint64_t p;

	/* Every member of the union holding these is at the same place. */
	if (!rd_ptr(rd, addr + TOFF(u.side_struct), &p, "type description")) {
		t->label = ST_TYPE_UNREADABLE;
		return -1;
	}
	switch (t->label) {
	case SIDE_TYPE_STRUCT:
		return rd_struct(rd, p, t, depth);
	case SIDE_TYPE_VARIANT:
		return rd_variant(rd, p, t, depth);
	case SIDE_TYPE_OPTIONAL:
		if (!rd_read(rd, p, buf, sizeof(*o), "optional type"))
			return -1;
		t->attrs =
			rd_attrs(rd, p + offsetof(struct side_type_optional, attributes.elements),
				 o->attributes.length);
		return rd_type_ptr(rd, p + offsetof(struct side_type_optional, elem_type), &t->elem,
				   depth + 1, "optional element type");
	case SIDE_TYPE_ARRAY:
		if (!rd_read(rd, p, buf, sizeof(*a), "array type"))
			return -1;
		t->array_len = a->length;
		t->attrs = rd_attrs(rd, p + offsetof(struct side_type_array, attributes.elements),
				    a->attributes.length);
		return rd_type_ptr(rd, p + offsetof(struct side_type_array, elem_type), &t->elem,
				   depth + 1, "array element type");
	case SIDE_TYPE_VLA:
		if (!rd_read(rd, p, buf, sizeof(*v), "vla type"))
			return -1;
		t->attrs = rd_attrs(rd, p + offsetof(struct side_type_vla, attributes.elements),
				    v->attributes.length);
		if (rd_type_ptr(rd, p + offsetof(struct side_type_vla, elem_type), &t->elem,
				depth + 1, "vla element type"))
			return -1;
		return rd_type_ptr(rd, p + offsetof(struct side_type_vla, length_type),
				   &t->length_type, depth + 1, "vla length type");
	case SIDE_TYPE_VLA_VISITOR:
		if (!rd_read(rd, p, buf, sizeof(*vv), "vla visitor type"))
			return -1;
		t->attrs = rd_attrs(rd,
				    p + offsetof(struct side_type_vla_visitor, attributes.elements),
				    vv->attributes.length);
		if (rd_type_ptr(rd, p + offsetof(struct side_type_vla_visitor, elem_type), &t->elem,
				depth + 1, "vla element type"))
			return -1;
		return rd_type_ptr(rd, p + offsetof(struct side_type_vla_visitor, length_type),
				   &t->length_type, depth + 1, "vla length type");
	}
	return 0;
}

/* Counts one type node against the limits, then reads it into buf. */
static bool rd_node(struct rd *rd, uint64_t addr, void *buf, size_t len, int depth)
{
	if (depth > ST_MAX_TYPE_DEPTH) {
		rd_fail(rd, "types nested more than %d levels deep at 0x%" PRIx64,
			ST_MAX_TYPE_DEPTH, addr);
		return false;
	}
	if (++rd->nodes > ST_MAX_TYPE_NODES) {
		rd_fail(rd, "more than %d type nodes in one event", ST_MAX_TYPE_NODES);
		return false;
	}
	if (!*rd->budget) {
		rd_fail(rd, "more than %d type nodes in this file", ST_MAX_FILE_TYPE_NODES);
		return false;
	}
	(*rd->budget)--;
	return rd_read(rd, addr, buf, len, "type");
}

/* Scalar types: size, byte order, attributes; 1 if not a scalar. */
static int rd_scalar(struct rd *rd, uint64_t addr, const struct side_type *st, struct st_type *t)
{
	switch (t->label) {
	case SIDE_TYPE_NULL:
		t->attrs = rd_attrs(rd, addr + TOFF(u.side_null.attributes.elements),
				    st->u.side_null.attributes.length);
		return 0;
	case SIDE_TYPE_BOOL:
		t->size = st->u.side_bool.bool_size;
		t->len_bits = st->u.side_bool.len_bits;
		t->byte_order = st->u.side_bool.byte_order.v;
		t->attrs = rd_attrs(rd, addr + TOFF(u.side_bool.attributes.elements),
				    st->u.side_bool.attributes.length);
		return 0;
	case SIDE_TYPE_BYTE:
		t->size = 1;
		t->attrs = rd_attrs(rd, addr + TOFF(u.side_byte.attributes.elements),
				    st->u.side_byte.attributes.length);
		return 0;
	case SIDE_TYPE_U8:
	case SIDE_TYPE_U16:
	case SIDE_TYPE_U32:
	case SIDE_TYPE_U64:
	case SIDE_TYPE_U128:
	case SIDE_TYPE_S8:
	case SIDE_TYPE_S16:
	case SIDE_TYPE_S32:
	case SIDE_TYPE_S64:
	case SIDE_TYPE_S128:
	case SIDE_TYPE_POINTER:
		rd_integer(rd, addr + TOFF(u.side_integer.attributes.elements), &st->u.side_integer,
			   t);
		return 0;
	case SIDE_TYPE_FLOAT_BINARY16:
	case SIDE_TYPE_FLOAT_BINARY32:
	case SIDE_TYPE_FLOAT_BINARY64:
	case SIDE_TYPE_FLOAT_BINARY128:
		t->size = st->u.side_float.float_size;
		t->byte_order = st->u.side_float.byte_order.v;
		t->attrs = rd_attrs(rd, addr + TOFF(u.side_float.attributes.elements),
				    st->u.side_float.attributes.length);
		return 0;
	case SIDE_TYPE_STRING_UTF8:
	case SIDE_TYPE_STRING_UTF16:
	case SIDE_TYPE_STRING_UTF32:
		t->size = st->u.side_string.unit_size;
		t->byte_order = st->u.side_string.byte_order.v;
		t->attrs = rd_attrs(rd, addr + TOFF(u.side_string.attributes.elements),
				    st->u.side_string.attributes.length);
		return 0;
	default:
		return 1;
	}
}

static int rd_type(struct rd *rd, uint64_t addr, struct st_type *t, int depth)
{
	unsigned char buf[sizeof(struct side_type)];
	const struct side_type *st = (const void *)buf;

	t->label = ST_TYPE_UNREADABLE;
	if (!rd_node(rd, addr, buf, sizeof(buf), depth))
		return -1;
	t->label = st->type.v;
	if (rd_scalar(rd, addr, st, t) == 0)
		return 0;
	switch (t->label) {
	case SIDE_TYPE_STRUCT:
	case SIDE_TYPE_VARIANT:
	case SIDE_TYPE_OPTIONAL:
	case SIDE_TYPE_ARRAY:
	case SIDE_TYPE_VLA:
	case SIDE_TYPE_VLA_VISITOR:
		return rd_indirect(rd, addr, t, depth);
	case SIDE_TYPE_ENUM:
	case SIDE_TYPE_ENUM_BITMAP:
		/* Both keep mappings then elem_type, at the same offsets. */
		if (rd_enum(rd, addr + TOFF(u.side_enum.mappings), t))
			return -1;
		return rd_type_ptr(rd, addr + TOFF(u.side_enum.elem_type), &t->elem, depth + 1,
				   "enum element type");
	case SIDE_TYPE_DYNAMIC:
		return 0;
	case SIDE_TYPE_GATHER_BOOL:
	case SIDE_TYPE_GATHER_INTEGER:
	case SIDE_TYPE_GATHER_BYTE:
	case SIDE_TYPE_GATHER_POINTER:
	case SIDE_TYPE_GATHER_FLOAT:
	case SIDE_TYPE_GATHER_STRING:
	case SIDE_TYPE_GATHER_STRUCT:
	case SIDE_TYPE_GATHER_ARRAY:
	case SIDE_TYPE_GATHER_VLA:
	case SIDE_TYPE_GATHER_ENUM:
		return rd_gather(rd, addr, st, t, depth);
	}
	/* Dynamic labels describe arguments, never a declared field. */
	rd_fail(rd, "unknown type label %u at 0x%" PRIx64, t->label, addr);
	return 0;
}

int st_read_event_desc(const struct st_elf *e, uint64_t addr, struct st_event *ev,
		       unsigned long *budget)
{
	unsigned char buf[sizeof(struct side_event_description)] = {0};
	const struct side_event_description *d = (const void *)buf;
	struct rd rd = {.e = e, .budget = budget};
	uint32_t size;
	int ret = -1;

	ev->has_side = true;
	ev->desc_addr = addr;
	if (!rd_read(&rd, addr, &size, sizeof(size), "event description"))
		goto cleanup;
	if (size < offsetof(struct side_event_description, fields)) {
		rd_fail(&rd, "event description at 0x%" PRIx64 " is too small (%" PRIu32 " bytes)",
			addr, size);
		goto cleanup;
	}
	/*
	 * A newer ABI appends members: read what we know. An older one has
	 * fewer; the zeroed remainder reads as empty lists.
	 */
	if (size > sizeof(buf))
		size = sizeof(buf);
	if (!rd_read(&rd, addr, buf, size, "event description"))
		goto cleanup;
	ev->provider = rd_str(&rd, addr + offsetof(struct side_event_description, provider_name), 1,
			      "provider name");
	ev->name = rd_str(&rd, addr + offsetof(struct side_event_description, event_name), 1,
			  "event name");
	if (!ev->provider || !ev->name)
		goto cleanup;
	ret = 0;
	ev->loglevel = d->loglevel.v;
	ev->variadic = d->flags & SIDE_EVENT_FLAG_VARIADIC;
	ev->attrs =
		rd_attrs(&rd, addr + offsetof(struct side_event_description, attributes.elements),
			 d->attributes.length);
	rd_fields(&rd, addr + offsetof(struct side_event_description, fields.elements),
		  d->fields.length, &ev->fields, &ev->nr_fields, 0);
cleanup:
	if (rd.nr_errors > 1) {
		size_t n = strlen(rd.err);

		snprintf(rd.err + n, sizeof(rd.err) - n, " (and %u more problems)",
			 rd.nr_errors - 1);
	}
	if (rd.nr_errors)
		ev->error = strdup(rd.err);
	return ret;
}
