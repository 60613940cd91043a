/* SPDX-License-Identifier: MIT */
/*
 * Whole values: a struct, a union or an array (not of chars, which is a
 * string), and tuples, which are structs laid out as bpftrace lays them
 * out. The language keeps a whole value leaf by leaf, each leaf a scalar
 * or a string in a variable, a map or a key part of its own, named by its
 * path from the whole (".m", "[1]", ".0"); these functions are the one
 * place that says what the leaves are, in which order, and how the whole
 * prints.
 */
#ifndef SIDETRACE_CTYPES_COMPOSITE_H
#define SIDETRACE_CTYPES_COMPOSITE_H

#include "ctypes/ctypes.h"
#include "util/textbuf.h"

/* Most leaves of a whole value kept in variables, maps or keys. */
#define ST_MAX_LEAVES 16
#define ST_LEAF_PATH_LEN 64

struct st_ctype_leaf {
	char path[ST_LEAF_PATH_LEN]; /* from the whole: ".m", "[1]", ".0.1" */
	struct st_ctype *type; /* a scalar, or an array of chars */
};

/* Whether t is whole: a struct, a union or an array not of chars (a tuple too). */
bool st_ctype_whole(struct st_ctypes *r, struct st_ctype *t);

/*
 * The leaves of whole t in order, at most max: 0, -E2BIG (more, or
 * nested too deep), -ENAMETOOLONG or -ENOMEM (a kernel type's members).
 */
int st_ctype_leaves(struct st_ctypes *r, struct st_ctype *t, struct st_ctype_leaf *out,
		    uint32_t max, uint32_t *nr);

/*
 * Whether a value of type b may be kept where one of a is: the same type,
 * integers or arrays of one shape, or tuples whose strings differ in
 * length only, as bpftrace lets a tuple's string grow and shrink.
 */
bool st_ctype_same_shape(struct st_ctypes *r, struct st_ctype *a, struct st_ctype *b);

/* A tuple of n elements of these types, one node per shape; NULL when out of memory. */
struct st_ctype *st_ctype_tuple(struct st_ctypes *r, struct st_ctype **elems, uint32_t n);

/* Writes leaf i of a whole value (its value, or a printf conversion for it). */
typedef void st_leaf_text_fn(void *arg, struct st_textbuf *tb, uint32_t i);

/* How bpftrace prints a whole value, by where it is. */
enum st_whole_style {
	ST_WHOLE_TEXT, /* "(1, abc)", "{ .m = 2, .n = 3 }", "[1,2,3,4]" */
	ST_WHOLE_KEY, /* a map's key: "{.m=2,.n=3}" */
	ST_WHOLE_JSON, /* -f json: [1,"abc"], { "m": 2, "n": 3 } (the leaves write their quotes) */
};

/* Whole t as bpftrace prints it in style, each leaf written by leaf in order. */
void st_ctype_text(struct st_ctypes *r, struct st_ctype *t, enum st_whole_style style,
		   struct st_textbuf *tb, st_leaf_text_fn *leaf, void *arg);

#endif /* SIDETRACE_CTYPES_COMPOSITE_H */
