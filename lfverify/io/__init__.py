"""Files: one door for every read and write (``lfverify/io/_files.py``: regular files only, never a blocking open,
symbolic links written through, path arguments checked), atomic writes, sealed (hash-checked) records, output
folders that one command owns (claimed under a lock), the figures' backend (matplotlib, imported lazily), and
progress on stderr (a tqdm bar on a terminal, lines otherwise).  Imports nothing else from lfverify but its version
(and ``filelock``).
"""

from lfverify.io._atomic import (
    atomic_path,
    write_bytes_atomically,
    write_text_atomically,
)
from lfverify.io._figures import matplotlib_available, pyplot, save_figure
from lfverify.io._files import (
    NotARegularFile,
    NotText,
    broken_link_kind,
    check_path_argument,
    decode_text,
    file_kind,
    is_regular,
    open_regular,
    read_bytes,
    read_text,
    special_files_in,
    write_target,
)
from lfverify.io._output_folder import (
    LOCK,
    MARKER,
    check_output_file,
    check_output_folder,
    claim_output_folder,
    holding_output_folders,
    owner_of,
    settings_fingerprint,
)
from lfverify.io._progress import (
    PROGRESS_MODES,
    Progress,
    elapsed,
    progress_line,
    progress_mode,
    start_clock,
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
           "save_figure", "NotARegularFile", "NotText", "decode_text", "file_kind", "is_regular", "broken_link_kind",
           "open_regular", "read_bytes",
           "read_text", "write_target",
           "check_path_argument", "special_files_in", "MARKER", "LOCK", "holding_output_folders",
           "check_output_folder", "check_output_file", "claim_output_folder", "owner_of",
           "settings_fingerprint", "DamagedRecord", "content_hash", "seal", "read_sealed", "set_aside",
           "report_damaged", "PROGRESS_MODES", "Progress", "progress_mode", "progress_line", "elapsed",
           "start_clock"]
