/* SPDX-License-Identifier: MIT */
/*
 * Helper macros shared by the SIDE ABI layouts and the instrumentation API.
 */
#ifndef SIDE_MACROS_H
#define SIDE_MACROS_H

#include <stddef.h>
#include <stdint.h>

#define SIDE_PACKED __attribute__((packed))
#define side_likely(x) __builtin_expect(!!(x), 1)
#define side_unlikely(x) __builtin_expect(!!(x), 0)
#define SIDE_PARAM(...) __VA_ARGS__
#define SIDE_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SIDE_STR_(x) #x
#define SIDE_STR(x) SIDE_STR_(x)
#define SIDE_CAT_(a, b) a##b
#define SIDE_CAT(a, b) SIDE_CAT_(a, b)

#ifdef __cplusplus
#define side_static_assert(expr, msg, name) static_assert(expr, msg)
#else
#define side_static_assert(expr, msg, name) _Static_assert(expr, msg)
#endif

#define side_padding(bytes) char padding[bytes]
#define side_check_size(type, len) \
	side_static_assert(sizeof(type) == (len), "Unexpected size for type: `" #type "`", \
			   unexpected_size_##type)

/*
 * Pointers are stored in 16-byte slots so that 32-, 64- and 128-bit
 * consumers (a kernel tracer, a tracer of another word size) read one layout.
 */
#if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__) || (__SIZEOF_POINTER__ != 8)
#error "sidetrace supports little-endian 64-bit targets only"
#endif

#define side_raw_ptr_t(type) \
	union { \
		type v[2]; \
	}
#define side_ptr_t(type) side_raw_ptr_t(type *)
#define side_func_ptr_t(type) side_raw_ptr_t(type)
#define side_ptr_get(field) ((field).v[0])
#define side_ptr_set(field, ptr) \
	do { \
		(field).v[0] = (ptr); \
		(field).v[1] = 0; \
	} while (0)
#define SIDE_PTR_INIT(...) \
	{ \
		.v = {(__VA_ARGS__), 0 } \
	}

/* An array reference: 16-byte pointer slot and a 32-bit length. */
#define side_array_t(type) \
	struct { \
		side_ptr_t(type) elements; \
		uint32_t length; \
	} SIDE_PACKED

/* A fixed-size enumeration that keeps its enum type for readers. */
#define side_enum_t(enum_type, size_type) \
	union { \
		size_type v; \
		struct { \
			enum_type t[0]; \
		} SIDE_PACKED s; \
	}
#define SIDE_ENUM_INIT(...) \
	{ \
		.v = (__VA_ARGS__) \
	}
#define side_enum_get(field) ((__typeof__((field).s.t[0]))(field).v)
#define side_enum_set(field, value) \
	do { \
		(field).v = (value); \
	} while (0)

/* Walking a side_array_t (pointer slot and length), as libside spells it. */
#define side_array_elements(_array) side_ptr_get((_array)->elements)
#define side_array_at(_array, _k) (&side_array_elements(_array)[_k])
#define side_array_length(_array) ((_array)->length)
#define side_array_index_of_element(_array, _it) ((_it)-side_array_elements(_array))
#define side_for_each_element_in_array(_it, _array) \
	for ((_it) = side_array_elements(_array); \
	     side_array_index_of_element(_array, _it) < side_array_length(_array); (_it)++)

/* The object that holds member at ptr; the offset just past a member. */
#define side_container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))
#define side_offsetofend(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

#define SIDE_EXPECT_SEMICOLON() struct side_expect_semicolon_

#endif /* SIDE_MACROS_H */
