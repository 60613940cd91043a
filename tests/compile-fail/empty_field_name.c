/* SPDX-License-Identifier: MIT */
/* A field with an empty name, inside a struct definition. */
// expect: a field name must be a non-empty string
// disable: compiles
#include <side/trace.h>

static side_define_struct(point, side_field_list(side_field_s32("x"), side_field_s32("")));

side_static_event(ev, "prov", "ev", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_struct("p", point)));

void f(int x, int y)
{
	side_arg_define_vec(p, side_arg_list(side_arg_s32(x), side_arg_s32(y)));

	side_event(ev, side_arg_list(side_arg_struct(p)));
}
