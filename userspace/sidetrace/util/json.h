/* SPDX-License-Identifier: MIT */
/*
 * The one JSON string escaping rule of every JSON sidetrace prints: quote,
 * backslash and control characters (and DEL) are escaped; every other byte
 * passes through (UTF-8 stays UTF-8).
 */
#ifndef SIDETRACE_UTIL_JSON_H
#define SIDETRACE_UTIL_JSON_H

#include <stdio.h>

/* Room for the longest escape, "\u00XX", and its NUL. */
#define ST_JSON_ESC_MAX 7

/*
 * The escape of byte c inside a JSON string, written to buf; NULL when c
 * stands for itself.
 */
static inline const char *st_json_escape(unsigned char c, char buf[ST_JSON_ESC_MAX])
{
	switch (c) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		if (c >= 0x20 && c != 0x7f)
			return NULL;
		snprintf(buf, ST_JSON_ESC_MAX, "\\u%04x", c);
		return buf;
	}
}

#endif /* SIDETRACE_UTIL_JSON_H */
