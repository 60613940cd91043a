/* SPDX-License-Identifier: MIT */
/*
 * Parser of the sidetrace language (bpftrace-compatible where it overlaps):
 *
 *   program : clause*
 *   clause  : probe (',' probe)* ['/' expr '/'] '{' [stmt (';' stmt)* [';']] '}'
 *   probe   : KIND[:...], as kinds/probe_kinds.c's row of KIND writes it
 *   stmt    : MAP ['[' expr (',' expr)* ']'] '=' call | call
 *   call    : NAME '(' [expr (',' expr)*] ')'
 *   expr    : C operators on integers and strings; primaries are integer
 *             and string literals, builtins (pid tid comm nsecs cpu uid
 *             probe), args.FIELD with .MEMBER / ->MEMBER / [INDEX],
 *             @map (only as the argument of print/clear/zero), calls
 *
 * Comments are // and C-style. Inside a filter, a '/' followed by '{' ends
 * the filter, so division stays usable there.
 *
 * Only the syntax is checked here: function names are resolved, but whether
 * a call fits where it stands, arities and types are the checker's job.
 */
#ifndef SIDETRACE_PARSE_PARSER_H
#define SIDETRACE_PARSE_PARSER_H

#include "parse/ast.h"
#include "parse/diag.h"

/*
 * Parses src (NUL-terminated); filename names it in diagnostics ("program"
 * for -e). Returns 0 and the tree in *out (free it with st_program_free), or
 * -EINVAL with the first syntax error in *diag, or -ENOMEM.
 */
int st_parse(const char *src, const char *filename, struct st_program **out, struct st_diag *diag);

/*
 * The same, with positional parameters: $N is args[N - 1], an integer when
 * it is one, else a string (str($N) takes either); one not given is 0, or
 * "" in str(); $# is nr_args. process: -p names a process, where a glob
 * over kinds means the user-space ones, as bpftrace's.
 */
int st_parse_args(const char *src, const char *filename, char *const *args, uint32_t nr_args,
		  bool process, struct st_program **out, struct st_diag *diag);

/* What a value may be, for messages; its %s is the list of builtins. */
#define ST_VALUE_FORMS \
	"args.FIELD, argN, retval, a builtin (%s), $var, @map[key], a number, a string, a " \
	"cast such as (uint8) or (struct task_struct *), *ptr or '('"

#endif /* SIDETRACE_PARSE_PARSER_H */
