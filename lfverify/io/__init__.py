"""Files: atomic writes, sealed (hash-checked) records, output folders that one command owns, and the figures'
backend (matplotlib, imported lazily).  Imports nothing else from lfverify but its version.
"""

from lfverify.io._atomic import (
    atomic_path,
    write_bytes_atomically,
    write_text_atomically,
)
from lfverify.io._figures import matplotlib_available, pyplot, save_figure
from lfverify.io._output_folder import (
    MARKER,
    check_output_file,
    check_output_folder,
    claim_output_folder,
    owner_of,
    settings_fingerprint,
)
from lfverify.io._sealed_records import (
    DamagedRecord,
    content_hash,
    read_sealed,
    report_damaged,
    seal,
    set_aside,
)

__all__ = ["atomic_path", "write_text_atomically", "write_bytes_atomically", "matplotlib_available", "pyplot",
           "save_figure", "MARKER", "check_output_folder", "check_output_file", "claim_output_folder", "owner_of",
           "settings_fingerprint", "DamagedRecord", "content_hash", "seal", "read_sealed", "set_aside",
           "report_damaged"]
