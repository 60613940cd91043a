/* SPDX-License-Identifier: MIT */
/*
 * Field descriptions (side_field_*), type descriptions (side_type_*) and
 * call-site arguments (side_arg_*), source-compatible with libside's C API,
 * in C and in C++.
 *
 * Types, fields and arguments expand to tuples that carry a type tag for
 * the compile-time checks (side/static-check.h); the forms that take
 * lists turn them into the ABI's initializers.
 *
 * Compound references follow libside's current C API: fields, types and
 * arguments name their definition or argument vector, and the macro takes
 * its address (side_field_struct("s", def), side_arg_struct(vec)), for
 * struct, array, vla, vla visitor, variant, optional, gather struct and
 * gather enum. Passing an address instead (the convention before late 2024)
 * fails to compile with the message of _side_ref() below. Three forms keep
 * taking pointers, as in libside: the mappings of side_field_enum and
 * side_field_enum_bitmap, and side_arg_dynamic_vla/struct/struct_visitor.
 * Arrays and VLAs also accept an inline form (element type, length), which
 * libside lacks; the number of arguments tells the two apart.
 */
#ifndef SIDE_TYPES_H
#define SIDE_TYPES_H

#include <stdint.h>
#include <side/macros.h>
#include <side/abi/type-argument.h>
#include <side/static-check.h>

/* Number of macro arguments (1 to 8), for forms that differ by arity. */
#define _SIDE_NARG(...) _SIDE_NARG_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define _SIDE_NARG_(_1, _2, _3, _4, _5, _6, _7, _8, _n, ...) _n

/*
 * binary16 and binary128 exist only where the ABI value union has them
 * (glibc's __HAVE_FLOAT16/__HAVE_FLOAT128, seen when <stdlib.h> or <math.h>
 * is included before the SIDE headers).
 */
#if defined(__HAVE_FLOAT16) && __HAVE_FLOAT16
#define SIDE_HAVE_FLOAT16 1
#endif
#if defined(__HAVE_FLOAT128) && __HAVE_FLOAT128
#define SIDE_HAVE_FLOAT128 1
#endif

/* Byte order of this host, as libside's side/endian.h spells it. */
#define SIDE_LITTLE_ENDIAN __ORDER_LITTLE_ENDIAN__
#define SIDE_BIG_ENDIAN __ORDER_BIG_ENDIAN__
#define SIDE_BYTE_ORDER __BYTE_ORDER__
/* clang does not define __FLOAT_WORD_ORDER__: floats follow the byte order. */
#ifdef __FLOAT_WORD_ORDER__
#define SIDE_FLOAT_WORD_ORDER __FLOAT_WORD_ORDER__
#else
#define SIDE_FLOAT_WORD_ORDER __BYTE_ORDER__
#endif
#define side_bswap_16(x) __builtin_bswap16(x)
#define side_bswap_32(x) __builtin_bswap32(x)
#define side_bswap_64(x) __builtin_bswap64(x)
#define side_bswap_pointer(x) side_bswap_64(x)
/* Reverses the 16 bytes at p in place (binary128 and 128-bit integers). */
static inline void side_bswap_128p(char *p)
{
	int i;

	for (i = 0; i < 8; i++) {
		char c = p[i];

		p[i] = p[15 - i];
		p[15 - i] = c;
	}
}

/*
 * Arrays written in place. C compound literals have static storage at
 * file scope and live to the end of the block in a function. A C++
 * compound literal is a temporary: at namespace scope both compilers give
 * a const one static storage, but in a function it dies with its
 * full-expression, so function-scope lists (dynamic attributes) are copied
 * to the caller's stack frame instead (side_cxx_stack_copy).
 */
#define _SIDE_LITERAL_LEN(_type, ...) SIDE_ARRAY_SIZE(((_type[]){__VA_ARGS__}))
#ifdef __cplusplus
template <typename T> T *side_cxx_stack_copy(void *dst, const T *src, size_t n)
{
	return (T *)__builtin_memcpy(dst, src, n * sizeof(T));
}

#define _SIDE_STACK_LITERAL(_type, ...) \
	side_cxx_stack_copy(__builtin_alloca(sizeof((_type[]){__VA_ARGS__})), \
			    (_type[]){__VA_ARGS__}, _SIDE_LITERAL_LEN(_type, __VA_ARGS__))
#else
#define _SIDE_STACK_LITERAL(_type, ...) ((_type[]){__VA_ARGS__})
#endif
#define _SIDE_LITERAL(_type, ...) ((_type[]){__VA_ARGS__})

/* Attributes */
#define side_attr_list(...) \
	{ \
		.elements = SIDE_PTR_INIT(_SIDE_LITERAL(const struct side_attr, __VA_ARGS__)), \
		.length = _SIDE_LITERAL_LEN(const struct side_attr, __VA_ARGS__), \
	}
/* Attributes of dynamic values, built in a function. */
#define side_dynamic_attr_list(...) \
	{ \
		.elements = \
			SIDE_PTR_INIT(_SIDE_STACK_LITERAL(const struct side_attr, __VA_ARGS__)), \
		.length = _SIDE_LITERAL_LEN(const struct side_attr, __VA_ARGS__), \
	}
