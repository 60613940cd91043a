/* SPDX-License-Identifier: MIT */
/* Two fields named "status" in one field list. */
// expect: two fields of this list have the same name
// disable: compiles
#include <side/trace.h>

side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u32("status"), side_field_string("path"),
				  side_field_u16("status")));

void f(unsigned int a, const char *p)
{
	side_event(ev, side_arg_list(side_arg_u32(a), side_arg_string(p), side_arg_u16(a)));
}
