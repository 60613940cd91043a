// SPDX-License-Identifier: MIT
/* JSON string escaping; see json.h. */
#include <stdlib.h>

#include "util/escape.h"
#include "util/json.h"

void st_json_escape(struct st_textbuf *tb, const char *s)
{
	uint32_t cp;
	int n, i;

	while (*s) {
		n = st_utf8_decode(s, &cp);
		if (!n) {
			st_tb_puts(tb, "\\ufffd");
			s++;
			continue;
		}
		s += n;
		if (cp == '"' || cp == '\\') {
			st_tb_putc(tb, '\\');
			st_tb_putc(tb, cp);
		} else if (cp == '\n') {
			st_tb_puts(tb, "\\n");
		} else if (cp == '\r') {
			st_tb_puts(tb, "\\r");
		} else if (cp == '\t') {
			st_tb_puts(tb, "\\t");
		} else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
			st_tb_printf(tb, "\\u%04x", cp);
		} else {
			for (i = n; i > 0; i--)
				st_tb_putc(tb, s[-i]);
		}
	}
}

void st_fputs_json(FILE *f, const char *s)
{
	struct st_textbuf tb = {0};
	char *text;

	st_json_escape(&tb, s);
	text = st_tb_take(&tb);
	/* Out of memory: still a valid string. */
	fputs(text ? text : "?", f);
	free(text);
}
