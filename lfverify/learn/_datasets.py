"""The paper's benchmark data sets (App. C.1, Table 3): found in an offline copy or fetched from their pinned public
sources into the user's cache, checked by sha256, merged and scaled as the paper did.

The paper "merged" each data set's train/validation/test files into one and "scaled each feature value between
zero and one" (App. C.1).  The staged folder holds the *source* files, unmerged and unscaled; its MANIFEST.md
says how to rebuild the paper's sets, and :data:`DATASET_SPECS` encodes exactly that, file by file:

* which files are merged (adult = a9a + a9a.t, madelon = the SGML CSV + madelon.t) or which rows are kept
  (splice: rows 1-1000, the LIBSVM training file only);
* which raw label is the positive class (LIBSVM +1, or label 1 for mushrooms, phishing, phoneme, skin,
  spambase; madelon's CSV uses 1 = +1 and 2 = -1);
* the sha256 of every file (PROVENANCE.tsv), verified before a file is parsed (once per file per process);
* the staged row count, dimension and number of positives, checked after loading (a mismatch is an error).

Every loaded set is min-max scaled to [0, 1] per feature over the merged rows (a constant feature becomes 0;
min-max scaling commutes with LIBSVM's affine ``svm-scale``, so ``_scale`` and raw files give the same
features up to the files' 6-digit rounding) and its labels are mapped to {-1, +1}.

Two staged sets differ from the paper's Table 3 (MANIFEST.md): **sonar**'s prior is 0.4663 (+1 = rock)
where the paper prints 0.394, which matches neither class (it is spambase's value, probably a transcription
error); **w8a** holds only the LIBSVM training file (49,749 of 64,700 rows; w8a.t is missing).  **cod-rna**
is not available.  :data:`PAPER_DATASETS` keeps the paper's values, :data:`STAGED_DATASETS` the staged ones.

Where the files are looked for (:func:`data_location`), in order: an explicit ``root`` argument (``--data-root``),
else the folder ``$LFVERIFY_DATASETS`` names - both an *offline copy* with the layout ``<dataset>/<file>`` (such as
the project's ``shared/datasets``), read and never written - else the user's *cache*
(:func:`lfverify.learn.fetch_files`), filled on demand: :func:`load_dataset` downloads a missing file from its pinned
source (or the mirror ``$LFVERIFY_DATA_URL``) and checks its sha256 first; ``lfverify data fetch`` fills it ahead.
The package knows no machine path: a copy beside a checkout is found by whoever runs it (the test suite and
``.ci/run`` set ``LFVERIFY_DATASETS``).

User files (svmlight / CSV / ARFF) are read by :func:`load_file` with the same scaling and label checks.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from lfverify.core import check_features
from lfverify.io import Progress, broken_link_kind, decode_text, is_regular, open_regular, read_bytes, read_text
from lfverify.learn._fetch import (
    HOW_TO_GET_DATA,
    SOURCE_FILES,
    DataFetchError,
    SourceFile,
    data_cache,
    fetch_files,
)

__all__ = [
    "dataset_status",
    "file_states",
    "DamagedDataFile",
    "DATA_FAULTS",
    "Dataset",
    "DataFile",
    "DatasetSpec",
    "DATASET_SPECS",
    "PAPER_DATASETS",
    "STAGED_DATASETS",
    "missing_dataset_files",
    "FILE_FORMATS",
    "DATASETS_ENV_VARIABLE",
    "available_datasets",
    "fetchable_datasets",
    "data_location",
    "dataset_root",
    "dataset_files",
    "ensure_datasets",
    "fetch_datasets",
    "load_dataset",
    "load_file",
    "min_max_scale",
]

DATASETS_ENV_VARIABLE = "LFVERIFY_DATASETS"
#: Formats understood by :func:`load_file`.
FILE_FORMATS = ("svmlight", "csv", "arff")


class DamagedDataFile(ValueError):
    """A data file whose sha256 is not the pinned one (corrupted, truncated or modified): one line naming it."""


#: The failures that mean the data cannot be had here - a download that failed, a file missing from an offline copy,
#: a damaged file - as opposed to a result: a run that meets one reports its claims "not run", never "regressed".
DATA_FAULTS = (DataFetchError, FileNotFoundError, DamagedDataFile)


class Dataset(NamedTuple):
    """One data set, ready for the benchmark.

    Attributes
    ----------
    name : str
    X : ndarray of shape (n, d), float64, every feature in [0, 1]
    y : ndarray of shape (n,), int64, labels in {-1, +1}
    prior : float
        The fraction of positives, #{y = +1} / n.
    source : str
        The files (relative to the data root, or the user's path) and how they were combined.
    """

    name: str
    X: np.ndarray
    y: np.ndarray
    prior: float
    source: str


@dataclass(frozen=True)
class DataFile:
    """One staged source file: its path under the data root, how to parse it, and its sha256 (PROVENANCE.tsv)."""

    path: str
    format: str
    sha256: str
    positive_label: object = 1
    csv_header: bool = False


@dataclass(frozen=True)
class DatasetSpec:
    """How to rebuild one of the paper's data sets from the staged files, and what it must look like.

    ``staged_*`` are MANIFEST.md's "Staged d / n / prior" column (checked after loading; ``staged_positives``
    is the exact count the prior is rounded from); ``paper_*`` are Table 3 of App. C.1 (``None`` where the
    paper gives no prior: fourclass and madelon appear only in the results tables).
    """

    name: str
    files: tuple[DataFile, ...]
    n_features: int | None
    staged_n: int | None
    staged_positives: int | None
    staged_prior: float | None
    paper_d: int
    paper_n: int
    paper_prior: float | None
    rows: int | None = None
    note: str = ""
    merge: str = field(default="")

    @property
    def available_offline(self) -> bool:
        return bool(self.files)


def _svm(path, sha, positive=1):
    return DataFile(path, "svmlight", sha, positive)


# Values from the staged copy's MANIFEST.md (summary table and per-file details) and PROVENANCE.tsv.
# Columns: DatasetSpec(name, files, n_features, staged_n, staged_positives, staged_prior, paper_d, paper_n,
# paper_prior, [rows=, note=, merge=]).
_SPECS = (
    DatasetSpec("adult", (_svm("adult/a9a.txt", "f5d5ffd8d865ff41328e7ee043e4b020816914ff6843ff15b98905ddbedce906"),
                          _svm("adult/a9a.t", "1f7bae8e9729ad2bf9d18f66e5fa622e503e615114f92c37b274dfd24f2e5725")),
                123, 48842, 11687, 0.2393, 123, 48842, 0.239, merge="a9a + a9a.t (LIBSVM train + test)"),
    DatasetSpec("australian", (_svm("australian/australian",
                                    "615e24252961b52e297f9b70942f166631ab412ad9060ba98bf41b1e027be607"),),
                14, 690, 307, 0.4449, 14, 690, 0.445),
    DatasetSpec("breast-cancer", (_svm("breast-cancer/breast-cancer_scale",
                                       "8fe6bce62147e0715a192378d29acf839b4a8a71d75ae4c88245a3526c20a6e4"),),
                10, 683, 239, 0.3499, 10, 683, 0.350,
                note="feature 1 is the scaled UCI sample-ID (the paper's d = 10 keeps it); +1 = malignant"),
    DatasetSpec("cod-rna", (), None, None, None, None, 8, 331152, 0.333,
                note="not available offline (MANIFEST.md: no public copy small enough was found)"),
    DatasetSpec("diabetes", (_svm("diabetes/diabetes_scale",
                                  "0c07eb4c49e7a8ffb9c9f25095ac3022df2ca85b0dcb7d294c3ddea69f392cba"),),
                8, 768, 500, 0.6510, 8, 768, 0.651, note="+1 = UCI class 0 (not diabetic), as the paper's prior"),
    DatasetSpec("german.numer", (_svm("german.numer/german_scale.txt",
                                      "e461161650598fda2988f2a4c3b592634bbcae1c0eec382c94ceda5f30d4dab4"),),
                24, 1000, 300, 0.3000, 24, 1000, 0.300),
    DatasetSpec("heart",
                (_svm("heart/heart_scale", "5defa0a4c4c5bdaf3f55ae3828310252e8565c13ee37ce279e0b86d82e7f4ce9"),),
                13, 270, 120, 0.4444, 13, 270, 0.444),
    DatasetSpec("ionosphere", (_svm("ionosphere/ionosphere_not_shuffled.txt",
                                    "c4f7fb384c95f758fbc92e06652b952cdf906e28707a5f24ab5b1d691d9296e3"),),
                34, 351, 225, 0.6410, 34, 351, 0.641, note="feature 2 is identically 0 (scaled to 0)"),
    DatasetSpec("mushrooms", (_svm("mushrooms/mushrooms",
                                   "f39a4eb628dc61a7d43760815b061c9e497aa728ce1ad8bde57a09ef6043b538"),),
                112, 8124, 3916, 0.4820, 112, 8124, 0.482,
                note="labels 1 (poisonous, positive) / 2; the file is misnamed madelon.txt upstream"),
    DatasetSpec("phishing", (_svm("phishing/phishing.txt",
                                  "0b0ca40e17bc95e909bfa587c408bf69904571ace01dea26e34cafc464f2da93"),),
                68, 11055, 6157, 0.5569, 68, 11055, 0.557, note="labels {0, 1}; 1 is positive"),
    DatasetSpec("phoneme", (DataFile("phoneme/phoneme.csv",
                                     "csv", "eacbb9f7a2b2135d067bff28ed7b9adb760f61f5e91f375f91e22e7e42ace24d", 1),),
                5, 5404, 1586, 0.2935, 5, 5404, 0.293, note="CSV without header; class 1 is positive"),
    DatasetSpec("skin_nonskin", (DataFile("skin_nonskin/Skin_NonSkin.txt", "csv",
                                          "59f6b7928f168edfdee0babbbfb3290358442d39833b6301ab28499a9c500b9d", 1,
                                          csv_header=True),),
                3, 245057, 50859, 0.2075, 3, 245057, 0.208,
                note="CSV (CRLF) with a header r,g,b,skin (columns are really B,G,R); class 1 = skin is positive"),
    DatasetSpec("sonar", (_svm("sonar/sonar.txt", "5d820b62d9873f13b283738971b02aef67900fcd98b310c8e77eca3d0dc53daa"),),
                60, 208, 97, 0.4663, 60, 208, 0.394,
                note="the paper's prior 0.394 matches neither class (+1 = rock gives 0.4663, mine 0.5337)"),
    DatasetSpec("spambase", (DataFile("spambase/spambase.arff", "arff",
                                      "de045774b02909770aa52717398b1960258d2567669c35092e1d76f3c279b937", "1"),),
                57, 4601, 1813, 0.3940, 57, 4601, 0.394, note="ARFF; class 1 = spam is positive"),
    DatasetSpec("splice",
                (_svm("splice/splice.txt", "4ac8c916aa0feb37f1a904db9c32e82e42b7fc7821bf7f1281f2702c5f8653c1"),),
                60, 1000, 517, 0.5170, 60, 1000, 0.517, rows=1000,
                merge="rows 1-1000 of splice.txt (the LIBSVM training file; the paper's n = 1000)"),
    DatasetSpec("w8a", (_svm("w8a/w8a", "b464b4f6ce6a5d9e181ffc793e19a04751036273722312398ef7673705014902"),),
                300, 49749, 1479, 0.0297, 300, 64700, 0.030,
                note="training split only: w8a.t (14,951 rows) is missing, so 49,749 of the paper's 64,700 rows"),
    DatasetSpec("fourclass", (_svm("fourclass/fourclass_scale",
                                   "e27b003cd53d3141f8266b7e1db0d43e69f2824cc94c1d885fb27c8f2145a511"),),
                2, 862, 307, 0.3561, 2, 862, None),
    DatasetSpec("madelon", (DataFile("madelon/SGML_madelon.csv", "csv",
                                     "12226989b01745006069183ad4c5c95d6ea7f9cae6815263e7379f8bac6a1aa7", 1),
                            _svm("madelon/madelon.t",
                                 "ae60251b63a46c6ace348b77749e79e25d4098d629d1dead2852c3d4daf1f8ea")),
                500, 2600, 1300, 0.5000, 500, 2600, None,
                merge="SGML CSV (UCI training set; label 1 = +1, 2 = -1) + madelon.t (UCI validation set)"),
)

#: Every data set of the paper (Table 3 plus fourclass and madelon of Tables 2, 4, 5), by name.
DATASET_SPECS = MappingProxyType({spec.name: spec for spec in _SPECS})
#: name -> (paper d, paper n, paper prior or None): App. C.1, Table 3 as printed.
PAPER_DATASETS = MappingProxyType({s.name: (s.paper_d, s.paper_n, s.paper_prior) for s in _SPECS})
#: name -> (d, n, prior) of the staged, merged files (MANIFEST.md); cod-rna is absent.
STAGED_DATASETS = MappingProxyType({s.name: (s.n_features, s.staged_n, s.staged_prior)
                                    for s in _SPECS if s.available_offline})


# ---------------------------------------------------------------------- data root
def data_location(root=None) -> tuple[Path, str]:
    """(folder, kind) where the data sets are looked for (module docstring): kind ``"root"`` (the explicit
    ``root``), ``"env"`` (``$LFVERIFY_DATASETS``) - offline copies, never written - or ``"cache"`` (the user's cache,
    filled on demand; it may not exist yet).

    Raises
    ------
    FileNotFoundError
        If an explicit ``root`` (or ``$LFVERIFY_DATASETS``) is not a folder.
    """
    if root is not None:
        path = Path(root)
        if not path.is_dir():
            raise FileNotFoundError(f"root must be a folder holding the data sets; got {str(root)!r}, which is not a "
                                    "folder")
        return path, "root"
    named = os.environ.get(DATASETS_ENV_VARIABLE)
    if named:
        path = Path(named)
        if not path.is_dir():
            raise FileNotFoundError(f"${DATASETS_ENV_VARIABLE} must name a folder holding the data sets; got "
                                    f"{named!r}, which is not a folder")
        return path, "env"
    return data_cache(), "cache"


def dataset_root(root=None) -> Path:
    """The folder of :func:`data_location`: the offline copy, or the cache (which may not exist yet)."""
    return data_location(root)[0]


def _spec(name) -> DatasetSpec:
    if not isinstance(name, str):
        raise TypeError(f"name must be a data-set name (str); got {name!r}")
    if name not in DATASET_SPECS:
        raise ValueError(f"name must be one of the known data sets {sorted(DATASET_SPECS)}; got {name!r}")
    return DATASET_SPECS[name]


def available_datasets(*, root=None) -> list[str]:
    """The names (in Table 3's order) whose files are all present at the data location.

    Presence only: checksums, sizes and labels are checked by :func:`load_dataset`.

    Raises
    ------
    lfverify.io.NotARegularFile
        If a data file's place holds a folder, a FIFO, a device or a socket (named, rather than the data set
        silently left out).
    """
    base = dataset_root(root)
    return [s.name for s in _SPECS if s.available_offline and all(is_regular(base / f.path) for f in s.files)]


def missing_dataset_files(name: str, *, root=None) -> list[str]:
    """What keeps data set ``name`` from the data location: each file it loads from that is not a regular file
    there, as its path, followed by ``" (a dangling symbolic link)"`` or ``" (a symbolic link loop)"`` where a link
    stands in its place; empty when every file is present.

    Raises
    ------
    ValueError
        An unknown name.
    lfverify.io.NotARegularFile
        If a data file's place holds a folder, a FIFO, a device or a socket.
    """
    base = dataset_root(root)
    missing = []
    for f in _spec(name).files:
        path = base / f.path
        if not is_regular(path):
            kind = broken_link_kind(path)
            missing.append(str(path) if kind is None else f"{path} ({kind})")
    return missing


def fetchable_datasets(*, root=None) -> list[str]:
    """The names (in Table 3's order) :func:`load_dataset` can fetch on demand: every data set with pinned sources
    when the data location is the cache, none for an offline copy."""
    if data_location(root)[1] != "cache":
        return []
    return [s.name for s in _SPECS if s.available_offline]


def dataset_files(name: str, *, all_files: bool = False) -> list[SourceFile]:
    """The registry rows (pinned sources) of the files data set ``name`` loads from, or with ``all_files`` of every
    file of its folder (alternative copies and documentation included)."""
    spec = _spec(name)
    rows = [f for f in SOURCE_FILES if f.dataset == name]
    if all_files:
        return rows
    by_path = {f.relative: f for f in rows}
    return [by_path[f.path] for f in spec.files]


def ensure_datasets(names, *, root=None, timeout=None, progress=None) -> None:
    """Make the files the data sets ``names`` load from present: at the cache location the missing ones are
    downloaded (:func:`lfverify.learn.fetch_files`); in an offline copy a missing file is an error.

    Raises
    ------
    ValueError
        An unknown name, or one not available at all (cod-rna).
    FileNotFoundError
        A file is missing from an offline copy.
    DataFetchError
        A download failed (an OSError; one line with the reason and how to get the data otherwise).
    """
    base, kind = data_location(root)
    missing = []
    for name in names:
        spec = _spec(name)
        if not spec.available_offline:
            raise ValueError(f"data set {name!r} cannot be loaded: {spec.note}")
        missing += [f for f in dataset_files(name) if not is_regular(base / f.relative)]
    if not missing:
        return
    if kind != "cache":
        raise FileNotFoundError(f"the offline copy {base} lacks {', '.join(f.relative for f in missing)}; "
                                + HOW_TO_GET_DATA)
    fetch_files(missing, timeout=timeout, progress=progress)


def fetch_datasets(names=None, *, root=None, timeout=None, progress=None) -> list[Path]:
    """``lfverify data fetch``: every file of the data sets ``names`` (default: all) present and checked by sha256.

    At the cache location, missing and damaged files are downloaded (:func:`lfverify.learn.fetch_files`); an
    offline copy (``root``, ``$LFVERIFY_DATASETS``) is only checked.  Returns the files' paths.

    Raises
    ------
    ValueError
        An unknown name, or a file of an offline copy whose sha256 is not the pinned one (all of them named).
    FileNotFoundError
        Files missing from an offline copy (all of them named).
    DataFetchError
        A download failed.
    """
    names = [s.name for s in _SPECS if s.available_offline] if names is None else list(names)
    entries = []
    for name in names:
        spec = _spec(name)
        if not spec.available_offline:
            raise ValueError(f"data set {name!r} cannot be fetched: {spec.note}")
        entries += dataset_files(name, all_files=True)
    base, kind = data_location(root)
    if kind == "cache":
        return fetch_files(entries, timeout=timeout, progress=progress)
    with Progress(len(entries), "data files", "file", mode=progress) as bar:
        missing, damaged = file_states(entries, base, done=bar.advance)
    if missing:
        raise FileNotFoundError(f"the offline copy {base} lacks {', '.join(missing)}")
    if damaged:
        raise DamagedDataFile(f"in the offline copy {base}, the sha256 of {', '.join(damaged)} is not the pinned one "
                         "(PROVENANCE.tsv): the files are corrupted or were modified")
    return [base / e.relative for e in entries]


def file_states(entries, base, *, done=lambda relative: None) -> tuple[list[str], list[str]]:
    """(missing, damaged): the relative paths of ``entries`` (:class:`SourceFile`) absent under ``base`` and those
    present whose sha256 is not the pinned one (``done`` is called with each path as it is checked)."""
    missing, damaged = [], []
    for entry in entries:
        path = base / entry.relative
        if not is_regular(path):  # a FIFO, folder or device in its place is named by kind
            missing.append(entry.relative)
        elif _sha256(path) != entry.sha256:
            damaged.append(entry.relative)
        done(entry.relative)
    return missing, damaged


def dataset_status(name: str, *, root=None) -> tuple[str, list[str], list[str]]:
    """(state, missing files, damaged files) of the data set ``name`` at the data location: state "checked" (every
    file the loader reads present, and every file there with its pinned sha256), "damaged" (a file there with
    another sha256), "missing" (no file the loader reads is there) or "partly" (some are missing, none damaged).
    Every present file is hashed."""
    base, _ = data_location(root)
    needed = {f.relative for f in dataset_files(name)}
    absent, damaged = file_states(dataset_files(name, all_files=True), base)
    missing = [r for r in absent if r in needed]
    state = ("damaged" if damaged else "missing" if len(missing) == len(needed) else "partly" if missing
             else "checked")
    return state, missing, damaged


# ---------------------------------------------------------------------- checksums
def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open_regular(path) as fh:  # a FIFO or device in place of a data file is refused, never read
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _provenance_table(base: Path) -> dict[str, str]:
    """relative path -> sha256 from the root's PROVENANCE.tsv ({} if the root has none)."""
    table_path = base / "PROVENANCE.tsv"
    if not is_regular(table_path):
        return {}
    with io.StringIO(read_text(table_path), newline="") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return {f"{row['dataset']}/{row['file']}": row["sha256"] for row in rows if row.get("sha256")}


def _verify_checksum(base: Path, data_file: DataFile) -> None:
    """Raise ValueError unless the file's sha256 is the one pinned here and listed in PROVENANCE.tsv.

    The file is hashed on every call: a cache keyed on (path, size, mtime, inode) was fooled by a file changed in
    place with its modification time restored, and hashing costs milliseconds against the seconds of parsing.
    """
    path = base / data_file.path
    listed = _provenance_table(base).get(data_file.path)
    if listed is not None and listed != data_file.sha256:
        raise ValueError(f"{path}: PROVENANCE.tsv lists sha256 {listed} but lfverify pins "
                         f"{data_file.sha256}; the staged data changed, update DATASET_SPECS after checking it")
    actual = _sha256(path)
    if actual != data_file.sha256:
        raise DamagedDataFile(f"{path}: sha256 mismatch (the file is corrupted or was modified): expected "
                         f"{data_file.sha256} (PROVENANCE.tsv), got {actual}; `lfverify data fetch` downloads a "
                         "damaged file of the cache again")


# ---------------------------------------------------------------------- readers
def _require_sklearn(what: str):
    try:
        from sklearn.datasets import load_svmlight_file
    except ImportError as exc:  # pragma: no cover - scikit-learn is a dependency of lfverify
        raise ImportError(f"{what} needs scikit-learn (the svmlight reader), a dependency of lfverify; install it "
                          "with `pip install 'scikit-learn>=1.5'`") from exc
    return load_svmlight_file


def _read_svmlight(path: Path, n_features: int | None, data: bytes):
    load_svmlight_file = _require_sklearn(f"reading the svmlight file {path}")
    try:
        X, labels = load_svmlight_file(io.BytesIO(data), n_features=n_features, dtype=np.float64)
    except ValueError as exc:
        raise ValueError(f"{path}: could not be read as svmlight (lines 'label index:value ...'): {exc}") from exc
    return X.toarray(), labels


def _read_csv(path: Path, header: bool | None, data: bytes | None = None):
    """CSV of numeric features with the label (numeric or text) in the last column.

    ``header=None`` detects a header: a first row whose feature cells are not all numbers.
    """
    data = read_bytes(path) if data is None else data
    lines = [line for line in _text(path, data).splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if lines and "," not in lines[0]:
        raise ValueError(f"{path}: could not be read as CSV: the first line has no comma ({lines[0][:60]!r})")
    if header is None:
        header = bool(lines) and not _numeric_row(lines[0].rsplit(",", 1)[0].split(","))
    if header:
        lines = lines[1:]
    if not lines:
        raise ValueError(f"{path}: the CSV file holds no data rows")
    try:  # fast path: every column numeric
        table = np.loadtxt(io.StringIO("\n".join(lines)), delimiter=",", dtype=np.float64, ndmin=2)
        return table[:, :-1], table[:, -1]
    except ValueError:
        pass
    pairs = [line.rsplit(",", 1) for line in lines]
    short = next((i for i, pair in enumerate(pairs) if len(pair) != 2), None)
    if short is not None:
        raise ValueError(f"{path}: could not be read as CSV: data row {short + 1} has no comma ({lines[short][:60]!r})")
    try:
        table = np.loadtxt(io.StringIO("\n".join(pair[0] for pair in pairs)), delimiter=",", dtype=np.float64,
                           ndmin=2)
    except ValueError as exc:
        raise ValueError(f"{path}: could not be read as CSV of numbers (features, then the label in the last "
                         f"column): {exc}") from exc
    return table, np.array([pair[1].strip() for pair in pairs])


def _numeric_row(cells) -> bool:
    try:
        [float(c) for c in cells]
    except ValueError:
        return False
    return True


def _text(path: Path, data: bytes) -> str:
    return decode_text(data, path)


def _read_arff(path: Path, content: bytes):
    """ARFF with numeric attributes and the (nominal or numeric) class as the last attribute."""
    from scipy.io import arff

    try:
        data, meta = arff.loadarff(io.StringIO(_text(path, content)))
    except Exception as exc:  # scipy raises its own ParseArffError / ValueError / IndexError kinds
        raise ValueError(f"{path}: could not be read as ARFF: {exc}") from exc
    names = meta.names()
    if len(names) < 2 or len(data) == 0:
        raise ValueError(f"{path}: the ARFF file must hold at least one feature, the class and one row; "
                         f"got {len(names)} attributes and {len(data)} rows")
    for attribute in names[:-1]:
        if meta[attribute][0] != "numeric":
            raise ValueError(f"{path}: feature attribute {attribute!r} must be numeric; got {meta[attribute][0]}")
    X = np.column_stack([np.asarray(data[a], dtype=np.float64) for a in names[:-1]])
    labels = data[names[-1]]
    if labels.dtype.kind == "S":
        labels = np.char.decode(labels, "utf-8")
    return X, labels


def _read(path: Path, file_format: str, *, n_features=None, csv_header=None, data: bytes | None = None):
    """(X, raw labels) of the data file ``path`` (or of its content ``data``, read already).  The file is read
    through ``lfverify/io/_files.py`` (a regular file, links followed; a FIFO, folder or device refused at once,
    never a blocking open) and parsed from memory."""
    if data is None:
        data = read_bytes(path)
    if not data:
        raise ValueError(f"{path}: the file is empty")
    if file_format == "svmlight":
        return _read_svmlight(path, n_features, data)
    if file_format == "csv":
        return _read_csv(path, csv_header, data)
    return _read_arff(path, data)


def _labels_to_signs(labels, positive_label, where: str) -> np.ndarray:
    """Map raw labels to {-1, +1}: ``positive_label`` -> +1, the other value -> -1 (exactly two values)."""
    labels = np.asarray(labels)
    if labels.dtype.kind in "USO" and labels.size and _numeric_row(labels.tolist()):
        labels = labels.astype(np.float64)  # e.g. ARFF's nominal {0,1}: compare as numbers
    values = np.unique(labels)
    if values.size > 2:
        shown = values[:10].tolist()
        raise ValueError(f"{where}: labels must be binary (two distinct values); got {values.size} distinct values "
                         f"{shown}{' ...' if values.size > 10 else ''}")
    if positive_label is None:
        as_set = set(values.tolist())
        if as_set <= {-1, 1} or as_set <= {0, 1}:
            positive_label = 1
        else:
            raise ValueError(f"{where}: labels are {sorted(as_set, key=str)}, neither {{-1, +1}} nor {{0, 1}}; "
                             "pass positive_label=<the value of the positive class>")
    if labels.dtype.kind in "fiu":
        try:
            positive_label = float(positive_label)
        except (TypeError, ValueError):
            raise ValueError(f"positive_label must be one of the labels {values.tolist()}; "
                             f"got {positive_label!r}") from None
    else:
        positive_label = str(positive_label)
    if positive_label not in values.tolist():
        raise ValueError(f"positive_label must be one of the labels {values.tolist()}; got {positive_label!r}")
    return np.where(labels == positive_label, 1, -1).astype(np.int64)


def min_max_scale(X) -> np.ndarray:
    """Scale every column of X to [0, 1]: (x - min) / (max - min); a constant column becomes 0 (App. C.1).

    Raises
    ------
    ValueError
        If X is not a 2-D array of finite numbers (a NaN or infinity is named by its row and column: it would
        otherwise turn its whole column into NaN).
    """
    X = check_features(X, "X")
    low, high = X.min(axis=0), X.max(axis=0)
    # max - min (and x - min) overflow to inf for finite values of opposite signs near the float limit: such
    # columns are scaled in halves, (x/2 - min/2) / (max/2 - min/2), which cannot overflow and is the same ratio.
    with np.errstate(over="ignore"):
        wide = ~np.isfinite(high - low)
    halves = np.where(wide, 0.5, 1.0)
    low, high = low * halves, high * halves
    span = high - low
    constant = span == 0
    scaled = (X * halves - low) / np.where(constant, 1.0, span)
    scaled[:, constant] = 0.0
    # (x - min) / (max - min) is in [0, 1] up to one rounding; clip that rounding so the contract holds exactly.
    return np.clip(scaled, 0.0, 1.0, out=scaled)


def _finish(name, X, y, source, where) -> Dataset:
    X = check_features(X, f"X of {where}")
    if X.shape[0] != y.shape[0]:
        raise ValueError(f"{where}: {X.shape[0]} feature rows but {y.shape[0]} labels")
    if np.unique(y).size < 2:
        raise ValueError(f"{where}: labels must contain both classes; got only {'+1' if y[0] == 1 else '-1'}")
    X = min_max_scale(X)
    return Dataset(name, np.ascontiguousarray(X), y, prior=float(np.count_nonzero(y == 1) / y.shape[0]), source=source)


# ---------------------------------------------------------------------- public loaders
def load_dataset(name: str, *, root=None, download: bool = True) -> Dataset:
    """Load one of the paper's data sets, merged, scaled to [0, 1], labels in {-1, +1} (App. C.1).

    Every file's sha256 is verified first (PROVENANCE.tsv; on every load), then the result is checked
    against MANIFEST.md's staged row count, dimension and number of positives.

    Parameters
    ----------
    name : str
        A key of :data:`DATASET_SPECS` (e.g. ``"adult"``, ``"german.numer"``, ``"skin_nonskin"``).
    root : path, optional, keyword-only
        An offline copy (default: ``$LFVERIFY_DATASETS``, else the cache; see the module docstring).
    download : bool, keyword-only
        At the cache location, download the missing files first (default); ``False`` refuses instead.

    Returns
    -------
    Dataset

    Raises
    ------
    ValueError
        Unknown name (the message lists the known ones), a data set not available offline (cod-rna), a
        checksum mismatch, or a loaded set that does not match the MANIFEST.
    FileNotFoundError
        The root is not a folder, or a file of the data set is missing (from an offline copy, or from the cache
        with ``download=False``).
    DataFetchError
        A download failed (an OSError; the message says why and how to get the data otherwise).
    """
    spec = _spec(name)
    if not spec.available_offline:
        raise ValueError(f"data set {name!r} cannot be loaded: {spec.note}")
    base, kind = data_location(root)
    missing = [f for f in spec.files if not is_regular(base / f.path)]
    if missing and kind == "cache" and download:
        ensure_datasets([name])
    elif missing:
        raise FileNotFoundError(f"data set {name!r} needs {missing[0].path} under {base}; it is missing; "
                                + HOW_TO_GET_DATA)
    parts_X, parts_y = [], []
    for data_file in spec.files:
        path = base / data_file.path
        _verify_checksum(base, data_file)
        X, labels = _read(path, data_file.format, n_features=spec.n_features, csv_header=data_file.csv_header)
        parts_X.append(X)
        parts_y.append(_labels_to_signs(labels, data_file.positive_label, str(path)))
    X, y = np.vstack(parts_X), np.concatenate(parts_y)
    if spec.rows is not None:
        X, y = X[:spec.rows], y[:spec.rows]
    source = " + ".join(f.path for f in spec.files) + (f" ({spec.merge})" if spec.merge else "") + f" under {base}"
    dataset = _finish(name, X, y, source=source, where=f"data set {name!r}")
    n_positive = int(np.count_nonzero(dataset.y == 1))
    got = (dataset.X.shape[1], dataset.X.shape[0], n_positive)
    expected = (spec.n_features, spec.staged_n, spec.staged_positives)
    # MANIFEST.md's staged prior is rounded to 4 digits: the exact count must round to it.
    if got != expected or abs(dataset.prior - spec.staged_prior) > 5e-5:
        raise ValueError(f"data set {name!r} does not match MANIFEST.md: expected d = {expected[0]}, n = "
                         f"{expected[1]}, "
                         f"{expected[2]} positives (prior {spec.staged_prior}); got d = {got[0]}, n = {got[1]}, "
                         f"{got[2]} positives (prior {dataset.prior:.4f})")
    return dataset


def _sniff_format(path: Path, data: bytes | None = None) -> str:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix == ".arff":
        return "arff"
    data = read_bytes(path) if data is None else data
    for line in data.decode("utf-8", errors="replace").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "%")):
            continue
        if stripped.lower().startswith("@relation"):
            return "arff"
        if re.match(r"^[+-]?[\w.]+(\s+\d+:\S+)+\s*(#.*)?$", stripped) or re.match(r"^[+-]?[\w.]+\s*$", stripped):
            return "svmlight"
        if "," in stripped:
            return "csv"
        break
    raise ValueError(f"{path}: cannot tell the file's format from its name or first line; pass format= one of "
                     f"{FILE_FORMATS}")


