/* SPDX-License-Identifier: MIT */
/*
 * SIDE ABI: event description. Extended only by appending fields; readers
 * use struct_size and version to know what they may read.
 */
#ifndef SIDE_ABI_EVENT_DESCRIPTION_H
#define SIDE_ABI_EVENT_DESCRIPTION_H

#include <stdint.h>
#include <side/macros.h>

#define SIDE_EVENT_DESCRIPTION_ABI_VERSION 0

enum side_event_flags {
	SIDE_EVENT_FLAG_VARIADIC = 1 << 0,
};

enum side_loglevel {
	SIDE_LOGLEVEL_EMERG = 0,
	SIDE_LOGLEVEL_ALERT = 1,
	SIDE_LOGLEVEL_CRIT = 2,
	SIDE_LOGLEVEL_ERR = 3,
	SIDE_LOGLEVEL_WARNING = 4,
	SIDE_LOGLEVEL_NOTICE = 5,
	SIDE_LOGLEVEL_INFO = 6,
	SIDE_LOGLEVEL_DEBUG = 7,
};

struct side_event_state;
struct side_event_field;
struct side_attr;

struct side_event_description {
	char side_begin_abi_tag_0[0];

	uint32_t struct_size; /* size of this structure */
	uint32_t version; /* SIDE_EVENT_DESCRIPTION_ABI_VERSION */

	side_ptr_t(struct side_event_state) state;
	side_ptr_t(const char) provider_name;
	side_ptr_t(const char) event_name;
	side_array_t(const struct side_event_field) fields;
	side_array_t(const struct side_attr) attributes;
	uint64_t flags; /* enum side_event_flags */
	uint16_t nr_side_type_label;
	uint16_t nr_side_attr_type;
	side_enum_t(enum side_loglevel, uint32_t) loglevel;

	char side_end_abi_tag_0[0];

	char end[0];
} SIDE_PACKED;
side_check_size(struct side_event_description, 112);

/* The last member of the original layout: a tracer compares struct_size to its end. */
#define side_event_description_orig_abi_last side_end_abi_tag_0

#endif /* SIDE_ABI_EVENT_DESCRIPTION_H */
