/* SPDX-License-Identifier: MIT */
/* An integer argument for a string field, in a variadic event. */
// expect: the type of an argument does not match the type of its field
// disable: compiles
#include <side/trace.h>

side_static_event_variadic(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
			   side_field_list(side_field_string("path")));

void f(unsigned long v)
{
	side_event_variadic(ev, side_arg_list(side_arg_u64(v)),
			    side_arg_list(side_arg_dynamic_field("v", side_arg_dynamic_u64(v))));
}
