"""The receipt of an order: what it says (read from rows), its PDF, and the owner's pages that show it."""
