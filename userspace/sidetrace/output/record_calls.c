// SPDX-License-Identifier: MIT
/* Records of the functions that print from the collector: see record_calls.h. */
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
	st_tb_puts(&v->text, "{\"type\": \"join\", \"data\": ");
	st_tb_json_str(&v->text, v->scratch.s ? v->scratch.s : "");
	st_tb_puts(&v->text, "}\n");
	return ST_TEXT_OK;
}
