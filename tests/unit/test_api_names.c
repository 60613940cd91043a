/* SPDX-License-Identifier: MIT */
/*
 * libside names that programs use besides the event macros: explicit
 * byte-order arguments, the side_array_t helpers, side_container_of,
 * side_offsetofend, side_enum_set, SIDE_DEFAULT_ATTR, gather enums, and
 * the standard headers side/trace.h brings in.
 */
#include <side/trace.h>
#include "unit.h"

side_static_event(ev_orders, "names", "orders", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32_be("be32"), side_field_s64_le("le64"),
				  side_field_s8_be("s8"), side_field_u16_be("be16"), ));

static struct side_arg_vec seen;
static uint32_t seen_be32;
static int16_t seen_be16;

/* The runtime's entry point, replaced here to look at the arguments. */
static void look(const struct side_event_state *state, const struct side_arg_vec *vec,
		 int in_process)
{
	const struct side_arg *sav = side_ptr_get(vec->sav);

	(void)state;
	(void)in_process;
	seen = *vec;
	if (vec->len != 4)
		return;
	seen_be32 = sav[0].u.side_static.integer_value.side_u32;
	seen_be16 = (int16_t)sav[3].u.side_static.integer_value.side_u16;
}
#define side_call_from_site look

struct outer {
	int a;
	struct {
		char c[3];
	} inner;
	long tail;
};

/* A gather enum: the mappings named, the element a gather integer. */
side_define_enum(gather_labels, side_enum_mapping_list(side_enum_mapping_value("one", 1)));
side_static_event(ev_gather_enum, "names", "gather_enum", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_gather_enum(
			  "e", gather_labels,
			  side_elem(side_type_gather_unsigned_integer(
				  0, 4, 0, 0, SIDE_TYPE_GATHER_ACCESS_DIRECT)))));

int main(void)
{
	const struct side_event_field *f;
	struct outer o = {0};
	int n = 0;
	uint32_t one = 1;

	/* Standard headers: printf, exit, bool, PRIu64 without including them here. */
	bool yes = true;
	ok(yes && strtol("12", NULL, 10) == 12 && sizeof(PRIu64) > 1, "standard headers");

	side_for_each_element_in_array(f, &ev_orders.fields) n++;
	ok(n == 4 && side_array_length(&ev_orders.fields) == 4 &&
		   side_array_index_of_element(&ev_orders.fields,
					       side_array_at(&ev_orders.fields, 2)) == 2,
	   "side_array_t helpers walk the fields");
	ok(side_container_of(&o.inner, struct outer, inner) == &o &&
		   side_offsetofend(struct outer, inner) == offsetof(struct outer, inner) + 3,
	   "side_container_of, side_offsetofend");

	side_event_state__ev_orders.enabled = SIDE_ENABLED_USER_ONE;
	side_event(ev_orders,
		   side_arg_list(side_arg_u32_be(side_bswap_32(7)), side_arg_s64_le(-2),
				 side_arg_s8_be(-3), side_arg_u16_be(side_bswap_16(9)), ));
	side_event_state__ev_orders.enabled = 0;
	ok(seen.len == 4 && seen_be32 == side_bswap_32(7) && seen_be16 == side_bswap_16(9),
	   "byte-order arguments pass the value as given");

	side_enum_set(ev_orders.loglevel, SIDE_LOGLEVEL_ERR);
	ok(side_enum_get(ev_orders.loglevel) == SIDE_LOGLEVEL_ERR, "side_enum_set");

	side_event_state__ev_gather_enum.enabled = SIDE_ENABLED_USER_ONE;
	side_event(ev_gather_enum, side_arg_list(side_arg_gather_enum(&one)));
	side_event_state__ev_gather_enum.enabled = 0;
	ok(seen.len == 1, "gather enum argument");
	return unit_summary();
}
