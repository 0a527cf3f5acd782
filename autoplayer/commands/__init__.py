"""Command groups of the `autoplayer` CLI, one module each (see `autoplayer.cli`)."""
