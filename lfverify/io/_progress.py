"""Progress of long work on stderr, the same way in every command: a tqdm bar on a terminal, one line per finished
unit otherwise (so that the log of a batch job shows how far a run got), nothing when quiet.

A *mode* says which:

* ``"bar"`` - a tqdm bar (units done, rate, time left);
* ``"lines"`` - one line per finished unit, ``[  12.3 s] derivations: 5 of 81 claims done (Lemma 1: ...)``, the
  seconds counted from the start of the command (:func:`start_clock`; else from the first import of this module),
  so that the lines of one command share a clock; a step with many small units (simulation tasks, benchmark
  trials) prints a line per tenth;
* ``"off"`` - nothing.

:func:`progress_mode` turns what a caller has into a mode: ``"auto"`` (what the commands pass) is a bar on a terminal
and lines otherwise; ``None`` (what the library functions default to) is a bar on a terminal and nothing otherwise;
``True`` / ``False`` force the bar / silence.  Results go to stdout, progress to stderr only.
"""

from __future__ import annotations

import math
import sys
import time

__all__ = ["PROGRESS_MODES", "Progress", "progress_mode", "progress_line", "elapsed", "start_clock"]

#: The modes of :class:`Progress`.
PROGRESS_MODES = ("bar", "lines", "off")
_EPOCH = time.perf_counter()


def start_clock() -> None:
    """Count :func:`elapsed` from now (the command line calls it when a command starts)."""
    global _EPOCH
    _EPOCH = time.perf_counter()


def elapsed() -> float:
    """Seconds since :func:`start_clock` (or since this module was first imported)."""
    return time.perf_counter() - _EPOCH


def _is_terminal(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or detached stream
        return False


def progress_mode(setting=None, *, stream=None) -> str:
    """The mode (one of :data:`PROGRESS_MODES`) for ``setting``: ``"auto"``, ``None``, ``True``, ``False`` or a mode
    (module docstring); ``stream`` is where progress goes (default: sys.stderr at call time)."""
    if setting in PROGRESS_MODES:
        return setting
    terminal = _is_terminal(sys.stderr if stream is None else stream)
    if setting is None:
        return "bar" if terminal else "off"
    if setting == "auto":
        return "bar" if terminal else "lines"
    if setting is True or setting is False:
        return "bar" if setting else "off"
    raise ValueError(f"progress must be 'auto', None, True, False or one of {PROGRESS_MODES}; got {setting!r}")


def progress_line(text: str, *, stream=None) -> None:
    """Print ``[  12.3 s] text`` on ``stream`` (default: sys.stderr at call time) and flush it."""
    print(f"[{elapsed():6.1f} s] {text}", file=sys.stderr if stream is None else stream, flush=True)


class Progress:
    """The finished units of one step of work (a context manager; :meth:`Progress.advance` after each unit).

    Parameters
    ----------
    total : int
        Units in the step (those already done included).
    description : str
        What the units are part of, e.g. ``"derivations"`` or a study's name.
    unit : str
        One unit, singular (``"claim"``, ``"task"``, ``"trial"``, ``"file"``); lines use the plural with an "s".
    mode : "auto", None, bool or a mode, keyword-only
        See :func:`progress_mode`.
    initial : int, keyword-only
        Units done before this run (resumed records); counted, not announced.
    every : int or None, keyword-only
        Lines mode: a line every ``every`` units and at the last one; ``None`` is every unit for steps of up to 20
        units and every tenth of the step for longer ones.
    stream : file or None, keyword-only
        Where progress goes (default: sys.stderr when the step starts).
    """

    def __init__(self, total: int, description: str, unit: str, *, mode="auto", initial: int = 0, every=None,
                 stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.mode = progress_mode(mode, stream=self.stream)
        self.total, self.done, self.description, self.unit = int(total), int(initial), description, unit
        remaining = max(self.total - self.done, 1)
        self.every = every if every is not None else (1 if remaining <= 20 else math.ceil(remaining / 10))
        self._bar = None
        if self.mode == "bar":
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, initial=self.done, desc=description, unit=unit, file=self.stream,
                             dynamic_ncols=True, smoothing=0.1)

    def advance(self, label: str = "", n: int = 1) -> None:
        """``n`` more units finished; ``label`` names the last one (shown by the lines)."""
        previous, self.done = self.done, self.done + n
        if self._bar is not None:
            self._bar.update(n)
        elif self.mode == "lines" and (self.done // self.every > previous // self.every or self.done >= self.total):
            plural = self.unit if self.unit.endswith("s") else self.unit + "s"
            progress_line(f"{self.description}: {self.done} of {self.total} {plural} done"
                          + (f" ({label})" if label else ""), stream=self.stream)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
        return False
