"""Versality (001_28decc945b538010.txt). Being written."""

PLAYABLE = False
