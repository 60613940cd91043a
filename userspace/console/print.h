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
/* offset_bits: where a gather bit field starts in its unit (0 otherwise). */
union int_value load_integer(const struct side_type_integer *type,
			     const union side_integer_value *value, uint16_t offset_bits,
			     uint16_t *len_bits);
void print_integer(const char *sep, const struct side_type_integer *type,
		   const union side_integer_value *value, uint16_t offset_bits,
		   enum display_base base);
void print_bool(const char *sep, const struct side_type_bool *type,
		const union side_bool_value *value, uint16_t offset_bits);
void print_float(const char *sep, const struct side_type_float *type,
		 const union side_float_value *value);
void print_enum_labels(const struct side_enum_mappings *mappings, union int_value v);

/* Bytes of a string with its terminator. */
size_t string_size(const void *p, uint8_t unit_size);

/* One value as its description says; one dynamic value. */
void print_arg(struct print_ctx *ctx, const struct side_type *type, const struct side_arg *item);
void print_dynamic(struct print_ctx *ctx, const struct side_arg *item);
/* Gather values (values_gather.c); false for other types. */
bool print_gather(struct print_ctx *ctx, const struct side_type *type, const struct side_arg *item);
/* Enum bitmaps, vla visitors and gather values; false for other types. */
bool print_other(struct print_ctx *ctx, const struct side_type *type, const struct side_arg *item);
/* Dynamic struct and vla visitors; false for other types. */
bool print_dynamic_visitor(struct print_ctx *ctx, const struct side_arg *item);

void print_event(const struct side_event_description *desc, const struct side_arg_vec *vec,
		 const struct side_arg_dynamic_struct *var_struct);
void print_description(const struct side_event_description *desc);
void describe_type(struct print_ctx *ctx, const struct side_type *type);
/* Header, "NAME { labels: { ... }, element: { ": the caller prints the element. */
void describe_enum_mappings(const char *name, const struct side_enum_mappings *mappings);
/* Gather types, enum bitmaps, vla visitors; false for other types. */
bool describe_other(struct print_ctx *ctx, const struct side_type *type);

/* One line on stderr if the program registers its events with a runtime of its own. */
void warn_private_runtime(void);

#endif /* SIDE_CONSOLE_PRINT_H */
