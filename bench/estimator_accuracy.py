"""Accuracy of the vramcalc estimator against published GPU memory figures.

Reads the public benchmark cases (``shared/benchmarks/estimator_cases.json`` next to the repository,
or ``--cases PATH`` / ``$VRAMCALC_BENCH_CASES``), maps each case to engine inputs with
``bench/estimator_cases_map.json`` (one entry per case, with notes), and prints per case and per
category the estimate, the published figure and the relative error, next to two baselines computed
in the same run on the same cases:

* weights only: parameters x bytes of the dtype, quantized formats as a plain bits/8 discount
  (what ``accelerate estimate-memory`` reports);
* weights + KV: exact weight bytes (metadata included) plus ``2 x layers x k x d x ctx x batch``
  KV cache with sliding windows, no MLA, no per-card division, no activations (what hf-mem reports).

* rule of thumb: weights x 1.2 for inference and diffusion, weights x 4 for full fine-tuning with Adam
  (LoRA/QLoRA x 1.2: the frozen base dominates), on whole-step quantities only.

**The split** (docs/decisions/0150-estimator-benchmark-split.md). Cases are divided once, by a rule that does not look
at errors: a case is *held out* when ``sha256(id) mod 3 == 0``, except the cases the engine's constants were already
documented as fitted on before the split (``PRIOR_FIT``); every case of ``bench/estimator_cases_heldout.json`` (figures
added after the split, before any formula change) forms a third part, *fresh*, that nothing was ever tuned on;
``bench/estimator_cases_fresh2.json`` (issue 31, collected by someone who never read the engine, decision 0460) forms
*fresh-2*, measured once whole before any change, then split the usual way before any change (decision 0461): a case is
in *fresh-2-fit* when ``sha256(id) mod 2 == 0`` and in *fresh-2-held* otherwise. *fresh-2-held* was measured once, at
the end of the work of engine 0.3.0 (its first measurement, docs/estimator.md); since then (engine 0.3.1, decision 0502)
it informs choices too. Constants and ranges may be fitted on *fit*, *fresh-2-fit*, *fresh-2-held*, *fresh-3*,
*fresh-4*, *fresh-5*, *fresh-6*, *fresh-7*, *fresh-8*, *fresh-9*, *fresh-10*, *fresh-11*, *fresh-12*, *fresh-13* and
*fresh-14* (``INFORMED_CHOICES``); *held-out* and *fresh* stay checks, and the targets bind on parts nothing was tuned
on. ``bench/estimator_cases_fresh3.json`` (issue 31's second round, collected blind like fresh-2, decision 0498) forms
*fresh-3*, not split: nobody who changes the engine reads it, so it is measured whole, once before the round's change
and once after. ``bench/estimator_cases_fresh4.json`` (decision 0503) forms *fresh-4* the same way for the round after
it. That round (engine 0.3.2, tuned on fresh-3 too) was reverted after fresh-4's second measurement (decision 0507): the
engine is 0.3.1 again. Both parts have been seen since; from engine 0.3.3 on they inform choices like the other tuning
parts (decision 0510), and ``bench/estimator_cases_fresh5.json`` (decision 0509), collected blind while that round's
engine was made in a worktree that never held it, forms *fresh-5*: measured whole once before the round's change and
once after. Fresh-5 has been seen since; from engine 0.3.4 on it informs choices too (decision 0513), and
``bench/estimator_cases_fresh6.json`` (decision 0512), collected blind while 0.3.4 was made, forms *fresh-6*: measured
whole before that change and once after. Fresh-6 has been seen since; from engine 0.3.5 on it informs choices too
(decision 0515), and ``bench/estimator_cases_fresh7.json`` (decision 0514), collected blind while 0.3.5 was made, forms
*fresh-7*: measured whole before that change and once after. Fresh-7 has been seen since; from engine 0.3.6 on it
informs choices too (decision 0518), and ``bench/estimator_cases_fresh8.json`` (decision 0517), collected blind while
0.3.6 was made, forms *fresh-8*: measured whole before that change and once after. Fresh-8 has been seen since; from
engine 0.3.7 on it informs choices too (decision 0521), and ``bench/estimator_cases_fresh9.json`` (decision 0520),
collected blind while 0.3.7 was made, forms *fresh-9*: measured whole before that change and once after. Fresh-9 has
been seen since; from engine 0.3.8 on it informs choices too (decision 0524), and ``bench/estimator_cases_fresh10.json``
(decision 0523), collected blind while 0.3.8 was made, forms *fresh-10*: measured whole before that change and once
after. Fresh-10 has been seen since; from engine 0.3.9 on it informs choices too (decision 0526), and
``bench/estimator_cases_fresh11.json`` (decision 0529), collected blind while 0.3.9 was made, forms *fresh-11*: measured
whole before that change and once after. Fresh-11 has been seen since; from engine 0.3.10 on it informs choices too
(decision 0530), and ``bench/estimator_cases_fresh12.json`` (decision 0528), collected blind while 0.3.10 was made,
forms *fresh-12*: measured whole before that change and once after. Fresh-12 has been seen since; from engine 0.3.11 on
it informs choices too (decision 0533), and ``bench/estimator_cases_fresh13.json`` (decision 0532), collected blind
while 0.3.11 was made, forms *fresh-13*: measured whole before that change and once after. Fresh-13 has been seen since;
from engine 0.3.12 on it informs choices too (decision 0535), and ``bench/estimator_cases_fresh14.json`` (decision
0534), collected blind while 0.3.12 was made, forms *fresh-14*: measured whole before that change and once after.
Fresh-14 has been seen since; from engine 0.3.13 on it informs choices too (decision 0540), and
``bench/estimator_cases_fresh15.json`` (decision 0539), collected blind while 0.3.13 was made, forms *fresh-15*:
measured whole before that change and once after. Fresh-15 has been seen since; from engine 0.3.14 on it informs choices
too (decision 0543), and ``bench/estimator_cases_fresh16.json`` (decision 0542), collected blind while 0.3.14 was made,
forms *fresh-16*: measured whole before that change and once after. Fresh-16 has been seen since; from engine 0.3.15 on
it informs choices too (decision 0544), and ``bench/estimator_cases_fresh17.json`` (decision 0545), collected blind
while 0.3.15 was made, forms *fresh-17*: measured whole before that change and once after. Fresh-17 has been seen since;
from engine 0.3.16 on it informs choices too (decision 0546), and ``bench/estimator_cases_fresh18.json`` (decision
0547), collected blind while 0.3.16 was made, forms *fresh-18*: measured whole before that change and once after.
Fresh-18 has been seen since; from engine 0.3.17 on it informs choices too (decision 0548).
``bench/estimator_cases_fresh19.json`` (decision 0551), collected blind while 0.3.17 was made, forms *fresh-19*:
measured whole before that change and once after. Fresh-19 has been seen since; from engine 0.3.18 on it informs choices
too (decision 0552). ``bench/estimator_cases_fresh20.json`` (decision 0553), collected blind while 0.3.18 was made,
forms *fresh-20*: measured whole before that change and once after. Fresh-20 has been seen since; from engine 0.3.19 on
it informs choices too (decision 0554). ``bench/estimator_cases_fresh21.json`` (decision 0555), collected blind while
0.3.19 was made, forms *fresh-21*: measured whole before that change and once after. Fresh-21 has been seen since; from
engine 0.3.20 on it informs choices too (decision 0556). ``bench/estimator_cases_fresh22.json`` (decision 0557),
collected blind while 0.3.20 was made, forms *fresh-22*: measured whole before that change and once after. Fresh-22 has
been seen since; from engine 0.3.21 on it informs choices too (decision 0558). ``bench/estimator_cases_fresh23.json``
(decision 0559), collected blind while 0.3.21 was made, forms *fresh-23*: measured whole before that change and once
after. Fresh-23 has been seen since; from engine 0.3.22 on it informs choices too (decision 0561).
``bench/estimator_cases_fresh24.json`` (decision 0562), collected blind while 0.3.22 was made, forms *fresh-24*:
measured whole before that change and once after. Fresh-24 has been seen since; from engine 0.3.23 on it informs choices
too (decision 0564). ``bench/estimator_cases_fresh25.json`` (decision 0565), collected blind while 0.3.23 was made,
forms *fresh-25*: measured whole before that change and once after. Fresh-25 has been seen since; from engine 0.3.24 on
it informs choices too (decision 0566). ``bench/estimator_cases_fresh26.json`` (decision 0567), collected blind while
0.3.24 was made, forms *fresh-26*: measured whole before that change and once after. Fresh-26 has been seen since; from
engine 0.3.25 on it informs choices too (decision 0568). ``bench/estimator_cases_fresh27.json`` (decision 0569),
collected blind while 0.3.25 was made, forms *fresh-27*: measured whole before that change and once after. Fresh-27 has
been seen since; from engine 0.3.26 on it informs choices too (decision 0570). ``bench/estimator_cases_fresh28.json``
(decision 0571), collected blind while 0.3.26 was made, forms *fresh-28*: measured whole before that change and once
after. Fresh-28 has been seen since; from engine 0.3.27 on it informs choices too (decision 0573).
``bench/estimator_cases_fresh29.json`` (decision 0574), collected blind while 0.3.27 was made, forms *fresh-29*:
measured whole before that change and once after. Fresh-29 has been seen since; from engine 0.3.28 on it informs choices
too (decision 0576). ``bench/estimator_cases_fresh30.json`` (decision 0577), collected blind while 0.3.28 was made,
forms *fresh-30*: measured whole before that change and once after. Fresh-30 has been seen since; from engine 0.3.29 on
it informs choices too (decision 0578). ``bench/estimator_cases_fresh31.json`` (decision 0579), collected blind while
0.3.29 was made, forms *fresh-31*: measured whole before that change and once after. Fresh-31 has been seen since; from
engine 0.3.30 on it informs choices too (decision 0580). ``bench/estimator_cases_fresh32.json`` (decision 0581),
collected blind while 0.3.30 was made, forms *fresh-32*: measured whole before that change and once after. Fresh-32 has
been seen since; from engine 0.3.31 on it informs choices too (decision 0582). ``bench/estimator_cases_fresh33.json``
(decision 0584), collected blind while no engine was being made, forms *fresh-33*: measured whole once, at engine
0.3.31, the first blind measurement of that engine. Fresh-33 has been seen since; from engine 0.3.32 on it informs
choices too (decision 0585). ``bench/estimator_cases_fresh34.json`` (decision 0586), collected blind while 0.3.32 was
made, forms *fresh-34*: measured whole before that change and once after. Fresh-34 has been seen since; from engine
0.3.33 on it informs choices too (decision 0587). ``bench/estimator_cases_fresh35.json`` (decision 0588), collected
blind while 0.3.33 was made, forms *fresh-35*: measured whole before that change and once after. Fresh-35 has been seen
since; from engine 0.3.34 on it informs choices too (decision 0589). ``bench/estimator_cases_fresh36.json`` (decision
0590), collected blind while 0.3.34 was made, forms *fresh-36*: measured whole before that change and once after
each of 0.3.34 and 0.3.35. ``bench/estimator_cases_fresh37.json`` (decision 0594), collected blind once 0.3.35 was
made, forms *fresh-37*: measured whole at that engine; from engine 0.3.36 on fresh-36 and fresh-37 inform choices too
(decision 0595). ``bench/estimator_cases_fresh38.json`` (decision 0596), collected blind while 0.3.36 was made, forms
*fresh-38*: measured whole at 0.3.36; from engine 0.3.37 on it informs choices too (decision 0597).
``bench/estimator_cases_fresh39.json`` (decision 0598), collected blind while 0.3.37 was made, forms *fresh-39*:
measured whole at 0.3.37; from engine 0.3.38 on it informs choices too (decision 0600).
``bench/estimator_cases_fresh40.json`` (decision 0601), collected blind while 0.3.38 was made, forms *fresh-40*:
measured whole at 0.3.38; from engine 0.3.39 on it informs choices too (decision 0602).
``bench/estimator_cases_fresh41.json`` (decision 0603), collected blind while 0.3.39 was made, forms *fresh-41*:
measured whole at 0.3.39; from engine 0.3.40 on it informs choices too (decision 0604).
``bench/estimator_cases_fresh42.json`` (decision 0605), collected blind while 0.3.40 was made, forms *fresh-42*:
measured whole at 0.3.40; from engine 0.3.41 on it informs choices too (decision 0606).
``bench/estimator_cases_fresh43.json`` (decision 0607), collected blind while 0.3.41 was made, forms *fresh-43*:
measured whole at 0.3.41; from engine 0.3.42 on it informs choices too (decision 0608).
``bench/estimator_cases_fresh44.json`` (decision 0609), collected blind while 0.3.42 was made, forms *fresh-44*:
measured whole at 0.3.42; from engine 0.3.43 on it informs choices too (decision 0611).
``bench/estimator_cases_fresh45.json`` (decision 0612), collected blind while 0.3.43 was made, forms *fresh-45*:
measured whole at 0.3.43; from engine 0.3.44 on it informs choices too (decision 0613).
``bench/estimator_cases_fresh46.json`` (decision 0614), collected blind while 0.3.44 was made, forms *fresh-46*:
measured whole at 0.3.44; from engine 0.3.45 on it informs choices too (decision 0616).
``bench/estimator_cases_fresh47.json`` (decision 0617), collected blind while 0.3.45 was made, forms *fresh-47*:
measured whole at 0.3.45. The report prints every part with its range coverage and width, the targets, and which
parts informed any choice; ``--parts`` prints only the named parts (rows and summaries), so that one can work without
seeing a held part. First measurements are recorded in docs/estimator.md.

Each case is compared like with like: the quantity named by the mapping's ``compare`` field (weights,
KV, model states, activations, the allocator peak, the whole-process peak …); a baseline that has no
term for that quantity predicts 0.

Usage: ``python bench/estimator_accuracy.py [--cases PATH] [--json] [--parts fit,held-out,fresh,fresh-2-fit]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vramcalc import EstimateInput, Quantization, QuantMethod, estimate  # noqa: E402 - after the sys.path line above
from vramcalc.architecture import param_counts  # noqa: E402 - after the sys.path line above
from vramcalc.calibration import band_for, bounds, limits, wider_for  # noqa: E402 - after the sys.path line above
from vramcalc.components.activations import layer_activation, sequence_tokens  # noqa: E402 - after the sys.path line above
from vramcalc.components.weights import dense_bytes, model_weight_bytes  # noqa: E402 - after the sys.path line above
from vramcalc.diffusion import DECODE, vae_workspace_bytes  # noqa: E402 - after the sys.path line above
from vramcalc.model import ModelKind  # noqa: E402 - after the sys.path line above
from vramcalc.result import Estimate, Note  # noqa: E402 - after the sys.path line above
from vramcalc.serialize import inputs_from_dict  # noqa: E402 - after the sys.path line above
from vramcalc.uncertainty import warnings_for  # noqa: E402 - after the sys.path line above
from vramcalc.units import GIB  # noqa: E402 - after the sys.path line above

DEFAULT_CASES = Path(__file__).resolve().parents[2] / "shared/benchmarks/estimator_cases.json"
MAPPING = Path(__file__).resolve().parent / "estimator_cases_map.json"
HELD_OUT_CASES = Path(__file__).resolve().parent / "estimator_cases_heldout.json"
# Issue 31's fresh part: collected by someone who never read the engine, committed before any change (decision 0460).
FRESH2_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh2.json"
# Issue 31's second round: collected blind like fresh-2, never read by whoever changes the engine (decision 0498).
FRESH3_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh3.json"
# The round after it, the same way (decision 0503).
FRESH4_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh4.json"
# And the round after that (decision 0509): collected while engine 0.3.3 was made in a worktree that never held it.
FRESH5_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh5.json"
# And the round after that (decision 0512), the same way: engine 0.3.4 was made in a worktree that never held it.
FRESH6_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh6.json"
# And the round after that (decision 0514), the same way: engine 0.3.5 was made in a worktree that never held it.
FRESH7_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh7.json"
# And the round after that (decision 0517), the same way: engine 0.3.6 was made in a worktree that never held it.
FRESH8_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh8.json"
# And the round after that (decision 0520), the same way: engine 0.3.7 was made in a worktree that never held it.
FRESH9_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh9.json"
# And the round after that (decision 0523), the same way: engine 0.3.8 was made in a worktree that never held it.
FRESH10_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh10.json"
# And the round after that (decision 0529), the same way: engine 0.3.9 was made in a worktree that never held it.
FRESH11_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh11.json"
# And the round after that (decision 0528), the same way: engine 0.3.10 was made in a worktree that never held it.
FRESH12_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh12.json"
# And the round after that (decision 0532), the same way: engine 0.3.11 was made in a worktree that never held it.
FRESH13_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh13.json"
# And the round after that (decision 0534), the same way: engine 0.3.12 was made in a worktree that never held it.
FRESH14_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh14.json"
# And the round after that (decision 0539), the same way: engine 0.3.13 was made in a worktree that never held it.
FRESH15_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh15.json"
# And the round after that (decision 0542), the same way: engine 0.3.14 was made in a worktree that never held it.
FRESH16_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh16.json"
# And the round after that (decision 0545), the same way: engine 0.3.15 was made in a worktree that never held it.
FRESH17_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh17.json"
# And the round after that (decision 0547), the same way: engine 0.3.16 was made in a worktree that never held it.
FRESH18_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh18.json"
# And the round after that (decision 0551), the same way: engine 0.3.17 was made in a worktree that never held it.
FRESH19_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh19.json"
# And the round after that (decision 0553), the same way: engine 0.3.18 was made in a worktree that never held it.
FRESH20_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh20.json"
# And the round after that (decision 0555), the same way: engine 0.3.19 was made in a worktree that never held it.
FRESH21_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh21.json"
# And the round after that (decision 0557), the same way: engine 0.3.20 was made in a worktree that never held it.
FRESH22_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh22.json"
# And the round after that (decision 0559), the same way: engine 0.3.21 was made in a worktree that never held it.
FRESH23_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh23.json"
# And the round after that (decision 0562), the same way: engine 0.3.22 was made in a worktree that never held it.
FRESH24_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh24.json"
# And the round after that (decision 0565), the same way: engine 0.3.23 was made in a worktree that never held it.
FRESH25_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh25.json"
# And the round after that (decision 0567), the same way: engine 0.3.24 was made in a worktree that never held it.
FRESH26_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh26.json"
# And the round after that (decision 0569), the same way: engine 0.3.25 was made in a worktree that never held it.
FRESH27_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh27.json"
# And the round after that (decision 0571), the same way: engine 0.3.26 was made in a worktree that never held it.
FRESH28_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh28.json"
# And the round after that (decision 0574), the same way: engine 0.3.27 was made in a worktree that never held it.
FRESH29_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh29.json"
# And the round after that (decision 0577), the same way: engine 0.3.28 was made in a worktree that never held it.
FRESH30_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh30.json"
# And the round after that (decision 0579), the same way: engine 0.3.29 was made in a worktree that never held it.
FRESH31_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh31.json"
# And the round after that (decision 0581), the same way: engine 0.3.30 was made in a worktree that never held it.
FRESH32_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh32.json"
# And a round with no engine made beside it (decision 0584): measured once, at engine 0.3.31.
FRESH33_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh33.json"
# And the round after that (decision 0586): engine 0.3.32 was made in a worktree that never held it.
FRESH34_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh34.json"
# And the round after that (decision 0588): engine 0.3.33 was made in a worktree that never held it.
FRESH35_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh35.json"
# And the round after that (decision 0590): engine 0.3.34 was made in a worktree that never held it.
FRESH36_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh36.json"
# And the round after that (decision 0594): collected blind once engine 0.3.35 was committed, measured at it.
FRESH37_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh37.json"
# And the round after that (decision 0596): collected blind while engine 0.3.36 was made, measured once it was in.
FRESH38_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh38.json"
# And the round after that (decision 0598): collected blind while engine 0.3.37 was made, measured once it was in.
FRESH39_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh39.json"
# And the round after that (decision 0601): collected blind while engine 0.3.38 was made, measured once it was in.
FRESH40_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh40.json"
# And the round after that (decision 0603): collected blind while engine 0.3.39 was made, measured once it was in.
FRESH41_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh41.json"
# And the round after that (decision 0605): collected blind while engine 0.3.40 was made, measured once it was in.
FRESH42_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh42.json"
# And the round after that (decision 0607): collected blind while engine 0.3.41 was made, measured once it was in.
FRESH43_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh43.json"
# And the round after that (decision 0609): collected blind while engine 0.3.42 was made, measured once it was in.
FRESH44_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh44.json"
# The two rounds after that (decisions 0612, 0614): collected blind around engines 0.3.43 and 0.3.44, each measured once
# that engine was in.
FRESH45_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh45.json"
FRESH46_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh46.json"
FRESH47_CASES = Path(__file__).resolve().parent / "estimator_cases_fresh47.json"
CATEGORIES = ("weights", "kv", "training", "inference", "diffusion")
BASELINES = ("weights_only", "weights_kv", "rule_of_thumb")
PARTS = (
    "fit",
    "held-out",
    "fresh",
    "fresh-2-fit",
    "fresh-2-held",
    "fresh-2",
    "fresh-3",
    "fresh-4",
    "fresh-5",
    "fresh-6",
    "fresh-7",
    "fresh-8",
    "fresh-9",
    "fresh-10",
    "fresh-11",
    "fresh-12",
    "fresh-13",
    "fresh-14",
    "fresh-15",
    "fresh-16",
    "fresh-17",
    "fresh-18",
    "fresh-19",
    "fresh-20",
    "fresh-21",
    "fresh-22",
    "fresh-23",
    "fresh-24",
    "fresh-25",
    "fresh-26",
    "fresh-27",
    "fresh-28",
    "fresh-29",
    "fresh-30",
    "fresh-31",
    "fresh-32",
    "fresh-33",
    "fresh-34",
    "fresh-35",
    "fresh-36",
    "fresh-37",
    "fresh-38",
    "fresh-39",
    "fresh-40",
    "fresh-41",
    "fresh-42",
    "fresh-43",
    "fresh-44",
    "fresh-45",
    "fresh-46",
    "fresh-47",
)
# fresh-2 is the union of its two halves: its first measurement (before any change) was taken whole.
UNIONS = {"fresh-2": ("fresh-2-fit", "fresh-2-held")}
PART_TITLES = {
    "fit": "(constants may be fitted here)",
    "held-out": "(hash split of the public file; not tuned on since the split)",
    "fresh": "(added after the split, before any formula change; nothing was ever tuned on it)",
    "fresh-2-fit": "(issue 31's fresh part, sha256(id) mod 2 == 0: constants and ranges may be fitted here)",
    "fresh-2-held": "(issue 31's fresh part, the other half: first measured after engine 0.3.0; tuned on since 0.3.1)",
    "fresh-2": "(both halves of issue 31's fresh part: its first measurement was taken whole, before any change)",
    "fresh-3": "(issue 31's second fresh part: measured before and after engine 0.3.1; tuned on since 0.3.3)",
    "fresh-4": "(issue 31's third fresh part: measured before and after engine 0.3.2, reverted; tuned on since 0.3.3)",
    "fresh-5": "(issue 31's fourth fresh part: measured before and after engine 0.3.3; tuned on since 0.3.4)",
    "fresh-6": "(issue 31's fifth fresh part: measured before and after engine 0.3.4; tuned on since 0.3.5)",
    "fresh-7": "(issue 31's sixth fresh part: measured before and after engine 0.3.5; tuned on since 0.3.6)",
    "fresh-8": "(issue 31's seventh fresh part: measured at engine 0.3.5 and after 0.3.6; tuned on since 0.3.7)",
    "fresh-9": "(issue 31's eighth fresh part: measured at engine 0.3.6 and after 0.3.7; tuned on since 0.3.8)",
    "fresh-10": "(issue 31's ninth fresh part: measured at engine 0.3.7 and after 0.3.8; tuned on since 0.3.9)",
    "fresh-11": "(issue 31's tenth fresh part: measured at engine 0.3.8 and after 0.3.9; tuned on since 0.3.10)",
    "fresh-12": "(issue 31's 11th fresh part: measured at engine 0.3.9 and after 0.3.10; tuned on since 0.3.11)",
    "fresh-13": "(issue 31's 12th fresh part: measured at engine 0.3.10 and after 0.3.11; tuned on since 0.3.12)",
    "fresh-14": "(issue 31's 13th fresh part: measured at engine 0.3.11 and after 0.3.12; tuned on since 0.3.13)",
    "fresh-15": "(issue 31's 14th fresh part: measured at engine 0.3.12 and after 0.3.13; tuned on since 0.3.14)",
    "fresh-16": "(issue 31's 15th fresh part: measured at engine 0.3.13 and after 0.3.14; tuned on since 0.3.15)",
    "fresh-17": "(issue 31's 16th fresh part: measured at engine 0.3.14 and after 0.3.15; tuned on since 0.3.16)",
    "fresh-18": "(issue 31's 17th fresh part: measured at engine 0.3.15 and after 0.3.16; tuned on since 0.3.17)",
    "fresh-19": "(issue 31's 18th fresh part: measured at engine 0.3.16 and after 0.3.17; tuned on since 0.3.18)",
    "fresh-20": "(issue 31's 19th fresh part: measured at engine 0.3.17 and after 0.3.18; tuned on since 0.3.19)",
    "fresh-21": "(issue 31's 20th fresh part: measured at engine 0.3.18 and after 0.3.19; tuned on since 0.3.20)",
    "fresh-22": "(issue 31's 21st fresh part: measured at engine 0.3.19 and after 0.3.20; tuned on since 0.3.21)",
    "fresh-23": "(issue 31's 22nd fresh part: measured at engine 0.3.20 and after 0.3.21; tuned on since 0.3.22)",
    "fresh-24": "(issue 31's 23rd fresh part: measured at engine 0.3.21 and after 0.3.22; tuned on since 0.3.23)",
    "fresh-25": "(issue 31's 24th fresh part: measured at engine 0.3.22 and after 0.3.23; tuned on since 0.3.24)",
    "fresh-26": "(issue 31's 25th fresh part: measured at engine 0.3.23 and after 0.3.24; tuned on since 0.3.25)",
    "fresh-27": "(issue 31's 26th fresh part: measured at engine 0.3.24 and after 0.3.25; tuned on since 0.3.26)",
    "fresh-28": "(issue 31's 27th fresh part: measured at engine 0.3.25 and after 0.3.26; tuned on since 0.3.27)",
    "fresh-29": "(issue 31's 28th fresh part: measured at engine 0.3.26 and after 0.3.27; tuned on since 0.3.28)",
    "fresh-30": "(issue 31's 29th fresh part: measured at engine 0.3.27 and after 0.3.28; tuned on since 0.3.29)",
    "fresh-31": "(issue 31's 30th fresh part: measured at engine 0.3.28 and after 0.3.29; tuned on since 0.3.30)",
    "fresh-32": "(issue 31's 31st fresh part: measured at engine 0.3.29 and after 0.3.30; tuned on since 0.3.31)",
    "fresh-33": "(issue 31's 32nd fresh part: measured once, at engine 0.3.31; tuned on since 0.3.32)",
    "fresh-34": "(issue 31's 33rd fresh part: measured at engine 0.3.31 and after 0.3.32; tuned on since 0.3.33)",
    "fresh-35": "(issue 31's 34th fresh part: measured at engine 0.3.32 and after 0.3.33; tuned on since 0.3.34)",
    "fresh-36": "(issue 31's 35th fresh part: measured at engine 0.3.33, after 0.3.34, 0.3.35; tuned on since 0.3.36)",
    "fresh-37": "(issue 31's 36th fresh part: measured once, at engine 0.3.35; tuned on since 0.3.36)",
    "fresh-38": "(issue 31's 37th fresh part: measured once, at engine 0.3.36; tuned on since 0.3.37)",
    "fresh-39": "(issue 31's 38th fresh part: measured once, at engine 0.3.37; tuned on since 0.3.38)",
    "fresh-40": "(issue 31's 39th fresh part: measured once, at engine 0.3.38; tuned on since 0.3.39)",
    "fresh-41": "(issue 31's 40th fresh part: measured once, at engine 0.3.39; tuned on since 0.3.40)",
    "fresh-42": "(issue 31's 41st fresh part: measured once, at engine 0.3.40; tuned on since 0.3.41)",
    "fresh-43": "(issue 31's 42nd fresh part: measured once, at engine 0.3.41; tuned on since 0.3.42)",
    "fresh-44": "(issue 31's 43rd fresh part: measured once, at engine 0.3.42; tuned on since 0.3.43)",
    "fresh-45": "(issue 31's 44th fresh part: measured once, at engine 0.3.43; tuned on since 0.3.44)",
    "fresh-46": "(issue 31's 45th fresh part: measured once, at engine 0.3.44; tuned on since 0.3.45)",
    "fresh-47": "(issue 31's 46th fresh part: measured at engine 0.3.45)",
}
# Which parts informed any choice of a constant or a range (the report prints it, so a reader knows which figures owe
# nothing to choices made after seeing their errors). fresh-2-held joined them after its first measurement (engine
# 0.3.0), for engine 0.3.1 (decision 0502); fresh-3 and fresh-4, seen since their measurements before and after engine
# 0.3.2 (decision 0507), for engine 0.3.3 (decision 0510); fresh-5, seen since its measurements before and after engine
# 0.3.3, for engine 0.3.4 (decision 0513); fresh-6, seen since its measurements before and after engine 0.3.4, for
# engine 0.3.5 (decision 0515); fresh-7, seen since its measurements before and after engine 0.3.5, for engine 0.3.6
# (decision 0518); fresh-8, seen since its measurements at engines 0.3.5 and 0.3.6, for engine 0.3.7 (decision 0521);
# fresh-9, seen since its measurements at engines 0.3.6 and 0.3.7, for engine 0.3.8 (decision 0524); fresh-10, seen
# since its measurements at engines 0.3.7 and 0.3.8, for engine 0.3.9 (decision 0526); fresh-11, seen since its
# measurements at engines 0.3.8 and 0.3.9, for engine 0.3.10 (decision 0530); fresh-12, seen since its measurements at
# engines 0.3.9 and 0.3.10, for engine 0.3.11 (decision 0533); fresh-13, seen since its measurements at engines 0.3.10
# and 0.3.11, for engine 0.3.12 (decision 0535); fresh-14, seen since its measurements at engines 0.3.11 and 0.3.12, for
# engine 0.3.13 (decision 0540); fresh-15, seen since its measurements at engines 0.3.12 and 0.3.13, for engine 0.3.14
# (decision 0543); fresh-16, seen since its measurements at engines 0.3.13 and 0.3.14, for engine 0.3.15 (decision
# 0544); fresh-17, seen since its measurements at engines 0.3.14 and 0.3.15, for engine 0.3.16 (decision 0546);
# fresh-18, seen since its measurements at engines 0.3.15 and 0.3.16, for engine 0.3.17 (decision 0548); fresh-19, seen
# since its measurements at engines 0.3.16 and 0.3.17, for engine 0.3.18 (decision 0552); fresh-20, seen since its
# measurements at engines 0.3.17 and 0.3.18, for engine 0.3.19 (decision 0554); fresh-21, seen since its measurements at
# engines 0.3.18 and 0.3.19, for engine 0.3.20 (decision 0556); fresh-22, seen since its measurements at engines 0.3.19
# and 0.3.20, for engine 0.3.21 (decision 0558); fresh-23, seen since its measurements at engines 0.3.20 and 0.3.21, for
# engine 0.3.22 (decision 0561); fresh-24, seen since its measurements at engines 0.3.21 and 0.3.22, for engine 0.3.23
# (decision 0564); fresh-25, seen since its measurements at engines 0.3.22 and 0.3.23, for engine 0.3.24 (decision
# 0566); fresh-26, seen since its measurements at engines 0.3.23 and 0.3.24, for engine 0.3.25 (decision 0568);
# fresh-27, seen since its measurements at engines 0.3.24 and 0.3.25, for engine 0.3.26 (decision 0570); fresh-28, seen
# since its measurements at engines 0.3.25 and 0.3.26, for engine 0.3.27 (decision 0573); fresh-29, seen since its
# measurements at engines 0.3.26 and 0.3.27, for engine 0.3.28 (decision 0576); fresh-30, seen since its measurements at
# engines 0.3.27 and 0.3.28, for engine 0.3.29 (decision 0578); fresh-31, seen since its measurements at engines 0.3.28
# and 0.3.29, for engine 0.3.30 (decision 0580); fresh-32, seen since its measurements at engines 0.3.29 and 0.3.30, for
# engine 0.3.31 (decision 0582); fresh-33, seen since its one measurement at engine 0.3.31, for engine 0.3.32 (decision
# 0585); fresh-34, seen since its measurements at engines 0.3.31 and 0.3.32, for engine 0.3.33 (decision 0587);
# fresh-35, seen since its measurements at engines 0.3.32 and 0.3.33, for engine 0.3.34 (decision 0589); fresh-36, seen
# since its measurements at engines 0.3.33 to 0.3.35, and fresh-37, seen since its one at 0.3.35, for engine 0.3.36
# (decision 0595); fresh-38, seen since its one measurement at engine 0.3.36, for engine 0.3.37 (decision 0597);
# fresh-39, seen since its one measurement at engine 0.3.37, for engine 0.3.38 (decision 0600); fresh-40, seen since
# its one measurement at engine 0.3.38, for engine 0.3.39 (decision 0602); fresh-41, seen since its one measurement at
# engine 0.3.39, for engine 0.3.40 (decision 0604); fresh-42, seen since its one measurement at engine 0.3.40, for
# engine 0.3.41 (decision 0606); fresh-43, seen since its one measurement at engine 0.3.41, for engine 0.3.42
# (decision 0608); fresh-44, seen since its one measurement at engine 0.3.42, for engine 0.3.43 (decision 0611);
# fresh-45, seen since its one measurement at engine 0.3.43, for engine 0.3.44 (decision 0613); fresh-46, seen since
# its one measurement at engine 0.3.44, for engine 0.3.45 (decision 0616).
INFORMED_CHOICES = (
    "fit",
    "fresh-2-fit",
    "fresh-2-held",
    "fresh-3",
    "fresh-4",
    "fresh-5",
    "fresh-6",
    "fresh-7",
    "fresh-8",
    "fresh-9",
    "fresh-10",
    "fresh-11",
    "fresh-12",
    "fresh-13",
    "fresh-14",
    "fresh-15",
    "fresh-16",
    "fresh-17",
    "fresh-18",
    "fresh-19",
    "fresh-20",
    "fresh-21",
    "fresh-22",
    "fresh-23",
    "fresh-24",
    "fresh-25",
    "fresh-26",
    "fresh-27",
    "fresh-28",
    "fresh-29",
    "fresh-30",
    "fresh-31",
    "fresh-32",
    "fresh-33",
    "fresh-34",
    "fresh-35",
    "fresh-36",
    "fresh-37",
    "fresh-38",
    "fresh-39",
    "fresh-40",
    "fresh-41",
    "fresh-42",
    "fresh-43",
    "fresh-44",
    "fresh-45",
    "fresh-46",
)
# Measured figures that are not a workload's peak: left out of the bands (a vLLM process filling its
# gpu_memory_utilization budget, decision 0462; torchtune's QLoRA row, whose reserve at model init, 9.13 GB of its
# 9.29 GB, is the loading phase's and not the step's, decision 0513; ms-swift's FSDP QLoRA of Qwen2.5-72B with its
# parameters offloaded to the host, whose "80GiB * 2" is an 80 GB card's whole memory, more than the whole 4-bit model
# would take on one card with nothing sharded nor offloaded, decision 0530; vLLM's Yi-1.5-34B under TP 4 on RTX 4090s,
# whose author reads the eager run's 21,395 MiB as "close to the value 24564 * 0.9", decision 0600; vLLM's Llama-2-13B
# on 40 GB A100s, "up to 38GB" at its default 0.9 of the card, decision 0602; vLLM 0.2.7's Llama-2-7B on a 40 GB A100,
# whose nvidia-smi maximum, 36,777 MiB, sits inside its default 0.9 budget of 36,864 MiB, decision 0611).
NOT_A_WORKLOAD_PEAK = frozenset({"F2-39", "F5-44", "F11-33", "F39-43", "F39-44", "F40-41", "F40-42", "F44-109"})
# Range targets (issue 31): share of measured peaks inside the stated range, and the median range width.
TARGET_COVERAGE = 0.90
TARGET_WIDTH = 0.35
# Cases the engine's constants were documented as fitted on before the split (vramcalc/diffusion.py:
# VAE_HALF_TENSORS and VAE_FP32_TENSORS on the SD 1.5 and SDXL decode cases). They stay in the fit part.
PRIOR_FIT = frozenset({"I13", "I15"})
# Held-out targets (issue 13), on measured peaks of the part not fitted on.
TARGET_MEDIAN = 0.10
TARGET_WITHIN_25 = 0.85
TARGET_WORST_UNDER = -0.15


def split_of(case_id: str, added_after_split: bool | str = False) -> str:
    """``fit``, ``held-out``, ``fresh``, ``fresh-2-fit`` or ``fresh-2-held``: fixed by the case id and its file."""
    if added_after_split == "fresh-2":
        return "fresh-2-held" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 2 else "fresh-2-fit"
    if isinstance(added_after_split, str):
        return added_after_split
    if added_after_split:
        return "fresh"
    if case_id in PRIOR_FIT:
        return "fit"
    return "held-out" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 3 == 0 else "fit"


STATES = ("weights", "gradients", "master_weights", "optimizer_state")
# Compared quantities whose range is the engine's calibrated band (the others are exact or per component); range
# coverage and width are counted on these (a measured weights or KV figure is not a peak).
RANGED = ("peak", "peak_reserved", "peak_allocated", "vae_phase_reserved")
_NAIVE_BYTES = {  # accelerate: int8 = fp32 size / 4, int4 = fp32 size / 8, on every parameter
    QuantMethod.BNB_INT8: 1.0,
    QuantMethod.FP8: 1.0,
    QuantMethod.INT8_WEIGHT_ONLY: 1.0,
}


def _vae_phase_reserved(result: Estimate) -> int:
    total = next(p.bytes for p in result.phases if p.phase == DECODE)
    outside = sum(c.bytes for c in result.components if DECODE in c.phases and not c.in_allocator)
    return total - outside


def _moves(compare: str, inp: EstimateInput, result: Estimate) -> tuple[Note, ...]:
    """What is not modelled for the compared quantity: the estimate's notes, but for a VAE-decode phase figure the VAE
    convolutions' workspace at its whole size: the estimate caps it at how far the decode exceeds the other phases,
    which bounds what it moves of the peak, not of the decode phase itself (decision 0582)."""
    if compare != "vae_phase_reserved":
        return result.not_modelled
    others = tuple(n for n in result.not_modelled if n.key != "vae_conv_workspace")
    workspace = vae_workspace_bytes(inp)
    return (*others, Note("vae_conv_workspace", "", 0, workspace, -1)) if workspace else others


def _nf4_saving(inp: EstimateInput) -> int:
    single = model_weight_bytes(inp.model, dense_bytes(inp), Quantization(QuantMethod.BNB_NF4))
    double = model_weight_bytes(inp.model, dense_bytes(inp), Quantization(QuantMethod.BNB_NF4, double_quant=True))
    return single.total - double.total


def engine_range(compare: str, inp: EstimateInput) -> tuple[int, int, int]:
    """(low, expected, high) of the estimated quantity, from the engine's per-component ranges."""
    expected = engine_value(compare, inp)
    result = estimate(inp)
    if compare == "peak":
        return result.peak_low_bytes, expected, result.peak_high_bytes
    if compare in ("peak_reserved", "vae_phase_reserved", "peak_allocated"):
        # The engine's calibrated band around the allocator's part of the peak (decision 0462).
        low, high = bounds(inp, expected, warnings_for(inp), _moves(compare, inp, result))
        return low, expected, high
    keys = {"activations": ("activations",), "model_states": STATES}.get(compare)
    if keys is None:
        return expected, expected, expected
    parts = [c for c in result.components if c.key in keys]
    return sum(c.low for c in parts), expected, sum(c.high for c in parts)


