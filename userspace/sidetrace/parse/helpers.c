// SPDX-License-Identifier: MIT
/* The helpers -k reports: see helpers.h. */
#include "parse/helpers.h"

/*
 * A read or a lookup that fails reads 0 or "", which a program can test:
 * only -kk reports it, as bpftrace does.
 */
static const struct st_helper_row helpers[ST_NR_HELPERS] = {
	[ST_H_MAP_LOOKUP] = {"map_lookup_elem", ST_CHECK_ALL},
	[ST_H_MAP_UPDATE] = {"map_update_elem", ST_CHECK_HELPERS},
	[ST_H_MAP_DELETE] = {"map_delete_elem", ST_CHECK_HELPERS},
	[ST_H_PROBE_READ] = {"probe_read", ST_CHECK_ALL},
	[ST_H_PROBE_READ_STR] = {"probe_read_str", ST_CHECK_ALL},
	[ST_H_PROBE_READ_KERNEL] = {"probe_read_kernel", ST_CHECK_ALL},
	[ST_H_PROBE_READ_KERNEL_STR] = {"probe_read_kernel_str", ST_CHECK_ALL},
	[ST_H_PROBE_READ_USER] = {"probe_read_user", ST_CHECK_ALL},
	[ST_H_PROBE_READ_USER_STR] = {"probe_read_user_str", ST_CHECK_ALL},
};

const struct st_helper_row *st_helper(enum st_helper h)
{
	return &helpers[h < ST_NR_HELPERS ? h : ST_H_PROBE_READ];
}

enum st_helper st_read_helper(enum st_read_space space, bool str)
{
	switch (space) {
	case ST_SPACE_KERNEL:
		return str ? ST_H_PROBE_READ_KERNEL_STR : ST_H_PROBE_READ_KERNEL;
	case ST_SPACE_USER:
		return str ? ST_H_PROBE_READ_USER_STR : ST_H_PROBE_READ_USER;
	default:
		return str ? ST_H_PROBE_READ_STR : ST_H_PROBE_READ;
	}
}
