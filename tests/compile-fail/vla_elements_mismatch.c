/* SPDX-License-Identifier: MIT */
/* The elements of a vla argument vector must all have one type. */
// expect: the elements of an array or vla argument must all have the same type
// disable: compiles
#include <side/trace.h>

side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_vla("ids", side_elem(side_type_u32()),
						 side_length(side_type_u32()))));

void f(unsigned int a)
{
	side_arg_define_vla(
		v, side_arg_list(side_arg_u32(a), side_arg_string("two"), side_arg_u32(a)));

	side_event(ev, side_arg_list(side_arg_vla(v)));
}
