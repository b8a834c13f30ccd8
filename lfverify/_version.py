"""The package version (a leaf module: every wing may import it)."""

__version__ = "0.2.0"
