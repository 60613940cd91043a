// SPDX-License-Identifier: MIT
/* -k's reports of failed helpers: see helper_error.h. */
#include <string.h>

#include "output/helper_error.h"
#include "parse/diag.h"
#include "util/escape.h"

/* The largest errno a helper returns; below it, what came is no errno (a process's engine's). */
#define ERRNO_MAX 4095

void st_helper_error_text(struct st_textbuf *tb, enum st_output_format fmt,
			  const struct st_helper_site *site, int64_t ret, const char *file,
			  const char *src)
{
	const char *name = st_helper(site->helper)->name;
	struct st_diag d = {0};

	/* bpftrace's --no-warnings hides its text, not its JSON object. */
	if (fmt != ST_OUTPUT_JSON && !st_warnings_on())
		return;
	if (fmt == ST_OUTPUT_JSON) {
		st_tb_printf(tb,
			     "{\"type\": \"helper_error\", \"helper\": \"%s\", \"retcode\": %lld, "
			     "\"line\": %u, \"col\": %u}\n",
			     name, (long long)ret, site->pos.line, site->pos.col);
		return;
	}
	if (ret < 0)
		st_diag_set(&d, file, site->pos, "Failed to %s: %s (%lld)", name,
			    ret >= -ERRNO_MAX ? strerror((int)-ret) : "Unknown error",
			    (long long)ret);
	else
		st_diag_set(&d, file, site->pos, "Failed to %s: %lld", name, (long long)ret);
	st_diag_text(tb, &d, src, "WARNING");
}
