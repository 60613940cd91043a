// SPDX-License-Identifier: MIT
/*
 * Definitions of the events declared in events.h. Hidden events: every
 * file of the program may call them, nothing outside it sees them.
 */
#include "events.h"

static side_define_enum(side_labels, side_enum_mapping_list(side_enum_mapping_value("buy", 0),
							    side_enum_mapping_value("sell", 1), ));

side_hidden_event(ev_order_placed, "orders", "placed", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u64("id"), side_field_string("symbol"),
				  side_field_enum("side", &side_labels, side_elem(side_type_u8())),
				  side_field_s64("price_cents"), side_field_u32("qty"), ),
		  side_attr_list(side_attr("component", side_attr_string("order_book"))));

static side_define_struct(fill_type,
			  side_field_list(side_field_s64("price_cents"), side_field_u32("qty"), ));

side_hidden_event(ev_order_filled, "orders", "filled", SIDE_LOGLEVEL_INFO,
		  side_field_list(side_field_u64("id"), side_field_u64("counter_id"),
				  side_field_struct("fill", fill_type),
				  side_field_u64("latency_ns"), ));

side_hidden_event(ev_order_rejected, "orders", "rejected", SIDE_LOGLEVEL_WARNING,
		  side_field_list(side_field_u64("id"), side_field_string("reason"), ));

side_hidden_event(ev_book_depth, "book", "depth", SIDE_LOGLEVEL_DEBUG,
		  side_field_list(side_field_string("symbol"), side_field_u32("bids"),
				  side_field_u32("asks"),
				  side_field_vla("best", side_elem(side_type_s64()),
						 side_length(side_type_u32())), ));

/* A log line: a message, then whatever context the caller has. */
side_hidden_event_variadic(ev_service_log, "service", "log", SIDE_LOGLEVEL_NOTICE,
			   side_field_list(side_field_string("msg"), ));
