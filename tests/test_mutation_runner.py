"""benchmarks/mutation_runner.py end to end on a tiny project in a temporary folder (no mutmut; a few seconds).

Oracle: the status each hand-made mutant must get (a detected change, an equivalent change, an endless loop, a
mutant that names no function, a mutant without tests), and the set-up checks: a test that fails on the unmutated
code must abort the run before any mutant is counted.
"""

import json
import os
import subprocess
import sys

from benchmark_scripts import BENCHMARKS

CORE = '''\
def scale(x, factor):
    return x * factor


def spin(n):
    total = 0
    for i in range(n):
        total += i
    return total
'''

TESTS = '''\
from tinypkg.core import scale, spin


def test_scale():
    assert scale(3, 2) == 6


def test_spin():
    assert spin(4) == 6
'''


def _edit(source, old, new):
    start = source.index(old)
    return [start, start + len(old), new]


def _job(name, function, firstlineno, edits, tests, timeout=30.0):
    return {"name": f"tinypkg.core.x_{function}__lfv_args_{name}", "module": "tinypkg.core", "path": "tinypkg/core.py",
            "function": function, "key": f"x_{function}", "operator": "args", "index": 1, "firstlineno": firstlineno,
            "edits": edits, "description": "", "diff": "", "tests": tests, "timeout": timeout}


def _run(tmp_path, jobs, tests_source=TESTS):
    (tmp_path / "tinypkg").mkdir(exist_ok=True)
    (tmp_path / "tinypkg" / "__init__.py").write_text("")
    (tmp_path / "tinypkg" / "core.py").write_text(CORE)
    (tmp_path / "tests").mkdir(exist_ok=True)
    (tmp_path / "tests" / "test_core.py").write_text(tests_source)
    (tmp_path / "jobs.json").write_text(json.dumps({"mutants": jobs, "durations": {}}))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    proc = subprocess.run([sys.executable, str(BENCHMARKS / "mutation_runner.py"), "--jobs", "jobs.json", "--out",
                           "out.json", "--max-children", "2", "--log", "runner.log"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    return proc


def test_each_mutant_gets_the_status_its_tests_give_it(tmp_path):
    scale_test, spin_test = ["tests/test_core.py::test_scale"], ["tests/test_core.py::test_spin"]
    jobs = [
        _job("1", "scale", 1, [_edit(CORE, "x * factor", "x + factor")], scale_test),  # 3 + 2 != 6: killed
        _job("2", "scale", 1, [_edit(CORE, "x * factor", "factor * x")], scale_test),  # equivalent: survives
        _job("3", "spin", 5, [_edit(CORE, "range(n)", "iter(int, 1)")], spin_test, timeout=2.0),  # endless
        _job("4", "scale", 99, [_edit(CORE, "x * factor", "x - factor")], scale_test),  # no function there
        _job("5", "scale", 1, [_edit(CORE, "x * factor", "x ** factor")], []),  # no tests
    ]
    proc = _run(tmp_path, jobs)
    assert proc.returncode == 0, proc.stderr
    out = json.loads((tmp_path / "out.json").read_text())
    statuses = {name.rsplit("_", 1)[1]: r["status"] for name, r in out["results"].items()}
    assert statuses == {"1": "killed", "2": "survived", "3": "timeout", "4": "not applied", "5": "no tests"}
    assert out["seconds"]["forced_function"] == "tinypkg.core.scale"
    assert "x_scale__lfv_args_4: LookupError" in (tmp_path / "runner.log").read_text()
    assert (tmp_path / "tinypkg" / "core.py").read_text() == CORE  # nothing was written to disk


def test_a_test_failing_on_the_unmutated_code_aborts_the_run(tmp_path):
    broken = TESTS.replace("== 6\n\n\ndef test_spin", "== 7\n\n\ndef test_spin")
    jobs = [_job("1", "scale", 1, [_edit(CORE, "x * factor", "x + factor")], ["tests/test_core.py::test_scale"])]
    proc = _run(tmp_path, jobs, tests_source=broken)
    assert proc.returncode == 1 and "the clean run of the operators' tests failed" in proc.stderr
    assert not (tmp_path / "out.json").exists()
