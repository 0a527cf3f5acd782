"""Game-agnostic screen vision: grid finding, clue strips, glyph segmentation and digit reading.

Everything here is a pure function of an image (an H×W×3 RGB `numpy` array);
nothing is tuned to one game: sizes, colours and gaps are measured from the
picture itself.
"""
