"""A customer's whole-history downloads, written by the background worker into a stored file (decision 0430)."""
