/* SPDX-License-Identifier: MIT */
/* An optional field of u32 given an optional holding a u64. */
// expect: the type of an argument does not match the type of its field
// disable: compiles
#include <side/trace.h>

side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_optional_literal("opt", side_elem(side_type_u32()))));

void f(unsigned long v)
{
	if (side_event_enabled(ev)) {
		side_arg_define_optional(o, side_arg_u64(v), SIDE_OPTIONAL_ENABLED);

		side_event_call(ev, side_arg_list(side_arg_optional(o)));
	}
}
