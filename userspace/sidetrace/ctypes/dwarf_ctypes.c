// SPDX-License-Identifier: MIT
/*
 * A probed object's types from its DWARF (elfutils' libdw), converted one
 * node at a time as the kernel's BTF is: a pointer or an array brings its
 * target along, a struct its members only when one is read. The object's
 * DWARF is opened when a name is first looked up in it.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctypes/ctypes_int.h"
#include "ctypes/dwarf_ctypes.h"

/* Typedefs, qualifiers and nested types followed before a chain counts as hostile. */
#define MAX_CHAIN 64

int st_ctypes_add_object(struct st_ctypes *r, const char *path,
			 const struct st_ctypes_dwarf_ops *ops)
{
	struct ct_object *grown;
	uint32_t i;

	for (i = 0; i < r->nr_objects; i++)
		if (!strcmp(r->objects[i].path, path))
			return 0;
	grown = realloc(r->objects, (r->nr_objects + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	r->objects = grown;
	grown = &r->objects[r->nr_objects];
	*grown = (struct ct_object){.ops = ops, .path = strdup(path)};
	if (!grown->path)
		return -ENOMEM;
	r->nr_objects++;
	return 0;
}

void ct_objects_free(struct st_ctypes *r)
{
	uint32_t i;

	for (i = 0; i < r->nr_objects; i++) {
		if (r->objects[i].owner)
			r->objects[i].ops->close(r->objects[i].owner);
		free(r->objects[i].path);
	}
	free(r->objects);
	free(r->by_die);
}

/* Object i's DWARF, opened the first time; NULL if it has none. */
static Dwarf *object_dwarf(struct st_ctypes *r, uint32_t i)
{
	struct ct_object *o = &r->objects[i];

	if (!o->tried) {
		o->tried = true;
		o->dw = o->ops->open(o->path, &o->owner);
	}
	return o->dw;
}

/* The node made for the DIE at off of object obj (1 + its index), or NULL. */
static struct st_ctype *known(struct st_ctypes *r, uint16_t obj, Dwarf_Off off)
{
	uint32_t i;

	for (i = 0; i < r->nr_by_die; i++)
		if (r->by_die[i].obj == obj && r->by_die[i].off == off)
			return r->by_die[i].node;
	return NULL;
}

static int remember(struct st_ctypes *r, uint16_t obj, Dwarf_Off off, struct st_ctype *node)
{
	struct ct_die_node *grown;

	if (r->nr_by_die == r->cap_by_die) {
		uint32_t cap = r->cap_by_die ? r->cap_by_die * 2 : 32;

		grown = realloc(r->by_die, cap * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		r->by_die = grown;
		r->cap_by_die = cap;
	}
	r->by_die[r->nr_by_die++] = (struct ct_die_node){obj, off, node};
	return 0;
}

static bool udata(Dwarf_Die *die, unsigned int name, Dwarf_Word *v)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, name, &attr) && !dwarf_formudata(&attr, v);
}

bool st_dwarf_type_peel(Dwarf_Die *die, Dwarf_Die *out)
{
	int depth;

	*out = *die;
	for (depth = 0; depth < MAX_CHAIN; depth++) {
		Dwarf_Attribute attr;

		switch (dwarf_tag(out)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (!dwarf_attr_integrate(out, DW_AT_type, &attr) ||
			    !dwarf_formref_die(&attr, out))
				return false;
			continue;
		default:
			return true;
		}
	}
	return false;
}

static struct st_ctype *from_die(struct st_ctypes *r, uint16_t obj, Dwarf_Die *die, int depth);

/* The type DW_AT_type of die names, void when none. */
static struct st_ctype *type_of(struct st_ctypes *r, uint16_t obj, Dwarf_Die *die, int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(die, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &t))
		return ct_node(r, ST_CT_VOID, "void");
	return from_die(r, obj, &t, depth + 1);
}

static struct st_ctype *base_node(struct st_ctypes *r, Dwarf_Die *die)
{
	const char *n = dwarf_diename(die);
	Dwarf_Word enc = 0;
	int size = dwarf_bytesize(die);
	struct st_ctype *c;