#define _side_no_attr() \
	{ \
		.elements = SIDE_PTR_INIT(NULL), .length = 0 \
	}
/*
 * Selects the optional trailing attribute list, or none. An expanded list
 * is a brace initializer whose commas split it into several macro
 * arguments; they are passed on together, never picked one by one.
 */
#define _side_attr_or_none(_dummy, ...) SIDE_CAT(_side_attr_, __VA_OPT__(given))(__VA_ARGS__)
#define _side_attr_(...) _side_no_attr()
#define _side_attr_given(...) __VA_ARGS__
/*
 * libside's name for the selection: SIDE_DEFAULT_ATTR(_, ##attr, default)
 * is the attribute list if given, else the default.
 */
#define SIDE_DEFAULT_ATTR(_dummy, _first, ...) _first

#define side_attr(_key, _value) \
	{ \
		.key = {.p = SIDE_PTR_INIT(_key), \
			.unit_size = 1, \
			.byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST)}, \
		.value = SIDE_PARAM(_value), \
	}
#define side_attr_null(_v) \
	{ \
		.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_NULL) \
	}
#define side_attr_bool(_v) \
	{ \
		.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_BOOL), .u = {.bool_value = !!(_v) } \
	}
#define _side_attr_int(_label, _member, _ctype, _v) \
	{ \
		.type = SIDE_ENUM_INIT(_label), .u = {.integer_value = {._member = (_ctype)(_v)} } \
	}
#define side_attr_u8(_v) _side_attr_int(SIDE_ATTR_TYPE_U8, side_u8, uint8_t, _v)
#define side_attr_u16(_v) _side_attr_int(SIDE_ATTR_TYPE_U16, side_u16, uint16_t, _v)
#define side_attr_u32(_v) _side_attr_int(SIDE_ATTR_TYPE_U32, side_u32, uint32_t, _v)
#define side_attr_u64(_v) _side_attr_int(SIDE_ATTR_TYPE_U64, side_u64, uint64_t, _v)
#define side_attr_s8(_v) _side_attr_int(SIDE_ATTR_TYPE_S8, side_s8, int8_t, _v)
#define side_attr_s16(_v) _side_attr_int(SIDE_ATTR_TYPE_S16, side_s16, int16_t, _v)
#define side_attr_s32(_v) _side_attr_int(SIDE_ATTR_TYPE_S32, side_s32, int32_t, _v)
#define side_attr_s64(_v) _side_attr_int(SIDE_ATTR_TYPE_S64, side_s64, int64_t, _v)
#ifdef __SIZEOF_INT128__
#define side_attr_u128(_v) _side_attr_int(SIDE_ATTR_TYPE_U128, side_u128, unsigned __int128, _v)
#define side_attr_s128(_v) _side_attr_int(SIDE_ATTR_TYPE_S128, side_s128, __int128, _v)
#endif
#define _side_attr_float(_label, _member, _ctype, _v) \
	{ \
		.type = SIDE_ENUM_INIT(_label), .u = {.float_value = {._member = (_ctype)(_v)} } \
	}
#ifdef SIDE_HAVE_FLOAT16
#define side_attr_float_binary16(_v) \
	_side_attr_float(SIDE_ATTR_TYPE_FLOAT_BINARY16, side_float_binary16, _Float16, _v)
#endif
#define side_attr_float_binary32(_v) \
	_side_attr_float(SIDE_ATTR_TYPE_FLOAT_BINARY32, side_float_binary32, float, _v)
#define side_attr_float_binary64(_v) \
	_side_attr_float(SIDE_ATTR_TYPE_FLOAT_BINARY64, side_float_binary64, double, _v)
#ifdef SIDE_HAVE_FLOAT128
#define side_attr_float_binary128(_v) \
	_side_attr_float(SIDE_ATTR_TYPE_FLOAT_BINARY128, side_float_binary128, _Float128, _v)
#endif
#define _side_attr_string(_v, _unit) \
	{ \
		.type = SIDE_ENUM_INIT(SIDE_ATTR_TYPE_STRING), \
		.u = {.string_value = {.p = SIDE_PTR_INIT(_v), \
				       .unit_size = (_unit), \
				       .byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST)} } \
	}
#define side_attr_string(_v) _side_attr_string(_v, 1)
#define side_attr_string16(_v) _side_attr_string(_v, 2)
#define side_attr_string32(_v) _side_attr_string(_v, 4)

/*
 * Lists. A field list stays one macro argument (parenthesized) so that the
 * event definition can walk it; an argument list is its elements.
 */
#define side_field_list(...) (__VA_ARGS__)
#define side_arg_list(...) __VA_ARGS__

/* The ABI's field array of a field list: pointer and length. */
#define _side_fields_ref(_fields) \
	{ \
		.elements = SIDE_PTR_INIT(_SIDE_LITERAL(const struct side_event_field, \
							SIDE_SC_FIELD_INITS _fields)), \
		.length = _SIDE_LITERAL_LEN(const struct side_event_field, \
					    SIDE_SC_FIELD_INITS _fields), \
	}

#define _side_field(_name, _type) \
	SIDE_SC_FIELD(SIDE_SC_TYPE_TAG(_type), _name, \
		      {.field_name = SIDE_PTR_INIT(_name), .side_type = SIDE_SC_TYPE_INIT(_type)})

