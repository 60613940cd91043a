/* SPDX-License-Identifier: MIT */
/*
 * SIDE ABI: arguments passed at a call site, as an array of 64-byte typed
 * items. Layouts follow libside.
 */
#ifndef SIDE_ABI_TYPE_ARGUMENT_H
#define SIDE_ABI_TYPE_ARGUMENT_H

#include <stdint.h>
#include <side/macros.h>
#include <side/abi/type-value.h>
#include <side/abi/attribute.h>
#include <side/abi/type-description.h>
#include <side/abi/visitor.h>

enum side_arg_flag {
	SIDE_ARG_FLAG_INCOMPLETE = 1U << 0,
};

struct side_arg;
struct side_arg_vec;
struct side_arg_variant;
struct side_arg_optional;
struct side_arg_dynamic_field;

struct side_arg_vla_visitor {
	side_ptr_t(void) app_ctx;
	side_ptr_t(struct side_arg) cached_arg; /* libside's cache, NULL */
} SIDE_PACKED;
side_check_size(struct side_arg_vla_visitor, 32);

union side_arg_static {
	/* Stack-copy basic types */
	union side_bool_value bool_value;
	uint8_t byte_value;
	side_ptr_t(const void) string_value;
	union side_integer_value integer_value;
	union side_float_value float_value;

	/* Stack-copy compound types */
	side_ptr_t(const struct side_arg_vec) side_struct;
	side_ptr_t(const struct side_arg_variant) side_variant;
	side_ptr_t(const struct side_arg_optional) side_optional;
	side_ptr_t(const struct side_arg_vec) side_array;
	side_ptr_t(const struct side_arg_vec) side_vla;
	side_ptr_t(struct side_arg_vla_visitor) side_vla_visitor;

	/* Gather basic types */
	side_ptr_t(const void) side_bool_gather_ptr;
	side_ptr_t(const void) side_byte_gather_ptr;
	side_ptr_t(const void) side_integer_gather_ptr;
	side_ptr_t(const void) side_float_gather_ptr;
	side_ptr_t(const void) side_string_gather_ptr;

	/* Gather compound types */
	side_ptr_t(const void) side_array_gather_ptr;
	side_ptr_t(const void) side_struct_gather_ptr;
	struct {
		side_ptr_t(const void) ptr;
		side_ptr_t(const void) length_ptr;
	} SIDE_PACKED side_vla_gather;
	side_padding(32);
} SIDE_PACKED;
side_check_size(union side_arg_static, 32);

struct side_arg_dynamic_vla {
	side_ptr_t(const struct side_arg) sav;
	uint32_t len;
	side_array_t(const struct side_attr) attributes;
} SIDE_PACKED;
side_check_size(struct side_arg_dynamic_vla, 40);

struct side_arg_dynamic_struct {
	side_ptr_t(const struct side_arg_dynamic_field) fields;
	uint32_t len;
	side_array_t(const struct side_attr) attributes;
} SIDE_PACKED;
side_check_size(struct side_arg_dynamic_struct, 40);

struct side_arg_dynamic_struct_visitor {
	side_func_ptr_t(side_dynamic_struct_visitor_func) visitor;
	side_ptr_t(void) app_ctx;
	side_ptr_t(struct side_arg) cached_arg;
	side_array_t(const struct side_attr) attributes;
} SIDE_PACKED;
side_check_size(struct side_arg_dynamic_struct_visitor, 68);

struct side_arg_dynamic_vla_visitor {
	side_func_ptr_t(side_visitor_func) visitor;
	side_ptr_t(void) app_ctx;
	side_ptr_t(struct side_arg) cached_arg;
	side_array_t(const struct side_attr) attributes;
} SIDE_PACKED;
side_check_size(struct side_arg_dynamic_vla_visitor, 68);

union side_arg_dynamic {
	/* Dynamic basic types: the type description travels with the value. */
	struct side_type_null side_null;
	struct {
		struct side_type_bool type;
		union side_bool_value value;
	} SIDE_PACKED side_bool;
	struct {
		struct side_type_byte type;
		uint8_t value;
	} SIDE_PACKED side_byte;
	struct {
		struct side_type_string type;
		uint64_t value; /* const char * */
	} SIDE_PACKED side_string;
	struct {
		struct side_type_integer type;
		union side_integer_value value;
	} SIDE_PACKED side_integer;
	struct {
		struct side_type_float type;
		union side_float_value value;
	} SIDE_PACKED side_float;

	/* Dynamic compound types */
	side_ptr_t(const struct side_arg_dynamic_struct) side_dynamic_struct;
	side_ptr_t(const struct side_arg_dynamic_vla) side_dynamic_vla;
	side_ptr_t(struct side_arg_dynamic_struct_visitor) side_dynamic_struct_visitor;
	side_ptr_t(struct side_arg_dynamic_vla_visitor) side_dynamic_vla_visitor;

	side_padding(58);
} SIDE_PACKED;
side_check_size(union side_arg_dynamic, 58);

struct side_arg {
	side_enum_t(enum side_type_label, uint16_t) type;
	uint16_t flags;
	union {
		union side_arg_static side_static;
		union side_arg_dynamic side_dynamic;
		side_padding(60);
	} SIDE_PACKED u;
} SIDE_PACKED;
side_check_size(struct side_arg, 64);

struct side_arg_variant {
	struct side_arg selector;
	struct side_arg option;
} SIDE_PACKED;
side_check_size(struct side_arg_variant, 128);

struct side_arg_optional {
	struct side_arg side_static;
	uint8_t selector;
} SIDE_PACKED;
side_check_size(struct side_arg_optional, 65);

struct side_arg_vec {
	side_ptr_t(const struct side_arg) sav;
	uint32_t len;
} SIDE_PACKED;
side_check_size(struct side_arg_vec, 20);

struct side_arg_dynamic_field {
	side_ptr_t(const char) field_name;
	const struct side_arg elem;
} SIDE_PACKED;
side_check_size(struct side_arg_dynamic_field, 80);

#endif /* SIDE_ABI_TYPE_ARGUMENT_H */
