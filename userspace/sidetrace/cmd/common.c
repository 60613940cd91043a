// SPDX-License-Identifier: MIT
/* What the commands that trace share (common.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "cmd/common.h"

char *st_read_file(const char *path)
{
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int saved;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return NULL;
	for (;;) {
		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				goto cleanup;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	/* A directory opens but cannot be read. */
	if (ferror(f)) {
		free(buf);
		buf = NULL;
		errno = errno ? errno : EIO;
		goto cleanup;
	}
	buf[len] = '\0';
cleanup:
	saved = errno;
	fclose(f);
	errno = saved;
	return buf;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int libbpf_verbose(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

void st_libbpf_messages(bool verbose)
{
	libbpf_set_print(verbose ? libbpf_verbose : libbpf_quiet);
}
