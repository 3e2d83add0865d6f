"""What the engine's results read as in the customer's language (vramcalc keeps English and stable keys; DESIGN
§6): its value-built texts (`engine`), the breakdown's labels and assumptions (`components`), the words of its
formulas (`formulas`), its input errors (`engine_errors`) and its caveats (`caveats`)."""