	udata(die, DW_AT_encoding, &enc);
	if (size <= 0 || size > 8 || enc == DW_ATE_float || enc == DW_ATE_complex_float)
		return ct_node(r, ST_CT_VOID, n ?: "float");
	c = ct_node(r, ST_CT_INT, n ?: "int");
	if (c) {
		c->size = size;
		c->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		c->is_char = size == 1 && (enc == DW_ATE_signed_char ||
					   enc == DW_ATE_unsigned_char || enc == DW_ATE_UTF);
		c->complete = true;
	}
	return c;
}

/* The elements of dimension sub and those after it, of type elem, as nested arrays. */
static struct st_ctype *array_node(struct st_ctypes *r, Dwarf_Die *sub, struct st_ctype *elem,
				   int depth)
{
	Dwarf_Word n = 0, upper;
	struct st_ctype *inner = elem;
	Dwarf_Die next;

	if (depth > MAX_CHAIN)
		return NULL;
	if (dwarf_siblingof(sub, &next) == 0 && dwarf_tag(&next) == DW_TAG_subrange_type)
		inner = array_node(r, &next, elem, depth + 1);
	if (!inner)
		return NULL;
	if (!udata(sub, DW_AT_count, &n) && udata(sub, DW_AT_upper_bound, &upper))
		n = upper + 1;
	if (n > UINT32_MAX / (inner->size ?: 1))
		n = 0;
	return st_ctype_array(r, inner, n);
}

/* A struct, union or enum's definition, for a declaration of it. */
static bool definition(Dwarf *dw, int tag, const char *name, Dwarf_Die *out);

static struct st_ctype *tagged_node(struct st_ctypes *r, uint16_t obj, Dwarf_Die *die)
{
	const char *n = dwarf_diename(die);
	int tag = dwarf_tag(die);
	bool is_enum = tag == DW_TAG_enumeration_type;
	Dwarf_Word size = 0, decl = 0;
	struct st_ctype *c;
	Dwarf_Die def;
	char name[288];

	udata(die, DW_AT_declaration, &decl);
	if (decl && n && definition(r->objects[obj - 1].dw, tag, n, &def))
		die = &def;
	snprintf(name, sizeof(name), "%s %s",
		 is_enum		    ? "enum"
		 : tag == DW_TAG_union_type ? "union"
		 : tag == DW_TAG_class_type ? "class"
					    : "struct",
		 n ?: "(anonymous)");
	c = ct_node(r,
		    is_enum		       ? ST_CT_ENUM
		    : tag == DW_TAG_union_type ? ST_CT_UNION
					       : ST_CT_STRUCT,
		    name);
	if (!c)
		return NULL;
	udata(die, DW_AT_byte_size, &size);
	c->size = size <= UINT32_MAX ? size : 0;
	c->dwarf_obj = obj;
	c->dwarf_off = dwarf_dieoffset(die);
	c->complete = is_enum || !c->size;
	if (is_enum) {
		Dwarf_Attribute attr;
		Dwarf_Die base;
		Dwarf_Word enc = 0;

		if (dwarf_attr_integrate(die, DW_AT_type, &attr) &&
		    dwarf_formref_die(&attr, &base) && st_dwarf_type_peel(&base, &base))
			udata(&base, DW_AT_encoding, &enc);
		c->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
	}
	return c;
}

static struct st_ctype *from_die(struct st_ctypes *r, uint16_t obj, Dwarf_Die *die, int depth)
{
	struct st_ctype *c = NULL, *to;
	Dwarf_Die t, sub;
	Dwarf_Off off;

	if (depth > MAX_CHAIN)
		return NULL;
	if (!st_dwarf_type_peel(die, &t))
		return ct_node(r, ST_CT_VOID, "void");
	off = dwarf_dieoffset(&t);
	c = known(r, obj, off);
	if (c)
		return c;
	switch (dwarf_tag(&t)) {
	case DW_TAG_base_type:
		c = base_node(r, &t);
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		to = type_of(r, obj, &t, depth);
		return to ? st_ctype_pointer(r, to) : NULL;
	case DW_TAG_array_type:
		to = type_of(r, obj, &t, depth);
		if (!to)
			return NULL;
		if (dwarf_child(&t, &sub) == 0 && dwarf_tag(&sub) == DW_TAG_subrange_type)
			c = array_node(r, &sub, to, depth);
		else
			c = st_ctype_array(r, to, 0);
		break;
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
	case DW_TAG_enumeration_type:
		c = tagged_node(r, obj, &t);
		break;
	case DW_TAG_subroutine_type:
		c = ct_node(r, ST_CT_FUNC, "function");
		break;
	default:
		c = ct_node(r, ST_CT_VOID, "void");
		break;
	}
	if (c && remember(r, obj, off, c))
		return NULL;
	return c;
}