def engine_value(compare: str, inp: EstimateInput) -> int:
    """The estimated quantity the case's figure covers."""
    result = estimate(inp)
    values: dict[str, Callable[[], int]] = {
        "weights": lambda: result.bytes_of("weights", "text_encoder_weights", "vae_weights"),
        "weights_all_cards": lambda: model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization).total,
        "kv_cache": lambda: result.bytes_of("kv_cache"),
        "model_states": lambda: result.bytes_of(*STATES),
        "model_states_gathered": lambda: result.bytes_of(*STATES, "gathered_params"),
        "activations": lambda: result.bytes_of("activations"),
        "layer_activation": lambda: layer_activation(inp, sequence_tokens(inp), inp.batch_size).total,
        "nf4_dq_saving": lambda: _nf4_saving(inp),
        "peak": lambda: result.peak_bytes,
        "peak_reserved": lambda: result.peak_reserved_bytes,
        "peak_allocated": lambda: result.peak_allocated_bytes,
        "vae_phase_reserved": lambda: _vae_phase_reserved(result),
    }
    return values[compare]()


def _all_params(inp: EstimateInput) -> int:
    spec = inp.model.diffusion
    if spec is not None:
        return spec.denoiser_params + sum(spec.text_encoder_params) + spec.vae_params
    return param_counts(inp.model).total


