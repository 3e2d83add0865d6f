"""The estimator's forms: the estimate form (`estimate.EstimateForm`) with its choices and defaults (`choices`),
its model source (`model_source`), its number fields (`numbers`) and the field groups it is built from
(`training_plans`, `recipes`, `video`); and the form that records a measured peak (`measurement`)."""
