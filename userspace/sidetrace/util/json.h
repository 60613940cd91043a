/* SPDX-License-Identifier: MIT */
/*
 * The one JSON string escaping rule of every JSON sidetrace prints, whose
 * output is always valid UTF-8 (and valid JSON) whatever the input bytes:
 * - quote and backslash are escaped, \n \r \t by their short forms;
 * - other control characters, DEL and the C1 controls (U+0080..U+009F) as
 *   \u00XX, so that JSON shown on a terminal cannot drive it either;
 * - well-formed UTF-8 passes through;
 * - each byte that is not part of well-formed UTF-8 becomes \ufffd, the
 *   replacement character, as a UTF-8 decoder would read it. (Showing it
 *   as \u00XX instead would turn it into a different, valid character;
 *   text output keeps the byte's value as \xNN.)
 */
#ifndef SIDETRACE_UTIL_JSON_H
#define SIDETRACE_UTIL_JSON_H

#include <stdio.h>

#include "util/textbuf.h"

/* Appends s to tb as the inside of a JSON string (no quotes). */
void st_json_escape(struct st_textbuf *tb, const char *s);

/* Writes s to f as the inside of a JSON string (no quotes). */
void st_fputs_json(FILE *f, const char *s);

#endif /* SIDETRACE_UTIL_JSON_H */
