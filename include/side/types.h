/* SPDX-License-Identifier: MIT */
/*
 * Field descriptions (side_field_*), type descriptions (side_type_*) and
 * call-site arguments (side_arg_*), source-compatible with libside's C API.
 */
#ifndef SIDE_TYPES_H
#define SIDE_TYPES_H

#include <stdint.h>
#include <side/macros.h>
#include <side/abi/type-argument.h>

/* Attributes */
#define side_attr_list(...) \
	{ \
		.elements = SIDE_PTR_INIT(((const struct side_attr[]){ __VA_ARGS__ })), \
		.length = SIDE_ARRAY_SIZE(((const struct side_attr[]){ __VA_ARGS__ })), \
	}
#define _side_no_attr() { .elements = SIDE_PTR_INIT(NULL), .length = 0 }
/* Selects the optional trailing attribute list, or none. */
#define _side_attr_or_none(_dummy, ...) _side_attr_pick(_dummy, ##__VA_ARGS__, _side_no_attr())
#define _side_attr_pick(_dummy, _attr, ...) _attr

#define side_attr(_key, _value) \
	{ \
		.key = { .p = SIDE_PTR_INIT(_key), .unit_size = 1, \
			 .byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST) }, \
		.value = SIDE_PARAM(_value), \
	}
#define side_attr_null(_v) { .type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_NULL) }
#define side_attr_bool(_v) { .type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_BOOL), .u = { .bool_value = !!(_v) } }
#define _side_attr_int(_label, _member, _v) \
	{ .type = SIDE_ENUM_INIT(_label), .u = { .integer_value = { ._member = (_v) } } }
#define side_attr_u8(_v) _side_attr_int(SIDE_ATTR_TYPE_U8, side_u8, _v)
#define side_attr_u16(_v) _side_attr_int(SIDE_ATTR_TYPE_U16, side_u16, _v)
#define side_attr_u32(_v) _side_attr_int(SIDE_ATTR_TYPE_U32, side_u32, _v)
#define side_attr_u64(_v) _side_attr_int(SIDE_ATTR_TYPE_U64, side_u64, _v)
#define side_attr_s8(_v) _side_attr_int(SIDE_ATTR_TYPE_S8, side_s8, _v)
#define side_attr_s16(_v) _side_attr_int(SIDE_ATTR_TYPE_S16, side_s16, _v)
#define side_attr_s32(_v) _side_attr_int(SIDE_ATTR_TYPE_S32, side_s32, _v)
#define side_attr_s64(_v) _side_attr_int(SIDE_ATTR_TYPE_S64, side_s64, _v)
#define side_attr_float_binary32(_v) \
	{ .type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_FLOAT_BINARY32), .u = { .float_value = { .side_float_binary32 = (_v) } } }
#define side_attr_float_binary64(_v) \
	{ .type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_FLOAT_BINARY64), .u = { .float_value = { .side_float_binary64 = (_v) } } }
#define side_attr_string(_v) \
	{ .type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_STRING), \
	  .u = { .string_value = { .p = SIDE_PTR_INIT(_v), .unit_size = 1, \
				   .byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST) } } }

/*
 * Field lists are brace lists so that the event definition can both store
 * them and count them at compile time.
 */
#define side_field_list(...) { __VA_ARGS__ }
#define side_arg_list(...) __VA_ARGS__

#define _side_fields_ref(_fields) \
	{ \
		.elements = SIDE_PTR_INIT((const struct side_event_field[]) _fields), \
		.length = SIDE_ARRAY_SIZE(((const struct side_event_field[]) _fields)), \
	}

/* Field names must be non-empty string literals: "" "x" fails otherwise. */
#define _side_field(_name, _type) \
	{ \
		.field_name = SIDE_PTR_INIT(&("" _name "")[0 * sizeof(struct { \
			_Static_assert(sizeof(_name) > 1, \
				"SIDE: a field name must be a non-empty string literal"); \
			char c; })]), \
		.side_type = _type, \
	}

