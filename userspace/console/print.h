/* SPDX-License-Identifier: MIT */
/*
 * The console tracer's printing, in the format of libside's console tracer
 * (src/lib/libside-console-tracer/tracer.c at efficios/libside 4df4e80) so
 * that a program prints the same text under either runtime. The layout of
 * the text is a walk of the type tree: "before" and "after" each item,
 * with a count of items per nesting level for the commas.
 */
#ifndef SIDE_CONSOLE_PRINT_H
#define SIDE_CONSOLE_PRINT_H

#include <side/trace.h>

#define CONSOLE_MAX_NESTING 32

struct print_ctx {
	int nesting;
	int item_nr[CONSOLE_MAX_NESTING];
};

enum display_base { BASE_2, BASE_8, BASE_10, BASE_16 };

union int_value {
	uint64_t u[NR_SIDE_INTEGER128_SPLIT];
	int64_t s[NR_SIDE_INTEGER128_SPLIT];
};

void push_nesting(struct print_ctx *ctx);
void pop_nesting(struct print_ctx *ctx);
/* " { " for the first item of a level, ", { " for the others. */
void before_elem(struct print_ctx *ctx);
void after_item(struct print_ctx *ctx);
void before_field(struct print_ctx *ctx, const char *name, const char *sep);

void print_string(const void *p, uint8_t unit_size, enum side_type_label_byte_order bo);
void print_attributes(const char *prefix, const char *sep, const struct side_attr *attr,
		      uint32_t nr);
/* Attributes, then "PREFIXSEP ". */
void print_type_header(const char *prefix, const char *sep, const struct side_attr *attr,
		       uint32_t nr);
union int_value load_integer(const struct side_type_integer *type,
			     const union side_integer_value *value, uint16_t *len_bits);
void print_integer(const char *sep, const struct side_type_integer *type,
		   const union side_integer_value *value, enum display_base base);
void print_bool(const char *sep, const struct side_type_bool *type,
		const union side_bool_value *value);
void print_float(const char *sep, const struct side_type_float *type,
		 const union side_float_value *value);
void print_enum_labels(const struct side_enum_mappings *mappings, union int_value v);

void print_event(const struct side_event_description *desc, const struct side_arg_vec *vec,
		 const struct side_arg_dynamic_struct *var_struct);
void print_description(const struct side_event_description *desc);

#endif /* SIDE_CONSOLE_PRINT_H */
