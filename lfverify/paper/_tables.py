"""The paper's printed benchmark results (App. C.4, Tables 4 and 5; Table 2 repeats four of their rows) and the
data sets App. C.5 and C.6 name in their statements about the curve studies.

Transcribed once, by hand, from the LaTeX source; ``tests/experiments/test_paper_benchmark.py`` re-parses the .tex and
checks every entry (and that Table 2's rows equal the corresponding rows of Tables 4 and 5).  Each entry is
``PrintedResult(mean, standard_error, bold)`` with the mean as printed (three decimals), the standard error
as printed in parentheses (an integer in units of 10^-4, "Standard errors (multiplied by 10^4)") converted
to the same scale as the mean (so 0.617 (101) is mean 0.617, standard error 0.0101), and whether the cell
is bold ("outperforming methods, chosen by one-sided t-test with the significant level 5%").

The tables were computed with 100 iterations of U-GD / U-BFGS (App. C.4: "we ran 100 iterations for both
U-GD and U-BFGS for the results shown in Tabs. 4 and 5"), 50 trials, tau = 0.33 (F_1) and 0.75 (Jaccard).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["PrintedResult", "PAPER_METHODS", "PAPER_RESULTS", "PAPER_TABLE2_DATASETS", "printed_result",
           "PAPER_SMALL_SAMPLE_WINS", "PAPER_TAU_INCREASING", "PAPER_TAU_EXTREMUM"]


class PrintedResult(NamedTuple):
    """One cell of Table 4 / 5: mean test metric over 50 trials, its standard error, and the bold flag."""

    mean: float
    standard_error: float
    bold: bool


#: The methods in the order of the tables' columns.
PAPER_METHODS = ("U-GD", "U-BFGS", "ERM", "W-ERM", "Plug-in")

#: The data sets of Table 2 (the main text's excerpt of Tables 4 and 5).
PAPER_TABLE2_DATASETS = ("adult", "breast-cancer", "diabetes", "sonar")


def _row(*cells):
    """Five printed cells "mean (se)" with a leading "*" for bold -> {method: PrintedResult}."""
    out = {}
    for method, cell in zip(PAPER_METHODS, cells, strict=True):
        bold = cell.startswith("*")
        mean, se = cell.lstrip("*").split()
        out[method] = PrintedResult(float(mean), int(se.strip("()")) / 1e4, bold)
    return out


# Table 4 (tab:supp:result-f1): "Results of the F_1-measure".
# Columns: data set: _row(U-GD, U-BFGS, ERM, W-ERM, Plug-in), each cell "mean (se x 10^4)", "*" for bold.
_F1 = {
    "adult": _row("0.617 (101)", "0.660 (11)", "0.639 (51)", "0.676 (18)", "*0.681 (9)"),
    "australian": _row("*0.843 (41)", "*0.844 (45)", "0.820 (123)", "0.814 (116)", "0.827 (51)"),
    "breast-cancer": _row("*0.963 (31)", "*0.960 (32)", "0.950 (37)", "0.948 (44)", "0.953 (40)"),
    "cod-rna": _row("0.802 (231)", "0.594 (4)", "0.927 (7)", "0.927 (6)", "*0.930 (2)"),
    "diabetes": _row("*0.834 (32)", "*0.828 (31)", "0.817 (50)", "0.821 (40)", "0.820 (42)"),
    "fourclass": _row("*0.638 (70)", "*0.638 (64)", "0.601 (124)", "0.591 (212)", "0.618 (64)"),
    "german.numer": _row("0.561 (102)", "*0.580 (74)", "0.492 (188)", "0.560 (107)", "*0.589 (73)"),
    "heart": _row("*0.796 (101)", "*0.802 (99)", "*0.792 (80)", "0.764 (151)", "0.764 (137)"),
    "ionosphere": _row("*0.908 (49)", "*0.901 (43)", "0.883 (104)", "0.842 (217)", "*0.897 (54)"),
    "madelon": _row("*0.666 (19)", "0.632 (67)", "0.491 (293)", "0.639 (110)", "*0.663 (24)"),
    "mushrooms": _row("1.000 (1)", "0.997 (7)", "*1.000 (1)", "1.000 (2)", "0.999 (4)"),
    "phishing": _row("0.937 (29)", "*0.943 (7)", "*0.944 (8)", "0.940 (12)", "*0.944 (8)"),
    "phoneme": _row("*0.648 (27)", "0.559 (22)", "0.530 (201)", "0.616 (135)", "0.633 (35)"),
    "skin_nonskin": _row("0.870 (3)", "0.856 (4)", "0.854 (7)", "*0.877 (8)", "0.838 (5)"),
    "sonar": _row("*0.735 (95)", "*0.740 (91)", "0.706 (121)", "0.655 (189)", "*0.721 (113)"),
    "spambase": _row("0.876 (27)", "0.756 (61)", "0.887 (42)", "0.881 (58)", "*0.903 (18)"),
    "splice": _row("0.785 (49)", "*0.799 (46)", "0.785 (55)", "0.771 (67)", "*0.801 (45)"),
    "w8a": _row("0.297 (80)", "0.284 (96)", "0.735 (35)", "*0.742 (29)", "*0.745 (26)"),
}

# Table 5 (tab:supp:result-jac): "Results of the Jaccard index".
# Columns: data set: _row(U-GD, U-BFGS, ERM, W-ERM, Plug-in), each cell "mean (se x 10^4)", "*" for bold.
_JACCARD = {
    "adult": _row("0.499 (44)", "0.498 (11)", "0.471 (51)", "0.510 (20)", "*0.516 (10)"),
    "australian": _row("*0.735 (63)", "*0.733 (59)", "0.702 (144)", "0.693 (143)", "0.707 (76)"),
    "breast-cancer": _row("*0.921 (54)", "*0.918 (55)", "0.905 (66)", "0.903 (78)", "*0.913 (69)"),
    "cod-rna": _row("0.854 (3)", "0.785 (8)", "0.864 (11)", "0.865 (9)", "*0.869 (3)"),
    "diabetes": _row("*0.714 (44)", "0.702 (50)", "0.692 (70)", "0.698 (56)", "0.695 (60)"),
    "fourclass": _row("*0.469 (69)", "*0.457 (68)", "0.436 (112)", "0.434 (171)", "0.449 (66)"),
    "german.numer": _row("*0.433 (64)", "*0.429 (69)", "0.335 (153)", "0.391 (98)", "*0.418 (71)"),
    "heart": _row("*0.665 (135)", "*0.675 (135)", "*0.664 (102)", "0.629 (178)", "0.626 (163)"),
    "ionosphere": _row("*0.826 (76)", "*0.829 (65)", "0.796 (134)", "0.749 (245)", "*0.815 (87)"),
    "madelon": _row("*0.495 (31)", "0.459 (69)", "0.346 (225)", "0.474 (100)", "*0.496 (27)"),
    "mushrooms": _row("0.999 (2)", "0.995 (4)", "*1.000 (1)", "0.999 (4)", "0.997 (7)"),
    "phishing": _row("0.883 (43)", "*0.893 (11)", "*0.894 (14)", "0.888 (22)", "*0.894 (15)"),
    "phoneme": _row("0.435 (51)", "0.436 (24)", "0.371 (160)", "*0.450 (104)", "*0.461 (34)"),
    "skin_nonskin": _row("0.744 (5)", "0.751 (5)", "0.746 (10)", "*0.780 (13)", "0.722 (7)"),
    "sonar": _row("*0.600 (125)", "*0.600 (111)", "0.552 (147)", "0.495 (202)", "*0.572 (134)"),
    "spambase": _row("*0.827 (22)", "0.708 (22)", "0.798 (67)", "0.790 (86)", "*0.824 (31)"),
    "splice": _row("*0.670 (60)", "*0.672 (56)", "0.646 (71)", "0.629 (84)", "*0.672 (57)"),
    "w8a": _row("0.496 (151)", "0.452 (28)", "0.580 (44)", "*0.590 (35)", "*0.595 (33)"),
}

#: metric name ("f1" / "jaccard") -> data set -> method -> PrintedResult (Tables 4 and 5).
PAPER_RESULTS = {"f1": _F1, "jaccard": _JACCARD}


def printed_result(metric: str, dataset: str, method: str) -> PrintedResult | None:
    """The paper's printed cell, or ``None`` where the paper has none (another metric, data set or method)."""
    return PAPER_RESULTS.get(metric, {}).get(dataset, {}).get(method)


