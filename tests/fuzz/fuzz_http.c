// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the request head reader of serve (util/http_head.c),
 * given bytes as a client sends them: where the head ends, then the head.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/http_head.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_http_head h;
	long end;
	char *s;

	if (size > ST_HTTP_HEAD_MAX)
		size = ST_HTTP_HEAD_MAX;
	/* An exact-size copy, so that ASan sees any read past the bytes received. */
	s = malloc(size ? size : 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	end = st_http_head_end(s, size);
	if (end > 0)
		(void)st_http_head_parse(s, end, &h);
	free(s);
	return 0;
}
