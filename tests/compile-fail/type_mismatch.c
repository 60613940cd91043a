/* SPDX-License-Identifier: MIT */
/* A signed argument for a field declared unsigned. */
// expect: the type of an argument does not match the type of its field
// disable: compiles
#include <side/trace.h>

side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("a"), side_field_string("b")));

void f(int a)
{
	side_event(ev, side_arg_list(side_arg_s32(a), side_arg_string("x")));
}
