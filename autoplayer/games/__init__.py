"""Game back-ends: one self-contained package a game, behind `autoplayer.games.base.Game`."""
