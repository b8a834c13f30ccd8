"""The paper's experiments (Sec. 6, App. C): Tables 2, 4, 5, convergence, sample complexity and tau sensitivity.

Modules: :mod:`.paper_values` (the printed Tables 4-5 and the data sets App. C.5-C.6 name, transcribed once),
:mod:`.protocol` (one trial of the App. C protocol), :mod:`.runner` (parallel trials, resumable records),
:mod:`.statistics` (means, standard errors, the one-sided t-test bold rule), :mod:`.curve_claims` (App. C.5-C.6's
statements decided on a run), :mod:`.report` (markdown), :mod:`.reproduction` (every printed cell against
several runs, with a diagnosis of each disagreement), :mod:`.figures` (PNG), :mod:`.command` (``lfverify bench``).
Needs scikit-learn (the ``bench`` extra); matplotlib for figures.
"""

from lfverify.experiments._command import BenchOptions, add_arguments, run, run_benchmark

__all__ = ["BenchOptions", "add_arguments", "run", "run_benchmark"]
