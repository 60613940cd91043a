// SPDX-License-Identifier: MIT
/* Records of the functions that print from the collector: see record_calls.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "parse/functions.h"
#include "output/printf_print.h"
#include "output/record_calls.h"
#include "util/escape.h"

/*
 * The strings up to the first empty one (the array's end, or a read that
 * failed), as bpftrace prints them: joined by the delimiter, then a newline.
 */
enum st_text_verdict st_join_text(struct st_rec_view *v, const struct st_rec_hdr *h,
				  const uint8_t *data)
{
	const struct st_printf_layout *lay;
	struct st_textbuf *tb = v->fmt == ST_OUTPUT_JSON ? &v->scratch : &v->text;
	char s[ST_JOIN_ARG_LEN];
	const char *delim;
	uint32_t i;

	if (h->id >= v->c->nr_printfs)
		return ST_TEXT_MALFORMED;
	lay = &v->c->printfs[h->id];
	if (st_func(lay->call->func)->bpf != ST_FC_JOIN || h->len != ST_JOIN_SIZE)
		return ST_TEXT_MALFORMED;
	delim = lay->call->nr_kids > 1 ? lay->call->kids[1]->str : " ";
	st_tb_reset(&v->scratch);
	for (i = 0; i < ST_JOIN_ARGS && data[i * ST_JOIN_ARG_LEN]; i++) {
		memcpy(s, data + i * ST_JOIN_ARG_LEN, sizeof(s));
		s[sizeof(s) - 1] = '\0';
		if (i)
			st_tb_puts(tb, delim);
		if (v->term)
			st_escape_term(tb, s);
		else
			st_tb_puts(tb, s);
	}
	if (v->fmt != ST_OUTPUT_JSON) {
		st_tb_putc(tb, '\n');
		return ST_TEXT_OK;
	}
	st_tb_printf(&v->text, "{\"type\": \"%s\", \"data\": ", st_func(lay->call->func)->record);
	st_tb_json_str(&v->text, v->scratch.s ? v->scratch.s : "");
	st_tb_puts(&v->text, "}\n");
	return ST_TEXT_OK;
}

bool st_call_acts(enum st_fn_code code)
{
	return code == ST_FC_SYSTEM || code == ST_FC_CAT;
}

void st_call_act(enum st_fn_code code, struct st_textbuf *text, uint32_t cat_bytes)
{
	struct st_textbuf out = {0};
	const char *what = text->s ? text->s : "";
	char buf[4096];
	FILE *f;
	size_t n;

	if (!st_call_acts(code))
		return;
	/*
	 * The output is read here, and printed in the records' order; what the
	 * command writes elsewhere (stderr) comes after what was printed before.
	 */
	fflush(NULL);
	f = code == ST_FC_SYSTEM ? popen(what, "r") : fopen(what, "re");
	if (!f) {
		st_errorf("%s: cannot %s %s: %s", code == ST_FC_SYSTEM ? "system()" : "cat()",
			  code == ST_FC_SYSTEM ? "run" : "open", what, strerror(errno));
		st_tb_reset(text);
		return;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 &&
	       (code != ST_FC_CAT || out.len < cat_bytes))
		st_tb_putn(&out, buf,
			   code == ST_FC_CAT && n > cat_bytes - out.len ? cat_bytes - out.len : n);
	if (ferror(f) && code == ST_FC_CAT)
		st_errorf("cat(): cannot read %s: %s", what, strerror(errno));
	if (code == ST_FC_SYSTEM)
		pclose(f);
	else
		fclose(f);
	st_tb_reset(text);
	st_tb_putn(text, out.s ? out.s : "", out.len);
	st_tb_free(&out);
}
