"""What the paper says, as data: its numbered claims and how each is checked, its statements as printed, and the
values of its tables.  This wing imports nothing else from lfverify.

* :data:`PAPER_CLAIMS`, :data:`CORRECTED_CLAIMS`, :data:`NOT_CLAIMS` - the claims registry (LaTeX label, number,
  recorded verdict, evidence); :func:`claim_by_label`, :func:`corrected_claim_of`; :data:`PACKAGE_CONTRACTS`, the
  package's own contracts that the tests name besides the claims;
* :func:`resolve_claim` - a claim by the names people use ("Theorem 1", "Thm. 1", its label, its ``proofs/`` file
  name), for ``lfverify proofs --only``, ``lfverify verify --only`` and ``pytest --claim``;
* :data:`PRINTED_STATEMENTS` - each claim's statement as printed, by LaTeX label;
* :data:`PAPER_RESULTS`, :func:`printed_result` - Tables 4-5 (and the data sets App. C.5-C.6 name), transcribed once.
"""

from lfverify.paper._names import (
    claim_file_name,
    claim_names,
    normalize_claim_name,
    resolve_claim,
    resolve_claim_label,
)
from lfverify.paper._printed import PRINTED_STATEMENTS
from lfverify.paper._registry import (
    CORRECTED_CLAIMS,
    EVIDENCE_KINDS,
    NOT_CLAIMS,
    PACKAGE_CONTRACTS,
    PAPER_CLAIMS,
    VERDICTS,
    Evidence,
    PaperClaim,
    claim_by_label,
    corrected_claim_of,
)
from lfverify.paper._tables import (
    PAPER_METHODS,
    PAPER_RESULTS,
    PAPER_SMALL_SAMPLE_WINS,
    PAPER_TABLE2_DATASETS,
    PAPER_TAU_EXTREMUM,
    PAPER_TAU_INCREASING,
    PrintedResult,
    printed_result,
)

__all__ = ["PAPER_CLAIMS", "CORRECTED_CLAIMS", "NOT_CLAIMS", "PACKAGE_CONTRACTS", "EVIDENCE_KINDS", "VERDICTS",
           "Evidence", "PaperClaim", "claim_by_label", "corrected_claim_of", "resolve_claim", "resolve_claim_label",
           "claim_names", "claim_file_name", "normalize_claim_name", "PRINTED_STATEMENTS", "PrintedResult",
           "PAPER_METHODS", "PAPER_RESULTS", "PAPER_TABLE2_DATASETS", "PAPER_SMALL_SAMPLE_WINS", "PAPER_TAU_INCREASING",
           "PAPER_TAU_EXTREMUM", "printed_result"]