# ---------------------------------------------------------------------- App. C.5 and C.6, the named data sets
#: App. C.5: "we can observe clear differences in some cases such as cod-rna, diabetes, german.numer, ionosphere,
#: sonar, and splice in F1-measure, and australian, cod-rna, diabetes, ionosphere, phishing, sonar, and spambase
#: in Jaccard index, where either U-GD or U-BFGS works better than Plug-in even if sample sizes are quite small
#: around 20 to 40."  metric -> data sets.
PAPER_SMALL_SAMPLE_WINS = {
    "f1": ("cod-rna", "diabetes", "german.numer", "ionosphere", "sonar", "splice"),
    "jaccard": ("australian", "cod-rna", "diabetes", "ionosphere", "phishing", "sonar", "spambase"),
}

#: App. C.6: "there is a tendency that the performance becomes better as tau becomes closer to 1. [...] australian,
#: breast-cancer, german.numer, heart, ionosphere, mushrooms, phishing, and splice in the F_beta-measure,
#: australian, mushrooms, phishing, and splice in the Jaccard index."  metric -> data sets.
PAPER_TAU_INCREASING = {
    "f1": ("australian", "breast-cancer", "german.numer", "heart", "ionosphere", "mushrooms", "phishing", "splice"),
    "jaccard": ("australian", "mushrooms", "phishing", "splice"),
}

#: App. C.6: "there are also other cases where there exist extrema of the performance with respect to the choices
#: of tau. [...] german.numer and sonar in the F_beta-measure, breast-cancer, heart, ionosphere and sonar in the
#: Jaccard index."  metric -> data sets.  (german.numer / F_1 is in both of App. C.6's lists.)
PAPER_TAU_EXTREMUM = {
    "f1": ("german.numer", "sonar"),
    "jaccard": ("breast-cancer", "heart", "ionosphere", "sonar"),
}