def weights_only_baseline(inp: EstimateInput) -> int:
    """accelerate estimate-memory: parameters x dtype bytes, quantization as a plain discount."""
    method = inp.quantization.method
    per_param = float(dense_bytes(inp)) if method is QuantMethod.NONE else _NAIVE_BYTES.get(method, 0.5)
    if inp.model.checkpoint_prequantized and inp.model.checkpoint_bytes is not None:
        return inp.model.checkpoint_bytes
    return int(_all_params(inp) * per_param)


def _hfmem_kv(inp: EstimateInput) -> int:
    model = inp.model
    if inp.workload.is_training or model.kind is not ModelKind.DECODER:
        return 0
    ctx = inp.context_tokens
    sliding = 0 if model.sliding_window is None else (model.sliding_window_layers or model.num_layers)
    tokens = (model.num_layers - sliding) * ctx + sliding * min(ctx, model.sliding_window or ctx)
    kv_bytes = 1 if inp.precision.kv_cache.value == "fp8" else 2
    return 2 * tokens * model.kv_heads * model.dim_per_head * kv_bytes * inp.concurrent_sequences


def _hfmem_weights(inp: EstimateInput) -> int:
    if inp.model.kind is ModelKind.DIFFUSION:
        return estimate(inp).bytes_of("weights", "text_encoder_weights", "vae_weights")
    return model_weight_bytes(inp.model, dense_bytes(inp), inp.quantization).total


