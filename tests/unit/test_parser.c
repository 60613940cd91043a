// SPDX-License-Identifier: MIT
/*
 * Unit tests of the lexer and parser: the tree built for representative
 * programs, and every syntax error with its position and message.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse/parser.h"

#include "unit.h"

static struct st_program *parse(const char *name, const char *src)
{
	struct st_program *prog = NULL;
	struct st_diag d;

	if (st_parse(src, "program", &prog, &d)) {
		printf("FAIL %s: unexpected error\n", name);
		st_diag_print(stdout, &d, src);
		failed++;
		return NULL;
	}
	passed++;
	return prog;
}

static bool pos_is(struct st_pos p, uint32_t line, uint32_t col)
{
	return p.line == line && p.col == col;
}

static void check_err(const char *name, const char *src, uint32_t line, uint32_t col,
		      const char *msg)
{
	struct st_program *prog = NULL;
	struct st_diag d;
	int err = st_parse(src, "program", &prog, &d);
	bool good = err == -EINVAL && d.line == line && d.col == col && !strcmp(d.msg, msg);

	ok(good, name);
	if (!good) {
		printf("  want %u:%u \"%s\"; got %d:\n", line, col, msg, err);
		st_diag_print(stdout, &d, src);
	}
	st_program_free(prog);
}

static void test_probes(void)
{
	struct st_program *p =
		parse("probes", "side:/usr/lib/x86_64-linux-gnu/libkv-1.2.so:kv*:get_*,\n"
				"  side:./app:http:request, side:\"/opt/my app/bin\":a:b { }\n"
				"BEGIN{} END {}\n"
				"interval:s:2 {} interval:ms:250 {}");
	struct st_attach_point *pr;

	if (!p)
		return;
	ok(p->nr_clauses == 5, "probes: clause count");
	ok(p->clauses[0].nr_points == 3, "probes: several per clause");
	pr = &p->clauses[0].points[0];
	ok(pr->kind == ST_AP_SIDE &&
		   !strcmp(pr->target, "/usr/lib/x86_64-linux-gnu/libkv-1.2.so") &&
		   !strcmp(pr->provider, "kv*") && !strcmp(pr->event, "get_*"),
	   "probes: path target and wildcards");
	ok(pos_is(pr->pos, 1, 1) && pos_is(pr->target_pos, 1, 6) &&
		   pos_is(pr->provider_pos, 1, 45) && pos_is(pr->event_pos, 1, 49),
	   "probes: positions");
	pr = &p->clauses[0].points[1];
	ok(!strcmp(pr->target, "./app") && pos_is(pr->pos, 2, 3),
	   "probes: second probe on the next line");
	ok(!strcmp(p->clauses[0].points[2].target, "/opt/my app/bin"), "probes: quoted target");
	ok(p->clauses[1].points[0].kind == ST_AP_BEGIN && p->clauses[2].points[0].kind == ST_AP_END,
	   "probes: BEGIN END");
	ok(p->clauses[3].points[0].kind == ST_AP_INTERVAL &&
		   p->clauses[3].points[0].interval_ns == 2000000000ull &&
		   p->clauses[4].points[0].interval_ns == 250000000ull,
	   "probes: intervals in ns");
	st_program_free(p);
	/* A Go function by its import path; a filter after a blank. */
	p = parse("go names", "uprobe:./app:net/http.(*conn).serve /pid == 1/ { }\n"
			      "kprobe:vfs_read/pid == 1/ { }");
	if (!p)
		return;
	pr = &p->clauses[0].points[0];
	ok(!strcmp(pr->event, "net/http.(*conn).serve") && p->clauses[0].filter,
	   "probes: a Go function's import path is part of its name");
	ok(!strcmp(p->clauses[1].points[0].event, "vfs_read") && p->clauses[1].filter,
	   "probes: a kernel function ends at a '/'");
	st_program_free(p);
	/* bpftrace's kfunc:MODULE:FUNCTION, the module kept for the kernel's functions' source. */
	p = parse("kfunc module", "kfunc:vmlinux:vfs_read, t*point:sched:sched_switch { }");
	if (!p)
		return;
	ok(p->clauses[0].nr_points == 2 && p->clauses[0].points[0].kind == ST_AP_FENTRY &&
		   !strcmp(p->clauses[0].points[0].event, "vmlinux:vfs_read"),
	   "probes: kfunc:MODULE:FUNCTION");
	ok(p->clauses[0].points[1].kind == ST_AP_TRACEPOINT && p->clauses[0].points[1].kind_glob &&
		   !p->clauses[0].points[0].kind_glob,
	   "probes: a glob over kinds is an attach point of each kind it fits");
	st_program_free(p);
	check_err("a module for a kprobe", "kprobe:vmlinux:vfs_read { }", 1, 8,
		  "kprobe: names one kernel function (kprobe:FUNCTION[+OFFSET]), and "
		  "'vmlinux:vfs_read' has a ':': a tracepoint is tracepoint:vmlinux:vfs_read");
	check_err(
		"two modules for a kfunc", "kfunc:a:b:c { }", 1, 7,
		"fentry: names one kernel function, of a module or not (fentry:[MODULE:]FUNCTION), "
		"and 'a:b:c' has more than one ':'");
	/* Quoted words, as bpftrace splits them: the quotes dropped, escapes read. */
	p = parse("quoted names", "usdt:./app:\"prov\":\"na*\", usdt:./app:pr\"o:v\":n\"a\"me,\n"
				  "  usdt:./app:\"\\\"probe1\\\"\" /1/ { }");
	if (!p)
		return;
	pr = &p->clauses[0].points[0];
	ok(!strcmp(pr->provider, "prov") && !strcmp(pr->event, "na*"),
	   "probes: a quoted provider and name, a quoted glob");
	pr = &p->clauses[0].points[1];
	ok(!strcmp(pr->provider, "pro:v") && !strcmp(pr->event, "name"),
	   "probes: quotes inside a word, a ':' in quotes");
	pr = &p->clauses[0].points[2];
	ok(!strcmp(pr->provider, "*") && !strcmp(pr->event, "\"probe1\"") && p->clauses[0].filter,
	   "probes: an escaped quote in a quoted name");
	st_program_free(p);
}

