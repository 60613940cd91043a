/* SPDX-License-Identifier: MIT */
/*
 * Code written for libside's convention before late 2024 passes the address
 * of a definition; the current convention names it.
 */
// expect: SIDE: name the definition or argument vector, not its address
#include <side/trace.h>

static side_define_struct(point, side_field_list(side_field_s32("x"), side_field_s32("y")));
side_static_event(ev, "p", "e", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_struct("p", &point)));