def rule_of_thumb(compare: str, inp: EstimateInput) -> int:
    """ "x1.2 inference / x4 Adam": a multiple of the weights-only figure for whole-step quantities."""
    if compare in ("weights", "weights_all_cards"):
        return weights_only_baseline(inp)
    if compare not in (
        "peak",
        "peak_reserved",
        "peak_allocated",
        "vae_phase_reserved",
        "model_states",
        "model_states_gathered",
    ):
        return 0
    if inp.workload.is_training and not inp.workload.is_adapter:
        return 4 * weights_only_baseline(inp)
    return weights_only_baseline(inp) * 6 // 5


def baseline_value(name: str, compare: str, inp: EstimateInput) -> int:
    """What a baseline predicts for the case's quantity (0 when it has no such term)."""
    if name == "rule_of_thumb":
        return rule_of_thumb(compare, inp)
    if compare in ("activations", "layer_activation"):
        return 0
    if compare == "vae_phase_reserved":
        spec = inp.model.diffusion
        return 0 if spec is None else spec.vae_params * dense_bytes(inp)
    if compare == "nf4_dq_saving":
        return 0 if name == "weights_only" else _nf4_saving(inp)  # hf-mem reads the real checkpoint bytes
    if compare == "kv_cache":
        return 0 if name == "weights_only" else _hfmem_kv(inp)
    if name == "weights_only":
        return weights_only_baseline(inp)
    kv = 0 if compare in ("weights", "weights_all_cards") else _hfmem_kv(inp)
    return _hfmem_weights(inp) + kv


