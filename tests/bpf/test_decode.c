// SPDX-License-Identifier: MIT
/*
 * The BPF decoder against the SIDE type table (common/side_types.h): a
 * field of every scalar label is fired with all bits set, read through the
 * argument vector and summed. A label the table says the kernel reads
 * must come out widened as the table's width and signedness say (a
 * float: its bits, zero-extended); one it
 * says it does not read must be a counted decode error, never a value.
 * Needs root (BPF, uprobes).
 */
#include <stdint.h>
#include <string.h>
#include <side/trace.h>

#include "common/side_types.h"
#include "harness.h"

side_static_event(ev_types, "bpftest", "types", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u8("u8"), side_field_u16("u16"), side_field_u32("u32"),
				  side_field_u64("u64"), side_field_s8("s8"), side_field_s16("s16"),
				  side_field_s32("s32"), side_field_s64("s64"),
				  side_field_byte("byte"), side_field_pointer("pointer"),
				  side_field_bool("bool"), side_field_float_binary32("f32"),
				  side_field_float_binary64("f64"),
				  side_field_string16("s16str"), ));

/* The labels of the fields above, in order. */
static const uint16_t labels[] = {
	SIDE_TYPE_U8,
	SIDE_TYPE_U16,
	SIDE_TYPE_U32,
	SIDE_TYPE_U64,
	SIDE_TYPE_S8,
	SIDE_TYPE_S16,
	SIDE_TYPE_S32,
	SIDE_TYPE_S64,
	SIDE_TYPE_BYTE,
	SIDE_TYPE_POINTER,
	SIDE_TYPE_BOOL,
	SIDE_TYPE_FLOAT_BINARY32,
	SIDE_TYPE_FLOAT_BINARY64,
	SIDE_TYPE_STRING_UTF16,
};

#define NR_FIELDS (sizeof(labels) / sizeof(labels[0]))

/* The floats fired: not all ones, which would be a NaN. */
static const float fired_f32 = 1.5f;
static const double fired_f64 = 2.5;

/* Every value with all its bits set: a wrong width or sign shows. */
static __attribute__((noinline)) void fire(void)
{
	static const uint16_t wide[] = {'x', 0};

	side_event(ev_types,
		   side_arg_list(side_arg_u8(UINT8_MAX), side_arg_u16(UINT16_MAX),
				 side_arg_u32(UINT32_MAX), side_arg_u64(UINT64_MAX),
				 side_arg_s8(-1), side_arg_s16(-1), side_arg_s32(-1),
				 side_arg_s64(-1), side_arg_byte(0xff),
				 side_arg_pointer((void *)UINTPTR_MAX), side_arg_bool(1),
				 side_arg_float_binary32(fired_f32),
				 side_arg_float_binary64(fired_f64), side_arg_string16(wide)));
}

/* What the table says field i decodes to, all bits set; false: no value. */
static bool table_value(uint16_t label, int64_t *want)
{
	const struct st_side_type *t = st_side_type(label);

	if (t->unreadable)
		return false;
	if (t->type_class == ST_TC_BOOL) {
		*want = 1;
		return true;
	}
	if (t->type_class == ST_TC_FLOAT) {
		uint32_t b32;

		memcpy(&b32, &fired_f32, sizeof(b32));
		*want = b32;
		if (label == SIDE_TYPE_FLOAT_BINARY64)
			memcpy(want, &fired_f64, sizeof(*want));
		return true;
	}
	if (t->type_class != ST_TC_INT)
		return false;
	/* All ones, sign-extended or zero-extended from the type's width. */
	*want = t->is_signed || t->bits == 64 ? -1 : (int64_t)((1ULL << t->bits) - 1);
	return true;
}

/* One probe: sum(field i) into a signed map without keys. */
static void decode_one(unsigned int i)
{
	const struct st_side_type *t = st_side_type(labels[i]);
	struct h_prog prog;
	struct h_run run;
	char name[80];
	int64_t want;
	uint8_t m;

	h_prog_init(&prog);
	h_load_vec(&prog, 0, i, labels[i], false);
	m = h_map(&prog, ST_K_SUM, true, 0, 0, 0, 0);
	h_emit(&prog, ST_I_CLAUSE, 0, 0, 1);
	h_emit(&prog, ST_I_FIELD, 0, 0, 0);
	h_emit(&prog, ST_I_AGG, m, 0, 0);
	snprintf(name, sizeof(name), "decode %s", t->name);
	if (!h_load(&run, &prog, name))
		return;
	fire();
	if (table_value(labels[i], &want)) {
		snprintf(name, sizeof(name), "%s: read as the table's width and sign", t->name);
		h_eq(name, h_flat(&run, &prog, m, 0).sum, want);
		snprintf(name, sizeof(name), "%s: no decode error", t->name);
		h_eq(name, h_counter(&run, ST_C_ERR_LABEL), 0);
	} else {
		snprintf(name, sizeof(name), "%s: unreadable per the table, no value", t->name);
		h_eq(name, h_flat(&run, &prog, m, 0).count, 0);
		snprintf(name, sizeof(name), "%s: counted as a decode error", t->name);
		h_eq(name, h_counter(&run, ST_C_ERR_LABEL), 1);
	}
	h_unload(&run);
}

int main(void)
{
	unsigned int i;

	ok(h_find_site("bpftest", "types"), "the probe site is in the stapsdt note");
	if (!h_site.file_off)
		return unit_summary();
	for (i = 0; i < NR_FIELDS; i++)
		decode_one(i);
	return unit_summary();
}
