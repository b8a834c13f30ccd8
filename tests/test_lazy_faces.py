"""The package's two lazy faces (PEP 562): ``lfverify`` and ``lfverify.testing`` resolve a public name on first use.

Each face's ``__getattr__`` is called directly: once a name is resolved, Python finds it in the module (the
face caches it, and importing a submodule sets it on its parent), so ordinary attribute access would reach the
resolution only in a fresh interpreter.  Oracles: for ``lfverify``, the object exported under the same name by the
one wing whose ``__all__`` lists it, and the wing modules from ``sys.modules``; for ``lfverify.testing``, the
defining module named by the object itself; the messages typed out; ``dir`` against the documented ``__all__``.
"""

import importlib
import sys

import pytest

import lfverify
import lfverify.testing

pytestmark = pytest.mark.claims("package:documentation")

WINGS = ("paper", "io", "core", "parallel", "learn", "proofs", "simulations", "testing", "experiments", "app")


def test_the_root_face_resolves_each_public_name_to_the_object_its_wing_exports():
    names = [n for n in lfverify.__all__ if n != "__version__" and n not in WINGS]
    assert len(names) > 20
    for name in names:
        owners = [w for w in WINGS if name in getattr(importlib.import_module(f"lfverify.{w}"), "__all__", ())]
        assert len(owners) == 1, (name, owners)
        assert lfverify.__getattr__(name) is getattr(sys.modules[f"lfverify.{owners[0]}"], name), name


def test_the_root_face_resolves_each_wing_to_its_module():
    assert set(WINGS) <= set(lfverify.__all__)
    for wing in WINGS:
        assert lfverify.__getattr__(wing) is importlib.import_module(f"lfverify.{wing}")


@pytest.mark.parametrize("face, name", [(lfverify, "lfverify"), (lfverify.testing, "lfverify.testing")])
def test_a_face_refuses_an_unknown_name_naming_it(face, name):
    for get in (face.__getattr__, lambda n: getattr(face, n)):
        with pytest.raises(AttributeError) as raised:
            get("no_such_name")
        assert str(raised.value) == f"module '{name}' has no attribute 'no_such_name'"


@pytest.mark.parametrize("face, modules", [(lfverify, ()), (lfverify.testing, lfverify.testing.MODULES)])
def test_dir_of_a_face_lists_its_public_names_sorted_once_each(face, modules):
    listed = dir(face)
    assert listed == sorted(set(listed))
    assert set(face.__all__) | set(modules) | {"__name__", "__doc__", "__getattr__", "__dir__"} <= set(listed)


def test_the_testing_face_resolves_each_public_name_from_its_defining_module():
    for name in lfverify.testing.__all__:
        value = lfverify.testing.__getattr__(name)
        assert value.__name__ == name and value.__module__.startswith("lfverify.testing._"), name
        assert getattr(sys.modules[value.__module__], name) is value


def test_the_testing_face_resolves_its_public_submodules():
    assert lfverify.testing.MODULES == ("oracles", "strategies", "implementations", "plugin")
    for name in lfverify.testing.MODULES:
        assert lfverify.testing.__getattr__(name) is importlib.import_module(f"lfverify.testing.{name}")