def published_bytes(case: dict[str, Any]) -> int:
    """The published figure in bytes (GiB conversions were made in the case file)."""
    if case.get("published_figure_bytes"):
        return int(case["published_figure_bytes"])
    return round(float(case["published_figure_gib"]) * GIB)


def _err(value: int, published: int) -> float:
    return (value - published) / published


def _load(cases_path: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]], dict[str, str]]:
    """Cases by id, mappings, and the part of each case added after the split (each carries its mapping)."""
    cases = {c["id"]: c for c in json.loads(cases_path.read_text(encoding="utf-8"))["cases"]}
    mapping = json.loads(MAPPING.read_text(encoding="utf-8"))["cases"]
    added: dict[str, str] = {}
    for path, part in (
        (HELD_OUT_CASES, "fresh"),
        (FRESH2_CASES, "fresh-2"),
        (FRESH3_CASES, "fresh-3"),
        (FRESH4_CASES, "fresh-4"),
        (FRESH5_CASES, "fresh-5"),
        (FRESH6_CASES, "fresh-6"),
        (FRESH7_CASES, "fresh-7"),
        (FRESH8_CASES, "fresh-8"),
        (FRESH9_CASES, "fresh-9"),
        (FRESH10_CASES, "fresh-10"),
        (FRESH11_CASES, "fresh-11"),
        (FRESH12_CASES, "fresh-12"),
        (FRESH13_CASES, "fresh-13"),
        (FRESH14_CASES, "fresh-14"),
        (FRESH15_CASES, "fresh-15"),
        (FRESH16_CASES, "fresh-16"),
        (FRESH17_CASES, "fresh-17"),
        (FRESH18_CASES, "fresh-18"),
        (FRESH19_CASES, "fresh-19"),
        (FRESH20_CASES, "fresh-20"),
        (FRESH21_CASES, "fresh-21"),
        (FRESH22_CASES, "fresh-22"),
        (FRESH23_CASES, "fresh-23"),
        (FRESH24_CASES, "fresh-24"),
        (FRESH25_CASES, "fresh-25"),
        (FRESH26_CASES, "fresh-26"),
        (FRESH27_CASES, "fresh-27"),
        (FRESH28_CASES, "fresh-28"),
        (FRESH29_CASES, "fresh-29"),
        (FRESH30_CASES, "fresh-30"),
        (FRESH31_CASES, "fresh-31"),
        (FRESH32_CASES, "fresh-32"),
        (FRESH33_CASES, "fresh-33"),
        (FRESH34_CASES, "fresh-34"),
        (FRESH35_CASES, "fresh-35"),
        (FRESH36_CASES, "fresh-36"),
        (FRESH37_CASES, "fresh-37"),
        (FRESH38_CASES, "fresh-38"),
        (FRESH39_CASES, "fresh-39"),
        (FRESH40_CASES, "fresh-40"),
        (FRESH41_CASES, "fresh-41"),
        (FRESH42_CASES, "fresh-42"),
        (FRESH43_CASES, "fresh-43"),
        (FRESH44_CASES, "fresh-44"),
        (FRESH45_CASES, "fresh-45"),
        (FRESH46_CASES, "fresh-46"),
        (FRESH47_CASES, "fresh-47"),
    ):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            cases[case["id"]] = case
            mapping.append(case["mapping"])
            added[case["id"]] = part
    return cases, mapping, added