/* Type descriptions of basic types */
#define side_type_null(_attr...) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_NULL), \
	  .u = { .side_null = { .attributes = _side_attr_or_none(_, ##_attr) } } }
#define side_type_bool(_attr...) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_BOOL), \
	  .u = { .side_bool = { .attributes = _side_attr_or_none(_, ##_attr), \
				.bool_size = sizeof(uint8_t), .len_bits = 0, \
				.byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST) } } }
#define side_type_byte(_attr...) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_BYTE), \
	  .u = { .side_byte = { .attributes = _side_attr_or_none(_, ##_attr) } } }
#define _side_type_string(_label, _unit, _order, _attr) \
	{ .type = SIDE_ENUM_INIT(_label), \
	  .u = { .side_string = { .attributes = _attr, .unit_size = (_unit), \
				  .byte_order = SIDE_ENUM_INIT(_order) } } }
#define side_type_string(_attr...) \
	_side_type_string(SIDE_TYPE_STRING_UTF8, 1, SIDE_TYPE_BYTE_ORDER_HOST, _side_attr_or_none(_, ##_attr))
#define side_type_string16(_attr...) \
	_side_type_string(SIDE_TYPE_STRING_UTF16, 2, SIDE_TYPE_BYTE_ORDER_HOST, _side_attr_or_none(_, ##_attr))
#define side_type_string32(_attr...) \
	_side_type_string(SIDE_TYPE_STRING_UTF32, 4, SIDE_TYPE_BYTE_ORDER_HOST, _side_attr_or_none(_, ##_attr))
#define _side_type_integer(_label, _signed, _size, _order, _attr) \
	{ .type = SIDE_ENUM_INIT(_label), \
	  .u = { .side_integer = { .attributes = _attr, .integer_size = (_size), \
				   .len_bits = 0, .signedness = (_signed), \
				   .byte_order = SIDE_ENUM_INIT(_order) } } }
#define _side_type_int_host(_label, _signed, _ctype, _attr...) \
	_side_type_integer(_label, _signed, sizeof(_ctype), SIDE_TYPE_BYTE_ORDER_HOST, \
			   _side_attr_or_none(_, ##_attr))
#define side_type_u8(_attr...) _side_type_int_host(SIDE_TYPE_U8, 0, uint8_t, ##_attr)
#define side_type_u16(_attr...) _side_type_int_host(SIDE_TYPE_U16, 0, uint16_t, ##_attr)
#define side_type_u32(_attr...) _side_type_int_host(SIDE_TYPE_U32, 0, uint32_t, ##_attr)
#define side_type_u64(_attr...) _side_type_int_host(SIDE_TYPE_U64, 0, uint64_t, ##_attr)
#define side_type_s8(_attr...) _side_type_int_host(SIDE_TYPE_S8, 1, int8_t, ##_attr)
#define side_type_s16(_attr...) _side_type_int_host(SIDE_TYPE_S16, 1, int16_t, ##_attr)
#define side_type_s32(_attr...) _side_type_int_host(SIDE_TYPE_S32, 1, int32_t, ##_attr)
#define side_type_s64(_attr...) _side_type_int_host(SIDE_TYPE_S64, 1, int64_t, ##_attr)
#define side_type_pointer(_attr...) _side_type_int_host(SIDE_TYPE_POINTER, 0, uintptr_t, ##_attr)
#define _side_type_float(_label, _size, _attr) \
	{ .type = SIDE_ENUM_INIT(_label), \
	  .u = { .side_float = { .attributes = _attr, .float_size = (_size), \
				 .byte_order = SIDE_ENUM_INIT(SIDE_TYPE_FLOAT_WORD_ORDER_HOST) } } }
#define side_type_float_binary32(_attr...) \
	_side_type_float(SIDE_TYPE_FLOAT_BINARY32, 4, _side_attr_or_none(_, ##_attr))
#define side_type_float_binary64(_attr...) \
	_side_type_float(SIDE_TYPE_FLOAT_BINARY64, 8, _side_attr_or_none(_, ##_attr))

#define side_field_null(_name, _attr...) _side_field(_name, side_type_null(_attr))
#define side_field_bool(_name, _attr...) _side_field(_name, side_type_bool(_attr))
#define side_field_byte(_name, _attr...) _side_field(_name, side_type_byte(_attr))
#define side_field_string(_name, _attr...) _side_field(_name, side_type_string(_attr))
#define side_field_string16(_name, _attr...) _side_field(_name, side_type_string16(_attr))
#define side_field_string32(_name, _attr...) _side_field(_name, side_type_string32(_attr))
#define side_field_u8(_name, _attr...) _side_field(_name, side_type_u8(_attr))
#define side_field_u16(_name, _attr...) _side_field(_name, side_type_u16(_attr))
#define side_field_u32(_name, _attr...) _side_field(_name, side_type_u32(_attr))
#define side_field_u64(_name, _attr...) _side_field(_name, side_type_u64(_attr))
#define side_field_s8(_name, _attr...) _side_field(_name, side_type_s8(_attr))
#define side_field_s16(_name, _attr...) _side_field(_name, side_type_s16(_attr))
#define side_field_s32(_name, _attr...) _side_field(_name, side_type_s32(_attr))
#define side_field_s64(_name, _attr...) _side_field(_name, side_type_s64(_attr))
#define side_field_pointer(_name, _attr...) _side_field(_name, side_type_pointer(_attr))
#define side_field_float_binary32(_name, _attr...) _side_field(_name, side_type_float_binary32(_attr))
#define side_field_float_binary64(_name, _attr...) _side_field(_name, side_type_float_binary64(_attr))

/* Call-site arguments of basic types */
#define side_arg_null(_v) { .type = SIDE_ENUM_INIT(SIDE_TYPE_NULL), .flags = 0 }
#define side_arg_bool(_v) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_BOOL), .flags = 0, \
	  .u = { .side_static = { .bool_value = { .side_bool8 = !!(_v) } } } }
#define side_arg_byte(_v) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_BYTE), .flags = 0, \
	  .u = { .side_static = { .byte_value = (_v) } } }
#define _side_arg_string(_label, _v) \
	{ .type = SIDE_ENUM_INIT(_label), .flags = 0, \
	  .u = { .side_static = { .string_value = SIDE_PTR_INIT(_v) } } }
#define side_arg_string(_v) _side_arg_string(SIDE_TYPE_STRING_UTF8, _v)
#define side_arg_string16(_v) _side_arg_string(SIDE_TYPE_STRING_UTF16, _v)
#define side_arg_string32(_v) _side_arg_string(SIDE_TYPE_STRING_UTF32, _v)
#define _side_arg_int(_label, _member, _v) \
	{ .type = SIDE_ENUM_INIT(_label), .flags = 0, \
	  .u = { .side_static = { .integer_value = { ._member = (_v) } } } }
#define side_arg_u8(_v) _side_arg_int(SIDE_TYPE_U8, side_u8, _v)
#define side_arg_u16(_v) _side_arg_int(SIDE_TYPE_U16, side_u16, _v)
#define side_arg_u32(_v) _side_arg_int(SIDE_TYPE_U32, side_u32, _v)
#define side_arg_u64(_v) _side_arg_int(SIDE_TYPE_U64, side_u64, _v)
#define side_arg_s8(_v) _side_arg_int(SIDE_TYPE_S8, side_s8, _v)
#define side_arg_s16(_v) _side_arg_int(SIDE_TYPE_S16, side_s16, _v)
#define side_arg_s32(_v) _side_arg_int(SIDE_TYPE_S32, side_s32, _v)
#define side_arg_s64(_v) _side_arg_int(SIDE_TYPE_S64, side_s64, _v)
#define side_arg_pointer(_v) _side_arg_int(SIDE_TYPE_POINTER, side_uptr, (uintptr_t)(_v))
#define side_arg_float_binary32(_v) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_FLOAT_BINARY32), .flags = 0, \
	  .u = { .side_static = { .float_value = { .side_float_binary32 = (_v) } } } }
#define side_arg_float_binary64(_v) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_FLOAT_BINARY64), .flags = 0, \
	  .u = { .side_static = { .float_value = { .side_float_binary64 = (_v) } } } }

/* Compound types: struct */
#define side_struct_literal(_fields, _attr...) \
	{ .fields = _side_fields_ref(SIDE_PARAM(_fields)), \
	  .attributes = _side_attr_or_none(_, ##_attr) }
#define side_define_struct(_identifier, _fields, _attr...) \
	const struct side_type_struct _identifier = side_struct_literal(SIDE_PARAM(_fields), ##_attr)
#define side_type_struct(_struct) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_STRUCT), .u = { .side_struct = SIDE_PTR_INIT(_struct) } }
#define side_field_struct(_name, _struct) _side_field(_name, side_type_struct(SIDE_PARAM(_struct)))
#define side_arg_struct(_vec) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_STRUCT), .flags = 0, \
	  .u = { .side_static = { .side_struct = SIDE_PTR_INIT(_vec) } } }

/* Compound types: array and vla */
#define side_type_array(_elem_type, _length, _attr...) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_ARRAY), \
	  .u = { .side_array = SIDE_PTR_INIT(&(const struct side_type_array){ \
		.elem_type = SIDE_PTR_INIT(_elem_type), .length = (_length), \
		.attributes = _side_attr_or_none(_, ##_attr) }) } }
#define side_field_array(_name, _elem_type, _length, _attr...) \
	_side_field(_name, side_type_array(SIDE_PARAM(_elem_type), _length, ##_attr))
#define side_arg_array(_vec) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_ARRAY), .flags = 0, \
	  .u = { .side_static = { .side_array = SIDE_PTR_INIT(_vec) } } }
#define side_type_vla(_elem_type, _length_type, _attr...) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_VLA), \
	  .u = { .side_vla = SIDE_PTR_INIT(&(const struct side_type_vla){ \
		.elem_type = SIDE_PTR_INIT(_elem_type), \
		.length_type = SIDE_PTR_INIT(_length_type), \
		.attributes = _side_attr_or_none(_, ##_attr) }) } }
#define side_field_vla(_name, _elem_type, _length_type, _attr...) \
	_side_field(_name, side_type_vla(SIDE_PARAM(_elem_type), SIDE_PARAM(_length_type), ##_attr))
#define side_arg_vla(_vec) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_VLA), .flags = 0, \
	  .u = { .side_static = { .side_vla = SIDE_PTR_INIT(_vec) } } }
/* Element types are passed by address: side_elem(side_type_u32()). */
#define side_elem(...) (&(const struct side_type)__VA_ARGS__)
#define side_length(...) (&(const struct side_type)__VA_ARGS__)

/* Argument vectors for struct, array and vla arguments. */
#define side_arg_define_vec(_identifier, _sav) \
	const struct side_arg _identifier##_vec[] = { _sav }; \
	const struct side_arg_vec _identifier = { \
		.sav = SIDE_PTR_INIT(_identifier##_vec), \
		.len = SIDE_ARRAY_SIZE(_identifier##_vec), \
	}

/* Enumerations: the argument is the underlying integer. */
#define side_enum_mapping_range(_label, _begin, _end) \
	{ .range_begin = (_begin), .range_end = (_end), \
	  .label = { .p = SIDE_PTR_INIT(_label), .unit_size = 1, \
		     .byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST) } }
#define side_enum_mapping_value(_label, _value) side_enum_mapping_range(_label, _value, _value)
#define side_enum_mapping_list(...) \
	{ .elements = SIDE_PTR_INIT(((const struct side_enum_mapping[]){ __VA_ARGS__ })), \
	  .length = SIDE_ARRAY_SIZE(((const struct side_enum_mapping[]){ __VA_ARGS__ })) }
#define side_define_enum(_identifier, _mappings, _attr...) \
	const struct side_enum_mappings _identifier = { \
		.mappings = _mappings, .attributes = _side_attr_or_none(_, ##_attr) }
#define side_type_enum(_mappings, _elem_type) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_ENUM), \
	  .u = { .side_enum = { .mappings = SIDE_PTR_INIT(_mappings), \
				.elem_type = SIDE_PTR_INIT(_elem_type) } } }
#define side_field_enum(_name, _mappings, _elem_type) \
	_side_field(_name, side_type_enum(_mappings, SIDE_PARAM(_elem_type)))

#define side_enum_bitmap_mapping_range(_label, _begin, _end) \
	{ .range_begin = (_begin), .range_end = (_end), \
	  .label = { .p = SIDE_PTR_INIT(_label), .unit_size = 1, \
		     .byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST) } }
#define side_enum_bitmap_mapping_value(_label, _value) \
	side_enum_bitmap_mapping_range(_label, _value, _value)
#define side_enum_bitmap_mapping_list(...) \
	{ .elements = SIDE_PTR_INIT(((const struct side_enum_bitmap_mapping[]){ __VA_ARGS__ })), \
	  .length = SIDE_ARRAY_SIZE(((const struct side_enum_bitmap_mapping[]){ __VA_ARGS__ })) }
#define side_define_enum_bitmap(_identifier, _mappings, _attr...) \
	const struct side_enum_bitmap_mappings _identifier = { \
		.mappings = _mappings, .attributes = _side_attr_or_none(_, ##_attr) }
#define side_type_enum_bitmap(_mappings, _elem_type) \
	{ .type = SIDE_ENUM_INIT(SIDE_TYPE_ENUM_BITMAP), \
	  .u = { .side_enum_bitmap = { .mappings = SIDE_PTR_INIT(_mappings), \
				       .elem_type = SIDE_PTR_INIT(_elem_type) } } }
#define side_field_enum_bitmap(_name, _mappings, _elem_type) \
	_side_field(_name, side_type_enum_bitmap(_mappings, SIDE_PARAM(_elem_type)))

#endif /* SIDE_TYPES_H */
