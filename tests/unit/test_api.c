/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the SIDE C API: every type encodes as declared (labels,
 * sizes, signedness, byte order, values, nested pointers), event
 * descriptions carry what the definition says, the enable word gates the
 * call site (kernel semaphore bits and in-process bits), and the runtime
 * registers the events and reports what the compiler could not check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <side/trace.h>

#include "unit.h"

/* Counts evaluations of argument expressions: zero while disabled. */
static int evaluated;

static uint32_t hook_u32(uint32_t v)
{
	evaluated++;
	return v;
}

/* Basic types, with event and type attributes. */
side_static_event(
	ev_basic, "test_prov", "basic", SIDE_LOGLEVEL_WARNING,
	side_field_list(side_field_u8("u8"), side_field_u16("u16"), side_field_u32("u32"),
			side_field_u64("u64"), side_field_s8("s8"), side_field_s16("s16"),
			side_field_s32("s32"),
			side_field_s64("s64",
				       side_attr_list(side_attr("unit", side_attr_string("ns")))),
			side_field_bool("bool"), side_field_byte("byte"), side_field_pointer("ptr"),
			side_field_null("null"), side_field_float_binary32("f32"),
			side_field_float_binary64("f64"), side_field_string("str"),
			side_field_string16("str16"), side_field_string32("str32"), ),
	side_attr_list(side_attr("version", side_attr_u32(3)),
		       side_attr("owner", side_attr_string("t"))));

static void test_basic_description(void)
{
	const struct side_event_description *d = &ev_basic;
	const struct side_event_field *f = side_ptr_get(d->fields.elements);
	const struct side_attr *a = side_ptr_get(d->attributes.elements);
	static const struct {
		const char *name;
		uint16_t label;
		uint16_t size;
		uint8_t sign;
	} want[] = {
		{"u8", SIDE_TYPE_U8, 1, 0},   {"u16", SIDE_TYPE_U16, 2, 0},
		{"u32", SIDE_TYPE_U32, 4, 0}, {"u64", SIDE_TYPE_U64, 8, 0},
		{"s8", SIDE_TYPE_S8, 1, 1},   {"s16", SIDE_TYPE_S16, 2, 1},
		{"s32", SIDE_TYPE_S32, 4, 1}, {"s64", SIDE_TYPE_S64, 8, 1},
	};
	const struct side_attr *fa;
	unsigned int i;
	int all = 1;

	ok(d->struct_size == offsetof(struct side_event_description, end) &&
		   d->version == SIDE_EVENT_DESCRIPTION_ABI_VERSION,
	   "description: struct size and version");
	ok(!strcmp(side_ptr_get(d->provider_name), "test_prov") &&
		   !strcmp(side_ptr_get(d->event_name), "basic"),
	   "description: provider and event names");
	ok(d->loglevel.v == SIDE_LOGLEVEL_WARNING, "description: loglevel");
	ok(d->flags == 0, "description: flags of a non-variadic event");
	ok(d->fields.length == 17, "description: field count");
	ok(d->nr_side_type_label == _NR_SIDE_TYPE_LABEL &&
		   d->nr_side_attr_type == _NR_SIDE_ATTR_TYPE,
	   "description: label counts");
	ok(side_ptr_get(d->state) == &side_event_state__ev_basic.parent &&
		   side_event_state__ev_basic.desc == &ev_basic,
	   "description: state points to the enable word");
	ok(d->attributes.length == 2 && !strcmp(side_ptr_get(a[0].key.p), "version") &&
		   a[0].value.type.v == SIDE_ATTR_TYPE_U32 &&
		   a[0].value.u.integer_value.side_u32 == 3 &&
		   a[1].value.type.v == SIDE_ATTR_TYPE_STRING &&
		   !strcmp(side_ptr_get(a[1].value.u.string_value.p), "t"),
	   "description: event attributes");
	for (i = 0; i < SIDE_ARRAY_SIZE(want); i++) {
		const struct side_type_integer *t = &f[i].side_type.u.side_integer;

		all &= !strcmp(side_ptr_get(f[i].field_name), want[i].name) &&
		       f[i].side_type.type.v == want[i].label && t->integer_size == want[i].size &&
		       t->signedness == want[i].sign && t->len_bits == 0 &&
		       t->byte_order.v == SIDE_TYPE_BYTE_ORDER_HOST;
	}
	ok(all, "fields: integer names, labels, sizes, signedness, byte order");
	fa = side_ptr_get(f[7].side_type.u.side_integer.attributes.elements);
	ok(f[7].side_type.u.side_integer.attributes.length == 1 &&
		   !strcmp(side_ptr_get(fa[0].key.p), "unit") &&
		   !strcmp(side_ptr_get(fa[0].value.u.string_value.p), "ns"),
	   "fields: type attribute");
	ok(f[8].side_type.type.v == SIDE_TYPE_BOOL && f[8].side_type.u.side_bool.bool_size == 1 &&
		   f[9].side_type.type.v == SIDE_TYPE_BYTE &&
		   f[10].side_type.type.v == SIDE_TYPE_POINTER &&
		   f[10].side_type.u.side_integer.integer_size == sizeof(void *) &&
		   f[11].side_type.type.v == SIDE_TYPE_NULL,
	   "fields: bool, byte, pointer, null");
	ok(f[12].side_type.type.v == SIDE_TYPE_FLOAT_BINARY32 &&
		   f[12].side_type.u.side_float.float_size == 4 &&
		   f[13].side_type.type.v == SIDE_TYPE_FLOAT_BINARY64 &&
		   f[13].side_type.u.side_float.float_size == 8,
	   "fields: floats");
	ok(f[14].side_type.type.v == SIDE_TYPE_STRING_UTF8 &&
		   f[14].side_type.u.side_string.unit_size == 1 &&
		   f[15].side_type.type.v == SIDE_TYPE_STRING_UTF16 &&
		   f[15].side_type.u.side_string.unit_size == 2 &&
		   f[16].side_type.type.v == SIDE_TYPE_STRING_UTF32 &&
		   f[16].side_type.u.side_string.unit_size == 4,
	   "fields: strings and unit sizes");
}