def evaluate(cases_path: Path) -> dict[str, Any]:
    """Run every mapped case; return per-case rows and per-part, per-category summaries."""
    cases, mapping, added = _load(cases_path)
    missing = sorted(set(cases) - {m["id"] for m in mapping})
    rows = []
    for entry in mapping:
        case = cases.get(entry["id"])
        if case is None:
            continue
        inp = inputs_from_dict(entry["inputs"])
        published = published_bytes(case)
        low, expected, high = engine_range(entry["compare"], inp)
        row = {
            "id": entry["id"],
            "part": split_of(entry["id"], added.get(entry["id"], False)),
            "category": entry["category"],
            "group": entry.get("group", ""),
            "kind": band_for(inp).key,
            "widened": [band.key for band in wider_for(inp)],
            "caveats": [caveat.key for caveat in warnings_for(inp) if caveat.factor_pct != 100 or caveat.widens],
            "band_ends": limits(inp, ()),
            # A peak published rounded or as "about" is still a measured peak (fresh-13 says so in its kind).
            "measured": case["figure_kind"].startswith("measured peak"),
            "compare": entry["compare"],
            "published": published,
            "estimate": expected,
            "low": low,
            "high": high,
            "in_range": low <= published <= high,
            "width": (high - low) / published,
            "note": entry["note"],
        }
        moves = _moves(entry["compare"], inp, estimate(inp))
        row["below"] = sum(n.high_bytes for n in moves if n.direction < 0)
        row["above"] = sum(n.high_bytes for n in moves if n.direction > 0)
        for name in BASELINES:
            row[name] = baseline_value(name, entry["compare"], inp)
        for key in ("estimate", "high", *BASELINES):
            row[f"{key}_err"] = _err(row[key], published)
        rows.append(row)
    summary = {part: summarize([r for r in rows if r["part"] in UNIONS.get(part, (part,))]) for part in PARTS}
    return {"rows": rows, "summary": summary, "unmapped": missing}


