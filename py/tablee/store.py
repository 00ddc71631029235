"""Table document store: being written."""