static void test_basic_args(void)
{
	int x;
	const struct side_arg sav[] = {
		side_arg_u8(200),
		side_arg_u16(60000),
		side_arg_u32(4000000000U),
		side_arg_u64(UINT64_MAX),
		side_arg_s8(-100),
		side_arg_s16(-30000),
		side_arg_s32(-2000000000),
		side_arg_s64(INT64_MIN),
		side_arg_bool(7),
		side_arg_byte(0xab),
		side_arg_pointer(&x),
		side_arg_null(0),
		side_arg_float_binary32(1.5f),
		side_arg_float_binary64(-2.25),
		side_arg_string("hello"),
		side_arg_string16(u"ab"),
		side_arg_string32(U"cd"),
	};

	ok(sizeof(struct side_arg) == 64 && sizeof(sav[14].u.side_static.string_value) == 16,
	   "args: struct side_arg is 64 bytes, pointers take 16");
	ok(sav[0].type.v == SIDE_TYPE_U8 && sav[0].u.side_static.integer_value.side_u8 == 200 &&
		   sav[1].u.side_static.integer_value.side_u16 == 60000 &&
		   sav[2].u.side_static.integer_value.side_u32 == 4000000000U &&
		   sav[3].type.v == SIDE_TYPE_U64 &&
		   sav[3].u.side_static.integer_value.side_u64 == UINT64_MAX,
	   "args: unsigned values");
	ok(sav[4].type.v == SIDE_TYPE_S8 && sav[4].u.side_static.integer_value.side_s8 == -100 &&
		   sav[5].u.side_static.integer_value.side_s16 == -30000 &&
		   sav[6].u.side_static.integer_value.side_s32 == -2000000000 &&
		   sav[7].u.side_static.integer_value.side_s64 == INT64_MIN,
	   "args: signed values");
	ok(sav[8].type.v == SIDE_TYPE_BOOL && sav[8].u.side_static.bool_value.side_bool8 == 1 &&
		   sav[9].u.side_static.byte_value == 0xab &&
		   sav[10].u.side_static.integer_value.side_uptr == (uintptr_t)&x &&
		   sav[11].type.v == SIDE_TYPE_NULL,
	   "args: bool is 0/1, byte, pointer, null");
	ok(sav[12].u.side_static.float_value.side_float_binary32 == 1.5f &&
		   sav[13].u.side_static.float_value.side_float_binary64 == -2.25,
	   "args: floats");
	ok(sav[14].type.v == SIDE_TYPE_STRING_UTF8 &&
		   !strcmp(side_ptr_get(sav[14].u.side_static.string_value), "hello") &&
		   sav[14].u.side_static.string_value.v[1] == NULL &&
		   sav[15].type.v == SIDE_TYPE_STRING_UTF16 &&
		   sav[16].type.v == SIDE_TYPE_STRING_UTF32,
	   "args: strings carry their pointer, upper slot zero");
}

