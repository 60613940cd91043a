// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the SDT argument string parser of discovery
 * (objfile/sdt_args.c), and the operand text and reason it quotes in
 * messages.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "objfile/sdt_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_sdt_args args;
	char *s, op[64];
	uint32_t i;

	/* A note's argument string ends at its NUL: so does the input. */
	s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	st_sdt_args_parse(s, &args);
	for (i = 0; i <= args.nr && i < ST_MAX_SDT_ARGS + 1; i++) {
		st_sdt_arg_text(s, i, op, sizeof(op));
		(void)st_sdt_arg_why(op);
	}
	free(s);
	return 0;
}
