"""A payment that arrived: recorded and credited once (receive.py), verified by a verifier or an operator
(verification.py)."""