/* C native aliases, byte orders, 128-bit integers. */
side_static_event(ev_native, "test_prov", "native", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_char("c"), side_field_uchar("uc"),
				  side_field_schar("sc"), side_field_short("sh"),
				  side_field_ushort("ush"), side_field_int("i"),
				  side_field_uint("ui"), side_field_long("l"),
				  side_field_ulong("ul"), side_field_long_long("ll"),
				  side_field_ulong_long("ull"), side_field_u32_be("be32"),
				  side_field_s64_le("le64"), side_field_pointer_be("pbe"),
				  side_field_string16_be("s16be"),
				  side_field_float_binary64_be("f64be"), side_field_u128("u128"),
				  side_field_s128_be("s128be"), ));

static void test_native_and_byte_order(void)
{
	const struct side_event_field *f = side_ptr_get(ev_native.fields.elements);
	int all = 1;
	unsigned int i;
	static const uint16_t labels[] = {
		SIDE_TYPE_S8,  SIDE_TYPE_U8,  SIDE_TYPE_S8,  SIDE_TYPE_S16,
		SIDE_TYPE_U16, SIDE_TYPE_S32, SIDE_TYPE_U32, SIDE_TYPE_S64,
		SIDE_TYPE_U64, SIDE_TYPE_S64, SIDE_TYPE_U64,
	};
	static const uint16_t sizes[] = {
		sizeof(char),
		1,
		1,
		sizeof(short),
		sizeof(short),
		sizeof(int),
		sizeof(int),
		sizeof(long),
		sizeof(long),
		sizeof(long long),
		sizeof(long long),
	};
	const struct side_arg sav[] = {
		side_arg_int(-5),
		side_arg_ulong(7UL),
		side_arg_u128(((unsigned __int128)1 << 100) + 3),
		side_arg_s128(-((__int128)1 << 90)),
	};

	for (i = 0; i < SIDE_ARRAY_SIZE(labels); i++)
		all &= f[i].side_type.type.v == labels[i] &&
		       f[i].side_type.u.side_integer.integer_size == sizes[i];
	ok(all, "native aliases map to the fixed-size type of their size and sign");
	ok(f[11].side_type.u.side_integer.byte_order.v == SIDE_TYPE_BYTE_ORDER_BE &&
		   f[12].side_type.u.side_integer.byte_order.v == SIDE_TYPE_BYTE_ORDER_LE &&
		   f[13].side_type.type.v == SIDE_TYPE_POINTER &&
		   f[13].side_type.u.side_integer.byte_order.v == SIDE_TYPE_BYTE_ORDER_BE &&
		   f[14].side_type.u.side_string.byte_order.v == SIDE_TYPE_BYTE_ORDER_BE &&
		   f[15].side_type.u.side_float.byte_order.v == SIDE_TYPE_BYTE_ORDER_BE,
	   "byte order variants");
	ok(f[16].side_type.type.v == SIDE_TYPE_U128 &&
		   f[16].side_type.u.side_integer.integer_size == 16 &&
		   f[17].side_type.type.v == SIDE_TYPE_S128 &&
		   f[17].side_type.u.side_integer.signedness == 1,
	   "128-bit fields");
	ok(sav[0].type.v == SIDE_TYPE_S32 && sav[0].u.side_static.integer_value.side_s32 == -5 &&
		   sav[1].type.v == SIDE_TYPE_U64 &&
		   sav[2].u.side_static.integer_value.side_u128_split[SIDE_INTEGER128_SPLIT_LOW] ==
			   3 &&
		   sav[2].u.side_static.integer_value.side_u128_split[SIDE_INTEGER128_SPLIT_HIGH] ==
			   (uint64_t)1 << 36 &&
		   sav[3].u.side_static.integer_value.side_s128 == -((__int128)1 << 90),
	   "native and 128-bit args");
}

/* Nested compounds: struct in struct, array of struct, vla of u32, enums. */
static side_define_struct(point_type, side_field_list(side_field_s32("x"), side_field_s32("y")));
static side_define_struct(rect_type, side_field_list(side_field_struct("min", point_type),
						     side_field_struct("max", point_type)));
static side_define_array(pair_type, side_elem(side_type_u16()), 2);
static side_define_enum(color_labels,
			side_enum_mapping_list(side_enum_mapping_value("red", 1),
					       side_enum_mapping_range("blue", 2, 4)));
