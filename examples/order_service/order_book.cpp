// SPDX-License-Identifier: MIT
/* The order book's logic; the events it emits are defined in events.cpp. */
#include <chrono>

#include "order_book.h"

static uint64_t now_ns()
{
	using namespace std::chrono;
	return duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
}

void order_book::reject(const order &o, const char *reason) const
{
	side_event(ev_order_rejected, side_arg_list(side_arg_u64(o.id), side_arg_string(reason)));
}

uint32_t order_book::place(const order &o)
{
	if (!o.qty || o.price_cents <= 0) {
		reject(o, o.qty ? "bad price" : "zero quantity");
		return 0;
	}
	side_event(ev_order_placed,
		   side_arg_list(side_arg_u64(o.id), side_arg_string(symbol_.c_str()),
				 side_arg_u8(o.side), side_arg_s64(o.price_cents),
				 side_arg_u32(o.qty)));
	order rest = o;
	uint32_t filled = match(rest);
	if (rest.qty) {
		auto &book = rest.side == ORDER_BUY ? bids_ : asks_;
		book[rest.price_cents].push_back(rest);
	}
	return filled;
}

uint32_t order_book::match(order &o)
{
	auto &other = o.side == ORDER_BUY ? asks_ : bids_;
	uint64_t start = now_ns();
	uint32_t filled = 0;

	while (o.qty && !other.empty()) {
		/* The best price: lowest ask for a buy, highest bid for a sell. */
		auto level = o.side == ORDER_BUY ? other.begin() : std::prev(other.end());
		if (o.side == ORDER_BUY ? level->first > o.price_cents
					: level->first < o.price_cents)
			break;
		order &resting = level->second.front();
		uint32_t qty = resting.qty < o.qty ? resting.qty : o.qty;

		if (side_event_enabled(ev_order_filled)) {
			side_arg_define_struct(
				fill, side_arg_list(side_arg_s64(level->first), side_arg_u32(qty)));
			side_event_call(ev_order_filled,
					side_arg_list(side_arg_u64(o.id), side_arg_u64(resting.id),
						      side_arg_struct(fill),
						      side_arg_u64(now_ns() - start)));
		}
		o.qty -= qty;
		resting.qty -= qty;
		filled += qty;
		if (!resting.qty) {
			level->second.erase(level->second.begin());
			if (level->second.empty())
				other.erase(level);
		}
	}
	return filled;
}

void order_book::report_depth(unsigned int n) const
{
	if (!side_event_enabled(ev_book_depth))
		return;
	std::vector<int64_t> best;
	for (auto it = bids_.rbegin(); it != bids_.rend() && best.size() < n; ++it)
		best.push_back(it->first);
	for (auto it = asks_.begin(); it != asks_.end() && best.size() < 2 * n; ++it)
		best.push_back(it->first);
	/* A vla argument is a vector of arguments: build it in place. */
	std::vector<side_arg> elems;
	for (int64_t p : best)
		elems.push_back(side_arg_s64(p));
	const side_arg_vec vec = {.sav = SIDE_PTR_INIT(elems.data()),
				  .len = static_cast<uint32_t>(elems.size())};
	side_event_call(ev_book_depth,
			side_arg_list(side_arg_string(symbol_.c_str()),
				      side_arg_u32(static_cast<uint32_t>(bids_.size())),
				      side_arg_u32(static_cast<uint32_t>(asks_.size())),
				      side_arg_vla(vec)));
}
