"""gmserver: a Game Master server for play-by-email Diplomacy."""

__version__ = "0.1.0"
