"""Unicreon v0.22.0, d6 edition (004_12a5de9999b9d0ad.txt). Being written."""

PLAYABLE = False
