"""The data fetcher (lfverify/learn/_fetch.py, ``lfverify data``): the tests' own mirror (tests/data/mirror, four
small data sets of the staged copy, byte for byte) served by a local HTTP server on 127.0.0.1 stands in for the
network, so these tests run on any clone.

Oracles: the shipped registry's sha256 (the mirror's bytes hashed here with hashlib; the staged copy's
PROVENANCE.tsv where it is present); the documented one-line messages (the reason and how to get the data
otherwise); the cache folder's listing after a failure, which must hold only complete, checked files (no temporary
or partial file).  Each failure is planted in the server: a corrupted body, a 404, an answer slower than the
timeout, a body shorter than its Content-Length, and a cache that cannot be created.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import pytest

from lfverify import app as cli
from lfverify import learn
from shared_files import DATA_ROOT, MIRROR_DATASETS, TEST_MIRROR, needs_data, serve_mirror, stop_mirror

pytestmark = pytest.mark.claims("package:data-sets")

REPO = Path(__file__).resolve().parents[2]
NAME = "fourclass"  # the smallest data set: two files, 47 kB


@pytest.fixture
def server(tmp_path, monkeypatch):
    """The tests' mirror on 127.0.0.1 (``$LFVERIFY_DATA_URL``) and an empty cache (``$LFVERIFY_DATA_CACHE``);
    ``$LFVERIFY_DATASETS`` unset, so the cache is the data location."""
    httpd = serve_mirror(TEST_MIRROR)
    monkeypatch.delenv(learn.DATASETS_ENV_VARIABLE, raising=False)
    monkeypatch.setenv(learn.DATA_URL_ENV_VARIABLE, f"http://127.0.0.1:{httpd.server_address[1]}/")
    monkeypatch.setenv(learn.DATA_CACHE_ENV_VARIABLE, str(tmp_path / "cache"))
    yield httpd
    stop_mirror(httpd)


def _cache_listing(tmp_path) -> list[str]:
    cache = tmp_path / "cache"
    return sorted(str(p.relative_to(cache)) for p in cache.rglob("*") if p.is_file()) if cache.exists() else []


def _sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_the_mirror_holds_the_registrys_files():
    """Oracle: hashlib over the committed mirror against the shipped registry's sha256 and sizes; every file of
    heart and fourclass, and each file breast-cancer and diabetes load from, is there."""
    entries = [e for e in learn.SOURCE_FILES if e.dataset in ("heart", NAME)]
    entries += [e for name in MIRROR_DATASETS for e in learn.dataset_files(name) if e not in entries]
    assert sorted(str(p.relative_to(TEST_MIRROR)) for p in TEST_MIRROR.rglob("*") if p.is_file()
                  and p.parent != TEST_MIRROR) == sorted(e.relative for e in entries)
    for entry in entries:
        assert _sha256(TEST_MIRROR / entry.relative) == entry.sha256
        assert (TEST_MIRROR / entry.relative).stat().st_size == entry.size


@needs_data
def test_the_shipped_registry_is_provenance_tsv():
    """Oracle: the staged copy's PROVENANCE.tsv, read here with the generator's own columns."""
    spec = importlib.util.spec_from_file_location("make_data_registry", REPO / "tools" / "make_data_registry.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    shipped = (REPO / "lfverify" / "learn" / "data_registry.tsv").read_text()
    assert shipped == tool.registry_text(DATA_ROOT / "PROVENANCE.tsv")
    for entry in learn.SOURCE_FILES:  # every pinned sha256 is the staged file's
        assert entry.url.startswith(f"https://raw.githubusercontent.com/{entry.repository}/{entry.commit}/")
        assert (DATA_ROOT / entry.relative).stat().st_size == entry.size


def test_fetch_from_the_mirror_then_load_on_demand(server, tmp_path, capsys):
    """Oracle: hashlib over the cached files equals PROVENANCE's sha256; load_dataset fetches a missing data set
    by itself and gives the same data as the offline copy; a second fetch downloads nothing."""
    assert cli.main(["data", "fetch", NAME, "--quiet"]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert out.out.startswith(f"downloaded 2 missing files: {NAME}/fourclass_scale, {NAME}/fourclass.txt\n"
                              f"1 data sets, 2 files, 0.0 MB: present and checked by sha256 in {tmp_path / 'cache'} "
                              "(the user cache; missing files are downloaded from the mirror http://127.0.0.1:")
    entries = learn.dataset_files(NAME, all_files=True)
    assert _cache_listing(tmp_path) == sorted(e.relative for e in entries)
    for entry in entries:
        assert _sha256(tmp_path / "cache" / entry.relative) == entry.sha256
    server.requests.clear()
    assert cli.main(["data", "fetch", NAME, "--quiet"]) == 0 and server.requests == []

    capsys.readouterr()
    cached = learn.load_dataset("heart")  # not fetched yet: load_dataset downloads it
    assert [r.rsplit("/", 1)[-1] for r in server.requests] == ["heart_scale"]
    offline = learn.load_dataset("heart", root=TEST_MIRROR)
    assert (cached.X == offline.X).all() and (cached.y == offline.y).all()


def test_progress_lines_per_file_when_not_on_a_terminal(server, capsys):
    """Oracle: the documented form of a progress line, one per file, on stderr only."""
    assert cli.main(["data", "fetch", NAME]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2
    assert err[0].endswith("] data files: 1 of 2 files done (fourclass/fourclass_scale)")
    assert err[1].endswith("] data files: 2 of 2 files done (fourclass/fourclass.txt)")


@pytest.mark.parametrize("fault, reason", [
    ("corrupt", "its sha256 is not the pinned one (a corrupted download or a changed source); nothing was kept"),
    ("404", "the server answered HTTP 404 Not Found"),
    ("slow", "no answer within 0.5 s"),
    ("partial", "the connection broke off before the whole file arrived"),
])
def test_a_failed_download_is_one_line_and_leaves_nothing(server, tmp_path, capsys, fault, reason):
    """Oracle: the planted fault; the documented one-line error (exit status 2) with the file, the address and the
    way to get the data otherwise; the cache holds no file at all afterwards (no partial or temporary file)."""
    server.fault = fault
    assert cli.main(["data", "fetch", NAME, "--quiet", "--timeout", "0.5"]) == 2
    err = capsys.readouterr().err
    url = f"http://127.0.0.1:{server.server_address[1]}/fourclass/fourclass_scale"
    assert err == (f"lfverify data: error: could not download fourclass/fourclass_scale from {url}: {reason}; "
                   f"{learn.HOW_TO_GET_DATA}\n")
    assert _cache_listing(tmp_path) == []


def test_a_corrupted_download_is_not_kept_by_load_dataset_either(server, tmp_path):
    server.fault = "corrupt"
    with pytest.raises(learn.DataFetchError, match=r"^could not download heart/heart_scale from .*its sha256 is not "):
        learn.load_dataset("heart")
    assert _cache_listing(tmp_path) == []


def test_a_damaged_file_of_the_cache_is_downloaded_again(server, tmp_path):
    """Oracle: hashlib; a cached file whose bytes changed is replaced by the pinned one."""
    learn.fetch_files(learn.dataset_files(NAME), progress="off")
    cached = tmp_path / "cache" / "fourclass" / "fourclass_scale"
    cached.write_bytes(b"damaged")
    learn.fetch_files(learn.dataset_files(NAME), progress="off")
    assert _sha256(cached) == learn.dataset_files(NAME)[0].sha256


def test_an_unwritable_cache_is_one_line(server, tmp_path, monkeypatch, capsys):
    """Oracle: a cache below a regular file cannot be created (whoever runs the tests, root included); the message
    names the folder and the two ways out."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(learn.DATA_CACHE_ENV_VARIABLE, str(blocker / "cache"))
    assert cli.main(["data", "fetch", NAME, "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lfverify data: error: cannot write the data cache {blocker}")
    assert err.endswith("; set $LFVERIFY_DATA_CACHE to a writable folder, or $LFVERIFY_DATASETS to an offline copy\n")
    assert err.count("\n") == 1
    assert blocker.read_text() == "not a folder"


def test_an_offline_copy_is_checked_not_written(server, tmp_path, capsys):
    """Oracle: a copy of the mirror's two files, one altered by hand; nothing is downloaded for an offline copy."""
    copy = tmp_path / "copy" / NAME
    copy.mkdir(parents=True)
    for entry in learn.dataset_files(NAME, all_files=True):
        (copy / entry.file).write_bytes((TEST_MIRROR / entry.relative).read_bytes())
    assert cli.main(["data", "fetch", NAME, "--quiet", "--data-root", str(tmp_path / "copy")]) == 0
    assert "(the offline copy --data-root names)" in capsys.readouterr().out
    (copy / "fourclass.txt").write_bytes(b"changed")
    assert cli.main(["data", "fetch", NAME, "--quiet", "--data-root", str(tmp_path / "copy")]) == 2
    err = capsys.readouterr().err
    assert "the sha256 of fourclass/fourclass.txt is not the pinned one" in err and err.count("\n") == 1
    assert server.requests == [] and _cache_listing(tmp_path) == []


def test_data_list_and_unknown_names(server, tmp_path, capsys):
    assert cli.main(["data", "fetch", NAME, "--quiet"]) == 0
    capsys.readouterr()
    assert cli.main(["data", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"Data sets are read from {tmp_path / 'cache'} (the user cache;")
    rows = {line.split()[0]: line.split() for line in lines[2:-1]}
    assert rows[NAME][3] == "checked" and rows["heart"][3] == "missing" and rows["cod-rna"][1] == "-"
    assert lines[-1] == ("state: checked = every file present with its pinned sha256; damaged = a file with another "
                         "sha256 (`lfverify data fetch` downloads it again in the cache); missing / partly = no file / "
                         "some files there")
    assert cli.main(["data", "fetch", "fourclas"]) == 2
    assert "NAME must be one of the data sets" in capsys.readouterr().err


@pytest.mark.parametrize("timeout", ["0", "-1", "nan", "soon"])
def test_a_timeout_that_is_not_a_positive_number_is_refused_before_any_download(server, capsys, timeout):
    """Oracle: the documented usage error, typed out: one line, exit 2, nothing asked of the mirror."""
    with pytest.raises(SystemExit) as ended:
        cli.main(["data", "fetch", NAME, "--timeout", timeout])
    assert ended.value.code == 2
    assert f"argument --timeout: expected a positive number of seconds; got {timeout!r}" in capsys.readouterr().err
    assert server.requests == []


def test_data_list_names_a_damaged_file_and_fetch_says_it_downloads_it_again(server, tmp_path, capsys):
    """A cached file whose bytes changed (issue 44: ``data list`` said "yes" for it, ``data fetch`` repaired it
    silently): ``data list`` reports the set "damaged" naming the file, ``data fetch`` says it downloaded it again
    and why, and the set is "checked" afterwards.  Oracle: the byte flipped by hand; the pinned sha256."""
    assert cli.main(["data", "fetch", NAME, "--quiet"]) == 0
    damaged = tmp_path / "cache" / NAME / "fourclass_scale"
    data = bytearray(damaged.read_bytes())
    data[10] ^= 1
    damaged.write_bytes(bytes(data))
    capsys.readouterr()
    assert cli.main(["data", "list"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(NAME))
    assert row.split()[3] == "damaged" and row.endswith(f"damaged (sha256 not the pinned one): {NAME}/fourclass_scale")
    assert cli.main(["data", "fetch", NAME, "--quiet"]) == 0
    assert capsys.readouterr().out.startswith(f"downloaded again 1 damaged files (their sha256 was not the pinned "
                                              f"one): {NAME}/fourclass_scale\n")
    assert learn.dataset_status(NAME) == ("checked", [], [])


def test_the_cache_is_the_variables_folder_or_the_users_cache_folder_for_lfverify(monkeypatch, tmp_path):
    """Oracle: platformdirs (the library pooch's ``os_cache`` asks) for the user cache folder of an application
    named "lfverify"; ``$LFVERIFY_DATA_CACHE``, with ``~`` expanded, wins over it."""
    import platformdirs

    monkeypatch.delenv(learn.DATA_CACHE_ENV_VARIABLE, raising=False)
    assert learn.data_cache() == Path(platformdirs.user_cache_dir("lfverify"))
    monkeypatch.setenv(learn.DATA_CACHE_ENV_VARIABLE, "~/my-cache")
    assert learn.data_cache() == Path.home() / "my-cache"
