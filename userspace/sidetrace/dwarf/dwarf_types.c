// SPDX-License-Identifier: MIT
/*
 * DWARF types as SIDE types (dwarf.h): what the checker, the compile step
 * and the output already know how to read and print.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "ctypes/dwarf_ctypes.h"
#include "events/events.h"
#include "dwarf/dwarf_int.h"
#include "util/textbuf.h"

/* The type a DIE's DW_AT_type names, past typedefs and qualifiers; false for void. */
bool st_dwarf_peel(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return dwarf_attr_integrate(die, DW_AT_type, &attr) && dwarf_formref_die(&attr, out) &&
	       st_dwarf_type_peel(out, out);
}

static bool is_char(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	if (dwarf_tag(die) != DW_TAG_base_type || dwarf_bytesize(die) != 1 ||
	    !dwarf_attr(die, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc))
		return false;
	return enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char || enc == DW_ATE_UTF;
}

static const char *base_type(Dwarf_Die *die, struct st_type *t)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	int size = dwarf_bytesize(die);

	if (!dwarf_attr(die, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc) || size <= 0)
		return "a base type without an encoding";
	switch (enc) {
	case DW_ATE_boolean:
		t->label = SIDE_TYPE_BOOL;
		t->size = size;
		return NULL;
	case DW_ATE_signed:
	case DW_ATE_signed_char:
		if (size > 8)
			return "an integer wider than 64 bits";
		st_type_set_int(t, size, true);
		return NULL;
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
	case DW_ATE_UTF:
		if (size > 8)
			return "an integer wider than 64 bits";
		st_type_set_int(t, size, false);
		return NULL;
	case DW_ATE_float:
		/* Read as its bits (unsigned: no sign to extend), printed by the collector. */
		t->label = size == 4 ? SIDE_TYPE_FLOAT_BINARY32 : SIDE_TYPE_FLOAT_BINARY64;
		t->size = size > 8 ? 8 : size;
		return size == 4 || size == 8 ? NULL
					      : "a floating-point value wider than 64 bits (long "
						"double), which sidetrace does not read";
	default:
		return "a value of a kind sidetrace does not read";
	}
}

