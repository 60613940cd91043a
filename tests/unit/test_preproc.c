// SPDX-License-Identifier: MIT
/* The preprocessor: each directive, macros, #if's expressions, lines kept, errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preproc/preproc.h"
#include "unit.h"

static struct st_pp_opts opts = {.btf = true};
static struct st_pp_error err;

/* The text src becomes, or NULL on an error (then in err). */
static char *pp(const char *src)
{
	char *out = NULL;

	if (st_preprocess(src, "prog.bt", NULL, &opts, &out, &err))
		return NULL;
	return out;
}

static void expect(const char *name, const char *src, const char *want)
{
	char *got = pp(src);

	ok_str(name, got, want);
	if (!got)
		printf("  error: %u:%u: %s\n", err.line, err.col, err.msg);
	free(got);
}

/* src fails at line, its message containing msg. */
static void expect_error(const char *name, const char *src, uint32_t line, const char *msg)
{
	char *got = pp(src);
	bool same = !got && err.line == line && strstr(err.msg, msg);

	ok(same, name);
	if (!same)
		printf("  got %s; error %u: %s\n", got ? got : "(text)", err.line, err.msg);
	free(got);
}

static void directives(void)
{
	expect("object-like #define, its line empty", "#define N 3\nN N\n", "\n3 3\n");
	expect("#undef", "#define N 3\n#undef N\nN\n", "\n\nN\n");
	expect("#ifdef and #else", "#define A\n#ifdef A\nyes\n#else\nno\n#endif\n",
	       "\n\nyes\n\n\n\n");
	expect("#ifndef", "#ifndef A\nyes\n#endif\n", "\nyes\n\n");
	expect("#elif", "#if 0\na\n#elif 1\nb\n#else\nc\n#endif", "\n\n\nb\n\n\n");
	expect("only the first true branch", "#if 1\na\n#elif 1\nb\n#endif\n", "\na\n\n\n\n");
	expect("nesting inside a dropped branch", "#if 0\n#if 1\na\n#endif\n#else\nb\n#endif\n",
	       "\n\n\n\n\nb\n\n");
	expect("BPFTRACE_HAVE_BTF with BTF", "#ifndef BPFTRACE_HAVE_BTF\nno\n#else\nyes\n#endif\n",
	       "\n\n\nyes\n\n");
	expect("line continuations keep the line count", "#define L 1 + \\\n 2\nL\n",
	       "\n\n1 +  2\n");
	expect("directives in a dropped branch are not read", "#if 0\n#error no\n#foo\n#endif\nx",
	       "\n\n\n\nx");
	expect("a '#' in a comment is no directive", "/*\n#define N 3\n*/ N\n",
	       "/*\n#define N 3\n*/ N\n");
	expect("#! first line kept", "#!/usr/bin/env bpftrace\nBEGIN\n",
	       "#!/usr/bin/env bpftrace\nBEGIN\n");
	expect("#pragma ignored", "#pragma once\nx\n", "\nx\n");
	expect("a directive's trailing comment", "#define N 4 // four\nN\n", "\n4\n");
}