static side_define_enum_bitmap(
	flag_labels, side_enum_bitmap_mapping_list(side_enum_bitmap_mapping_value("read", 0),
						   side_enum_bitmap_mapping_value("write", 1)));

side_static_event(
	ev_nested, "test_prov", "nested", SIDE_LOGLEVEL_INFO,
	side_field_list(
		side_field_struct("rect", rect_type),
		side_field_array("corners", side_elem(side_type_struct(point_type)), 2),
		side_field_vla("ids", side_elem(side_type_u32()), side_length(side_type_u32())),
		side_field_array("pair", pair_type),
		side_field_enum("color", &color_labels, side_elem(side_type_u8())),
		side_field_enum_bitmap("flags", &flag_labels, side_elem(side_type_u32())), ));

static void test_nested(void)
{
	const struct side_event_field *f = side_ptr_get(ev_nested.fields.elements);
	const struct side_type_struct *rect = side_ptr_get(f[0].side_type.u.side_struct);
	const struct side_event_field *rf = side_ptr_get(rect->fields.elements);
	const struct side_type_array *corners = side_ptr_get(f[1].side_type.u.side_array);
	const struct side_type *corner = side_ptr_get(corners->elem_type);
	const struct side_type_vla *ids = side_ptr_get(f[2].side_type.u.side_vla);
	const struct side_enum_mappings *colors = side_ptr_get(f[4].side_type.u.side_enum.mappings);
	const struct side_enum_mapping *cm = side_ptr_get(colors->mappings.elements);
	uint32_t id_values[3] = {7, 8, 9};

	side_arg_define_vec(min, side_arg_list(side_arg_s32(-1), side_arg_s32(-2)));
	side_arg_define_vec(max, side_arg_list(side_arg_s32(3), side_arg_s32(4)));
	side_arg_define_vec(rect_arg, side_arg_list(side_arg_struct(min), side_arg_struct(max)));
	side_arg_define_vec(corner_vec, side_arg_list(side_arg_struct(min), side_arg_struct(max)));
	side_arg_define_vec(id_vec,
			    side_arg_list(side_arg_u32(id_values[0]), side_arg_u32(id_values[1]),
					  side_arg_u32(id_values[2])));
	const struct side_arg sav[] = {side_arg_struct(rect_arg), side_arg_array(corner_vec),
				       side_arg_vla(id_vec)};
	const struct side_arg_vec *rv = side_ptr_get(sav[0].u.side_static.side_struct);
	const struct side_arg *inner = side_ptr_get(rv->sav);
	const struct side_arg_vec *mv = side_ptr_get(inner[1].u.side_static.side_struct);
	const struct side_arg_vec *iv = side_ptr_get(sav[2].u.side_static.side_vla);

	ok(f[0].side_type.type.v == SIDE_TYPE_STRUCT && rect == &rect_type &&
		   rect->fields.length == 2 && !strcmp(side_ptr_get(rf[1].field_name), "max") &&
		   side_ptr_get(rf[1].side_type.u.side_struct) == &point_type,
	   "struct in struct: description");
	ok(f[1].side_type.type.v == SIDE_TYPE_ARRAY && corners->length == 2 &&
		   corner->type.v == SIDE_TYPE_STRUCT &&
		   side_ptr_get(corner->u.side_struct) == &point_type,
	   "array of struct: description");
	ok(f[2].side_type.type.v == SIDE_TYPE_VLA &&
		   ((const struct side_type *)side_ptr_get(ids->elem_type))->type.v ==
			   SIDE_TYPE_U32 &&
		   ((const struct side_type *)side_ptr_get(ids->length_type))->type.v ==
			   SIDE_TYPE_U32,
	   "vla of u32: element and length types");
	ok(f[3].side_type.type.v == SIDE_TYPE_ARRAY &&
		   side_ptr_get(f[3].side_type.u.side_array) == &pair_type && pair_type.length == 2,
	   "array by definition (side_define_array)");
	ok(f[4].side_type.type.v == SIDE_TYPE_ENUM && colors->mappings.length == 2 &&
		   !strcmp(side_ptr_get(cm[1].label.p), "blue") && cm[1].range_begin == 2 &&
		   cm[1].range_end == 4 && f[5].side_type.type.v == SIDE_TYPE_ENUM_BITMAP,
	   "enum mappings");
	ok(rv == &rect_arg && rv->len == 2 && inner[1].type.v == SIDE_TYPE_STRUCT && mv == &max &&
		   ((const struct side_arg *)side_ptr_get(mv->sav))[1]
				   .u.side_static.integer_value.side_s32 == 4,
	   "struct in struct: nested argument pointers");
	ok(sav[2].type.v == SIDE_TYPE_VLA && iv == &id_vec && iv->len == 3 &&
		   ((const struct side_arg *)side_ptr_get(iv->sav))[2]
				   .u.side_static.integer_value.side_u32 == 9,
	   "vla argument: pointer, length, values");
	ok(sav[1].type.v == SIDE_TYPE_ARRAY &&
		   side_ptr_get(sav[1].u.side_static.side_array) == &corner_vec,
	   "array argument");
}

