"""The customer's balance seen from payments: its deposit rows and figures (figures.py), the parts of its page
rendered once (page.py), and its statement (statement.py)."""