static void macros(void)
{
	expect("function-like", "#define SQ(x) ((x) * (x))\nSQ(2 + 1)\n",
	       "\n((2 + 1) * (2 + 1))\n");
	expect("two parameters", "#define ADD(a, b) a + b\nADD(1, (2, 3))\n", "\n1 + (2, 3)\n");
	expect("a function-like name without a call", "#define F(x) x\nF + 1\n", "\nF + 1\n");
	expect("arguments expanded first", "#define N 2\n#define F(x) x*x\nF(N)\n", "\n\n2*2\n");
	expect("nested calls", "#define M(a, b) ((a) > (b) ? (a) : (b))\nM(M(1, 2), 3)\n",
	       "\n((((1) > (2) ? (1) : (2))) > (3) ? (((1) > (2) ? (1) : (2))) : (3))\n");
	expect("recursion guard", "#define A A + B\n#define B A\nA\n", "\n\nA + A\n");
	expect("self reference", "#define foo foo\nfoo\n", "\nfoo\n");
	expect("not in strings nor comments", "#define N 3\n\"N\" // N\n/* N */ N\n",
	       "\n\"N\" // N\n/* N */ 3\n");
	expect("not in $var nor @map", "#define x 9\n$x @x x\n", "\n$x @x 9\n");
	expect("tokens kept apart", "#define N -1\n1-N\n", "\n1- -1\n");
	expect("# stringifies", "#define S(x) #x\nS(a \"b\")\n", "\n\"a \\\"b\\\"\"\n");
	expect("## pastes", "#define CAT(a, b) a ## b\nCAT(x, 1)\n", "\nx1\n");
	expect("a chain of macros", "#define A B\n#define B C\n#define C 7\nA\n", "\n\n\n7\n");
	expect("<sys/socket.h>'s AF_INET6", "#include <sys/socket.h>\nAF_INET6 PF_INET\n",
	       "\n10 2\n");
	expect("<linux/sched.h>'s TASK_KILLABLE", "#include <linux/sched.h>\nTASK_KILLABLE\n",
	       "\n(256 | 2)\n");
	expect("an unknown header with BTF", "#include <linux/binfmts.h>\nx\n", "\nx\n");
	expect("<linux/in.h>: protocols, and the families and errnos it includes",
	       "#include <linux/in.h>\nIPPROTO_UDP AF_INET6 EPERM\n", "\n17 10 1\n");
	expect("<linux/fs.h>: a directory entry's types, and open flags from <linux/fcntl.h>",
	       "#include <linux/fs.h>\nDT_REG O_SYNC\n", "\n8 (04000000 | 00010000)\n");
	expect("<linux/ipv6.h>: ICMPv6's types through <linux/icmpv6.h>",
	       "#include <linux/ipv6.h>\nICMPV6_ECHO_REQUEST IPPROTO_ICMPV6\n", "\n128 58\n");
	expect_error("an unterminated call", "#define F(x) x\nF(1\n", 2, "does not end");
	expect_error("substitution bounded",
		     "#define A(x) x x x x x x x x x x x x x x x x\nA(A(A(A(A(A(1))))))\n", 2,
		     "grows past");
	expect_error("a call with too many arguments", "#define F(x) x\n\nF(1, 2)\n", 3,
		     "takes 1 argument, not 2");
	expect_error("expansion bounded",
		     "#define A B B B B B B B B B B\n#define B C C C C C C C C C C\n"
		     "#define C D D D D D D D D D D\n#define D E E E E E E E E E E\n"
		     "#define E F F F F F F F F F F\n#define F 1 1 1 1 1 1 1 1 1 1\nA\n",
		     7, "expansions");
}

/* The value #if expr gives: "\nyes\n\n" or "\nno\n\n". */
static void expr(const char *e, bool want)
{
	char src[256], name[300];
	char *got;

	snprintf(src, sizeof(src), "#if %s\nyes\n#else\nno\n#endif\n", e);
	snprintf(name, sizeof(name), "#if %s is %s", e, want ? "true" : "false");
	got = pp(src);
	ok_str(name, got, want ? "\nyes\n\n\n\n" : "\n\n\nno\n\n");
	free(got);
}

static void expressions(void)
{
	expr("1 + 2 * 3 == 7", true);
	expr("(1 + 2) * 3 == 9", true);
	expr("defined(BPFTRACE_HAVE_BTF) && defined BPFTRACE_HAVE_BTF", true);
	expr("defined(NOPE)", false);
	expr("UNKNOWN", false);
	expr("!UNKNOWN", true);
	expr("1 << 4 == 16 && 256 >> 4 == 16", true);
	expr("-7 / 2 == -3 && -7 % 2 == -1", true);
	expr("~0 == -1", true);
	expr("(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5", true);
	expr("2 < 3 && 3 <= 3 && 4 > 3 && 3 >= 3 && 1 != 2", true);
	expr("1 ? 0 : 1", false);
	expr("0 ? 1 : 2 == 2", true);
	expr("0 && 1 / 0", false);
	expr("1 || 1 / 0", true);
	expr("0x10 == 16 && 010 == 8 && 10UL == 10", true);
	expr("BPFTRACE_HAVE_BTF + 1 == 2", true);
	expect_error("division by zero", "\n#if 1 / 0\n#endif\n", 2, "division by zero");
	expect_error("a missing ')'", "#if (1\n#endif\n", 1, "expected ')'");
	expect_error("an empty #if", "#if\n#endif\n", 1, "without an expression");
}

