"""The paper's experiments (Sec. 6, App. C): Tables 2, 4, 5, convergence, sample complexity and tau sensitivity,
and the comparison with the estimators a user would pick instead.

:func:`run_benchmark` runs the experiments that :class:`BenchOptions` select (``lfverify bench``) and writes
``paper_benchmark.md``, ``summary.json`` and the figures.  Private modules: one trial of the App. C protocol,
parallel resumable trials, the bold rule's statistics, the curve claims of App. C.5-C.6, the markdown tables, the
reproduction of every printed cell and the figures.
"""

from lfverify.experiments._benchmark import (
    DEFAULT_EXPERIMENTS,
    EXPERIMENTS,
    QUICK,
    BenchOptions,
    run_benchmark,
    validate_options,
)
from lfverify.experiments._curve_claims import small_sample_comparisons
from lfverify.experiments._protocol import (
    ALL_METHODS,
    COMPARE_METHODS,
    TABLE_METHODS,
    run_trial,
)
from lfverify.experiments._reproduction import compare_with_paper, markdown_reproduction
from lfverify.experiments._statistics import summarize, within_combined_standard_errors

__all__ = ["BenchOptions", "run_benchmark", "validate_options", "EXPERIMENTS", "DEFAULT_EXPERIMENTS", "QUICK",
           "ALL_METHODS", "TABLE_METHODS", "COMPARE_METHODS", "run_trial", "compare_with_paper",
           "markdown_reproduction", "small_sample_comparisons", "summarize", "within_combined_standard_errors"]
