// SPDX-License-Identifier: MIT
/*
 * util/escape.c and util/json.c: what reaches a terminal or a JSON reader
 * from a string sidetrace did not write. Text shows every control and
 * malformed byte as \xNN; JSON is valid UTF-8 whatever the input.
 */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "util/escape.h"
#include "util/json.h"
#include "unit.h"

static void check_text(const char *in, const char *want)
{
	struct st_textbuf tb = {0};
	char *s;

	st_escape_text(&tb, in);
	s = st_tb_take(&tb);
	ok_str(want, s, want);
	free(s);
}

static void check_json(const char *in, const char *want)
{
	struct st_textbuf tb = {0};
	char *s;

	st_json_escape(&tb, in);
	s = st_tb_take(&tb);
	ok_str(want, s, want);
	free(s);
}

static void test_text(void)
{
	check_text("http:request", "http:request");
	check_text("", "");
	/* Clear the screen, set the title, ring the bell: all shown, none done. */
	check_text("\x1b[2J\x1b]0;owned\x07", "\\x1b[2J\\x1b]0;owned\\x07");
	check_text("a\nb\tc\rd\x7f", "a\\x0ab\\x09c\\x0dd\\x7f");
	check_text("back\\slash", "back\\\\slash");
	/* Unambiguous: the four characters \x0a and a newline print differently. */
	check_text("\\x0a", "\\\\x0a");
	check_text("\n", "\\x0a");
	check_text("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		   "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	/* The 8-bit CSI as UTF-8 (U+009B) is a control too. */
	check_text("\xc2\x9b"
		   "2J",
		   "\\xc2\\x9b2J");
	check_text("\xc2\xa0", "\xc2\xa0");
	/* Malformed: stray continuation, overlong, surrogate, cut short, > U+10FFFF. */
	check_text("\x80", "\\x80");
	check_text("\xc0\xaf", "\\xc0\\xaf");
	check_text("\xed\xa0\x80", "\\xed\\xa0\\x80");
	check_text("\xe2\x82", "\\xe2\\x82");
	check_text("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	check_text("\xff\xfe", "\\xff\\xfe");
}

static void check_term(const char *in, const char *want)
{
	struct st_textbuf tb = {0};
	char *s;

	st_escape_term(&tb, in);
	s = st_tb_take(&tb);
	ok_str(want, s, want);
	free(s);
}

/* printf's values on a terminal: what drives it escaped, the rest as it is. */
static void test_term(void)
{
	check_term("a\tb\nc", "a\tb\nc");
	check_term("back\\slash \\x0a", "back\\slash \\x0a");
	check_term("\x1b[2J\x1b]0;owned\x07\r\b\x7f", "\\x1b[2J\\x1b]0;owned\\x07\\x0d\\x08\\x7f");
	check_term("caf\xc3\xa9 \xc2\x9b"
		   "2J \xff",
		   "caf\xc3\xa9 \\xc2\\x9b2J \\xff");
}

static void test_json(void)
{
	check_json("a\"b\\c\n\r\t\x01", "a\\\"b\\\\c\\n\\r\\t\\u0001");
	check_json("\x1b[2J\x7f", "\\u001b[2J\\u007f");
	check_json("caf\xc3\xa9 \xf0\x9f\x98\x80", "caf\xc3\xa9 \xf0\x9f\x98\x80");
	check_json("\xc2\x9b", "\\u009b");
	check_json("\xff"
		   "a\xc3",
		   "\\ufffda\\ufffd");
	check_json("\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd");
	check_json("\xc0\xaf", "\\ufffd\\ufffd");
}

/* Deterministic xorshift, so that a failure can be replayed. */
static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* True when s is valid UTF-8 by the C library's decoder. */
static bool libc_valid_utf8(const char *s)
{
	mbstate_t st = {0};
	size_t len = strlen(s), n;
	wchar_t wc;

	while (len) {
		n = mbrtowc(&wc, s, len, &st);
		if (n == (size_t)-1 || n == (size_t)-2 || (wc >= 0xd800 && wc <= 0xdfff))
			return false;
		s += n ? n : 1;
		len -= n ? n : 1;
	}
	return true;
}

/* Random bytes: text is all printable, JSON is valid UTF-8 with no control. */
static void test_random(void)
{
	uint64_t seed = 0x5eed;
	bool text_ok = true, json_ok = true, utf8_ok = true;
	char in[33], *t, *j;
	int round, i;

	if (!setlocale(LC_CTYPE, "C.UTF-8")) {
		ok(false, "the C.UTF-8 locale exists");
		return;
	}
	for (round = 0; round < 20000; round++) {
		struct st_textbuf tt = {0}, tj = {0};

		for (i = 0; i < 32; i++)
			in[i] = (char)(rng_next(&seed) % 255 + 1);
		in[32] = '\0';
		st_escape_text(&tt, in);
		st_json_escape(&tj, in);
		t = st_tb_take(&tt);
		j = st_tb_take(&tj);
		for (i = 0; t && t[i]; i++)
			text_ok &= (unsigned char)t[i] >= 0x20 && t[i] != 0x7f;
		for (i = 0; j && j[i]; i++)
			json_ok &= (unsigned char)j[i] >= 0x20 && j[i] != 0x7f;
		utf8_ok &= t && j && libc_valid_utf8(t) && libc_valid_utf8(j);
		free(t);
		free(j);
	}
	ok(text_ok, "random bytes: escaped text has no control byte");
	ok(json_ok, "random bytes: escaped JSON has no control byte");
	ok(utf8_ok, "random bytes: both are valid UTF-8");
}

int main(void)
{
	test_text();
	test_term();
	test_json();
	test_random();
	return unit_summary();
}
