/* SPDX-License-Identifier: MIT */
/*
 * The one table of SIDE type labels: how each is named, what its values are
 * to a one-liner, and whether the kernel side reads it (and if not, why).
 * The collector lists types, checks programs and compiles loads with it,
 * so a type that the checker accepts is one that the compile step and the
 * BPF decoder read (tests/bpf/test_decode.c checks the decoder against
 * it), and a refused type is refused with the same reason everywhere.
 */
#ifndef SIDE_COMMON_SIDE_TYPES_H
#define SIDE_COMMON_SIDE_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* What a value of the type is, as the language sees it. */
enum st_type_class {
	ST_TC_NONE, /* null, unknown labels */
	ST_TC_INT, /* integers, byte, pointer: one integer value */
	ST_TC_BOOL,
	ST_TC_FLOAT,
	ST_TC_STRING,
	ST_TC_ENUM, /* the underlying integer type's value */
	ST_TC_STRUCT, /* members by name */
	ST_TC_ARRAY, /* elements by index */
	ST_TC_CHOICE, /* variant, optional: one of several types */
	ST_TC_DYNAMIC, /* the value carries its own type */
};

struct st_side_type {
	const char *name; /* as `sidetrace list` prints it: "u32", "string" */
	uint8_t type_class; /* enum st_type_class */
	/* ST_TC_INT: the signedness (gather_integer: per description) */
	bool is_signed;
	/* ST_TC_INT, ST_TC_FLOAT with a fixed width: its bits (0 for gather_integer) */
	uint8_t bits;
	/*
	 * NULL when the kernel side reads values (leaves) or walks into
	 * (struct, array, vla) values of this type; else why it does not.
	 */
	const char *unreadable;
};

/* The entry of label; an unknown label has a "unknown" entry, never NULL. */
const struct st_side_type *st_side_type(uint16_t label);

/* Shorthand for st_side_type(label)->name. */
const char *st_side_type_name(uint16_t label);

/*
 * The plain integer label (u8..s64) of a value of bytes bytes and that
 * signedness, read from the table; 0 when no readable one has that width.
 */
uint16_t st_side_int_label(uint32_t bytes, bool is_signed);

#endif /* SIDE_COMMON_SIDE_TYPES_H */