/* bpftrace's expression statements, kept to be checked, and return. */
static void test_expression_statements(void)
{
	struct st_program *p =
		parse("expression statements", "BEGIN { 5; $x = 1; $x == 2; @m[1] = 1; @m[1] + 1; "
					       "str(0); -1; (2); return; @m[2]++ }");
	const struct st_stmt *s;
	uint32_t i;

	if (!p)
		return;
	s = p->clauses[0].stmts;
	ok(p->clauses[0].nr_stmts == 10, "expression statements: count");
	for (i = 0; i < 10; i++)
		if (i != 1 && i != 3 && i != 8 && i != 9)
			ok(s[i].kind == ST_STMT_IF && s[i].discard && !s[i].nr_then,
			   "expression statements: each dropped once checked");
	ok(s[1].kind == ST_STMT_ASSIGN && s[3].kind == ST_STMT_ASSIGN &&
		   s[9].kind == ST_STMT_ASSIGN,
	   "expression statements: assignments stay");
	ok(s[4].value->kind == ST_EXPR_BINARY && s[4].value->kids[0]->kind == ST_EXPR_MAP &&
		   s[4].value->kids[0]->nr_kids == 1,
	   "expression statements: a map read again from its name, keys and all");
	ok(s[8].kind == ST_STMT_RETURN, "expression statements: return");
	st_program_free(p);
}

