"""The floor of an API write on this stack: the endpoint's own SQL statements, replayed without its Python.

`bench/http_bench.py` serves the shop with `floor.settings` (production settings, plus two routes) so that parts
2 and 3 can set each target against the least any implementation could cost: `POST /bench-floor/api/v1/orders`
authenticates the token as the API does, then sends the statements the real `POST /api/v1/orders` sent for that
customer, in the same transactions, and answers the same bytes. What it leaves out is the endpoint's Python
(validation, the quote, the idempotency fingerprint, ninja); what it keeps is the middleware, the token lookup,
every statement and commit, and the response. `POST /bench-floor-batched/...` sends the same statements in one
round trip. See `urls.py`.
"""
