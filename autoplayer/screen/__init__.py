"""The bot's senses and hands: screen capture, window finding, a private X server, input."""
