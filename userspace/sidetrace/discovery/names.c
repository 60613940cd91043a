// SPDX-License-Identifier: MIT
/* How discovery names things: sanitized USDT names, log levels, types. */
#include <ctype.h>

#include <side/abi/event-description.h>

#include "common/side_types.h"
#include "discovery/discovery.h"

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
