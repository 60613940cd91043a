/* SPDX-License-Identifier: MIT */
/* SIDE ABI: callbacks an application provides to visit its own containers. */
#ifndef SIDE_ABI_VISITOR_H
#define SIDE_ABI_VISITOR_H

#include <stdint.h>

struct side_arg;
struct side_arg_dynamic_field;
struct side_tracer_visitor_ctx;
struct side_tracer_dynamic_struct_visitor_ctx;

enum side_visitor_status {
	SIDE_VISITOR_STATUS_OK = 0,
	SIDE_VISITOR_STATUS_ERROR = -1,
};

typedef enum side_visitor_status (*side_write_elem_func)(
	const struct side_tracer_visitor_ctx *tracer_ctx, const struct side_arg *elem);
typedef enum side_visitor_status (*side_visitor_func)(
	const struct side_tracer_visitor_ctx *tracer_ctx, void *app_ctx);

typedef enum side_visitor_status (*side_write_field_func)(
	const struct side_tracer_dynamic_struct_visitor_ctx *tracer_ctx,
	const struct side_arg_dynamic_field *dynamic_field);
typedef enum side_visitor_status (*side_dynamic_struct_visitor_func)(
	const struct side_tracer_dynamic_struct_visitor_ctx *tracer_ctx, void *app_ctx);

struct side_tracer_visitor_ctx {
	side_write_elem_func write_elem;
	void *priv;
};

struct side_tracer_dynamic_struct_visitor_ctx {
	side_write_field_func write_field;
	void *priv;
};

#endif /* SIDE_ABI_VISITOR_H */
