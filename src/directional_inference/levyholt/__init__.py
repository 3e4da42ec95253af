"""Phase "levyholt": the LevyHolt entries and subsets (entries), the English build of the paper's sub-groups and subsets
(english), the Chinese LevyHolt (chinese), the matrix of models and test sets the tables need (experiments), and
the score files of the models on them (scores)."""
