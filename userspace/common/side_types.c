// SPDX-License-Identifier: MIT
/*
 * The SIDE type table (side_types.h). The kernel side's decoder
 * (bpf/sidetrace.bpf.c, st_decode_value) reads exactly the labels whose
 * entry has no "unreadable" reason; test_types walks every label through
 * the checker and the compile step to keep the three in agreement.
 */
#include <side/abi/type-description.h>

#include "common/side_types.h"

#define NOT_YET_GATHER \
	"gather fields point into an application object that the kernel side does not follow"
#define NOT_YET_FLOAT "only 32- and 64-bit floating-point values are printed"
#define NOT_YET_WIDE_STR "only UTF-8 strings are decoded"
#define NOT_YET_128 "128-bit integers do not fit the language's 64-bit values"
#define NOT_YET_CALLBACK "its elements come from a callback in the application"
#define NOT_YET_CHOICE "variant and optional values are not decoded"
#define NOT_YET_STATIC_DYNAMIC \
	"only the dynamic fields of variadic events are decoded, not static fields of type " \
	"dynamic"

#define NOT_A_FIELD_TYPE "the label of a dynamic value, not a field type"

#define INT(n, s, b) \
	{ \
		.name = n, .type_class = ST_TC_INT, .is_signed = s, .bits = b \
	}

static const struct st_side_type types[_NR_SIDE_TYPE_LABEL] = {
	[SIDE_TYPE_NULL] = {"null", ST_TC_NONE, false, 0, "a null field has no value"},
	[SIDE_TYPE_BOOL] = {"bool", ST_TC_BOOL},
	[SIDE_TYPE_U8] = INT("u8", false, 8),
	[SIDE_TYPE_U16] = INT("u16", false, 16),
	[SIDE_TYPE_U32] = INT("u32", false, 32),
	[SIDE_TYPE_U64] = INT("u64", false, 64),
	[SIDE_TYPE_U128] = {"u128", ST_TC_INT, false, 128, NOT_YET_128},
	[SIDE_TYPE_S8] = INT("s8", true, 8),
	[SIDE_TYPE_S16] = INT("s16", true, 16),
	[SIDE_TYPE_S32] = INT("s32", true, 32),
	[SIDE_TYPE_S64] = INT("s64", true, 64),
	[SIDE_TYPE_S128] = {"s128", ST_TC_INT, true, 128, NOT_YET_128},
	[SIDE_TYPE_BYTE] = INT("byte", false, 8),
	[SIDE_TYPE_POINTER] = INT("pointer", false, 64),
	[SIDE_TYPE_FLOAT_BINARY16] = {"float16", ST_TC_FLOAT, true, 0, NOT_YET_FLOAT},
	/* Read as their bits, printed by the collector: BPF has no floating point. */
	[SIDE_TYPE_FLOAT_BINARY32] = {"float32", ST_TC_FLOAT, true, 32},
	[SIDE_TYPE_FLOAT_BINARY64] = {"float64", ST_TC_FLOAT, true, 64},
	[SIDE_TYPE_FLOAT_BINARY128] = {"float128", ST_TC_FLOAT, true, 0, NOT_YET_FLOAT},
	[SIDE_TYPE_STRING_UTF8] = {"string", ST_TC_STRING},
	[SIDE_TYPE_STRING_UTF16] = {"string16", ST_TC_STRING, false, 0, NOT_YET_WIDE_STR},
	[SIDE_TYPE_STRING_UTF32] = {"string32", ST_TC_STRING, false, 0, NOT_YET_WIDE_STR},
	[SIDE_TYPE_STRUCT] = {"struct", ST_TC_STRUCT},
	[SIDE_TYPE_VARIANT] = {"variant", ST_TC_CHOICE, false, 0, NOT_YET_CHOICE},
	[SIDE_TYPE_OPTIONAL] = {"optional", ST_TC_CHOICE, false, 0, NOT_YET_CHOICE},
	[SIDE_TYPE_ARRAY] = {"array", ST_TC_ARRAY},
	[SIDE_TYPE_VLA] = {"vla", ST_TC_ARRAY},
	[SIDE_TYPE_VLA_VISITOR] = {"vla_visitor", ST_TC_ARRAY, false, 0, NOT_YET_CALLBACK},
	[SIDE_TYPE_ENUM] = {"enum", ST_TC_ENUM},
	[SIDE_TYPE_ENUM_BITMAP] = {"enum_bitmap", ST_TC_ENUM},
	[SIDE_TYPE_DYNAMIC] = {"dynamic", ST_TC_DYNAMIC, false, 0, NOT_YET_STATIC_DYNAMIC},
	[SIDE_TYPE_GATHER_BOOL] = {"gather_bool", ST_TC_BOOL, false, 0, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_INTEGER] = {"gather_integer", ST_TC_INT, false, 0, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_BYTE] = {"gather_byte", ST_TC_INT, false, 8, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_POINTER] = {"gather_pointer", ST_TC_INT, false, 64, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_FLOAT] = {"gather_float", ST_TC_FLOAT, true, 0, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_STRING] = {"gather_string", ST_TC_STRING, false, 0, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_STRUCT] = {"gather_struct", ST_TC_STRUCT, false, 0, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_ARRAY] = {"gather_array", ST_TC_ARRAY, false, 0, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_VLA] = {"gather_vla", ST_TC_ARRAY, false, 0, NOT_YET_GATHER},
	[SIDE_TYPE_GATHER_ENUM] = {"gather_enum", ST_TC_ENUM, false, 0, NOT_YET_GATHER},
	/* Labels of dynamic values (read by the dynamic-field decoder), never of fields. */
	[SIDE_TYPE_DYNAMIC_NULL] = {"dynamic_null", ST_TC_NONE, false, 0, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_BOOL] = {"dynamic_bool", ST_TC_BOOL, false, 0, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_INTEGER] = {"dynamic_integer", ST_TC_INT, false, 0, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_BYTE] = {"dynamic_byte", ST_TC_INT, false, 8, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_POINTER] = {"dynamic_pointer", ST_TC_INT, false, 64, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_FLOAT] = {"dynamic_float", ST_TC_FLOAT, false, 0, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_STRING] = {"dynamic_string", ST_TC_STRING, false, 0, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_STRUCT] = {"dynamic_struct", ST_TC_STRUCT, false, 0, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_STRUCT_VISITOR] = {"dynamic_struct_visitor", ST_TC_STRUCT, false, 0,
					      NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_VLA] = {"dynamic_vla", ST_TC_ARRAY, false, 0, NOT_A_FIELD_TYPE},
	[SIDE_TYPE_DYNAMIC_VLA_VISITOR] = {"dynamic_vla_visitor", ST_TC_ARRAY, false, 0,
					   NOT_A_FIELD_TYPE},
};

static const struct st_side_type unknown = {"unknown", ST_TC_NONE, false, 0,
					    "the type label is unknown to this sidetrace"};

const struct st_side_type *st_side_type(uint16_t label)
{
	if (label < _NR_SIDE_TYPE_LABEL && types[label].name)
		return &types[label];
	return &unknown;
}

const char *st_side_type_name(uint16_t label)
{
	return st_side_type(label)->name;
}

uint16_t st_side_int_label(uint32_t bytes, bool is_signed)
{
	uint16_t label;

	for (label = SIDE_TYPE_U8; label <= SIDE_TYPE_S128; label++)
		if (!types[label].unreadable && types[label].bits == 8 * bytes &&
		    types[label].is_signed == is_signed)
			return label;
	return 0;
}
