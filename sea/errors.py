"""Errors a user can act on: each message names the problem and the fix."""


class SeaError(Exception):
    """Base class for problems the CLI reports as one clear line instead of a traceback."""


class ParamsError(SeaError):
    """params.yaml is invalid."""


class SourceError(SeaError):
    """A knowledge-base input is missing, truncated or corrupt."""
