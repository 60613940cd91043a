// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the preprocessor on any text, with and without BTF
 * (the first byte's low bit): directives, macros and #if's expressions
 * within their bounds. stdin is /dev/null, so that an #include of
 * /dev/stdin ends.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preproc/preproc.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_RDONLY);

	(void)argc;
	(void)argv;
	if (fd >= 0 && fd != 0) {
		dup2(fd, 0);
		close(fd);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct st_pp_opts opts = {0};
	struct st_pp_error err;
	char *src, *out = NULL;

	if (!size)
		return 0;
	opts.btf = data[0] & 1;
	src = malloc(size);
	if (!src)
		return 0;
	memcpy(src, data + 1, size - 1);
	src[size - 1] = '\0';
	if (!st_preprocess(src, "fuzz", NULL, &opts, &out, &err))
		free(out);
	free(src);
	return 0;
}
