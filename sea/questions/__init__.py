"""Questions and grading: writing, rephrasing, shuffling, the quality gate and answer parsing."""