/*
 * The pointer slot of a definition or argument vector given by name. Code
 * written for the older convention passes an address; the check (in C in
 * the unused upper half of the slot, free and valid in file-scope
 * initializers) then says what to write, next to the compiler's own
 * complaint about "&".
 */
#define _SIDE_REF_MSG \
	"SIDE: name the definition or argument vector, not its address: " \
	"side_field_struct(\"f\", def), side_arg_struct(vec)"
#ifdef __cplusplus
template <typename T> struct side_cxx_unref {
	typedef T type;
};
template <typename T> struct side_cxx_unref<T &> {
	typedef T type;
};
template <typename T> struct side_cxx_is_pointer {
	enum { value = 0 };
};
template <typename T> struct side_cxx_is_pointer<T *> {
	enum { value = 1 };
};
template <typename T> struct side_cxx_is_pointer<T *const> {
	enum { value = 1 };
};

template <typename T> constexpr typename side_cxx_unref<T>::type *side_cxx_ref(T &&def)
{
	static_assert(!side_cxx_is_pointer<typename side_cxx_unref<T>::type>::value, _SIDE_REF_MSG);
	return &def;
}
#define _side_ref(_def) \
	{ \
		.v = { side_cxx_ref(_def), 0 } \
	}
#else
#define _side_ref(_def) \
	{ \
		.v = { &(_def), \
		       (void *)(0 * sizeof(struct { \
					_Static_assert(__builtin_classify_type(_def) != \
							       5 /* pointer */, \
						       _SIDE_REF_MSG); \
					char c; \
				})) } \
	}
#endif

