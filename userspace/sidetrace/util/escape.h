/* SPDX-License-Identifier: MIT */
/*
 * The one rule for showing, as text, a string that sidetrace did not write
 * itself: names and attributes from a traced binary, paths, strings read
 * from application memory. Printable ASCII and well-formed UTF-8 of
 * printable code points (U+00A0 and up) pass through; every other byte
 * (C0 and C1 controls, DEL, malformed UTF-8) shows as \xNN. Such a string
 * can then neither drive the terminal (escape sequences) nor forge a line
 * of output (newlines). A backslash shows as \\, so that "\x0a" in the
 * output is always those four characters and never a newline's escape.
 *
 * printf's values (%s, %c) are the user's to shape, as in bpftrace: their
 * bytes as they are, except on a terminal, where st_escape_term() shows
 * what could drive it: the rule above, newline, tab and backslash as they
 * are.
 *
 * JSON has its own rule, in util/json.h.
 */
#ifndef SIDETRACE_UTIL_ESCAPE_H
#define SIDETRACE_UTIL_ESCAPE_H

#include <stdint.h>
#include <stdio.h>

#include "util/textbuf.h"

/*
 * Length (1 to 4) of the well-formed UTF-8 sequence that starts at s, its
 * code point in *cp; 0 when s starts none (a stray continuation byte, an
 * overlong form, a surrogate, past U+10FFFF, cut short by the NUL).
 */
int st_utf8_decode(const char *s, uint32_t *cp);

/*
 * Length of the character at s when it passes through as is (printable
 * ASCII, or printable UTF-8), 0 when its bytes show as \xNN. A backslash
 * is printable here: st_escape_text() doubles it, a program's own source
 * shows it as written (diag.c).
 */
int st_text_char(const char *s);

/* Appends s to tb, escaped as above. */
void st_escape_text(struct st_textbuf *tb, const char *s);

/*
 * Appends s to tb for a terminal: as st_escape_text(), but a newline, a
 * tab and a backslash as they are (they drive no terminal).
 */
void st_escape_term(struct st_textbuf *tb, const char *s);

/* Writes s to f, escaped as above. */
void st_fputs_text(FILE *f, const char *s);

/*
 * Prints "sidetrace: MESSAGE\n" to stderr, the one-line message escaped as
 * above: for errors that name a path, a binary's names or a command.
 */
void st_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A warning, "sidetrace: warning: MESSAGE\n" as st_errorf() prints, unless
 * st_warnings_off() (--no-warnings, as bpftrace's) silenced them all.
 */
void st_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void st_warnings_off(void);
bool st_warnings_on(void);

#endif /* SIDETRACE_UTIL_ESCAPE_H */