/* Dynamic fields and variadic events. */
side_static_event(ev_dynamic, "test_prov", "dynamic", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_dynamic("d")));
side_static_event_variadic(ev_variadic, "test_prov", "variadic", SIDE_LOGLEVEL_INFO,
			   side_field_list(side_field_u32("fixed")),
			   side_attr_list(side_attr("kind", side_attr_string("var"))));

static void test_dynamic(void)
{
	int x;
	side_arg_dynamic_define_vec(vla,
				    side_arg_list(side_arg_dynamic_u32(1), side_arg_dynamic_s8(-2),
						  side_arg_dynamic_string("s")),
				    side_dynamic_attr_list(side_attr("a", side_attr_bool(1))));
	side_arg_dynamic_define_struct(
		st, side_arg_list(side_arg_dynamic_field("n", side_arg_dynamic_s64(-42)),
				  side_arg_dynamic_field("v", side_arg_dynamic_vla(&vla))));
	const struct side_arg sav[] = {
		side_arg_dynamic_null(),
		side_arg_dynamic_bool(1),
		side_arg_dynamic_u8(250),
		side_arg_dynamic_s16_be(-3),
		side_arg_dynamic_u64(1ULL << 40),
		side_arg_dynamic_pointer(&x),
		side_arg_dynamic_float_binary32(0.5f),
		side_arg_dynamic_float_binary64(-8.0),
		side_arg_dynamic_string("dyn"),
		side_arg_dynamic_string16_le(u"x"),
		side_arg_dynamic_string32(U"y"),
		side_arg_dynamic_vla(&vla),
		side_arg_dynamic_struct(&st),
		side_arg_dynamic_byte(9),
	};
	const struct side_arg_dynamic_field *sf = side_ptr_get(st.fields);
	const struct side_attr *va = side_ptr_get(vla.attributes.elements);
	const struct side_event_field *f = side_ptr_get(ev_dynamic.fields.elements);

	ok(f[0].side_type.type.v == SIDE_TYPE_DYNAMIC, "dynamic field label");
	ok(sav[0].type.v == SIDE_TYPE_DYNAMIC_NULL && sav[1].type.v == SIDE_TYPE_DYNAMIC_BOOL &&
		   sav[1].u.side_dynamic.side_bool.value.side_bool8 == 1 &&
		   sav[1].u.side_dynamic.side_bool.type.bool_size == 1,
	   "dynamic null and bool");
	ok(sav[2].type.v == SIDE_TYPE_DYNAMIC_INTEGER &&
		   sav[2].u.side_dynamic.side_integer.type.integer_size == 1 &&
		   sav[2].u.side_dynamic.side_integer.value.side_u8 == 250 &&
		   sav[3].u.side_dynamic.side_integer.type.signedness == 1 &&
		   sav[3].u.side_dynamic.side_integer.type.byte_order.v ==
			   SIDE_TYPE_BYTE_ORDER_BE &&
		   sav[3].u.side_dynamic.side_integer.value.side_s16 == -3 &&
		   sav[4].u.side_dynamic.side_integer.type.integer_size == 8 &&
		   sav[4].u.side_dynamic.side_integer.value.side_u64 == 1ULL << 40,
	   "dynamic integers carry size, signedness, byte order, value");
	ok(sav[5].type.v == SIDE_TYPE_DYNAMIC_POINTER &&
		   sav[5].u.side_dynamic.side_integer.value.side_uptr == (uintptr_t)&x,
	   "dynamic pointer");
	ok(sav[6].type.v == SIDE_TYPE_DYNAMIC_FLOAT &&
		   sav[6].u.side_dynamic.side_float.type.float_size == 4 &&
		   sav[6].u.side_dynamic.side_float.value.side_float_binary32 == 0.5f &&
		   sav[7].u.side_dynamic.side_float.value.side_float_binary64 == -8.0,
	   "dynamic floats");
	ok(sav[8].type.v == SIDE_TYPE_DYNAMIC_STRING &&
		   !strcmp((const char *)(uintptr_t)sav[8].u.side_dynamic.side_string.value,
			   "dyn") &&
		   sav[8].u.side_dynamic.side_string.type.unit_size == 1 &&
		   sav[9].u.side_dynamic.side_string.type.unit_size == 2 &&
		   sav[9].u.side_dynamic.side_string.type.byte_order.v == SIDE_TYPE_BYTE_ORDER_LE &&
		   sav[10].u.side_dynamic.side_string.type.unit_size == 4,
	   "dynamic strings");
	ok(sav[11].type.v == SIDE_TYPE_DYNAMIC_VLA &&
		   side_ptr_get(sav[11].u.side_dynamic.side_dynamic_vla) == &vla && vla.len == 3 &&
		   ((const struct side_arg *)side_ptr_get(vla.sav))[1]
				   .u.side_dynamic.side_integer.value.side_s8 == -2 &&
		   vla.attributes.length == 1 && !strcmp(side_ptr_get(va[0].key.p), "a"),
	   "dynamic vla: pointer, length, elements, attributes");
	ok(sav[12].type.v == SIDE_TYPE_DYNAMIC_STRUCT &&
		   side_ptr_get(sav[12].u.side_dynamic.side_dynamic_struct) == &st && st.len == 2 &&
		   !strcmp(side_ptr_get(sf[0].field_name), "n") &&
		   sf[0].elem.u.side_dynamic.side_integer.value.side_s64 == -42 &&
		   side_ptr_get(sf[1].elem.u.side_dynamic.side_dynamic_vla) == &vla,
	   "dynamic struct: pointer, named fields, nested vla");
	ok(sav[13].type.v == SIDE_TYPE_DYNAMIC_BYTE && sav[13].u.side_dynamic.side_byte.value == 9,
	   "dynamic byte");
	ok(ev_variadic.flags == SIDE_EVENT_FLAG_VARIADIC && ev_variadic.attributes.length == 1 &&
		   ev_variadic.fields.length == 1,
	   "variadic event: flag and attributes");
}

