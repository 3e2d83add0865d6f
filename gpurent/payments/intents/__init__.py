"""A payment intent: where it is paid (allocation.py, from the operator's addresses or keys: derivation.py), what
would refuse it (refusals.py), and the one state it is shown in (state.py)."""