def load_file(path, *, format=None, positive_label=None) -> Dataset:
    """Load a user's data file: svmlight/LIBSVM, CSV (label in the last column) or ARFF (class last).

    Features are min-max scaled to [0, 1] as for the paper's data sets; labels must take exactly two values,
    mapped to {-1, +1}.

    Parameters
    ----------
    path : path
    format : {"svmlight", "csv", "arff"} or None, keyword-only
        ``None`` infers it from the suffix (``.csv``, ``.arff``) or else from the first data line.
    positive_label : label value or None, keyword-only
        The raw label of the positive class; ``None`` accepts labels {-1, +1} or {0, 1} (1 is positive) and
        asks for it otherwise.

    Raises
    ------
    ValueError
        Empty file, unknown or wrong format, non-binary labels, a single class, non-finite features;
        :class:`lfverify.io.NotARegularFile` (a ValueError) for a folder, FIFO, device or socket at ``path``.
    FileNotFoundError
        If ``path`` is not a file.
    """
    path = Path(path)
    if not is_regular(path):  # a FIFO, folder or device: NotARegularFile (a ValueError), never a blocking open
        raise FileNotFoundError(f"path must name an existing data file; got {str(path)!r}")
    if format is not None and format not in FILE_FORMATS:
        raise ValueError(f"format must be one of {FILE_FORMATS} or None; got {format!r}")
    data = read_bytes(path)
    if not data:
        raise ValueError(f"{path}: the file is empty")
    file_format = format or _sniff_format(path, data)
    X, labels = _read(path, file_format, data=data)
    if X.shape[0] == 0:
        raise ValueError(f"{path}: the file holds no data rows")
    y = _labels_to_signs(labels, positive_label, str(path))
    return _finish(path.stem, X, y, source=f"{path} ({file_format})", where=str(path))
