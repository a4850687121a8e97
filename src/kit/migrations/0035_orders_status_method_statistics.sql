-- How often each status goes with each payment method, for the planner (issue 13, point 7). A
-- list filtered by both is estimated as if the two were independent; they are not (boletos wait
-- pending, cards are paid or declined at once). For a pair rare although each is common, the
-- planner then walked the rarer one's index reading every row of it: at 1 M orders, with no
-- pending boleto among 80,000 pending orders and 55,000 boletos, 18–23 ms for an empty page 1.
-- Knowing the pair is rare, it ANDs both indexes instead: 9–14 ms. Other pairs keep their plans.
CREATE STATISTICS orders_status_method_stats (mcv) ON status, payment_method FROM orders;
