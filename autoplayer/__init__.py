"""autoplayer: plays logic-puzzle games from pixels and clicks, the way a person would."""

__version__ = "0.1.0"
