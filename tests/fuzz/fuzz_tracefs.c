// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the tracepoint format line reader of discovery
 * (objfile/tracefs.c), given a line as a format file holds one.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "objfile/tracefs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_tp_format_line fl;
	char *s;

	/* fgets() gives a NUL-terminated line: so does the input. */
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (st_tp_format_line(s, &fl) && (strlen(fl.name) > size || strlen(fl.type) > size + 1))
		abort();
	free(s);
	return 0;
}