def only_parts(report: dict[str, Any], parts: list[str]) -> dict[str, Any]:
    """The report restricted to the named parts: their rows and summaries only (a held part stays unseen)."""
    shown = {member for part in parts for member in UNIONS.get(part, (part,))}
    return {
        "rows": [r for r in report["rows"] if r["part"] in shown],
        "summary": {part: s for part, s in report["summary"].items() if part in parts},
        "unmapped": report["unmapped"],
        "parts": [part for part in PARTS if part in parts],
    }


def _stats(rows: list[dict[str, Any]], key: str) -> dict[str, float]:
    errors = [r[f"{key}_err"] for r in rows]
    if not errors:
        return {"median_abs_err": 0.0, "within_25pct": 0.0, "worst_under": 0.0}
    return {
        "median_abs_err": statistics.median(abs(e) for e in errors),
        "within_25pct": sum(abs(e) <= 0.25 for e in errors) / len(errors),
        "worst_under": min(0.0, *errors),
    }


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Per category and for the measured-peak subset: median |error|, share within 25%, worst underestimate."""
    groups: dict[str, list[dict[str, Any]]] = {c: [r for r in rows if r["category"] == c] for c in CATEGORIES}
    for group in sorted({r["group"] for r in rows if r["group"]}):
        groups[f"  {group}"] = [r for r in rows if r["group"] == group]
    for kind in sorted({r["kind"] for r in rows}):
        groups[f"  range: {kind}"] = [r for r in rows if r["kind"] == kind and r["measured"]]
    groups["measured (all categories)"] = [r for r in rows if r["measured"]]
    groups["all"] = rows
    return {
        name: {
            "cases": len(group),
            "ranged": len(peaks := [r for r in group if r["compare"] in RANGED]),
            "in_range": sum(r["in_range"] for r in peaks),
            "median_width": statistics.median(r["width"] for r in peaks) if peaks else 0.0,
            **{key: _stats(group, key) for key in ("estimate", "high", *BASELINES)},
        }
        for name, group in groups.items()
    }


def _need(row: dict[str, Any]) -> float:
    """How far below (negative) or above the expected value the range must reach to hold the row's measured peak,
    once the likely sizes of what is not modelled are added."""
    below: float = (row["published"] + row["below"] - row["estimate"]) / row["estimate"]
    above: float = (row["published"] - row["above"] - row["estimate"]) / row["estimate"]
    return min(below, 0.0) if row["published"] < row["estimate"] else max(above, 0.0)


def band_rule(needs: list[float]) -> tuple[int, int, int]:
    """The narrowest band, in whole percent rounded outwards to 5, that holds all of ``needs`` but
    ``floor((n + 1) / 10)`` of them (left out at whichever ends give the narrowest band; the order statistics that
    hold a further run about 9 times in 10), never closer than 5 % to the expected value; and how many it leaves out
    (decision 0502)."""
    ordered, left = sorted(needs), (len(needs) + 1) // 10
    best: tuple[int, int] | None = None
    for at_low in range(left + 1):
        kept = ordered[at_low : len(ordered) - (left - at_low)]
        low = min(-5, 5 * math.floor(round(kept[0] * 100, 6) / 5))
        high = max(5, 5 * math.ceil(round(kept[-1] * 100, 6) / 5))
        if best is None or high - low < best[1] - best[0]:
            best = (low, high)
    assert best is not None
    return best[0], best[1], left


def left_out_in_turn(needs: list[tuple[str, float]]) -> tuple[int, int]:
    """How many of a band's peaks the band would have held had their part not informed it: each part's peaks against
    the band :func:`band_rule` gives on the other parts' (a part whose peaks are the only ones is not counted). A
    kind is split into narrower kinds only where this stays about 9 in 10 for each (decision 0548)."""
    held = tried = 0
    for part in sorted({p for p, _ in needs}):
        others = [need for p, need in needs if p != part]
        if not others:
            continue
        low, high, _ = band_rule(others)
        mine = [need for p, need in needs if p == part]
        held += sum(1 for need in mine if low <= round(need * 100, 6) <= high)
        tried += len(mine)
    return held, tried


def band_report(report: dict[str, Any]) -> str:
    """For choosing the engine's bands (``vramcalc/calibration.py``): the measured peaks of the parts that may inform
    a choice, as the percent of the expected value each needs below or above it once the likely sizes of what is
    not modelled are added (a band holds a case when it reaches that far), grouped as the bands are chosen: a kind
    of workload over its cases that no widening applies to, each widening over the cases it applies to; and the
    band :func:`band_rule` gives. F2-39 (a server filling its memory budget, not a workload's peak) is left out."""
    lines = [f"Bands from the parts {', '.join(INFORMED_CHOICES)} (measured peaks; % of the expected value)"]
    rows = [r for r in report["rows"] if r["part"] in INFORMED_CHOICES and r["measured"] and r["compare"] in RANGED]
    groups: dict[str, list[tuple[str, float]]] = {}
    for row in rows:
        if row["id"] in NOT_A_WORKLOAD_PEAK:
            continue
        for key in row["widened"] or [row["kind"]]:
            groups.setdefault(key, []).append((row["part"], _need(row)))
    for key in sorted(groups):
        needs = sorted(need for _, need in groups[key])
        low, high, left = band_rule(needs)
        held, tried = left_out_in_turn(groups[key])
        cells = " ".join(f"{n:+.0%}" for n in needs)
        lines.append(
            f"{key:24} n={len(needs):3}  band {low:+d} %/{high:+d} % (leaves out {left}; each part left out in turn:"
            f" {held}/{tried})  {cells}"
        )
    lines.append("Approximations: how far each widens its peaks' bands (needed / band end), by the same rule")
    factors: dict[str, list[float]] = {}
    for row in rows:
        if row["id"] in NOT_A_WORKLOAD_PEAK:
            continue
        need, (low, high) = _need(row), row["band_ends"]
        for key in row["caveats"]:
            factors.setdefault(key, []).append(need * 10_000 / (high if need > 0 else low) if need else 0.0)
    for key in sorted(factors):
        needed = sorted(factors[key])
        left = (len(needed) + 1) // 10
        factor = max(100, 5 * math.ceil(round(needed[len(needed) - 1 - left], 6) / 5))
        cells = " ".join(f"{f:.0f}" for f in needed)
        lines.append(f"{key:24} n={len(needed):3}  factor {factor} % (leaves out {left})  {cells}")
    return "\n".join(lines)


def best_window(needs: list[float], width: float) -> int:
    """How many of ``needs`` one window ``width`` wide can hold at most, placed after seeing them."""
    ordered, held, end = sorted(needs), 0, 0
    for start, need in enumerate(ordered):
        while end < len(ordered) and round(ordered[end] - need, 9) <= width:
            end += 1
        held = max(held, end - start)
    return held


def hindsight_windows(rows: list[dict[str, Any]]) -> tuple[float, int]:
    """Over ``rows``, each kind taking its own window placed after seeing its peaks' needs (:func:`_need`): the share
    that windows ``TARGET_WIDTH`` wide hold at most, and the narrowest common width, in whole points, at which they
    hold ``TARGET_COVERAGE`` (decision 0618). No band chosen before seeing the peaks does better."""
    kinds = [[_need(r) for r in rows if r["kind"] == kind] for kind in {r["kind"] for r in rows}]
    held = sum(best_window(needs, TARGET_WIDTH) for needs in kinds)
    wanted = math.ceil(TARGET_COVERAGE * len(rows))
    width = next(w for w in range(0, 100_000) if sum(best_window(needs, w / 100) for needs in kinds) >= wanted)
    return held / len(rows), width


def width_bound_report(report: dict[str, Any]) -> str:
    """What the two range targets ask of the expected values: for each kind of the tuning parts' measured peaks, for
    all of them and for each part's own, :func:`hindsight_windows` (each kind its own window)."""
    rows = [
        r for r in report["rows"] if r["measured"] and r["compare"] in RANGED and r["id"] not in NOT_A_WORKLOAD_PEAK
    ]
    tuning = [r for r in rows if r["part"] in INFORMED_CHOICES]
    groups = {f"kind {kind}": [r for r in tuning if r["kind"] == kind] for kind in sorted({r["kind"] for r in tuning})}
    groups["the tuning parts"] = tuning
    groups |= {f"part {part}": [r for r in rows if r["part"] == part] for part in PARTS if part not in UNIONS}
    lines = [
        f"Hindsight windows, each kind its own, placed after seeing the peaks (points of the expected value): what a"
        f" window {TARGET_WIDTH:.0%} wide holds at most, and how wide one must be to hold {TARGET_COVERAGE:.0%}",
        f"(the tuning peaks' median expected value / measured peak: "
        f"{statistics.median(r['estimate'] / r['published'] for r in tuning):.2f})",
    ]
    for name, group in groups.items():
        if len(group) >= 10:
            held, width = hindsight_windows(group)
            lines.append(f"{name:36} n={len(group):4}  {TARGET_WIDTH:.0%} holds {held:6.1%}  needs {width:4d}")
    return "\n".join(lines)


def _gib(value: int) -> str:
    return f"{value / GIB:9.2f}"


def render(report: dict[str, Any]) -> str:
    """Plain-text tables: every case with its part, then each part's summary and the targets."""
    lines = [
        f"{'case':5} {'part':12} {'category':9} {'compare':21} {'published':>9} {'low':>9} {'expected':>9}"
        f" {'high':>9} {'err':>7} {'w-only':>7} {'w+KV':>7} {'thumb':>7}   (GiB; err vs published)",
    ]
    for r in sorted(report["rows"], key=lambda r: (r["part"], r["id"])):
        lines.append(
            f"{r['id']:5} {r['part']:12} {r['category']:9} {r['compare']:21} {_gib(r['published'])} {_gib(r['low'])}"
            f" {_gib(r['estimate'])} {_gib(r['high'])} {r['estimate_err']:+7.1%} {r['weights_only_err']:+7.1%}"
            f" {r['weights_kv_err']:+7.1%} {r['rule_of_thumb_err']:+7.1%}"
        )
    for part in [p for p in PARTS if p in report["summary"]]:
        summary = report["summary"][part]
        lines += ["", f"== {part} part {PART_TITLES[part]}"]
        lines.append(
            f"{'group':26} {'n':>3} {'in range':>8} {'width':>6}  {'estimator':>24}  {'weights only':>17}"
            f"  {'weights + KV':>17}  {'x1.2 / x4 rule':>17}"
        )
        lines.append(
            f"{'':26} {'':>3} {'':>8} {'':>6}  {'med|err| <=25% worst':>24}  "
            + "  ".join(f"{'med|err|  <=25%':>17}" for _ in BASELINES)
        )
        for name, s in summary.items():
            if not s["cases"] and name.startswith("  "):
                continue
            ours = s["estimate"]
            cells = "  ".join(f"{s[k]['median_abs_err']:>8.1%} {s[k]['within_25pct']:>8.0%}" for k in BASELINES)
            lines.append(
                f"{name:26} {s['cases']:>3} {str(s['in_range']) + '/' + str(s['ranged']):>8} {s['median_width']:>6.0%}"
                f"  {ours['median_abs_err']:>8.1%} {ours['within_25pct']:>6.0%} {ours['worst_under']:>+8.1%}  {cells}"
            )
        lines += targets(summary, part)
    lines.append(f"\nParts that informed any choice of a constant or a range: {', '.join(INFORMED_CHOICES)}")
    hidden = [part for part in PARTS if part not in report["summary"]]
    if hidden:
        lines.append(f"Parts not shown in this run (--parts): {', '.join(hidden)}")
    if report["unmapped"]:
        lines.append(f"\nUnmapped cases: {', '.join(report['unmapped'])}")
    return "\n".join(lines)


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def targets(summary: dict[str, Any], part: str) -> list[str]:
    """The issue's targets (they bind on the held-out and fresh parts), each with its number and whether it is met."""
    measured = summary["measured (all categories)"]
    ours, high = measured["estimate"], measured["high"]
    lines = [
        f"target ({part}): median |error| on measured peaks <= {TARGET_MEDIAN:.0%}: {ours['median_abs_err']:.1%}"
        f" -> {_verdict(ours['median_abs_err'] <= TARGET_MEDIAN)}",
        f"target ({part}): >= {TARGET_WITHIN_25:.0%} of measured cases within 25%: {ours['within_25pct']:.0%}"
        f" -> {_verdict(ours['within_25pct'] >= TARGET_WITHIN_25)}",
        f"target ({part}): no measured underestimate worse than {TARGET_WORST_UNDER:.0%}: expected"
        f" {ours['worst_under']:+.1%} -> {_verdict(ours['worst_under'] >= TARGET_WORST_UNDER)};"
        f" high end {high['worst_under']:+.1%} -> {_verdict(high['worst_under'] >= TARGET_WORST_UNDER)}",
        f"target ({part}): range holds >= {TARGET_COVERAGE:.0%} of measured peaks:"
        f" {measured['in_range']}/{measured['ranged']} -> "
        + _verdict(measured["ranged"] > 0 and measured["in_range"] >= TARGET_COVERAGE * measured["ranged"]),
        f"target ({part}): median range width <= {TARGET_WIDTH:.0%} of the measured value:"
        f" {measured['median_width']:.0%} -> {_verdict(measured['median_width'] <= TARGET_WIDTH)}",
    ]
    for name in CATEGORIES:
        group = summary[name]
        if not group["cases"]:
            lines.append(f"target ({part}): {name:10} no cases")
            continue
        mine = group["estimate"]["median_abs_err"]
        best = min(group[k]["median_abs_err"] for k in BASELINES)
        verdict = "better" if mine < best else "tie" if mine == best else "WORSE"
        lines.append(f"target ({part}): {name:10} estimator {mine:.1%} vs best baseline {best:.1%} -> {verdict}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    env = os.environ.get("VRAMCALC_BENCH_CASES")
    parser.add_argument("--cases", type=Path, default=Path(env) if env else DEFAULT_CASES)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--bands",
        action="store_true",
        help=f"print what the bands need, from the parts {', '.join(INFORMED_CHOICES)} only (INFORMED_CHOICES)",
    )
    parser.add_argument(
        "--width-bound",
        action="store_true",
        help="print what the range targets ask of the expected values: hindsight windows per kind and per part",
    )
    parser.add_argument(
        "--parts",
        type=lambda text: [p for p in text.split(",") if p],
        default=list(PARTS),
        help=f"comma-separated parts to print, rows and summaries (default: all of {','.join(PARTS)})",
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.parts) - set(PARTS))
    if unknown:
        print(f"error: unknown parts {', '.join(unknown)}; choose among {', '.join(PARTS)}", file=sys.stderr)
        return 2
    try:
        report = only_parts(evaluate(args.cases), args.parts)
    except OSError as exc:
        print(f"error: cannot read the benchmark cases ({exc}); pass --cases PATH", file=sys.stderr)
        return 2
    if args.bands:
        print(band_report(report))
        return 0
    if args.width_bound:
        print(width_bound_report(report))
        return 0
    print(json.dumps(report, indent=1) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
