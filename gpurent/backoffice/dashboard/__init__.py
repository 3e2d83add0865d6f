"""The operator's dashboard (issue 28, decision 0415): how the business is doing, computed in the database.

- `periods.py`: the periods an operator picks (30, 90, 365 days) and their buckets (days, or weeks for a year);
- `figures.py`: revenue by term (the ledger), money received by pair, the order funnel and its medians, the open
  queues;
- `occupancy.py`: GPUs rented per model over time, and their share of today's fleet;
- `charts.py`: the charts' geometry, drawn as SVG by the templates (`backoffice/dashboard*.html`);
- `numbers.py`: counts, percentages and durations in the reader's language;
- `page.py`: the back-office page (the `Dashboard` proxy's admin), which formats for the reader's language.
"""
