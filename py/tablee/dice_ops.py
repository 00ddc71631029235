"""Dice ops (roll, odds): being written."""