static void test_statements(void)
{
	struct st_program *p =
		parse("statements",
		      "// count requests\n"
		      "side:./app:http:request /* any method */ {\n"
		      "\t@lat[args.method, args->hdr.len, args.codes[2]] = hist(args.latency_us);\n"
		      "\t@ = count();;\n"
		      "\t@l = lhist(args.x, 0, 100, 10);\n"
		      "\tprint(@lat); clear(@lat); zero(@l); exit();\n"
		      "\tprintf(\"%s\\t\\\"%d\\\"\\n\", comm, pid)\n"
		      "}");
	struct st_stmt *s;
	struct st_expr *k;

	if (!p)
		return;
	ok(p->clauses[0].nr_stmts == 8, "statements: count, empty ones skipped");
	s = &p->clauses[0].stmts[0];
	ok(s->kind == ST_STMT_AGG && !strcmp(s->map, "@lat") && s->nr_keys == 3 &&
		   s->call->func == ST_FN_HIST && pos_is(s->map_pos, 3, 2),
	   "statements: keyed hist");
	k = s->keys[1];
	ok(k->kind == ST_EXPR_FIELD && k->nr_path == 2 && !strcmp(k->path[0].name, "hdr") &&
		   !strcmp(k->path[1].name, "len") && pos_is(k->path[1].pos, 3, 30),
	   "statements: -> and . paths");
	k = s->keys[2];
	ok(k->nr_path == 2 && k->path[1].kind == ST_SEG_INDEX && k->path[1].index == 2 &&
		   pos_is(k->path[1].pos, 3, 45),
	   "statements: index segment");
	s = &p->clauses[0].stmts[1];
	ok(!strcmp(s->map, "@") && s->nr_keys == 0 && s->call->func == ST_FN_COUNT &&
		   s->call->nr_kids == 0,
	   "statements: @ alone");
	s = &p->clauses[0].stmts[2];
	ok(s->call->func == ST_FN_LHIST && s->call->nr_kids == 4 && s->call->kids[3]->uval == 10,
	   "statements: lhist arguments");
	ok(p->clauses[0].stmts[3].call->func == ST_FN_PRINT &&
		   p->clauses[0].stmts[3].call->kids[0]->kind == ST_EXPR_MAP &&
		   p->clauses[0].stmts[4].call->func == ST_FN_CLEAR &&
		   p->clauses[0].stmts[5].call->func == ST_FN_ZERO &&
		   p->clauses[0].stmts[6].call->func == ST_FN_EXIT,
	   "statements: actions");
	s = &p->clauses[0].stmts[7];
	ok(s->kind == ST_STMT_CALL && s->call->func == ST_FN_PRINTF && s->call->nr_kids == 3 &&
		   !strcmp(s->call->kids[0]->str, "%s\t\"%d\"\n") &&
		   s->call->kids[1]->builtin == ST_BUILTIN_COMM &&
		   s->call->kids[2]->builtin == ST_BUILTIN_PID,
	   "statements: printf parsed, escapes decoded");
	st_program_free(p);
	test_expression_statements();
}

