/* SPDX-License-Identifier: MIT */
/* SIDE ABI: values shared by type descriptions, arguments and attributes. */
#ifndef SIDE_ABI_TYPE_VALUE_H
#define SIDE_ABI_TYPE_VALUE_H

#include <stdint.h>
#include <side/macros.h>

enum side_type_label_byte_order {
	SIDE_TYPE_BYTE_ORDER_LE = 0,
	SIDE_TYPE_BYTE_ORDER_BE = 1,
};

#define SIDE_TYPE_BYTE_ORDER_HOST SIDE_TYPE_BYTE_ORDER_LE
#define SIDE_TYPE_FLOAT_WORD_ORDER_HOST SIDE_TYPE_BYTE_ORDER_LE

enum side_integer128_split_index {
	SIDE_INTEGER128_SPLIT_LOW = 0,
	SIDE_INTEGER128_SPLIT_HIGH = 1,
	NR_SIDE_INTEGER128_SPLIT,
};

union side_integer_value {
	uint8_t side_u8;
	uint16_t side_u16;
	uint32_t side_u32;
	uint64_t side_u64;
	int8_t side_s8;
	int16_t side_s16;
	int32_t side_s32;
	int64_t side_s64;
	uintptr_t side_uptr;
	uint64_t side_u128_split[NR_SIDE_INTEGER128_SPLIT];
	int64_t side_s128_split[NR_SIDE_INTEGER128_SPLIT];
#ifdef __SIZEOF_INT128__
	unsigned __int128 side_u128;
	__int128 side_s128;
#endif
	side_padding(32);
} SIDE_PACKED;
side_check_size(union side_integer_value, 32);

union side_bool_value {
	uint8_t side_bool8;
	uint16_t side_bool16;
	uint32_t side_bool32;
	uint64_t side_bool64;
	side_padding(32);
} SIDE_PACKED;
side_check_size(union side_bool_value, 32);

/* __HAVE_FLOATN comes from glibc; BPF and freestanding users see padding only. */
union side_float_value {
#if defined(__HAVE_FLOAT16) && __HAVE_FLOAT16
	_Float16 side_float_binary16;
#endif
	float side_float_binary32;
	double side_float_binary64;
#if defined(__HAVE_FLOAT128) && __HAVE_FLOAT128
	_Float128 side_float_binary128;
#endif
	side_padding(32);
} SIDE_PACKED;
side_check_size(union side_float_value, 32);

struct side_type_raw_string {
	side_ptr_t(const void) p;
	uint8_t unit_size; /* 1, 2 or 4 bytes */
	side_enum_t(enum side_type_label_byte_order, uint8_t) byte_order;
} SIDE_PACKED;
side_check_size(struct side_type_raw_string, 18);

#endif /* SIDE_ABI_TYPE_VALUE_H */
