"""README.md stays true: its Python examples run as written, its set-up lines are what CI runs, and the files
named in its module map exist."""

import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()


def test_python_examples_run_in_order():
    """Every ```python block, concatenated in order (later blocks continue earlier ones), runs without error."""
    blocks = re.findall(r"```python\n(.*?)```", README, re.S)
    assert len(blocks) >= 2
    exec(compile("\n".join(blocks), "README.md", "exec"), {})


def test_first_code_block_is_install_then_verify_then_tests():
    """.ci/run reads these two lines; they must install, verify, and run pytest."""
    first = re.search(r"```sh\n(.*?)```", README, re.S).group(1).strip().splitlines()
    assert len(first) == 2
    assert first[0].startswith("pip install") and "lfverify verify" in first[0]
    assert first[1].startswith("pip install") and "pytest" in first[1]


def test_module_map_names_existing_files():
    repo = Path(__file__).resolve().parents[1]
    section = README[README.index("## Module map"):README.index("## Usage")]
    paths = re.findall(r"^\| `([^`]+)` \|", section, re.M)
    assert len(paths) >= 20
    missing = [p for p in paths if not (repo / p.rstrip("/")).exists()]
    assert missing == []
    listed = {p.rstrip("/") for p in paths}
    modules = {f"lfverify/{f.name}" for f in (repo / "lfverify").iterdir()
               if (f.suffix == ".py" and f.name != "__init__.py") or (f.is_dir() and (f / "__init__.py").exists())}
    assert modules - listed == set()  # every module of the package appears in the map