/* An enum: its integer type, and its enumerators as labels. */
static const char *enum_type(Dwarf_Die *die, struct st_type *t)
{
	Dwarf_Die child, under;
	Dwarf_Attribute attr;
	Dwarf_Sword v;
	uint32_t n = 0;
	bool is_signed = false;

	t->elem = calloc(1, sizeof(*t->elem));
	if (!t->elem)
		return NULL;
	if (st_dwarf_peel(die, &under) && dwarf_tag(&under) == DW_TAG_base_type)
		base_type(&under, t->elem);
	if (dwarf_child(die, &child) == 0) {
		do {
			if (dwarf_tag(&child) != DW_TAG_enumerator)
				continue;
			n++;
			if (dwarf_attr(&child, DW_AT_const_value, &attr) &&
			    !dwarf_formsdata(&attr, &v) && v < 0)
				is_signed = true;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (!t->elem->label)
		st_type_set_int(t->elem, dwarf_bytesize(die) > 0 ? dwarf_bytesize(die) : 4,
				is_signed);
	t->label = SIDE_TYPE_ENUM;
	t->size = t->elem->size;
	t->enum_labels = calloc(n + 1, sizeof(*t->enum_labels));
	t->enum_begin = calloc(n + 1, sizeof(*t->enum_begin));
	t->enum_end = calloc(n + 1, sizeof(*t->enum_end));
	if (!t->enum_labels || !t->enum_begin || !t->enum_end || dwarf_child(die, &child))
		return NULL;
	do {
		if (dwarf_tag(&child) != DW_TAG_enumerator || t->nr_enum >= n)
			continue;
		v = 0;
		if (dwarf_attr(&child, DW_AT_const_value, &attr))
			dwarf_formsdata(&attr, &v);
		t->enum_labels[t->nr_enum] = strdup(dwarf_diename(&child) ?: "?");
		t->enum_begin[t->nr_enum] = t->enum_end[t->nr_enum] = v;
		t->nr_enum++;
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

static const char *map_type(Dwarf_Die *typed, struct st_type *t, int depth);

/* Go's slice: "[]T" { array *T; len int; cap int }: read as its length. */
static bool go_slice(Dwarf_Die *type)
{
	const char *name = dwarf_diename(type);

	return name && !strncmp(name, "[]", 2) && dwarf_bytesize(type) == 24;
}

/* Go's string: { str *uint8; len int }, its pointer and length in two registers. */
static bool go_string(Dwarf_Die *type)
{
	const char *name = dwarf_diename(type);
	Dwarf_Die child;

	if (!name || strcmp(name, "string") || dwarf_bytesize(type) != 16 ||
	    dwarf_child(type, &child) || !dwarf_diename(&child) ||
	    strcmp(dwarf_diename(&child), "str") || dwarf_siblingof(&child, &child) ||
	    !dwarf_diename(&child))
		return false;
	return !strcmp(dwarf_diename(&child), "len");
}

/* A char array member: a string in place. */
static bool char_array(Dwarf_Die *type)
{
	Dwarf_Die elem;

	return dwarf_tag(type) == DW_TAG_array_type && st_dwarf_peel(type, &elem) && is_char(&elem);
}

/*
 * A struct's members, reached through a pointer (depth counts the
 * pointers crossed: a linked list stops at ST_DWARF_MAX_DEPTH).
 */
static const char *struct_type(Dwarf_Die *type, struct st_type *t, int depth)
{
	Dwarf_Die child;
	Dwarf_Attribute attr;
	Dwarf_Word off;
	uint32_t n = 0;

	t->label = SIDE_TYPE_STRUCT;
	if (depth > ST_DWARF_MAX_DEPTH || dwarf_child(type, &child))
		return NULL;
	do
		n += dwarf_tag(&child) == DW_TAG_member;
	while (dwarf_siblingof(&child, &child) == 0);
	t->fields = calloc(n + 1, sizeof(*t->fields));
	if (!t->fields || dwarf_child(type, &child))
		return NULL;
	do {
		struct st_field *f = &t->fields[t->nr_fields];
		const char *why;

		if (dwarf_tag(&child) != DW_TAG_member || t->nr_fields >= n ||
		    !dwarf_diename(&child))
			continue;
		f->name = strdup(dwarf_diename(&child));
		if (!f->name)
			return NULL;
		t->nr_fields++;
		why = map_type(&child, &f->type, depth);
		if (dwarf_attr(&child, DW_AT_bit_size, &attr))
			why = "a bit field, which sidetrace does not read yet";
		if (!dwarf_attr(&child, DW_AT_data_member_location, &attr) ||
		    dwarf_formudata(&attr, &off))
			why = "a member whose place DWARF does not give as an offset";
		else
			f->type.member_offset = off;
		if (why && !f->type.unreadable)
			f->type.unreadable = strdup(why);
	} while (dwarf_siblingof(&child, &child) == 0);
	return NULL;
}

static const char *map_type(Dwarf_Die *typed, struct st_type *t, int depth)
{
	Dwarf_Die type, pointee;
	int tag;

	memset(t, 0, sizeof(*t));
	if (!st_dwarf_peel(typed, &type))
		return "void";
	switch (dwarf_tag(&type)) {
	case DW_TAG_base_type:
		return base_type(&type, t);
	case DW_TAG_enumeration_type:
		return enum_type(&type, t);
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		t->label = SIDE_TYPE_POINTER;
		t->size = 8;
		if (!st_dwarf_peel(&type, &pointee))
			return NULL;
		tag = dwarf_tag(&pointee);
		if (dwarf_tag(&type) == DW_TAG_pointer_type && is_char(&pointee)) {
			t->label = SIDE_TYPE_STRING_UTF8;
			t->size = 1;
		} else if ((tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
			    tag == DW_TAG_union_type) &&
			   depth <= ST_DWARF_MAX_DEPTH) {
			t->elem = calloc(1, sizeof(*t->elem));
			if (t->elem)
				struct_type(&pointee, t->elem, depth + 1);
		}
		return NULL;
	case DW_TAG_array_type:
		return st_type_set_array(t, char_array(&type), depth);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (!depth && go_slice(&type)) {
			st_type_set_int(t, 8, true);
			t->counted = true;
			return NULL;
		}
		if (!depth && go_string(&type)) {
			t->label = SIDE_TYPE_STRING_UTF8;
			t->size = 1;
			t->counted = true;
			return NULL;
		}
		/* A struct inside a struct that a pointer led to: its members in place. */
		if (depth) {
			struct_type(&type, t, depth);
			return NULL;
		}
		st_type_set_int(t, 8, false);
		return "a struct passed by value, which sidetrace does not read yet";
	default:
		st_type_set_int(t, 8, false);
		return "a value of a kind sidetrace does not read";
	}
}

const char *st_dwarf_type(Dwarf_Die *typed, struct st_type *t)
{
	return map_type(typed, t, 0);
}

/* Whether die is of a Go compile unit. */
static bool in_go(Dwarf_Die *die)
{
	Dwarf_Die cu;

	return dwarf_diecu(die, &cu, NULL, NULL) && dwarf_srclang(&cu) == DW_LANG_Go;
}

/* The type of die's DW_AT_type into tb, as a C declaration spells it; depth bounds a hostile chain.
 */
static void c_name(Dwarf_Die *die, struct st_textbuf *tb, int depth)
{
	const char *kind = NULL, *name;
	Dwarf_Attribute attr;
	Dwarf_Word n;
	Dwarf_Die type, sub;

	if (depth > 16 || !dwarf_attr_integrate(die, DW_AT_type, &attr) ||
	    !dwarf_formref_die(&attr, &type)) {
		st_tb_puts(tb, "void");
		return;
	}
	name = dwarf_diename(&type);
	switch (dwarf_tag(&type)) {
	case DW_TAG_pointer_type:
		/* Go names its pointer types ("*main.T"); C leaves them unnamed. */
		if (name) {
			st_tb_puts(tb, name);
			return;
		}
		c_name(&type, tb, depth + 1);
		st_tb_putc(tb, '*');
		return;
	case DW_TAG_const_type:
		st_tb_puts(tb, "const ");
		c_name(&type, tb, depth + 1);
		return;
	case DW_TAG_volatile_type:
		st_tb_puts(tb, "volatile ");
		c_name(&type, tb, depth + 1);
		return;
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		c_name(&type, tb, depth + 1);
		return;
	case DW_TAG_array_type:
		c_name(&type, tb, depth + 1);
		n = 0;
		/* Its length: DW_AT_count, or DW_AT_upper_bound + 1; unknown: []. */
		if (!dwarf_child(&type, &sub) && dwarf_attr_integrate(&sub, DW_AT_count, &attr)) {
			if (dwarf_formudata(&attr, &n))
				n = 0;
		} else if (!dwarf_child(&type, &sub) &&
			   dwarf_attr_integrate(&sub, DW_AT_upper_bound, &attr) &&
			   !dwarf_formudata(&attr, &n)) {
			n++;
		}
		if (n)
			st_tb_printf(tb, "[%llu]", (unsigned long long)n);
		else
			st_tb_puts(tb, "[]");
		return;
	case DW_TAG_subroutine_type:
		st_tb_puts(tb, "void (*)()");
		return;
	case DW_TAG_structure_type:
		kind = "struct ";
		break;
	case DW_TAG_union_type:
		kind = "union ";
		break;
	case DW_TAG_enumeration_type:
		kind = "enum ";
		break;
	case DW_TAG_class_type:
		kind = "class ";
		break;
	default:
		break;
	}
	/* A Go type's name says its kind already ("string", "[]uint8", "main.T"). */
	if (kind && !in_go(&type))
		st_tb_puts(tb, kind);
	st_tb_puts(tb, name ? name : "<anonymous>");
}

char *st_dwarf_c_name(Dwarf_Die *typed)
{
	struct st_textbuf tb = {0};

	c_name(typed, &tb, 0);
	return st_tb_take(&tb);
}
