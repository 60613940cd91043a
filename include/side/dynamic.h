/* SPDX-License-Identifier: MIT */
/*
 * Dynamic arguments: values that carry their own type description, for
 * side_field_dynamic() fields and the extra fields of variadic events.
 * Included by side/types.h. Every dynamic argument matches a dynamic
 * field (tag "dynamic").
 */
#ifndef SIDE_DYNAMIC_H
#define SIDE_DYNAMIC_H

#define _side_arg_dynamic(...) SIDE_SC_ARG(SIDE_SC_TAG(dynamic), __VA_ARGS__)

#define side_arg_dynamic_null(_attr...) \
	_side_arg_dynamic({.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_NULL), \
			   .flags = 0, \
			   .u = {.side_dynamic = {.side_null = {.attributes = _side_attr_or_none( \
									_, ##_attr)}}}})
#define side_arg_dynamic_bool(_v, _attr...) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_BOOL), \
		 .flags = 0, \
		 .u = {.side_dynamic = { \
			       .side_bool = { \
				       .type = {.attributes = _side_attr_or_none(_, ##_attr), \
						.bool_size = sizeof(uint8_t), \
						.len_bits = 0, \
						.byte_order = SIDE_ENUM_INIT( \
							SIDE_TYPE_BYTE_ORDER_HOST)}, \
				       .value = {.side_bool8 = (uint8_t) !!(_v)}}}}})
#define side_arg_dynamic_byte(_v, _attr...) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_BYTE), \
		 .flags = 0, \
		 .u = {.side_dynamic = {.side_byte = {.type = {.attributes = _side_attr_or_none( \
								       _, ##_attr)}, \
						      .value = (uint8_t)(_v)}}}})

#define _side_arg_dynamic_string(_v, _order, _unit, _attr...) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_STRING), \
		 .flags = 0, \
		 .u = {.side_dynamic = { \
			       .side_string = { \
				       .type = {.attributes = _side_attr_or_none(_, ##_attr), \
						.unit_size = (_unit), \
						.byte_order = SIDE_ENUM_INIT(_order)}, \
				       .value = (uintptr_t)(_v)}}}})
#define side_arg_dynamic_string(_v, _attr...) \
	_side_arg_dynamic_string(_v, SIDE_TYPE_BYTE_ORDER_HOST, 1, ##_attr)
#define side_arg_dynamic_string16(_v, _attr...) \
	_side_arg_dynamic_string(_v, SIDE_TYPE_BYTE_ORDER_HOST, 2, ##_attr)
#define side_arg_dynamic_string16_le(_v, _attr...) \
	_side_arg_dynamic_string(_v, SIDE_TYPE_BYTE_ORDER_LE, 2, ##_attr)
#define side_arg_dynamic_string16_be(_v, _attr...) \
	_side_arg_dynamic_string(_v, SIDE_TYPE_BYTE_ORDER_BE, 2, ##_attr)
#define side_arg_dynamic_string32(_v, _attr...) \
	_side_arg_dynamic_string(_v, SIDE_TYPE_BYTE_ORDER_HOST, 4, ##_attr)
#define side_arg_dynamic_string32_le(_v, _attr...) \
	_side_arg_dynamic_string(_v, SIDE_TYPE_BYTE_ORDER_LE, 4, ##_attr)
#define side_arg_dynamic_string32_be(_v, _attr...) \
	_side_arg_dynamic_string(_v, SIDE_TYPE_BYTE_ORDER_BE, 4, ##_attr)

#define _side_arg_dynamic_integer(_label, _member, _ctype, _v, _signed, _size, _order, _attr...) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(_label), \
		 .flags = 0, \
		 .u = {.side_dynamic = { \
			       .side_integer = { \
				       .type = {.attributes = _side_attr_or_none(_, ##_attr), \
						.integer_size = (_size), \
						.len_bits = 0, \
						.signedness = (_signed), \
						.byte_order = SIDE_ENUM_INIT(_order)}, \
				       .value = {._member = (_ctype)(_v)}}}}})
#define _side_arg_dyn_int(_member, _ctype, _v, _signed, _size, _order, _attr...) \
	_side_arg_dynamic_integer(SIDE_TYPE_DYNAMIC_INTEGER, _member, _ctype, _v, _signed, _size, \
				  _order, ##_attr)

#define side_arg_dynamic_u8(_v, _attr...) \
	_side_arg_dyn_int(side_u8, uint8_t, _v, 0, 1, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_s8(_v, _attr...) \
	_side_arg_dyn_int(side_s8, int8_t, _v, 1, 1, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_u16(_v, _attr...) \
	_side_arg_dyn_int(side_u16, uint16_t, _v, 0, 2, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_u32(_v, _attr...) \
	_side_arg_dyn_int(side_u32, uint32_t, _v, 0, 4, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_u64(_v, _attr...) \
	_side_arg_dyn_int(side_u64, uint64_t, _v, 0, 8, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_s16(_v, _attr...) \
	_side_arg_dyn_int(side_s16, int16_t, _v, 1, 2, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_s32(_v, _attr...) \
	_side_arg_dyn_int(side_s32, int32_t, _v, 1, 4, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_s64(_v, _attr...) \
	_side_arg_dyn_int(side_s64, int64_t, _v, 1, 8, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_u16_le(_v, _attr...) \
	_side_arg_dyn_int(side_u16, uint16_t, _v, 0, 2, _SIDE_LE, ##_attr)
#define side_arg_dynamic_u32_le(_v, _attr...) \
	_side_arg_dyn_int(side_u32, uint32_t, _v, 0, 4, _SIDE_LE, ##_attr)
#define side_arg_dynamic_u64_le(_v, _attr...) \
	_side_arg_dyn_int(side_u64, uint64_t, _v, 0, 8, _SIDE_LE, ##_attr)
#define side_arg_dynamic_s16_le(_v, _attr...) \
	_side_arg_dyn_int(side_s16, int16_t, _v, 1, 2, _SIDE_LE, ##_attr)
#define side_arg_dynamic_s32_le(_v, _attr...) \
	_side_arg_dyn_int(side_s32, int32_t, _v, 1, 4, _SIDE_LE, ##_attr)
#define side_arg_dynamic_s64_le(_v, _attr...) \
	_side_arg_dyn_int(side_s64, int64_t, _v, 1, 8, _SIDE_LE, ##_attr)
#define side_arg_dynamic_u16_be(_v, _attr...) \
	_side_arg_dyn_int(side_u16, uint16_t, _v, 0, 2, _SIDE_BE, ##_attr)
#define side_arg_dynamic_u32_be(_v, _attr...) \
	_side_arg_dyn_int(side_u32, uint32_t, _v, 0, 4, _SIDE_BE, ##_attr)
#define side_arg_dynamic_u64_be(_v, _attr...) \
	_side_arg_dyn_int(side_u64, uint64_t, _v, 0, 8, _SIDE_BE, ##_attr)
#define side_arg_dynamic_s16_be(_v, _attr...) \
	_side_arg_dyn_int(side_s16, int16_t, _v, 1, 2, _SIDE_BE, ##_attr)
#define side_arg_dynamic_s32_be(_v, _attr...) \
	_side_arg_dyn_int(side_s32, int32_t, _v, 1, 4, _SIDE_BE, ##_attr)
#define side_arg_dynamic_s64_be(_v, _attr...) \
	_side_arg_dyn_int(side_s64, int64_t, _v, 1, 8, _SIDE_BE, ##_attr)
#ifdef __SIZEOF_INT128__
#define side_arg_dynamic_u128(_v, _attr...) \
	_side_arg_dyn_int(side_u128, unsigned __int128, _v, 0, 16, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_s128(_v, _attr...) \
	_side_arg_dyn_int(side_s128, __int128, _v, 1, 16, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_u128_le(_v, _attr...) \
	_side_arg_dyn_int(side_u128, unsigned __int128, _v, 0, 16, _SIDE_LE, ##_attr)
#define side_arg_dynamic_s128_le(_v, _attr...) \
	_side_arg_dyn_int(side_s128, __int128, _v, 1, 16, _SIDE_LE, ##_attr)
#define side_arg_dynamic_u128_be(_v, _attr...) \
	_side_arg_dyn_int(side_u128, unsigned __int128, _v, 0, 16, _SIDE_BE, ##_attr)
#define side_arg_dynamic_s128_be(_v, _attr...) \
	_side_arg_dyn_int(side_s128, __int128, _v, 1, 16, _SIDE_BE, ##_attr)
#endif
#define _side_arg_dyn_ptr(_v, _order, _attr...) \
	_side_arg_dynamic_integer(SIDE_TYPE_DYNAMIC_POINTER, side_uptr, uintptr_t, \
				  (uintptr_t)(_v), 0, sizeof(uintptr_t), _order, ##_attr)
#define side_arg_dynamic_pointer(_v, _attr...) _side_arg_dyn_ptr(_v, _SIDE_HOST, ##_attr)
#define side_arg_dynamic_pointer_le(_v, _attr...) _side_arg_dyn_ptr(_v, _SIDE_LE, ##_attr)
#define side_arg_dynamic_pointer_be(_v, _attr...) _side_arg_dyn_ptr(_v, _SIDE_BE, ##_attr)

#define _side_arg_dynamic_float(_member, _ctype, _v, _size, _order, _attr...) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_FLOAT), \
		 .flags = 0, \
		 .u = {.side_dynamic = { \
			       .side_float = { \
				       .type = {.attributes = _side_attr_or_none(_, ##_attr), \
						.float_size = (_size), \
						.byte_order = SIDE_ENUM_INIT(_order)}, \
				       .value = {._member = (_ctype)(_v)}}}}})
#define side_arg_dynamic_float_binary32(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary32, float, _v, 4, _SIDE_FHOST, ##_attr)
#define side_arg_dynamic_float_binary64(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary64, double, _v, 8, _SIDE_FHOST, ##_attr)
#define side_arg_dynamic_float_binary32_le(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary32, float, _v, 4, _SIDE_LE, ##_attr)
#define side_arg_dynamic_float_binary64_le(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary64, double, _v, 8, _SIDE_LE, ##_attr)
#define side_arg_dynamic_float_binary32_be(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary32, float, _v, 4, _SIDE_BE, ##_attr)
#define side_arg_dynamic_float_binary64_be(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary64, double, _v, 8, _SIDE_BE, ##_attr)
#ifdef SIDE_HAVE_FLOAT16
#define side_arg_dynamic_float_binary16(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary16, _Float16, _v, 2, _SIDE_FHOST, ##_attr)
#define side_arg_dynamic_float_binary16_le(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary16, _Float16, _v, 2, _SIDE_LE, ##_attr)
#define side_arg_dynamic_float_binary16_be(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary16, _Float16, _v, 2, _SIDE_BE, ##_attr)
#endif
#ifdef SIDE_HAVE_FLOAT128
#define side_arg_dynamic_float_binary128(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary128, _Float128, _v, 16, _SIDE_FHOST, ##_attr)
#define side_arg_dynamic_float_binary128_le(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary128, _Float128, _v, 16, _SIDE_LE, ##_attr)
#define side_arg_dynamic_float_binary128_be(_v, _attr...) \
	_side_arg_dynamic_float(side_float_binary128, _Float128, _v, 16, _SIDE_BE, ##_attr)
#endif

/*
 * Dynamic compound values: vla, struct and struct visitor take the address
 * of their definition, the vla visitor its name, as libside spells them.
 */
#define side_arg_dynamic_vla(_vla) \
	_side_arg_dynamic({.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_VLA), \
			   .flags = 0, \
			   .u = {.side_dynamic = {.side_dynamic_vla = SIDE_PTR_INIT(_vla)}}})
#define side_arg_dynamic_struct(_struct) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_STRUCT), \
		 .flags = 0, \
		 .u = {.side_dynamic = {.side_dynamic_struct = SIDE_PTR_INIT(_struct)}}})
#define side_arg_dynamic_vla_visitor(_visitor) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_VLA_VISITOR), \
		 .flags = 0, \
		 .u = {.side_dynamic = {.side_dynamic_vla_visitor = _side_ref(_visitor)}}})
#define side_arg_dynamic_struct_visitor(_visitor) \
	_side_arg_dynamic( \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC_STRUCT_VISITOR), \
		 .flags = 0, \
		 .u = {.side_dynamic = {.side_dynamic_struct_visitor = SIDE_PTR_INIT(_visitor)}}})

#define side_arg_dynamic_define_vec(_identifier, _sav, _attr...) \
	const struct side_arg _identifier##_vec[] = {SIDE_SC_ARG_INITS(_sav)}; \
	const struct side_arg_dynamic_vla _identifier = { \
		.sav = SIDE_PTR_INIT(_identifier##_vec), \
		.len = SIDE_ARRAY_SIZE(_identifier##_vec), \
		.attributes = _side_attr_or_none(_, ##_attr), \
	}
#define side_arg_dynamic_define_struct(_identifier, _struct_fields, _attr...) \
	const struct side_arg_dynamic_field _identifier##_fields[] = {_struct_fields}; \
	const struct side_arg_dynamic_struct _identifier = { \
		.fields = SIDE_PTR_INIT(_identifier##_fields), \
		.len = SIDE_ARRAY_SIZE(_identifier##_fields), \
		.attributes = _side_attr_or_none(_, ##_attr), \
	}
#define side_arg_dynamic_define_struct_visitor(_identifier, _visitor, _ctx, _attr...) \
	struct side_arg_dynamic_struct_visitor _identifier = { \
		.visitor = SIDE_PTR_INIT(_visitor), \
		.app_ctx = SIDE_PTR_INIT(_ctx), \
		.cached_arg = SIDE_PTR_INIT(NULL), \
		.attributes = _side_attr_or_none(_, ##_attr), \
	}
#define side_arg_dynamic_define_vla_visitor(_identifier, _visitor, _ctx, _attr...) \
	struct side_arg_dynamic_vla_visitor _identifier = { \
		.visitor = SIDE_PTR_INIT(_visitor), \
		.app_ctx = SIDE_PTR_INIT(_ctx), \
		.cached_arg = SIDE_PTR_INIT(NULL), \
		.attributes = _side_attr_or_none(_, ##_attr), \
	}
/* A named dynamic field, for variadic events and dynamic structs. */
#define side_arg_dynamic_field(_name, _elem) \
	{ \
		.field_name = SIDE_PTR_INIT(_name), .elem = SIDE_SC_ARG_INIT(_elem) \
	}

#endif /* SIDE_DYNAMIC_H */
