// SPDX-License-Identifier: MIT
/* Names and types of events: sanitized USDT names, log levels, type helpers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <side/abi/event-description.h>
#include <side/abi/type-description.h>

#include "common/side_types.h"
#include "events/events.h"

void st_sanitize_name(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			*s = '_';
}

const char *st_loglevel_name(uint32_t loglevel)
{
	static const char *const names[] = {
		[SIDE_LOGLEVEL_EMERG] = "EMERG",     [SIDE_LOGLEVEL_ALERT] = "ALERT",
		[SIDE_LOGLEVEL_CRIT] = "CRIT",	     [SIDE_LOGLEVEL_ERR] = "ERR",
		[SIDE_LOGLEVEL_WARNING] = "WARNING", [SIDE_LOGLEVEL_NOTICE] = "NOTICE",
		[SIDE_LOGLEVEL_INFO] = "INFO",	     [SIDE_LOGLEVEL_DEBUG] = "DEBUG",
	};

	return loglevel < sizeof(names) / sizeof(names[0]) ? names[loglevel] : NULL;
}

const char *st_type_name(const struct st_type *t)
{
	return t->label == ST_TYPE_UNREADABLE ? "unreadable" : st_side_type_name(t->label);
}

int st_type_enum_mapping(const struct st_type *t, int64_t v)
{
	uint32_t i;

	for (i = 0; t && t->label == SIDE_TYPE_ENUM && i < t->nr_enum; i++)
		if (v >= t->enum_begin[i] && v <= t->enum_end[i])
			return i;
	return -1;
}

const char *st_type_enum_label(const struct st_type *t, int64_t v)
{
	int i = st_type_enum_mapping(t, v);

	return i < 0 ? NULL : t->enum_labels[i];
}

void st_type_set_int(struct st_type *t, uint32_t size, bool is_signed)
{
	if (!st_side_int_label(size, is_signed))
		size = 8;
	t->label = st_side_int_label(size, is_signed);
	t->size = size;
	t->is_signed = is_signed;
}

const char *st_type_set_array(struct st_type *t, bool of_chars, int depth)
{
	if (of_chars) {
		t->label = SIDE_TYPE_STRING_UTF8;
		t->size = 1;
		t->in_place = true;
		return depth ? NULL : "a char array passed by value";
	}
	st_type_set_int(t, 8, false);
	return "an array, which sidetrace does not read yet";
}

void st_type_fini(struct st_type *t)
{
	uint32_t i;

	if (t->elem) {
		st_type_fini(t->elem);
		free(t->elem);
	}
	if (t->length_type) {
		st_type_fini(t->length_type);
		free(t->length_type);
	}
	for (i = 0; i < t->nr_fields; i++) {
		free(t->fields[i].name);
		st_type_fini(&t->fields[i].type);
	}
	free(t->fields);
	for (i = 0; i < t->nr_enum; i++)
		free(t->enum_labels[i]);
	free(t->enum_labels);
	free(t->enum_begin);
	free(t->enum_end);
	free(t->attrs);
	free(t->c_name);
	free(t->unreadable);
	memset(t, 0, sizeof(*t));
}