static void test_expressions(void)
{
	struct st_program *p = parse(
		"expressions",
		"side:./a:p:e /args.a + 2 * 3 == 8 || !(args.b & 0x10) && -1 < args.c / 2 / {\n"
		"  @[1 << 2 >> 1, 18446744073709551615, args.s != \"x\", ~nsecs % 7 ^ cpu | uid - "
		"tid] = count()\n"
		"}");
	struct st_expr *f, *l, *r, *k;
	struct st_stmt *s;

	if (!p)
		return;
	f = p->clauses[0].filter;
	/* ((a + (2 * 3)) == 8) || ((!(b & 16)) && ((-1) < (c / 2))) */
	ok(f->kind == ST_EXPR_BINARY && f->op == ST_OP_LOR && pos_is(f->pos, 1, 35),
	   "expr: || at the top");
	l = f->kids[0];
	r = f->kids[1];
	ok(l->op == ST_OP_EQ && l->kids[0]->op == ST_OP_ADD && l->kids[0]->kids[1]->op == ST_OP_MUL,
	   "expr: * over + over ==");
	ok(r->op == ST_OP_LAND && r->kids[0]->kind == ST_EXPR_UNARY &&
		   r->kids[0]->op == ST_OP_NOT && r->kids[0]->kids[0]->op == ST_OP_BAND &&
		   r->kids[0]->kids[0]->kids[1]->uval == 16,
	   "expr: ! (a & hex)");
	ok(r->kids[1]->op == ST_OP_LT && r->kids[1]->kids[0]->op == ST_OP_NEG &&
		   r->kids[1]->kids[1]->op == ST_OP_DIV,
	   "expr: division inside a filter");
	s = &p->clauses[0].stmts[0];
	k = s->keys[0];
	ok(k->op == ST_OP_SHR && k->kids[0]->op == ST_OP_SHL, "expr: shifts associate left");
	ok(s->keys[1]->uval == UINT64_MAX && s->keys[1]->is_unsigned, "expr: u64 literal");
	ok(s->keys[2]->op == ST_OP_NE && s->keys[2]->kids[1]->kind == ST_EXPR_STR,
	   "expr: string inequality");
	/* ((~nsecs % 7) ^ cpu) | (uid - tid) */
	k = s->keys[3];
	ok(k->op == ST_OP_BOR && k->kids[0]->op == ST_OP_BXOR &&
		   k->kids[0]->kids[0]->op == ST_OP_MOD &&
		   k->kids[0]->kids[0]->kids[0]->op == ST_OP_BNOT && k->kids[1]->op == ST_OP_SUB,
	   "expr: bitwise precedence");
	st_program_free(p);
}

/* Integer literals as bpftrace 0.17 reads them. */
static void test_literals(void)
{
	static const char src[] = "BEGIN { printf(\"\", 1u, 2ULL, 0xfu, 010, 0_10, 0777, 01e2, "
				  "1e1_0, 2e3ul, 1__0, 00, 0x1_0) }";
	static const uint64_t want[] = {1, 2, 15, 8, 8, 511, 100, 10000000000ULL, 2000, 10, 0, 16};
	struct st_program *p = parse("literals", src);
	const struct st_expr *call;
	bool good;
	size_t i;

	if (!p)
		return;
	call = p->clauses[0].stmts[0].call;
	good = call->nr_kids == 1 + sizeof(want) / sizeof(want[0]);
	for (i = 0; good && i < sizeof(want) / sizeof(want[0]); i++)
		good = call->kids[1 + i]->kind == ST_EXPR_INT && call->kids[1 + i]->uval == want[i];
	ok(good, "literals: suffixes, octal, '_' runs, exponents");
	st_program_free(p);
}

