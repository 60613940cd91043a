// SPDX-License-Identifier: MIT
/*
 * The order service's SIDE events, declared for every file that emits
 * them; events.cpp defines them. A call in any file is a USDT probe named
 * by the definition (orders:placed, ...), whichever file it is in.
 */
#ifndef ORDER_SERVICE_EVENTS_H
#define ORDER_SERVICE_EVENTS_H

#include <side/trace.h>

side_declare_event(ev_order_placed);
side_declare_event(ev_order_filled);
side_declare_event(ev_order_rejected);
side_declare_event(ev_book_depth);
side_declare_event(ev_service_log);

/* Values of the "side" enum field. */
enum order_side : uint8_t {
	ORDER_BUY = 0,
	ORDER_SELL = 1,
};

#endif /* ORDER_SERVICE_EVENTS_H */
