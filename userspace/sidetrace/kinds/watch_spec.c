// SPDX-License-Identifier: MIT
/* A watchpoint's words: see watch_spec.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>

#include "kinds/watch_spec.h"

/* A number as bpftrace's stoull reads it: decimal, 0x hexadecimal or 0 octal, nothing after. */
static bool number(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

/* FUNCTION+argN: 0, or -EINVAL with the reason. */
static int function_arg(const char *where, struct st_watch_spec *w, char *err, size_t errlen)
{
	const char *plus = strchr(where, '+');
	uint64_t n;

	if (plus == where || strchr(plus + 1, '+')) {
		snprintf(err, errlen, "invalid function/address argument: %s (FUNCTION+argN)",
			 where);
		return -EINVAL;
	}
	if (strncmp(plus + 1, "arg", 3) || !number(plus + 4, &n)) {
		snprintf(err, errlen, "invalid function argument: %s (arg0 to arg%d)", plus + 1,
			 ST_WATCH_MAX_ARG);
		return -EINVAL;
	}
	if (n > ST_WATCH_MAX_ARG) {
		snprintf(err, errlen, "x86_64 doesn't support arg%llu: arg0 to arg%d",
			 (unsigned long long)n, ST_WATCH_MAX_ARG);
		return -EINVAL;
	}
	w->arg = (int)n;
	w->func = strndup(where, plus - where);
	return w->func ? 0 : -ENOMEM;
}

/*
 * MODE's letters, each once; the combinations x86's debug registers
 * cannot watch refused (Intel SDM vol. 3, 17.2.4: no read-only, no
 * execute with data).
 */
static int watch_mode(const char *mode, struct st_watch_spec *w, char *err, size_t errlen)
{
	static const char *const letters = "rwx";
	static const uint8_t bits[] = {HW_BREAKPOINT_R, HW_BREAKPOINT_W, HW_BREAKPOINT_X};
	const char *c;
	size_t i, n = 0;

	w->bp_type = 0;
	for (c = mode; *c; c++) {
		if (!strchr(letters, *c)) {
			snprintf(err, errlen, "watchpoint mode must be combination of (r,w,x): %s",
				 mode);
			return -EINVAL;
		}
		i = strchr(letters, *c) - letters;
		if (w->bp_type & bits[i]) {
			snprintf(err, errlen, "watchpoint modes may not be duplicated: %s", mode);
			return -EINVAL;
		}
		w->bp_type |= bits[i];
	}
	if (!w->bp_type) {
		snprintf(err, errlen, "watchpoint mode must be combination of (r,w,x)");
		return -EINVAL;
	}
	for (i = 0; i < 3; i++)
		if (w->bp_type & bits[i])
			w->mode[n++] = letters[i];
	w->mode[n] = '\0';
	if (w->bp_type != HW_BREAKPOINT_W && w->bp_type != HW_BREAKPOINT_RW &&
	    w->bp_type != HW_BREAKPOINT_X) {
		snprintf(err, errlen,
			 "invalid watchpoint mode: %s (x86_64 watches w, rw or x, not reads alone "
			 "nor execution with data)",
			 w->mode);
		return -EINVAL;
	}
	return 0;
}

int st_watch_spec_parse(const struct st_probe_kind *k, const char *where, const char *len_mode,
			struct st_watch_spec *w, char *err, size_t errlen)
{
	const char *mode = strchr(len_mode, ':');
	char len[24];
	uint64_t n;
	int ret;

	memset(w, 0, sizeof(*w));
	w->arg = -1;
	if (strchr(where, '+')) {
		ret = function_arg(where, w, err, errlen);
		if (ret)
			return ret;
	} else if (!number(where, &w->addr)) {
		snprintf(err, errlen, "invalid address: %s (a number, or FUNCTION+argN)", where);
		return -EINVAL;
	} else if (!w->addr) {
		snprintf(err, errlen, "watchpoint must be attached to a non-zero address");
		return -EINVAL;
	}
	if (!mode) {
		snprintf(err, errlen, "%s probe type requires 3 arguments: %s", k->name, k->syntax);
		st_watch_spec_free(w);
		return -EINVAL;
	}
	snprintf(len, sizeof(len), "%.*s", (int)(mode++ - len_mode), len_mode);
	if (!number(len, &n) || (n != 1 && n != 2 && n != 4 && n != 8)) {
		snprintf(err, errlen, "watchpoint length must be one of (1,2,4,8): %s", len);
		st_watch_spec_free(w);
		return -EINVAL;
	}
	w->len = (uint8_t)n;
	ret = watch_mode(mode, w, err, errlen);
	if (!ret && !w->func && k->watch_async) {
		snprintf(err, errlen, "asyncwatchpoint requires a function name: FUNCTION+argN");
		ret = -EINVAL;
	}
	if (ret)
		st_watch_spec_free(w);
	return ret;
}

void st_watch_spec_free(struct st_watch_spec *w)
{
	free(w->func);
	w->func = NULL;
}
