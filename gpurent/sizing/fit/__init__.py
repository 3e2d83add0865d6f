"""Which catalog GPUs fit an estimate and what they cost: the catalog table (`table`), the rows an estimate shows
(`rows_shown`) and the memory chart drawn from them (`chart`)."""