static void errors(void)
{
	struct st_pp_opts nobtf = {0};
	char *out = NULL;

	expect_error("#if without #endif at its line", "x\n#ifdef A\ny\n", 2, "without #endif");
	expect_error("#endif without #if", "x\n\n#endif\n", 3, "#endif without #if");
	expect_error("#else after #else", "#if 1\n#else\n#else\n#endif\n", 3, "after #else");
	expect_error("#elif without #if", "#elif 1\n", 1, "without #if");
	expect_error("#error", "\n#error stop here\n", 2, "#error stop here");
	expect_error("an unknown directive", "#frob\n", 1, "unknown directive #frob");
	expect_error("a missing quoted include", "#include \"nope.h\"\n", 1, "no such file");
	expect_error("#include without a file", "#include nope\n", 1, "expects");
	expect_error("variadic macros", "#define F(...) 1\n", 1, "variadic");
	expect_error("#define without a name", "#define\n", 1, "needs a macro's name");
	expect_error("#if nesting bounded",
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n"
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n"
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n"
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n"
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n"
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n"
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n"
		     "#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n#if 1\n",
		     65, "deeper");
	ok(st_preprocess("#include <linux/binfmts.h>\n", "p", NULL, &nobtf, &out, &err) ==
			   -EINVAL &&
		   strstr(err.msg, "no BTF") && err.line == 1,
	   "an unknown header without BTF is refused");
	ok(st_preprocess("#include <sys/socket.h>\nAF_INET\n", "p", NULL, &nobtf, &out, &err) ==
			   0 &&
		   !strcmp(out, "\n2\n"),
	   "a known header without BTF gives its macros");
	free(out);
}

/* Included files, in a directory of their own. */
static void includes(void)
{
	char dir[] = "/tmp/test_preproc.XXXXXX", path[300], *out = NULL;
	char *files[1] = {NULL}, *dirs[1] = {dir};
	struct st_pp_opts o = {.btf = true, .include_dirs = dirs, .nr_include_dirs = 1};
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(false, "mkdtemp");
		return;
	}
#define WRITE(name, text) \
	do { \
		snprintf(path, sizeof(path), "%s/%s", dir, name); \
		f = fopen(path, "w"); \
		fputs(text, f); \
		fclose(f); \
	} while (0)
	WRITE("defs.h", "// defs\n#ifndef DEFS\n#define DEFS\n#define N 5\n#endif\n");
	WRITE("a.h", "#include \"b.h\"\n");
	WRITE("b.h", "#include \"a.h\"\n");
	WRITE("decl.h", "#define X 1\nstruct s { int a; };\n");
	WRITE("main.bt", "#include \"defs.h\"\n#include \"defs.h\"\nN\n");
	ok(!st_preprocess("#include \"defs.h\"\nN\n", "p", NULL, &o, &out, &err) &&
		   !strcmp(out, "\n5\n"),
	   "#include \"FILE\" from -I, its macros read");
	free(out);
	snprintf(path, sizeof(path), "%s/main.bt", dir);
	o.nr_include_dirs = 0;
	ok(!st_preprocess("#include \"defs.h\"\n#include \"defs.h\"\nN\n", path, path, &o, &out,
			  &err) &&
		   !strcmp(out, "\n\n5\n"),
	   "#include \"FILE\" from the program's directory, twice with a guard");
	free(out);
	o.nr_include_dirs = 1;
	ok(st_preprocess("#include \"a.h\"\n", "p", NULL, &o, &out, &err) == -EINVAL &&
		   strstr(err.msg, "#include cycle: ") && strstr(err.msg, "a.h -> ") &&
		   err.in_include,
	   "an include cycle is refused, naming the chain");
	ok(st_preprocess("\n#include \"decl.h\"\n", "p", NULL, &o, &out, &err) == -EINVAL &&
		   err.line == 2 && strstr(err.file, "decl.h") && strstr(err.msg, "structs"),
	   "an included file's declaration is refused at its line");
	files[0] = "defs.h";
	o.include_files = files;
	o.nr_include_files = 1;
	ok(!st_preprocess("N\n", "p", NULL, &o, &out, &err) && !strcmp(out, "5\n"),
	   "--include FILE read first");
	free(out);
	o.nr_include_dirs = 0;
	ok(st_preprocess("N\n", "p", NULL, &o, &out, &err) == -EINVAL && !err.line &&
		   strstr(err.msg, "--include defs.h"),
	   "--include of a missing file");
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	ok(!system(path), "cleanup");
}

int main(void)
{
	directives();
	macros();
	expressions();
	errors();
	includes();
	return unit_summary();
}