static void test_errors(void)
{
	check_err("missing separator", "side:./app:http:request { @x = count() @y }", 1, 40,
		  "expected ';' or '}' after statement");
	check_err("a kind bpftrace has, not yet here", "rawtracepoint:sched_switch { }", 1, 1,
		  "sidetrace has no rawtracepoint: probes yet: tracepoint:CATEGORY:NAME, the same "
		  "events with their fields");
	check_err("an iterator pinned", "iter:task:list { }", 1, 10,
		  "sidetrace pins no iterator (iter:task:PIN): what its program prints goes to the "
		  "sidetrace that runs it, not to a later reader of the pinned file; run the "
		  "program when you want its output");
	check_err("an iterator without its name", "iter: { }", 1, 6,
		  "expected an iterator's name or '*' (iter:TARGET): sidetrace -l 'iter:*' lists "
		  "this kernel's");
	check_err("unknown probe type", "kfoo:do_sys_open { }", 1, 1,
		  "unknown probe type 'kfoo': expected "
		  "side:TARGET:PROVIDER:EVENT, usdt:TARGET:[PROVIDER:]NAME, "
		  "uprobe:TARGET:FUNCTION[+OFFSET], uretprobe:TARGET:FUNCTION, "
		  "tracepoint:CATEGORY:NAME, kprobe:FUNCTION[+OFFSET], kretprobe:FUNCTION, "
		  "profile:UNIT:N, fentry:[MODULE:]FUNCTION, fexit:[MODULE:]FUNCTION, BEGIN, END, "
		  "interval:UNIT:N, "
		  "software:EVENT[:COUNT], hardware:EVENT[:COUNT], "
		  "watchpoint:ADDR|FUNCTION+argN:LEN:MODE, asyncwatchpoint:FUNCTION+argN:LEN:MODE, "
		  "iter:TARGET");
	check_err("no probe", "{ @ = count() }", 1, 1,
		  "expected a probe: "
		  "side:TARGET:PROVIDER:EVENT, usdt:TARGET:[PROVIDER:]NAME, "
		  "uprobe:TARGET:FUNCTION[+OFFSET], uretprobe:TARGET:FUNCTION, "
		  "tracepoint:CATEGORY:NAME, kprobe:FUNCTION[+OFFSET], kretprobe:FUNCTION, "
		  "profile:UNIT:N, fentry:[MODULE:]FUNCTION, fexit:[MODULE:]FUNCTION, BEGIN, END, "
		  "interval:UNIT:N, "
		  "software:EVENT[:COUNT], hardware:EVENT[:COUNT], "
		  "watchpoint:ADDR|FUNCTION+argN:LEN:MODE, asyncwatchpoint:FUNCTION+argN:LEN:MODE, "
		  "iter:TARGET");
	check_err("empty program", "  // nothing\n", 2, 1,
		  "empty program: expected a probe: "
		  "side:TARGET:PROVIDER:EVENT, usdt:TARGET:[PROVIDER:]NAME, "
		  "uprobe:TARGET:FUNCTION[+OFFSET], uretprobe:TARGET:FUNCTION, "
		  "tracepoint:CATEGORY:NAME, kprobe:FUNCTION[+OFFSET], kretprobe:FUNCTION, "
		  "profile:UNIT:N, fentry:[MODULE:]FUNCTION, fexit:[MODULE:]FUNCTION, BEGIN, END, "
		  "interval:UNIT:N, "
		  "software:EVENT[:COUNT], hardware:EVENT[:COUNT], "
		  "watchpoint:ADDR|FUNCTION+argN:LEN:MODE, asyncwatchpoint:FUNCTION+argN:LEN:MODE, "
		  "iter:TARGET");
	check_err("missing target", "side: {}", 1, 6,
		  "expected a target after 'side:': a path (./app, /usr/lib/libfoo.so) or a "
		  "library name (libfoo)");
	check_err("missing provider", "side:./app {}", 1, 11,
		  "expected ':' before the provider (side:TARGET:PROVIDER:EVENT)");
	check_err("empty event", "side:./app:http: {}", 1, 17,
		  "expected an event name or '*' (side:TARGET:PROVIDER:EVENT)");
	check_err("too many colons", "side:./app:a:b:c {}", 1, 15,
		  "too many ':' in probe: expected side:TARGET:PROVIDER:EVENT");
	check_err("interval unit", "interval:m:5 {}", 1, 10,
		  "expected a unit, hz, s, ms or us: interval:UNIT:N");
	check_err("interval count", "interval:ms:0 {}", 1, 13,
		  "expected a positive number of milliseconds: interval:UNIT:N");
	check_err("interval past 64 bits", "i:s:99999999999999999999 {}", 1, 5,
		  "too many seconds: interval:UNIT:N");
	check_err("profile too often", "profile:us:9 {}", 1, 12,
		  "profile: samples at most 100000 times a second (a period of 10 us)");
	check_err("profile hz too high", "p:hz:100001 {}", 1, 6,
		  "profile: samples at most 100000 times a second (a period of 10 us)");
	check_err("software without an event", "software: {}", 1, 10,
		  "expected an event name or '*' (software:EVENT[:COUNT])");
	check_err("software count", "s:faults:x {}", 1, 10,
		  "expected a positive number of events between samples: software:EVENT[:COUNT]");
	check_err("missing block", "BEGIN @ = count()", 1, 7,
		  "expected '{', ',' and another probe, or /filter/ after the probe");
	check_err("unclosed filter", "BEGIN /pid == 1 { }", 1, 17,
		  "expected '/' to close the filter: /filter/ { ... }");
	check_err("unclosed block", "BEGIN {\n  @ = count();\n", 3, 1,
		  "expected '}' to close the block opened at line 1, column 7");
	check_err("not a statement", "BEGIN { = 2 }", 1, 9,
		  "expected a statement: @map[keys] = aggregation or value, $var = value, "
		  "@m[k]++, @m[k] += value, if (...) { ... } else { ... }, "
		  "while (...) { ... }, break, continue, return, delete(@m[k]), "
		  "print(@m), clear(@m), zero(@m), exit() or printf(\"fmt\", ...)");
	check_err("a variable, then neither an operator nor an assignment", "BEGIN { $x 5 }", 1, 12,
		  "expected '=', '+=' (or another compound assignment), '++' or '--' after $x");
	check_err("break outside a loop", "BEGIN { if (1) { break; } }", 1, 18,
		  "break outside a loop: break and continue are statements of a while loop's "
		  "block");
	check_err("map without =", "BEGIN { @x count() }", 1, 12,
		  "expected '=', '+=' (or another compound assignment), '++' or '--' after @x");
	check_err("aggregation with +=", "BEGIN { @x += count() }", 1, 15,
		  "count() is assigned with '=': @x = count(...)");
	check_err("unknown function", "BEGIN { @x = quantize(1) }", 1, 14,
		  "unknown function 'quantize': valid are count, sum, avg, min, max, stats, hist, "
		  "lhist, print, clear, zero, exit, printf, delete, str, time, strftime, ksym, "
		  "usym, kaddr, join, ntop, pton, strerror, kptr, uptr, cgroupid, system, cat, "
		  "signal, sizeof, strncmp, bswap, buf, macaddr, unwatch, reg, uaddr, "
		  "cgroup_path, strcontains, debugf and path");
	check_err("if without parentheses", "BEGIN { if 1 { exit() } }", 1, 12,
		  "expected '(' after if: if (condition) { ... }");
	check_err("else without a block", "BEGIN { if (1) { exit() } else exit() }", 1, 32,
		  "expected '{' or 'if' after else");
	check_err("?: without ':'", "BEGIN { $x = 1 ? 2 ; }", 1, 20,
		  "expected ':' in the conditional a ? b : c");
	check_err("cast without ')'", "BEGIN { $x = (uint8 1) }", 1, 21,
		  "expected '*' or ')' after the cast's type uint8");
	check_err("empty keys", "BEGIN { @x[] = count() }", 1, 12,
		  "expected a key in @x[]: write @x without brackets for a map with no key");
	check_err("key separator", "BEGIN { @x[1 2] = count() }", 1, 14,
		  "expected ',' or ']' after key 1 of @x");
	check_err("argument separator", "BEGIN { @x = sum(1 2) }", 1, 20,
		  "expected ',' or ')' after argument 1 of sum()");
	check_err("missing operand", "BEGIN { @x = sum(1 +) }", 1, 21,
		  "expected an expression: args.FIELD, argN, retval, a builtin (pid, tid, comm, "
		  "nsecs, elapsed, cpu, uid, gid, cgroup, ustack, kstack, func, probe, loglevel, "
		  "rand, numaid, cpid, username, curtask, ctx), "
		  "$var, "
		  "@map[key], a "
		  "number, a "
		  "string, a cast such as (uint8) or (struct task_struct *), *ptr or '('");
	check_err("unclosed parenthesis", "BEGIN { @x = sum((1 + 2) * (3 }", 1, 31, "expected ')'");
	check_err("field name missing", "BEGIN { @x = sum(args.) }", 1, 23,
		  "expected a field name after '.'");
	check_err("non-constant index", "BEGIN { @x = sum(args.a[pid]) }", 1, 25,
		  "expected an integer constant index in '[]' (args.ARRAY[2])");
	check_err("unclosed index", "BEGIN { @x = sum(args.a[1) }", 1, 26,
		  "expected ']' after the index");
	check_err("map element without key", "BEGIN { @x = sum(@y[]) }", 1, 21,
		  "expected a key in @y[]: write @y without brackets for a map with no key");
	check_err("unterminated string", "BEGIN { printf(\"abc) }", 1, 16,
		  "unterminated string: expected a closing '\"' on the same line");
	check_err("bad escape", "BEGIN { printf(\"a\\qb\") }", 1, 18,
		  "unknown escape sequence '\\q' in string: valid are \\n \\t \\r \\\\ \\\", "
		  "\\xHH and octal \\NNN (\\0 a NUL)");
	check_err("unterminated comment", "BEGIN { } /* never closed", 1, 11,
		  "unterminated comment: '/*' needs a closing '*/'");
	check_err("bad character", "BEGIN { @x = sum($ 1) }", 1, 18, "unexpected character '$'");
	check_err("positional $0", "BEGIN { @x = sum($0) }", 1, 18,
		  "a positional parameter is $1, $2, ... or $#");
	check_err("integer overflow", "BEGIN { @x = sum(18446744073709551616) }", 1, 18,
		  "integer literal too large: the largest is 18446744073709551615");
	check_err("bad integer", "BEGIN { @x = sum(12ab) }", 1, 18,
		  "invalid integer literal: expected decimal digits only ('_' between digits, 1e6 "
		  "for powers of ten, a suffix u, l, ul, ll or ull)");
	check_err("suffix lu, which C has not either", "BEGIN { @x = sum(1lu) }", 1, 18,
		  "invalid integer literal: expected decimal digits only ('_' between digits, 1e6 "
		  "for powers of ten, a suffix u, l, ul, ll or ull)");
	check_err("a member without its name", "BEGIN { @x = sum(curtask->) }", 1, 27,
		  "expected a member's name after '->'");
	check_err("a cast's tag without a name", "BEGIN { @x = sum((struct *)0) }", 1, 26,
		  "expected a name after 'struct' in the cast");
	check_err("8 in an octal literal", "BEGIN { @x = sum(08) }", 1, 18,
		  "a leading 0 makes an octal literal, whose digits are 0 to 7 (bpftrace reads 010 "
		  "as 8): drop the 0 for a decimal one");
	check_err("a trailing '_'", "BEGIN { @x = sum(1_) }", 1, 18,
		  "invalid integer literal: expected decimal digits only ('_' between digits, 1e6 "
		  "for powers of ten, a suffix u, l, ul, ll or ull)");
	check_err("error on a later line", "BEGIN {\n\t@x = count();\n\t@y = sum(1;\n}", 3, 12,
		  "expected ',' or ')' after argument 1 of sum()");
}

/* The rendering: position, message, source line, caret under the fault. */
static void test_render(void)
{
	static const char src[] = "BEGIN { }\n\tside:./app:http:request { @x = count() @y }\n";
	struct st_program *prog = NULL;
	struct st_diag d;
	char *buf = NULL;
	size_t len = 0;
	bool good;
	FILE *f;

	st_parse(src, "program", &prog, &d);
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	st_diag_print(f, &d, src);
	st_diag_hint(&d, "a hint");
	st_diag_print(f, &d, NULL);
	fclose(f);
	good = !strcmp(buf, "program:2:41: error: expected ';' or '}' after statement\n"
			    "\tside:./app:http:request { @x = count() @y }\n"
			    "\t                                       ^\n"
			    "program:2:41: error: expected ';' or '}' after statement\n"
			    "a hint\n");
	ok(good, "render: caret under the column, tabs kept");
	if (!good)
		printf("%s", buf);
	free(buf);
}

int main(void)
{
	test_probes();
	test_statements();
	test_expressions();
	test_literals();
	test_errors();
	test_render();
	return unit_summary();
}