/* Basic types */
#define side_type_null(_attr...) \
	SIDE_SC_TYPE(SIDE_SC_TAG(null), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_NULL), \
		      .u = {.side_null = {.attributes = _side_attr_or_none(_, ##_attr)}}})
#define side_type_bool(_attr...) \
	SIDE_SC_TYPE( \
		SIDE_SC_TAG(bool), \
		{.type = SIDE_ENUM_INIT(SIDE_TYPE_BOOL), \
		 .u = {.side_bool = {.attributes = _side_attr_or_none(_, ##_attr), \
				     .bool_size = sizeof(uint8_t), \
				     .len_bits = 0, \
				     .byte_order = SIDE_ENUM_INIT(SIDE_TYPE_BYTE_ORDER_HOST)}}})
#define side_type_byte(_attr...) \
	SIDE_SC_TYPE(SIDE_SC_TAG(byte), \
		     {.type = SIDE_ENUM_INIT(SIDE_TYPE_BYTE), \
		      .u = {.side_byte = {.attributes = _side_attr_or_none(_, ##_attr)}}})
#define side_type_dynamic() \
	SIDE_SC_TYPE(SIDE_SC_TAG(dynamic), {.type = SIDE_ENUM_INIT(SIDE_TYPE_DYNAMIC), .u = {}})

#define _side_type_string(_tag, _label, _unit, _order, _attr) \
	SIDE_SC_TYPE(SIDE_SC_TAG(_tag), \
		     {.type = SIDE_ENUM_INIT(_label), \
		      .u = {.side_string = {.attributes = _attr, \
					    .unit_size = (_unit), \
					    .byte_order = SIDE_ENUM_INIT(_order)}}})
#define side_type_string(_attr...) \
	_side_type_string(string, SIDE_TYPE_STRING_UTF8, 1, SIDE_TYPE_BYTE_ORDER_HOST, \
			  _side_attr_or_none(_, ##_attr))
#define side_type_string16(_attr...) \
	_side_type_string(string16, SIDE_TYPE_STRING_UTF16, 2, SIDE_TYPE_BYTE_ORDER_HOST, \
			  _side_attr_or_none(_, ##_attr))
#define side_type_string32(_attr...) \
	_side_type_string(string32, SIDE_TYPE_STRING_UTF32, 4, SIDE_TYPE_BYTE_ORDER_HOST, \
			  _side_attr_or_none(_, ##_attr))
#define side_type_string16_le(_attr...) \
	_side_type_string(string16, SIDE_TYPE_STRING_UTF16, 2, SIDE_TYPE_BYTE_ORDER_LE, \
			  _side_attr_or_none(_, ##_attr))
#define side_type_string32_le(_attr...) \
	_side_type_string(string32, SIDE_TYPE_STRING_UTF32, 4, SIDE_TYPE_BYTE_ORDER_LE, \
			  _side_attr_or_none(_, ##_attr))
#define side_type_string16_be(_attr...) \
	_side_type_string(string16, SIDE_TYPE_STRING_UTF16, 2, SIDE_TYPE_BYTE_ORDER_BE, \
			  _side_attr_or_none(_, ##_attr))
#define side_type_string32_be(_attr...) \
	_side_type_string(string32, SIDE_TYPE_STRING_UTF32, 4, SIDE_TYPE_BYTE_ORDER_BE, \
			  _side_attr_or_none(_, ##_attr))

#define _side_type_integer(_tag, _label, _signed, _size, _order, _attr) \
	SIDE_SC_TYPE(SIDE_SC_TAG(_tag), \
		     {.type = SIDE_ENUM_INIT(_label), \
		      .u = {.side_integer = {.attributes = _attr, \
					     .integer_size = (_size), \
					     .len_bits = 0, \
					     .signedness = (_signed), \
					     .byte_order = SIDE_ENUM_INIT(_order)}}})
#define _side_type_int(_tag, _label, _signed, _size, _order, _attr...) \
	_side_type_integer(_tag, _label, _signed, _size, _order, _side_attr_or_none(_, ##_attr))
#define _SIDE_HOST SIDE_TYPE_BYTE_ORDER_HOST
#define _SIDE_LE SIDE_TYPE_BYTE_ORDER_LE
#define _SIDE_BE SIDE_TYPE_BYTE_ORDER_BE

#define side_type_u8(_attr...) _side_type_int(u8, SIDE_TYPE_U8, 0, 1, _SIDE_HOST, ##_attr)
#define side_type_u16(_attr...) _side_type_int(u16, SIDE_TYPE_U16, 0, 2, _SIDE_HOST, ##_attr)
#define side_type_u32(_attr...) _side_type_int(u32, SIDE_TYPE_U32, 0, 4, _SIDE_HOST, ##_attr)
#define side_type_u64(_attr...) _side_type_int(u64, SIDE_TYPE_U64, 0, 8, _SIDE_HOST, ##_attr)
#define side_type_s8(_attr...) _side_type_int(s8, SIDE_TYPE_S8, 1, 1, _SIDE_HOST, ##_attr)
#define side_type_s16(_attr...) _side_type_int(s16, SIDE_TYPE_S16, 1, 2, _SIDE_HOST, ##_attr)
#define side_type_s32(_attr...) _side_type_int(s32, SIDE_TYPE_S32, 1, 4, _SIDE_HOST, ##_attr)
#define side_type_s64(_attr...) _side_type_int(s64, SIDE_TYPE_S64, 1, 8, _SIDE_HOST, ##_attr)
#define side_type_pointer(_attr...) \
	_side_type_int(pointer, SIDE_TYPE_POINTER, 0, sizeof(uintptr_t), _SIDE_HOST, ##_attr)
#define side_type_u16_le(_attr...) _side_type_int(u16, SIDE_TYPE_U16, 0, 2, _SIDE_LE, ##_attr)
#define side_type_u32_le(_attr...) _side_type_int(u32, SIDE_TYPE_U32, 0, 4, _SIDE_LE, ##_attr)
#define side_type_u64_le(_attr...) _side_type_int(u64, SIDE_TYPE_U64, 0, 8, _SIDE_LE, ##_attr)
#define side_type_s16_le(_attr...) _side_type_int(s16, SIDE_TYPE_S16, 1, 2, _SIDE_LE, ##_attr)
#define side_type_s32_le(_attr...) _side_type_int(s32, SIDE_TYPE_S32, 1, 4, _SIDE_LE, ##_attr)
#define side_type_s64_le(_attr...) _side_type_int(s64, SIDE_TYPE_S64, 1, 8, _SIDE_LE, ##_attr)
#define side_type_pointer_le(_attr...) \
	_side_type_int(pointer, SIDE_TYPE_POINTER, 0, sizeof(uintptr_t), _SIDE_LE, ##_attr)
#define side_type_u16_be(_attr...) _side_type_int(u16, SIDE_TYPE_U16, 0, 2, _SIDE_BE, ##_attr)
#define side_type_u32_be(_attr...) _side_type_int(u32, SIDE_TYPE_U32, 0, 4, _SIDE_BE, ##_attr)
#define side_type_u64_be(_attr...) _side_type_int(u64, SIDE_TYPE_U64, 0, 8, _SIDE_BE, ##_attr)
#define side_type_s16_be(_attr...) _side_type_int(s16, SIDE_TYPE_S16, 1, 2, _SIDE_BE, ##_attr)
#define side_type_s32_be(_attr...) _side_type_int(s32, SIDE_TYPE_S32, 1, 4, _SIDE_BE, ##_attr)
#define side_type_s64_be(_attr...) _side_type_int(s64, SIDE_TYPE_S64, 1, 8, _SIDE_BE, ##_attr)
#define side_type_pointer_be(_attr...) \
	_side_type_int(pointer, SIDE_TYPE_POINTER, 0, sizeof(uintptr_t), _SIDE_BE, ##_attr)
/* One byte has no byte order; libside spells these anyway. */
#define side_type_u8_le side_type_u8
#define side_type_u8_be side_type_u8
#define side_type_s8_le side_type_s8
#define side_type_s8_be side_type_s8
#ifdef __SIZEOF_INT128__
#define side_type_u128(_attr...) _side_type_int(u128, SIDE_TYPE_U128, 0, 16, _SIDE_HOST, ##_attr)
#define side_type_s128(_attr...) _side_type_int(s128, SIDE_TYPE_S128, 1, 16, _SIDE_HOST, ##_attr)
#define side_type_u128_le(_attr...) _side_type_int(u128, SIDE_TYPE_U128, 0, 16, _SIDE_LE, ##_attr)
#define side_type_s128_le(_attr...) _side_type_int(s128, SIDE_TYPE_S128, 1, 16, _SIDE_LE, ##_attr)
#define side_type_u128_be(_attr...) _side_type_int(u128, SIDE_TYPE_U128, 0, 16, _SIDE_BE, ##_attr)
#define side_type_s128_be(_attr...) _side_type_int(s128, SIDE_TYPE_S128, 1, 16, _SIDE_BE, ##_attr)
#endif

#define _side_type_float(_tag, _label, _size, _order, _attr...) \
	SIDE_SC_TYPE(SIDE_SC_TAG(_tag), \
		     {.type = SIDE_ENUM_INIT(_label), \
		      .u = {.side_float = {.attributes = _side_attr_or_none(_, ##_attr), \
					   .float_size = (_size), \
					   .byte_order = SIDE_ENUM_INIT(_order)}}})
#define _SIDE_FHOST SIDE_TYPE_FLOAT_WORD_ORDER_HOST
#define side_type_float_binary32(_attr...) \
	_side_type_float(float32, SIDE_TYPE_FLOAT_BINARY32, 4, _SIDE_FHOST, ##_attr)
#define side_type_float_binary64(_attr...) \
	_side_type_float(float64, SIDE_TYPE_FLOAT_BINARY64, 8, _SIDE_FHOST, ##_attr)
#define side_type_float_binary32_le(_attr...) \
	_side_type_float(float32, SIDE_TYPE_FLOAT_BINARY32, 4, _SIDE_LE, ##_attr)
#define side_type_float_binary64_le(_attr...) \
	_side_type_float(float64, SIDE_TYPE_FLOAT_BINARY64, 8, _SIDE_LE, ##_attr)
#define side_type_float_binary32_be(_attr...) \
	_side_type_float(float32, SIDE_TYPE_FLOAT_BINARY32, 4, _SIDE_BE, ##_attr)
#define side_type_float_binary64_be(_attr...) \
	_side_type_float(float64, SIDE_TYPE_FLOAT_BINARY64, 8, _SIDE_BE, ##_attr)
#ifdef SIDE_HAVE_FLOAT16
#define side_type_float_binary16(_attr...) \
	_side_type_float(float16, SIDE_TYPE_FLOAT_BINARY16, 2, _SIDE_FHOST, ##_attr)
#define side_type_float_binary16_le(_attr...) \
	_side_type_float(float16, SIDE_TYPE_FLOAT_BINARY16, 2, _SIDE_LE, ##_attr)
#define side_type_float_binary16_be(_attr...) \
	_side_type_float(float16, SIDE_TYPE_FLOAT_BINARY16, 2, _SIDE_BE, ##_attr)
#endif
#ifdef SIDE_HAVE_FLOAT128
#define side_type_float_binary128(_attr...) \
	_side_type_float(float128, SIDE_TYPE_FLOAT_BINARY128, 16, _SIDE_FHOST, ##_attr)
#define side_type_float_binary128_le(_attr...) \
	_side_type_float(float128, SIDE_TYPE_FLOAT_BINARY128, 16, _SIDE_LE, ##_attr)
#define side_type_float_binary128_be(_attr...) \
	_side_type_float(float128, SIDE_TYPE_FLOAT_BINARY128, 16, _SIDE_BE, ##_attr)
#endif

#define side_field_null(_name, _attr...) _side_field(_name, side_type_null(_attr))
#define side_field_bool(_name, _attr...) _side_field(_name, side_type_bool(_attr))
#define side_field_byte(_name, _attr...) _side_field(_name, side_type_byte(_attr))
#define side_field_dynamic(_name) _side_field(_name, side_type_dynamic())
#define side_field_string(_name, _attr...) _side_field(_name, side_type_string(_attr))
#define side_field_string16(_name, _attr...) _side_field(_name, side_type_string16(_attr))
#define side_field_string32(_name, _attr...) _side_field(_name, side_type_string32(_attr))
#define side_field_string16_le(_name, _attr...) _side_field(_name, side_type_string16_le(_attr))
#define side_field_string32_le(_name, _attr...) _side_field(_name, side_type_string32_le(_attr))
#define side_field_string16_be(_name, _attr...) _side_field(_name, side_type_string16_be(_attr))
#define side_field_string32_be(_name, _attr...) _side_field(_name, side_type_string32_be(_attr))
#define side_field_u8(_name, _attr...) _side_field(_name, side_type_u8(_attr))
#define side_field_u16(_name, _attr...) _side_field(_name, side_type_u16(_attr))
#define side_field_u32(_name, _attr...) _side_field(_name, side_type_u32(_attr))
#define side_field_u64(_name, _attr...) _side_field(_name, side_type_u64(_attr))
#define side_field_s8(_name, _attr...) _side_field(_name, side_type_s8(_attr))
#define side_field_s16(_name, _attr...) _side_field(_name, side_type_s16(_attr))
#define side_field_s32(_name, _attr...) _side_field(_name, side_type_s32(_attr))
#define side_field_s64(_name, _attr...) _side_field(_name, side_type_s64(_attr))
#define side_field_pointer(_name, _attr...) _side_field(_name, side_type_pointer(_attr))
#define side_field_u8_le side_field_u8
#define side_field_u8_be side_field_u8
#define side_field_s8_le side_field_s8
#define side_field_s8_be side_field_s8
#define side_field_u16_le(_name, _attr...) _side_field(_name, side_type_u16_le(_attr))
#define side_field_u32_le(_name, _attr...) _side_field(_name, side_type_u32_le(_attr))
#define side_field_u64_le(_name, _attr...) _side_field(_name, side_type_u64_le(_attr))
#define side_field_s16_le(_name, _attr...) _side_field(_name, side_type_s16_le(_attr))
#define side_field_s32_le(_name, _attr...) _side_field(_name, side_type_s32_le(_attr))
#define side_field_s64_le(_name, _attr...) _side_field(_name, side_type_s64_le(_attr))
#define side_field_pointer_le(_name, _attr...) _side_field(_name, side_type_pointer_le(_attr))
#define side_field_u16_be(_name, _attr...) _side_field(_name, side_type_u16_be(_attr))
#define side_field_u32_be(_name, _attr...) _side_field(_name, side_type_u32_be(_attr))
#define side_field_u64_be(_name, _attr...) _side_field(_name, side_type_u64_be(_attr))
#define side_field_s16_be(_name, _attr...) _side_field(_name, side_type_s16_be(_attr))
#define side_field_s32_be(_name, _attr...) _side_field(_name, side_type_s32_be(_attr))
#define side_field_s64_be(_name, _attr...) _side_field(_name, side_type_s64_be(_attr))
#define side_field_pointer_be(_name, _attr...) _side_field(_name, side_type_pointer_be(_attr))
#ifdef __SIZEOF_INT128__
#define side_field_u128(_name, _attr...) _side_field(_name, side_type_u128(_attr))
#define side_field_s128(_name, _attr...) _side_field(_name, side_type_s128(_attr))
#define side_field_u128_le(_name, _attr...) _side_field(_name, side_type_u128_le(_attr))
#define side_field_s128_le(_name, _attr...) _side_field(_name, side_type_s128_le(_attr))
#define side_field_u128_be(_name, _attr...) _side_field(_name, side_type_u128_be(_attr))
#define side_field_s128_be(_name, _attr...) _side_field(_name, side_type_s128_be(_attr))
#endif
#define side_field_float_binary32(_name, _attr...) \
	_side_field(_name, side_type_float_binary32(_attr))
#define side_field_float_binary64(_name, _attr...) \
	_side_field(_name, side_type_float_binary64(_attr))
#define side_field_float_binary32_le(_name, _attr...) \
	_side_field(_name, side_type_float_binary32_le(_attr))
#define side_field_float_binary64_le(_name, _attr...) \
	_side_field(_name, side_type_float_binary64_le(_attr))
#define side_field_float_binary32_be(_name, _attr...) \
	_side_field(_name, side_type_float_binary32_be(_attr))
#define side_field_float_binary64_be(_name, _attr...) \
	_side_field(_name, side_type_float_binary64_be(_attr))
#ifdef SIDE_HAVE_FLOAT16
#define side_field_float_binary16(_name, _attr...) \
	_side_field(_name, side_type_float_binary16(_attr))
#define side_field_float_binary16_le(_name, _attr...) \
	_side_field(_name, side_type_float_binary16_le(_attr))
#define side_field_float_binary16_be(_name, _attr...) \
	_side_field(_name, side_type_float_binary16_be(_attr))
#endif
#ifdef SIDE_HAVE_FLOAT128
#define side_field_float_binary128(_name, _attr...) \
	_side_field(_name, side_type_float_binary128(_attr))
#define side_field_float_binary128_le(_name, _attr...) \
	_side_field(_name, side_type_float_binary128_le(_attr))
#define side_field_float_binary128_be(_name, _attr...) \
	_side_field(_name, side_type_float_binary128_be(_attr))
#endif

/*
 * Call-site arguments of basic types. Values are converted to the member's
 * type explicitly: C++ forbids narrowing in brace initializers.
 */
#define side_arg_null(_v...) \
	SIDE_SC_ARG(SIDE_SC_TAG(null), \
		    {.type = SIDE_ENUM_INIT(SIDE_TYPE_NULL), .flags = 0, .u = {}})
#define side_arg_bool(_v) \
	SIDE_SC_ARG(SIDE_SC_TAG(bool), \
		    {.type = SIDE_ENUM_INIT(SIDE_TYPE_BOOL), \
		     .flags = 0, \
		     .u = {.side_static = {.bool_value = {.side_bool8 = (uint8_t) !!(_v)}}}})
#define side_arg_byte(_v) \
	SIDE_SC_ARG(SIDE_SC_TAG(byte), {.type = SIDE_ENUM_INIT(SIDE_TYPE_BYTE), \
					.flags = 0, \
					.u = {.side_static = {.byte_value = (uint8_t)(_v)}}})
#define _side_arg_string(_tag, _label, _v) \
	SIDE_SC_ARG(SIDE_SC_TAG(_tag), \
		    {.type = SIDE_ENUM_INIT(_label), \
		     .flags = 0, \
		     .u = {.side_static = {.string_value = SIDE_PTR_INIT(_v)}}})
#define side_arg_string(_v) _side_arg_string(string, SIDE_TYPE_STRING_UTF8, _v)
#define side_arg_string16(_v) _side_arg_string(string16, SIDE_TYPE_STRING_UTF16, _v)
#define side_arg_string32(_v) _side_arg_string(string32, SIDE_TYPE_STRING_UTF32, _v)
#define _side_arg_int(_tag, _label, _member, _ctype, _v) \
	SIDE_SC_ARG(SIDE_SC_TAG(_tag), \
		    {.type = SIDE_ENUM_INIT(_label), \
		     .flags = 0, \
		     .u = {.side_static = {.integer_value = {._member = (_ctype)(_v)}}}})
#define side_arg_u8(_v) _side_arg_int(u8, SIDE_TYPE_U8, side_u8, uint8_t, _v)
#define side_arg_u16(_v) _side_arg_int(u16, SIDE_TYPE_U16, side_u16, uint16_t, _v)
#define side_arg_u32(_v) _side_arg_int(u32, SIDE_TYPE_U32, side_u32, uint32_t, _v)
#define side_arg_u64(_v) _side_arg_int(u64, SIDE_TYPE_U64, side_u64, uint64_t, _v)
#define side_arg_s8(_v) _side_arg_int(s8, SIDE_TYPE_S8, side_s8, int8_t, _v)
#define side_arg_s16(_v) _side_arg_int(s16, SIDE_TYPE_S16, side_s16, int16_t, _v)
#define side_arg_s32(_v) _side_arg_int(s32, SIDE_TYPE_S32, side_s32, int32_t, _v)
#define side_arg_s64(_v) _side_arg_int(s64, SIDE_TYPE_S64, side_s64, int64_t, _v)
#ifdef __SIZEOF_INT128__
#define side_arg_u128(_v) _side_arg_int(u128, SIDE_TYPE_U128, side_u128, unsigned __int128, _v)
#define side_arg_s128(_v) _side_arg_int(s128, SIDE_TYPE_S128, side_s128, __int128, _v)
#endif
#define side_arg_pointer(_v) \
	_side_arg_int(pointer, SIDE_TYPE_POINTER, side_uptr, uintptr_t, (uintptr_t)(_v))
#define _side_arg_float(_tag, _label, _member, _ctype, _v) \
	SIDE_SC_ARG(SIDE_SC_TAG(_tag), \
		    {.type = SIDE_ENUM_INIT(_label), \
		     .flags = 0, \
		     .u = {.side_static = {.float_value = {._member = (_ctype)(_v)}}}})
#ifdef SIDE_HAVE_FLOAT16
#define side_arg_float_binary16(_v) \
	_side_arg_float(float16, SIDE_TYPE_FLOAT_BINARY16, side_float_binary16, _Float16, _v)
#endif
#define side_arg_float_binary32(_v) \
	_side_arg_float(float32, SIDE_TYPE_FLOAT_BINARY32, side_float_binary32, float, _v)
#define side_arg_float_binary64(_v) \
	_side_arg_float(float64, SIDE_TYPE_FLOAT_BINARY64, side_float_binary64, double, _v)
#ifdef SIDE_HAVE_FLOAT128
#define side_arg_float_binary128(_v) \
	_side_arg_float(float128, SIDE_TYPE_FLOAT_BINARY128, side_float_binary128, _Float128, _v)
#endif

/*
 * Arguments for fields of an explicit byte order: the value is passed as
 * is, already in the field's byte order (side_bswap_32() and friends turn
 * a host value around); the field's description tells readers the order.
 */
#define side_arg_u16_le side_arg_u16
#define side_arg_u16_be side_arg_u16
#define side_arg_u32_le side_arg_u32
#define side_arg_u32_be side_arg_u32
#define side_arg_u64_le side_arg_u64
#define side_arg_u64_be side_arg_u64
#define side_arg_s8_le side_arg_s8
#define side_arg_s8_be side_arg_s8
#define side_arg_s16_le side_arg_s16
#define side_arg_s16_be side_arg_s16
#define side_arg_s32_le side_arg_s32
#define side_arg_s32_be side_arg_s32
#define side_arg_s64_le side_arg_s64
#define side_arg_s64_be side_arg_s64
#define side_arg_pointer_le side_arg_pointer
#define side_arg_pointer_be side_arg_pointer
#define side_arg_string16_le side_arg_string16
#define side_arg_string16_be side_arg_string16
#define side_arg_string32_le side_arg_string32
#define side_arg_string32_be side_arg_string32
#define side_arg_float_binary32_le side_arg_float_binary32
#define side_arg_float_binary32_be side_arg_float_binary32
#define side_arg_float_binary64_le side_arg_float_binary64
#define side_arg_float_binary64_be side_arg_float_binary64
#ifdef __SIZEOF_INT128__
#define side_arg_u128_le side_arg_u128
#define side_arg_u128_be side_arg_u128
#define side_arg_s128_le side_arg_s128
#define side_arg_s128_be side_arg_s128
#endif
#ifdef SIDE_HAVE_FLOAT16
#define side_arg_float_binary16_le side_arg_float_binary16
#define side_arg_float_binary16_be side_arg_float_binary16
#endif
#ifdef SIDE_HAVE_FLOAT128
#define side_arg_float_binary128_le side_arg_float_binary128
#define side_arg_float_binary128_be side_arg_float_binary128
#endif

/*
 * C native types, mapped to the fixed-size SIDE type of the same size and
 * signedness on this compiler.
 */
#ifdef __CHAR_UNSIGNED__
#define _SIDE_CHAR_SIGN u
#else
#define _SIDE_CHAR_SIGN s
#endif
#define _SIDE_BITS_1 8
#define _SIDE_BITS_2 16
#define _SIDE_BITS_4 32
#define _SIDE_BITS_8 64
#define _SIDE_BITS(_bytes) SIDE_CAT(_SIDE_BITS_, _bytes)
#define _side_native(_what, _sign, _bytes) \
	SIDE_CAT(SIDE_CAT(side_, _what), SIDE_CAT(_sign, _SIDE_BITS(_bytes)))

#define side_type_char(_attr...) _side_native(type_, _SIDE_CHAR_SIGN, 1)(_attr)
#define side_field_char(_name, _attr...) _side_native(field_, _SIDE_CHAR_SIGN, 1)(_name, ##_attr)
#define side_arg_char(_v) _side_native(arg_, _SIDE_CHAR_SIGN, 1)(_v)
#define side_type_schar(_attr...) side_type_s8(_attr)
#define side_field_schar(_name, _attr...) side_field_s8(_name, ##_attr)
#define side_arg_schar(_v) side_arg_s8(_v)
#define side_type_uchar(_attr...) side_type_u8(_attr)
#define side_field_uchar(_name, _attr...) side_field_u8(_name, ##_attr)
#define side_arg_uchar(_v) side_arg_u8(_v)
#define side_type_short(_attr...) _side_native(type_, s, __SIZEOF_SHORT__)(_attr)
#define side_field_short(_name, _attr...) _side_native(field_, s, __SIZEOF_SHORT__)(_name, ##_attr)
#define side_arg_short(_v) _side_native(arg_, s, __SIZEOF_SHORT__)(_v)
#define side_type_ushort(_attr...) _side_native(type_, u, __SIZEOF_SHORT__)(_attr)
#define side_field_ushort(_name, _attr...) _side_native(field_, u, __SIZEOF_SHORT__)(_name, ##_attr)
#define side_arg_ushort(_v) _side_native(arg_, u, __SIZEOF_SHORT__)(_v)
#define side_type_int(_attr...) _side_native(type_, s, __SIZEOF_INT__)(_attr)
#define side_field_int(_name, _attr...) _side_native(field_, s, __SIZEOF_INT__)(_name, ##_attr)
#define side_arg_int(_v) _side_native(arg_, s, __SIZEOF_INT__)(_v)
#define side_type_uint(_attr...) _side_native(type_, u, __SIZEOF_INT__)(_attr)
#define side_field_uint(_name, _attr...) _side_native(field_, u, __SIZEOF_INT__)(_name, ##_attr)
#define side_arg_uint(_v) _side_native(arg_, u, __SIZEOF_INT__)(_v)
#define side_type_long(_attr...) _side_native(type_, s, __SIZEOF_LONG__)(_attr)
#define side_field_long(_name, _attr...) _side_native(field_, s, __SIZEOF_LONG__)(_name, ##_attr)
#define side_arg_long(_v) _side_native(arg_, s, __SIZEOF_LONG__)(_v)
#define side_type_ulong(_attr...) _side_native(type_, u, __SIZEOF_LONG__)(_attr)
#define side_field_ulong(_name, _attr...) _side_native(field_, u, __SIZEOF_LONG__)(_name, ##_attr)
#define side_arg_ulong(_v) _side_native(arg_, u, __SIZEOF_LONG__)(_v)
#define side_type_long_long(_attr...) _side_native(type_, s, __SIZEOF_LONG_LONG__)(_attr)
#define side_field_long_long(_name, _attr...) \
	_side_native(field_, s, __SIZEOF_LONG_LONG__)(_name, ##_attr)
#define side_arg_long_long(_v) _side_native(arg_, s, __SIZEOF_LONG_LONG__)(_v)
#define side_type_ulong_long(_attr...) _side_native(type_, u, __SIZEOF_LONG_LONG__)(_attr)
#define side_field_ulong_long(_name, _attr...) \
	_side_native(field_, u, __SIZEOF_LONG_LONG__)(_name, ##_attr)
#define side_arg_ulong_long(_v) _side_native(arg_, u, __SIZEOF_LONG_LONG__)(_v)
#define side_type_float(_attr...) side_type_float_binary32(_attr)
#define side_field_float(_name, _attr...) side_field_float_binary32(_name, ##_attr)
#define side_arg_float(_v) side_arg_float_binary32(_v)
#define side_type_double(_attr...) side_type_float_binary64(_attr)
#define side_field_double(_name, _attr...) side_field_float_binary64(_name, ##_attr)
#define side_arg_double(_v) side_arg_float_binary64(_v)
#if defined(SIDE_HAVE_FLOAT128) && __SIZEOF_LONG_DOUBLE__ <= 16
/* x86 extended precision converts exactly to binary128. */
#define side_type_long_double(_attr...) side_type_float_binary128(_attr)
#define side_field_long_double(_name, _attr...) side_field_float_binary128(_name, ##_attr)
#define side_arg_long_double(_v) side_arg_float_binary128(_v)
#endif

#include <side/compound.h>
#include <side/dynamic.h>
#include <side/gather.h>

#endif /* SIDE_TYPES_H */