int ct_dwarf_members(struct st_ctypes *r, struct st_ctype *t)
{
	Dwarf *dw = r->objects[t->dwarf_obj - 1].dw;
	Dwarf_Word loc, bits, bit_off, byte_size;
	struct st_ctype *mt;
	Dwarf_Die die, m;
	int err, more;

	t->complete = true;
	if (!dw || !dwarf_offdie(dw, t->dwarf_off, &die) || dwarf_child(&die, &m))
		return 0;
	for (more = 0; more == 0; more = dwarf_siblingof(&m, &m)) {
		/* A C++ base class: an anonymous member, whose members C's lookup finds. */
		if (dwarf_tag(&m) != DW_TAG_member && dwarf_tag(&m) != DW_TAG_inheritance)
			continue;
		mt = type_of(r, t->dwarf_obj, &m, 0);
		if (!mt)
			return -ENOMEM;
		loc = 0;
		udata(&m, DW_AT_data_member_location, &loc);
		bits = 0;
		udata(&m, DW_AT_bit_size, &bits);
		bit_off = loc * 8;
		if (bits && !udata(&m, DW_AT_data_bit_offset, &bit_off)) {
			/* DWARF 2's: from the top of the storage unit of byte_size bytes. */
			byte_size = mt->size;
			udata(&m, DW_AT_byte_size, &byte_size);
			if (udata(&m, DW_AT_bit_offset, &bit_off))
				bit_off = loc * 8 + byte_size * 8 - bit_off - bits;
			else
				bit_off = loc * 8;
		}
		if (bit_off > UINT32_MAX || bits > 64)
			continue;
		err = st_ctype_add_member(
			t, dwarf_tag(&m) == DW_TAG_member ? dwarf_diename(&m) ?: "" : "", mt,
			bit_off, bits);
		if (err)
			return err;
	}
	return 0;
}

/* Whether die is a definition named name of one of the tags (0-terminated). */
static bool names(Dwarf_Die *die, const int *tags, const char *name)
{
	Dwarf_Word decl = 0;
	const char *n;

	for (; *tags; tags++)
		if (dwarf_tag(die) == *tags)
			break;
	if (!*tags)
		return false;
	n = dwarf_diename(die);
	return n && !strcmp(n, name) && !(udata(die, DW_AT_declaration, &decl) && decl);
}

/* The first top-level DIE of dw's compile units that names name with one of the tags. */
static bool find_named(Dwarf *dw, const int *tags, const char *name, Dwarf_Die *out)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Die cu;

	for (; dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next) {
		if (!dwarf_offdie(dw, off + hsize, &cu) || dwarf_child(&cu, out))
			continue;
		do {
			if (names(out, tags, name))
				return true;
		} while (dwarf_siblingof(out, out) == 0);
	}
	return false;
}

static bool definition(Dwarf *dw, int tag, const char *name, Dwarf_Die *out)
{
	const int tags[] = {tag, tag == DW_TAG_structure_type ? DW_TAG_class_type : 0, 0};

	return dw && find_named(dw, tags, name, out);
}

int ct_dwarf_named(struct st_ctypes *r, enum st_ctype_kind kind, const char *name,
		   struct st_ctype **out)
{
	static const int structs[] = {DW_TAG_structure_type, DW_TAG_class_type, 0};
	static const int unions[] = {DW_TAG_union_type, 0};
	static const int enums[] = {DW_TAG_enumeration_type, 0};
	static const int plain[] = {DW_TAG_typedef, DW_TAG_base_type, 0};
	const int *tags = kind == ST_CT_STRUCT	? structs
			  : kind == ST_CT_UNION ? unions
			  : kind == ST_CT_ENUM	? enums
						: plain;
	Dwarf_Die die;
	uint32_t i;
	Dwarf *dw;

	for (i = 0; i < r->nr_objects; i++) {
		dw = object_dwarf(r, i);
		if (!dw || !find_named(dw, tags, name, &die))
			continue;
		*out = from_die(r, i + 1, &die, 0);
		return *out ? 0 : -ENOMEM;
	}
	return -ENOENT;
}