/* Variant, optional, vla visitor, gather. */
static side_define_variant(num_or_str, side_type_u8(),
			   side_option_list(side_option(1, side_type_u32()),
					    side_option_range(2, 3, side_type_string())));
static side_define_optional(maybe_str, side_elem(side_type_string()));

struct app_ctx {
	const uint32_t *v;
	uint32_t n;
};

static enum side_visitor_status visit_u32(const struct side_tracer_visitor_ctx *t,
					  struct app_ctx *c)
{
	uint32_t i;

	for (i = 0; i < c->n; i++) {
		const struct side_arg elem = side_visit_dynamic_arg(side_arg_u32, c->v[i]);

		if (t->write_elem(t, &elem) != SIDE_VISITOR_STATUS_OK)
			return SIDE_VISITOR_STATUS_ERROR;
	}
	return SIDE_VISITOR_STATUS_OK;
}

side_define_static_vla_visitor(u32_visitor, side_elem(side_type_u32()), side_elem(side_type_u32()),
			       visit_u32, struct app_ctx);

struct sample {
	uint32_t a;
	int16_t b;
	const char *name;
	double d;
};
static side_define_struct(
	sample_gather,
	side_field_list(side_field_gather_unsigned_integer("a", offsetof(struct sample, a), 4, 0, 0,
							   SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_signed_integer("b", offsetof(struct sample, b), 2, 0, 0,
							 SIDE_TYPE_GATHER_ACCESS_DIRECT),
			side_field_gather_string("name", offsetof(struct sample, name),
						 SIDE_TYPE_GATHER_ACCESS_POINTER),
			side_field_gather_float("d", offsetof(struct sample, d), 8,
						SIDE_TYPE_GATHER_ACCESS_DIRECT)));

side_static_event(
	ev_more, "test_prov", "more", SIDE_LOGLEVEL_INFO,
	side_field_list(
		side_field_variant("var", num_or_str), side_field_optional("opt", maybe_str),
		side_field_optional_literal("opt2", side_elem(side_type_u16())),
		side_field_vla_visitor("visited", u32_visitor),
		side_field_gather_struct("sample", sample_gather, 0, sizeof(struct sample),
					 SIDE_TYPE_GATHER_ACCESS_DIRECT),
		side_field_gather_array("arr",
					side_elem(side_type_gather_unsigned_integer(
						0, 4, 0, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT)),
					3, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT), ));

static void test_more(void)
{
	const struct side_event_field *f = side_ptr_get(ev_more.fields.elements);
	const struct side_type_variant *var = side_ptr_get(f[0].side_type.u.side_variant);
	const struct side_variant_option *opts = side_ptr_get(var->options.elements);
	const struct side_type_vla_visitor *vv = side_ptr_get(f[3].side_type.u.side_vla_visitor);
	const struct side_type_struct *gs =
		side_ptr_get(f[4].side_type.u.side_gather.u.side_struct.type);
	const struct side_event_field *gf = side_ptr_get(gs->fields.elements);
	static const uint32_t values[] = {4, 5};
	struct app_ctx ctx = {values, 2};
	struct sample s = {1, -2, "n", 3.0};
	side_arg_define_variant(v1, side_arg_u8(2), side_arg_string("two"));
	side_arg_define_optional(present, side_arg_string("here"), SIDE_OPTIONAL_ENABLED);
	side_arg_define_vla_visitor(visitor, &ctx);
	const struct side_arg sav[] = {side_arg_variant(v1), side_arg_optional(present),
				       side_arg_vla_visitor(visitor), side_arg_gather_struct(&s),
				       side_arg_gather_vla(&s, &s.a)};
	const struct side_arg_variant *av = side_ptr_get(sav[0].u.side_static.side_variant);
	const struct side_arg_vla_visitor *avv =
		side_ptr_get(sav[2].u.side_static.side_vla_visitor);

	ok(f[0].side_type.type.v == SIDE_TYPE_VARIANT && var == &num_or_str &&
		   var->selector.type.v == SIDE_TYPE_U8 && var->options.length == 2 &&
		   opts[1].range_begin == 2 && opts[1].range_end == 3 &&
		   opts[1].side_type.type.v == SIDE_TYPE_STRING_UTF8,
	   "variant: selector and options");
	ok(sav[0].type.v == SIDE_TYPE_VARIANT && av == &v1 &&
		   av->selector.u.side_static.integer_value.side_u8 == 2 &&
		   av->option.type.v == SIDE_TYPE_STRING_UTF8,
	   "variant argument");
	ok(f[1].side_type.type.v == SIDE_TYPE_OPTIONAL &&
		   side_ptr_get(f[1].side_type.u.side_optional) == &maybe_str &&
		   f[2].side_type.type.v == SIDE_TYPE_OPTIONAL &&
		   sav[1].type.v == SIDE_TYPE_OPTIONAL &&
		   side_ptr_get(sav[1].u.side_static.side_optional) == &present &&
		   present.selector == SIDE_OPTIONAL_ENABLED,
	   "optional: description and argument");
	ok(f[3].side_type.type.v == SIDE_TYPE_VLA_VISITOR && vv == &u32_visitor &&
		   side_ptr_get(vv->visitor) != NULL && sav[2].type.v == SIDE_TYPE_VLA_VISITOR &&
		   avv == &visitor && side_ptr_get(avv->app_ctx) == &ctx,
	   "vla visitor: description and argument");
	ok(f[4].side_type.type.v == SIDE_TYPE_GATHER_STRUCT &&
		   f[4].side_type.u.side_gather.u.side_struct.size == sizeof(struct sample) &&
		   gs->fields.length == 4 && gf[1].side_type.type.v == SIDE_TYPE_GATHER_INTEGER &&
		   gf[1].side_type.u.side_gather.u.side_integer.offset ==
			   offsetof(struct sample, b) &&
		   gf[1].side_type.u.side_gather.u.side_integer.type.signedness == 1 &&
		   gf[2].side_type.u.side_gather.u.side_string.access_mode.v ==
			   SIDE_TYPE_GATHER_ACCESS_POINTER &&
		   gf[3].side_type.type.v == SIDE_TYPE_GATHER_FLOAT,
	   "gather struct: offsets, sizes, access modes");
	ok(sav[3].type.v == SIDE_TYPE_GATHER_STRUCT &&
		   side_ptr_get(sav[3].u.side_static.side_struct_gather_ptr) == &s &&
		   side_ptr_get(sav[4].u.side_static.side_vla_gather.length_ptr) == &s.a &&
		   f[5].side_type.type.v == SIDE_TYPE_GATHER_ARRAY &&
		   f[5].side_type.u.side_gather.u.side_array.type.length == 3,
	   "gather arguments carry the base pointer");
}

/* The enable word gates the call site. */
side_static_event(ev_gate, "test_prov", "gate", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("v")));

