"""vramcalc: per-card GPU memory estimator (pure Python, standard library only, no Django).

Build an :class:`EstimateInput` (directly, from a dict with :func:`inputs_from_dict`, from a preset,
a Hugging Face ``config.json`` or a safetensors header) and call :func:`estimate`.
"""

from __future__ import annotations

from .dtypes import DType, KVDType
from .errors import InvalidInput
from .estimate import estimate
from .inputs import EstimateInput
from .model import DiffusionSpec, MLASpec, ModelKind, ModelSpec, MoESpec
from .options import (
    DiffusionOptions,
    Engine,
    LoRAConfig,
    LoRATargets,
    OptimizerKind,
    ParallelPlan,
    Precision,
    Quantization,
    QuantMethod,
    RuntimeOptions,
    Strategy,
    TrainingOptions,
    Workload,
)
from .result import Component, Estimate, Note, PhaseTotal
from .version import ENGINE_VERSION, __version__

__all__ = [
    "ENGINE_VERSION",
    "Component",
    "DType",
    "DiffusionOptions",
    "DiffusionSpec",
    "Engine",
    "Estimate",
    "EstimateInput",
    "InvalidInput",
    "KVDType",
    "LoRAConfig",
    "LoRATargets",
    "MLASpec",
    "MoESpec",
    "ModelKind",
    "ModelSpec",
    "Note",
    "OptimizerKind",
    "ParallelPlan",
    "PhaseTotal",
    "Precision",
    "QuantMethod",
    "Quantization",
    "RuntimeOptions",
    "Strategy",
    "TrainingOptions",
    "Workload",
    "__version__",
    "estimate",
]
