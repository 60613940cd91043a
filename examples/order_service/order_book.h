// SPDX-License-Identifier: MIT
/* A price-time order book for one symbol: the class whose methods emit events. */
#ifndef ORDER_SERVICE_ORDER_BOOK_H
#define ORDER_SERVICE_ORDER_BOOK_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "events.h"

struct order {
	uint64_t id;
	order_side side;
	int64_t price_cents;
	uint32_t qty;
};

class order_book
{
      public:
	explicit order_book(std::string symbol) : symbol_(std::move(symbol))
	{
	}

	/* Adds an order and matches it; returns the quantity filled. */
	uint32_t place(const order &o);
	/* Reports the book's depth and its best prices (up to n a side). */
	void report_depth(unsigned int n) const;
	const std::string &symbol() const
	{
		return symbol_;
	}

      private:
	uint32_t match(order &o);
	void reject(const order &o, const char *reason) const;

	std::string symbol_;
	/* price -> resting orders, oldest first */
	std::map<int64_t, std::vector<order>> bids_, asks_;
};

#endif /* ORDER_SERVICE_ORDER_BOOK_H */