static void fire_gate(uint32_t v)
{
	side_event(ev_gate, side_arg_list(side_arg_u32(hook_u32(v))));
}

static void fire_variadic(uint32_t v)
{
	side_event_variadic(
		ev_variadic, side_arg_list(side_arg_u32(hook_u32(v))),
		side_arg_list(side_arg_dynamic_field("extra", side_arg_dynamic_u32(hook_u32(v))),
			      side_arg_dynamic_field("s", side_arg_dynamic_string("x"))),
		side_dynamic_attr_list(side_attr("k", side_attr_u8(1))));
}

static void test_enable_word(void)
{
	uintptr_t *enabled = &side_event_state__ev_gate.enabled;

	evaluated = 0;
	fire_gate(1);
	ok(evaluated == 0 && !side_event_enabled(ev_gate), "disabled: arguments not evaluated");
	/* What the kernel does for an attached uprobe: count in the low 16 bits. */
	__atomic_add_fetch(enabled, 1, __ATOMIC_RELAXED);
	fire_gate(2);
	ok(evaluated == 1, "kernel semaphore set: event fires");
	__atomic_add_fetch(enabled, SIDE_ENABLED_USER_ONE, __ATOMIC_RELAXED);
	fire_gate(3);
	ok(evaluated == 2, "kernel and in-process tracer: event fires");
	__atomic_sub_fetch(enabled, 1, __ATOMIC_RELAXED);
	fire_gate(4);
	ok(evaluated == 3 && (*enabled & SIDE_ENABLED_KERNEL_MASK) == 0,
	   "in-process tracer only: event fires");
	__atomic_sub_fetch(enabled, SIDE_ENABLED_USER_ONE, __ATOMIC_RELAXED);
	fire_gate(5);
	ok(evaluated == 3 && *enabled == 0, "all tracers gone: event silent again");

	evaluated = 0;
	fire_variadic(1);
	ok(evaluated == 0, "variadic disabled: nothing evaluated");
	side_event_state__ev_variadic.enabled = 1;
	fire_variadic(2);
	side_event_state__ev_variadic.enabled = 0;
	ok(evaluated == 2, "variadic enabled: static and dynamic arguments evaluated");
	ok(side_event_state__ev_gate.parent.version == SIDE_EVENT_STATE_ABI_VERSION,
	   "enable word sits in .probes, initialized data");
}

