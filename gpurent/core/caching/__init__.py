"""What is the same for every visitor, kept in the shared cache under keys that name the versions of what it
shows (decisions 0182, 0200, 0425): rendered fragments (fragments.py) and whole pages as skeletons with each
visitor's own parts filled in per request, and the public catalog API's JSON (pages.py)."""