/* The registry holds this executable's events. */
static int find_event(struct side_event_description *desc, void *priv)
{
	return desc == priv;
}

static void test_registry(void)
{
	ok(side_for_each_event(find_event, &ev_basic), "registry: basic event registered");
	ok(side_for_each_event(find_event, &ev_variadic), "registry: variadic event registered");
	ok(side_for_each_event(find_event, &ev_nested), "registry: nested event registered");
}

/* Runs fn with stderr captured into buf. */
static void capture_stderr(void (*fn)(void), char *buf, size_t size)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, size - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
}

/*
 * Duplicated names are a compile error (side/static-check.h); with that
 * check turned off, the runtime still reports them when it registers the
 * event.
 */
#define SIDE_STATIC_CHECK_DISABLE_DUPLICATED_FIELDS
side_static_event(ev_dup, "test_prov", "dup", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("same"), side_field_u64("other"),
				  side_field_s8("same")));
#undef SIDE_STATIC_CHECK_DISABLE_DUPLICATED_FIELDS

static void register_dup(void)
{
	struct side_event_description *events[] = {&ev_dup};

	side_events_unregister(side_events_register(events, 1));
}

static void test_runtime_checks(void)
{
	char buf[1024];

	capture_stderr(register_dup, buf, sizeof(buf));
	ok(strstr(buf, "test_prov:dup") && strstr(buf, "fields 0 and 2") && strstr(buf, "\"same\""),
	   "registration reports duplicated field names");
}

int main(void)
{
	test_basic_description();
	test_basic_args();
	test_native_and_byte_order();
	test_nested();
	test_dynamic();
	test_more();
	test_enable_word();
	test_registry();
	test_runtime_checks();
	return unit_summary();
}
